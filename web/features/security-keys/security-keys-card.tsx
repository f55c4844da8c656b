import { KeyRound, Plus, Trash2, Usb } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import type { PublicUser } from '../../../contract/auth'
import { PRODUCT_NAME } from '../../../contract/constants'
import { PROFILE_MESSAGES } from '../../../contract/profile'
import { SECURITY_KEY, WEBAUTHN_MESSAGES, type SecurityKey } from '../../../contract/webauthn'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { InputField } from '@/components/ui/form-field'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { Label } from '@/components/ui/label'
import { Switch } from '@/components/ui/switch'
import { useUpdateProfile } from '@/features/profile/api'
import { twoFactorBody } from '@/features/profile/profile-form'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { TRUSTED_DEVICE_PATHS } from '../../../contract/trusted-devices'
import { TrustButton, TrustedBadge } from '@/features/trusted-devices/trust-button'
import { securityKeysKey, useAddSecurityKey, useRemoveSecurityKey, useSecurityKeys } from './api'
import { canAddKey, twoFactorSwitchable } from './card-rules'
import { securityKeysSupported, setupFailureToast } from './ceremonies'

const when = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

/** The profile's security keys: the list with names and last use, add, remove, and two-factor sign-in. */
export function SecurityKeysCard({ user }: { user: PublicUser }) {
  const keys = useSecurityKeys()
  const add = useAddSecurityKey()
  const remove = useRemoveSecurityKey()
  const updateProfile = useUpdateProfile()
  const [supported] = useState(securityKeysSupported)
  const [name, setName] = useState('')
  const [removing, setRemoving] = useState<SecurityKey | null>(null)
  const list = keys.data?.keys ?? []

  const onAdd = (event: FormEvent) => {
    event.preventDefault()
    if (!supported) return toast({ title: WEBAUTHN_MESSAGES.notSupported, description: WEBAUTHN_MESSAGES.notSupportedBody, variant: 'destructive' })
    add.mutate(name.trim() || undefined, {
      onSuccess: ({ key }) => {
        setName('')
        toast({ title: WEBAUTHN_MESSAGES.registered, description: `"${key.name}" can now sign you in.`, variant: 'success' })
      },
      onError: (error) => toast({ ...setupFailureToast(error), variant: 'destructive' }),
    })
  }

  const onTwoFactor = (enabled: boolean) =>
    updateProfile.mutate(twoFactorBody(user, enabled), {
      onSuccess: () =>
        toast({
          title: PROFILE_MESSAGES.updatedTitle,
          description: enabled ? 'Signing in with your password now also needs one of your security keys.' : 'Your password alone signs you in again.',
          variant: 'success',
        }),
      onError: (error) => toast({ title: PROFILE_MESSAGES.failedTitle, description: errorText(error, PROFILE_MESSAGES.failedBody), variant: 'destructive' }),
    })

  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={Usb}>Security Keys</CardIconTitle>
        <CardDescription>
          Hardware keys (FIDO2/WebAuthn) that sign you in with a touch. The key keeps its secret; we keep only what checks its signature.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <InlineLoadState query={keys} loadingLabel="Loading your security keys" errorFallback="Unable to load your security keys.">
          {list.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">No security keys yet.</p>
          ) : (
            <ul aria-label="Your security keys" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
              {list.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 p-3">
                  <div className="flex min-w-0 items-center gap-3">
                    <KeyRound className="size-5 shrink-0 text-slate-500" aria-hidden />
                    <div className="min-w-0">
                      <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                        <span className="truncate">{key.name}</span>
                        {key.trusted && <TrustedBadge />}
                      </p>
                      <p className="text-xs text-slate-600">
                        Added {when(key.createdAt)} · {key.lastUsedAt ? `Last used ${when(key.lastUsedAt)}` : 'Never used to sign in'}
                      </p>
                    </div>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <TrustButton trusted={key.trusted} deviceName={key.name} path={TRUSTED_DEVICE_PATHS.key(key.id)} listKey={securityKeysKey} />
                    <Button variant="outline" size="sm" onClick={() => setRemoving(key)} aria-label={`Remove ${key.name}`}>
                      <Trash2 aria-hidden /> Remove
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </InlineLoadState>

        <form onSubmit={onAdd} className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end" aria-label="Add a security key">
          <InputField
            label="Key name (optional)"
            placeholder={`Security key ${list.length + 1}`}
            maxLength={SECURITY_KEY.nameMax}
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={add.isPending}
          />
          <Button type="submit" disabled={add.isPending || !canAddKey(list.length)}>
            <Plus aria-hidden /> {add.isPending ? 'Touch your key...' : 'Add Security Key'}
          </Button>
        </form>

        <div className="flex items-start justify-between gap-4 border-t border-slate-200 pt-6">
          <div className="grid gap-1">
            <Label htmlFor="profile-two-factor" className="flex items-center gap-2">
              Two-factor sign-in {user.twoFactorEnabled ? <Badge variant="success">On</Badge> : <Badge variant="secondary">Off</Badge>}
            </Label>
            <p id="profile-two-factor-hint" className="text-sm text-slate-600">
              {user.securityKeyCount > 0
                ? 'When on, signing in with your password also asks for one of your security keys.'
                : WEBAUTHN_MESSAGES.twoFactorNeedsKey}
            </p>
          </div>
          <Switch
            id="profile-two-factor"
            aria-describedby="profile-two-factor-hint"
            checked={user.twoFactorEnabled}
            disabled={updateProfile.isPending || !twoFactorSwitchable(user)}
            onCheckedChange={onTwoFactor}
          />
        </div>
      </CardContent>

      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && !remove.isPending && setRemoving(null)}
        title={`Remove ${removing?.name ?? 'security key'}?`}
        description={`This key will no longer sign you in to ${PRODUCT_NAME}. You can add it again later.`}
        confirmLabel={remove.isPending ? 'Removing...' : 'Remove'}
        pending={remove.isPending}
        onConfirm={() => {
          if (!removing) return
          remove.mutate(removing.id, {
            onSuccess: () => {
              toast({ title: WEBAUTHN_MESSAGES.removedTitle, description: `"${removing.name}" was removed.`, variant: 'success' })
              setRemoving(null)
            },
            onError: (error) => {
              toast({ title: WEBAUTHN_MESSAGES.removeFailed, description: errorText(error, 'Please try again.'), variant: 'destructive' })
              setRemoving(null)
            },
          })
        }}
      />
    </Card>
  )
}
