import { Heading } from '@/components/ui/heading-level'
import { RefreshCw, Smartphone } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import type { PublicUser } from '../../../contract/auth'
import type { AuthenticatorSetup } from '../../../contract/authenticator'
import { AUTHENTICATOR, AUTHENTICATOR_MESSAGES, groupedSecret, isTotpCode, normalizeTotpCode } from '../../../contract/authenticator-constants'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { ApiRequestError, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useAuthenticatorStatus, useConfirmAuthenticator, useRegenerateRecoveryCodes, useStartAuthenticatorSetup, useTurnOffAuthenticator } from './api'
import { CodeField } from './code-field'
import { QrCode } from './qr-code'
import { RecoveryCodesPanel } from './recovery-codes-panel'
import { recoveryCodesLeftText, recoveryCodesWarning } from './recovery-rules'

const when = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

const failed = (error: unknown) =>
  toast({ title: AUTHENTICATOR_MESSAGES.failedTitle, description: errorText(error, 'Please try again.'), variant: 'destructive' })

/**
 * The profile's authenticator app: set it up (scan, open or type the key, then confirm with a
 * code), see its recovery codes once, make new ones, move it to another phone, or turn it off.
 */
export function AuthenticatorCard({ user }: { user: PublicUser }) {
  const status = useAuthenticatorStatus()
  const start = useStartAuthenticatorSetup()
  const regenerate = useRegenerateRecoveryCodes()
  const turnOff = useTurnOffAuthenticator()
  const [setup, setSetup] = useState<AuthenticatorSetup | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  const [confirmingOff, setConfirmingOff] = useState(false)
  const [confirmingNewCodes, setConfirmingNewCodes] = useState(false)
  const enabled = status.data?.enabled ?? user.authenticatorEnabled
  const left = status.data?.recoveryCodesLeft ?? 0
  const warning = recoveryCodesWarning(left)

  const beginSetup = () => start.mutate(undefined, { onSuccess: setSetup, onError: failed })

  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={Smartphone}>Authenticator App</CardIconTitle>
        <CardDescription>
          An app on your phone (such as Google Authenticator, Microsoft Authenticator, 1Password or Authy) shows a new {AUTHENTICATOR.digits}-digit
          code every {AUTHENTICATOR.periodSeconds} seconds. With it on, signing in asks for your password and the code from the app.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <InlineLoadState query={status} loadingLabel="Loading your authenticator app" errorFallback="Unable to load your authenticator app.">
          {codes ? (
            <RecoveryCodesPanel codes={codes} email={user.email} onDone={() => setCodes(null)} />
          ) : setup ? (
            <SetupSteps
              setup={setup}
              replacing={enabled}
              onCancel={() => setSetup(null)}
              onConfirmed={(recoveryCodes) => {
                setSetup(null)
                setCodes(recoveryCodes)
                toast({ title: AUTHENTICATOR_MESSAGES.enabledTitle, description: AUTHENTICATOR_MESSAGES.enabledBody, variant: 'success' })
              }}
            />
          ) : enabled ? (
            <div className="grid gap-4">
              <div className="grid gap-1">
                <p className="flex items-center gap-2 font-medium text-slate-900">
                  Authenticator app <Badge variant="success">On</Badge>
                </p>
                <p className="text-sm text-slate-600" data-testid="authenticator-status">
                  {status.data?.confirmedAt ? `Turned on ${when(status.data.confirmedAt)}. ` : ''}
                  {recoveryCodesLeftText(left)}
                </p>
                {warning && (
                  <p className="text-sm font-medium text-amber-800">
                    {warning} Make new ones so you can still sign in if
                    you lose your phone.
                  </p>
                )}
              </div>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" onClick={() => setConfirmingNewCodes(true)} disabled={regenerate.isPending}>
                  <RefreshCw aria-hidden /> New recovery codes
                </Button>
                <Button variant="outline" onClick={beginSetup} disabled={start.isPending}>
                  <Smartphone aria-hidden /> {start.isPending ? 'Starting...' : 'Move to another phone'}
                </Button>
                <Button variant="destructive" onClick={() => setConfirmingOff(true)} disabled={turnOff.isPending}>
                  Turn off
                </Button>
              </div>
            </div>
          ) : (
            <div className="flex flex-wrap items-center justify-between gap-4">
              <p className="flex items-center gap-2 text-sm text-slate-600">
                Authenticator app <Badge variant="secondary">Off</Badge>
              </p>
              <Button onClick={beginSetup} disabled={start.isPending}>
                {start.isPending ? 'Starting...' : 'Set up authenticator app'}
              </Button>
            </div>
          )}
        </InlineLoadState>
      </CardContent>

      <ConfirmDialog
        open={confirmingNewCodes}
        onOpenChange={(open) => !open && !regenerate.isPending && setConfirmingNewCodes(false)}
        title="Make new recovery codes?"
        description="Your current recovery codes, used or not, will stop working. You will see the new ones once, to save them."
        confirmLabel={regenerate.isPending ? 'Making codes...' : 'Make new codes'}
        destructive={false}
        pending={regenerate.isPending}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: ({ recoveryCodes }) => {
              setConfirmingNewCodes(false)
              setCodes(recoveryCodes)
              toast({ title: AUTHENTICATOR_MESSAGES.codesRegeneratedTitle, description: AUTHENTICATOR_MESSAGES.codesRegeneratedBody, variant: 'success' })
            },
            onError: (error) => {
              setConfirmingNewCodes(false)
              failed(error)
            },
          })
        }
      />
      <ConfirmDialog
        open={confirmingOff}
        onOpenChange={(open) => !open && !turnOff.isPending && setConfirmingOff(false)}
        title="Turn off the authenticator app?"
        description={
          user.twoFactorEnabled
            ? 'Codes from your app and your recovery codes will no longer sign you in. Your security keys still will.'
            : 'Your password alone will sign you in again, and your recovery codes will stop working. You can set the app up again later.'
        }
        confirmLabel={turnOff.isPending ? 'Turning off...' : 'Turn off'}
        pending={turnOff.isPending}
        onConfirm={() =>
          turnOff.mutate(undefined, {
            onSuccess: () => {
              setConfirmingOff(false)
              toast({ title: AUTHENTICATOR_MESSAGES.disabledTitle, description: AUTHENTICATOR_MESSAGES.disabledBody, variant: 'success' })
            },
            onError: (error) => {
              setConfirmingOff(false)
              failed(error)
            },
          })
        }
      />
    </Card>
  )
}

/** Scan, open or type the key; then the first code turns the app on. */
function SetupSteps({
  setup,
  replacing,
  onCancel,
  onConfirmed,
}: {
  setup: AuthenticatorSetup
  replacing: boolean
  onCancel: () => void
  onConfirmed: (recoveryCodes: string[]) => void
}) {
  const confirm = useConfirmAuthenticator()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!isTotpCode(code)) return setError(AUTHENTICATOR_MESSAGES.codeInvalid)
    setError(undefined)
    confirm.mutate(
      { code: normalizeTotpCode(code) },
      {
        onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes),
        onError: (e) => {
          // A wrong code is said at the field; anything else (an expired setup) in a toast too.
          setError(errorText(e, AUTHENTICATOR_MESSAGES.wrongConfirmCode))
          if (!(e instanceof ApiRequestError && e.status === 400)) failed(e)
        },
      },
    )
  }

  return (
    <section aria-labelledby="authenticator-setup-title" className="grid gap-5">
      <div className="grid gap-1">
        <Heading id="authenticator-setup-title" className="font-semibold text-slate-900">
          {replacing ? 'Set up your new phone' : 'Set up your authenticator app'}
        </Heading>
        {replacing && <p className="text-sm text-slate-600">Your current app keeps working until you confirm the new one.</p>}
      </div>
      <ol className="grid gap-5">
        <li className="grid gap-3">
          <p className="text-sm text-slate-800">
            <span className="font-medium">1. Add {setup.issuer} to your app.</span> Scan this code with the app, or on this phone open the link. If you
            cannot scan, type the key instead.
          </p>
          <div className="flex flex-col items-start gap-4 sm:flex-row">
            <QrCode value={setup.uri} label={`QR code to add ${setup.issuer} (${setup.accountName}) to your authenticator app`} />
            <div className="grid min-w-0 gap-3">
              <div className="grid gap-1">
                <p id="authenticator-key-label" className="text-sm font-medium text-slate-900">
                  Key to type into the app
                </p>
                <p
                  aria-labelledby="authenticator-key-label"
                  data-testid="authenticator-secret"
                  className="break-words rounded-md border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-base tracking-wider text-slate-900 select-all"
                >
                  {groupedSecret(setup.secret)}
                </p>
                <p className="text-xs text-slate-600">
                  Account: {setup.accountName}. Time-based, {setup.digits} digits, every {setup.period} seconds.
                </p>
              </div>
              <a href={setup.uri} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
                Open in authenticator app
              </a>
            </div>
          </div>
        </li>
        <li>
          <form onSubmit={onSubmit} noValidate className="grid max-w-sm gap-3" aria-label="Confirm your authenticator app">
            <CodeField
              label={`2. Enter the ${AUTHENTICATOR.digits}-digit code the app shows`}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={AUTHENTICATOR.digits + 2}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              error={error}
              disabled={confirm.isPending}
            />
            <div className="flex gap-2">
              <Button type="submit" disabled={confirm.isPending}>
                {confirm.isPending ? 'Checking...' : 'Turn on'}
              </Button>
              <Button type="button" variant="ghost" onClick={onCancel} disabled={confirm.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </section>
  )
}
