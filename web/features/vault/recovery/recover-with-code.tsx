import { useState, type FormEvent } from 'react'
import type { PublicUser } from '../../../../contract/auth'
import { VAULT_MESSAGES, type PassphraseChangeBody } from '../../../../contract/vault'
import { parseRecoveryCode, RECOVERY_MESSAGES, recoveryCodeProblemText } from '../../../../contract/vault-recovery'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { currentUserKey } from '@/features/auth/api'
import { reportUnlockSuccess } from '@/features/triggers/api'
import { apiJson, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { storedVault } from '../api'
import { useNewPassphrase } from '../new-passphrase'
import { sealInBackground } from '../seal-items'
import { vaultSession, VaultKeyProblemError } from '../vault-session'

/**
 * "Forgot your vault passphrase?": the recovery code (checked for typing mistakes here, then
 * against the vault's recovery wrap), then a new passphrase held to the setup rules. One request
 * re-wraps the vault key, as a passphrase change does; the code never leaves this browser.
 */
export function RecoverWithCode({ user, onBack, onRecovered }: { user: PublicUser; onBack: () => void; onRecovered: () => void }) {
  const vault = storedVault(user)
  const [code, setCode] = useState('')
  const [accepted, setAccepted] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  if (!vault?.recovery) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Forgot Your Vault Passphrase?</DialogTitle>
          <DialogDescription>{RECOVERY_MESSAGES.noCode}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onBack}>
            Back
          </Button>
        </DialogFooter>
      </>
    )
  }

  if (accepted) return <NewPassphrase user={user} code={accepted} onBack={onBack} onRecovered={onRecovered} />

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = parseRecoveryCode(code)
    if (!parsed.ok) return setError(recoveryCodeProblemText(parsed.problem))
    setBusy(true)
    setError(null)
    try {
      if (await vaultSession.checkRecoveryCode(code, vault)) setAccepted(code)
      else setError(RECOVERY_MESSAGES.codeWrong)
    } catch {
      setError(VAULT_MESSAGES.unlockFailed)
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Forgot Your Vault Passphrase?</DialogTitle>
        <DialogDescription>Type the recovery code from your printed Recovery Kit. You then choose a new passphrase.</DialogDescription>
      </DialogHeader>
      <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate>
        <Field label="Recovery code" error={error ?? undefined} hint="Seven groups of four letters and digits.">
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              autoFocus
              className="font-mono"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          )}
        </Field>
        <p className="text-xs text-slate-500">Your recovery code never leaves your device and is not stored on our servers.</p>
        <DialogFooter>
          <Button variant="outline" onClick={onBack} disabled={busy}>
            Back
          </Button>
          <Button type="submit" disabled={!code.trim() || busy}>
            {busy ? 'Checking...' : 'Continue'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}

function NewPassphrase({
  user,
  code,
  onBack,
  onRecovered,
}: {
  user: PublicUser
  code: string
  onBack: () => void
  onRecovered: () => void
}) {
  const queryClient = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const next = useNewPassphrase([user.email, user.displayName ?? ''])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = next.ruleProblem()
    if (problem) return setError(problem)
    const vault = storedVault(user)
    if (!vault) return setError(VAULT_MESSAGES.changeFailed)
    setBusy(true)
    setError(null)
    try {
      const guessable = await next.guessingProblem()
      if (guessable) return setError(guessable)
      const opened = await vaultSession.recover(code, next.value, vault, async (body: PassphraseChangeBody) => {
        queryClient.setQueryData(currentUserKey, (await apiJson<{ user: PublicUser }>('POST', '/api/vault/passphrase', body)).user)
      })
      if (!opened) return setError(RECOVERY_MESSAGES.codeWrong)
      reportUnlockSuccess('vault_unlock')
      if (!vaultSession.hasSigningProblem()) void sealInBackground(queryClient)
      toast({ title: RECOVERY_MESSAGES.recovered, description: RECOVERY_MESSAGES.recoveredBody, variant: 'success' })
      onRecovered()
    } catch (e) {
      setError(e instanceof VaultKeyProblemError ? e.message : errorText(e, VAULT_MESSAGES.changeFailed))
    } finally {
      setBusy(false)
    }
  }

  const disabled = busy || !next.ready
  return (
    <>
      <DialogHeader>
        <DialogTitle>Choose a New Vault Passphrase</DialogTitle>
        <DialogDescription>Your recovery code is right. Choose the passphrase that opens your vault from now on.</DialogDescription>
      </DialogHeader>
      <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate>
        {next.fields({ autoFocus: true })}
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onBack} disabled={busy}>
            Back
          </Button>
          <Button type="submit" disabled={disabled}>
            {busy ? 'Opening...' : 'Set passphrase and open vault'}
          </Button>
        </DialogFooter>
      </form>
    </>
  )
}
