import { LifeBuoy } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import type { PublicUser } from '../../../contract/auth'
import { VAULT_MESSAGES, type RecoveryWrapBody } from '../../../contract/vault'
import { RECOVERY_MESSAGES } from '../../../contract/vault-recovery'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { PasswordField } from '@/components/ui/form-field'
import { currentUserKey, useCurrentUser } from '@/features/auth/api'
import { storedVault } from '@/features/vault/api'
import { RecoveryKitPanel, recoveryKitFor } from '@/features/vault/recovery/recovery-kit-panel'
import type { RecoveryKit } from '@/features/vault/recovery/recovery-kit'
import { useVaultUnlocked, vaultSession, VaultKeyProblemError } from '@/features/vault/vault-session'
import { apiJson, errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'

/**
 * The owner's recovery code: whether there is one and when it was made, and a new one (vault
 * unlocked, passphrase re-entered) that voids the one before. The new code is shown once here.
 */
export function VaultRecoveryCard() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const [kit, setKit] = useState<RecoveryKit | null>(null)
  if (!user?.vaultSetup) return null
  const made = user.vaultRecovery ? new Date(user.vaultRecovery.madeAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }) : null
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <LifeBuoy className="size-5 text-brand-700" aria-hidden /> Vault recovery code
        </CardTitle>
        <CardDescription>If you forget your vault passphrase, your recovery code opens your vault and lets you choose a new one.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {kit ? (
          <RecoveryKitPanel kit={kit} doneLabel="Done" onDone={() => setKit(null)} />
        ) : (
          <>
            <p className="text-sm text-slate-700" data-testid="recovery-status">
              {made ? `Your current recovery code was made on ${made}.` : 'Your vault has no recovery code yet.'}
            </p>
            {unlocked && user.vaultKey ? (
              <MakeForm user={user} replacing={made !== null} onMade={setKit} />
            ) : (
              <p className="text-sm text-slate-700">{unlocked ? VAULT_MESSAGES.moveFirst : RECOVERY_MESSAGES.makeNeedsUnlock}</p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}

function MakeForm({ user, replacing, onMade }: { user: PublicUser; replacing: boolean; onMade: (kit: RecoveryKit) => void }) {
  const queryClient = useQueryClient()
  const [passphrase, setPassphrase] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!passphrase) return setError(VAULT_MESSAGES.enterCurrentPassphrase)
    const vault = storedVault(user)
    if (!vault) return setError(RECOVERY_MESSAGES.makeFailed)
    setBusy(true)
    setError(null)
    try {
      const code = await vaultSession.makeRecoveryCode(passphrase, vault, async (body: RecoveryWrapBody) => {
        queryClient.setQueryData(currentUserKey, (await apiJson<{ user: PublicUser }>('PUT', '/api/vault/recovery', body)).user)
      })
      if (!code) return setError(VAULT_MESSAGES.currentPassphraseWrong)
      setPassphrase('')
      if (replacing) toast({ title: RECOVERY_MESSAGES.made, description: RECOVERY_MESSAGES.madeBody, variant: 'success' })
      onMade(recoveryKitFor(user, code))
    } catch (e) {
      setError(e instanceof VaultKeyProblemError ? e.message : errorText(e, RECOVERY_MESSAGES.makeFailed))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate aria-label="Make a new recovery code">
      <PasswordField
        label="Current vault passphrase"
        autoComplete="current-password"
        value={passphrase}
        onChange={(e) => setPassphrase(e.target.value)}
        error={error ?? undefined}
      />
      {replacing && <p className="text-sm text-amber-800">Your current recovery code stops working as soon as the new one is made.</p>}
      <div>
        <Button type="submit" disabled={busy || !passphrase}>
          {busy ? 'Making...' : replacing ? 'Make a new recovery code' : 'Make a recovery code'}
        </Button>
      </div>
    </form>
  )
}
