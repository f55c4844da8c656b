import { useRef, useState, type FormEvent } from 'react'
import { FAILED_UNLOCK_MESSAGES } from '../../../contract/triggers'
import { VAULT_MESSAGES } from '../../../contract/vault'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, PasswordInput } from '@/components/ui/form-field'
import { useQueryClient } from '@tanstack/react-query'
import { currentUserKey, useCurrentUser } from '@/features/auth/api'
import { reportFailedUnlock, reportUnlockSuccess } from '@/features/triggers/api'
import { toast } from '@/lib/toast-store'
import { addSigningKey, storedVault } from './api'
import { sealInBackground } from './seal-items'
import { afterUnlock } from './unlock-rules'
import { keyMoveApi, moveToVaultKey } from './key-move'
import { vaultSession, VaultKeyProblemError } from './vault-session'
import { RECOVERY_MESSAGES } from '../../../contract/vault-recovery'
import { RecoverWithCode } from './recovery/recover-with-code'

type Status = 'idle' | 'submitting' | 'error'

/** 'Unlock Your Vault' (seeds 001 §2, §4 'Unlock modal', §5 'Unlock'). */
export function VaultUnlockDialog({
  open,
  onOpenChange,
  onUnlocked,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onUnlocked?: () => void
}) {
  const { data: user } = useCurrentUser()
  const queryClient = useQueryClient()
  const [passphrase, setPassphrase] = useState('')
  const [status, setStatus] = useState<Status>('idle')
  const [error, setError] = useState<string | null>(null)
  // After a wrong passphrase: how many attempts are left before a Failed unlock attempts trigger
  // starts a release (from the report's answer; only the latest attempt's answer is shown).
  const [attemptsNote, setAttemptsNote] = useState<string | null>(null)
  const attempt = useRef(0)
  // Remounting the field on close also hides a passphrase that was shown.
  const [fieldKey, setFieldKey] = useState(0)
  // "Forgot your vault passphrase?" opens the recovery code's steps in this dialog.
  const [recovering, setRecovering] = useState(false)

  const close = (next: boolean) => {
    if (status === 'submitting') return
    if (!next) {
      setRecovering(false)
      attempt.current++
      setPassphrase('')
      setError(null)
      setAttemptsNote(null)
      setStatus('idle')
      setFieldKey((k) => k + 1)
    }
    onOpenChange(next)
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!passphrase.trim()) return setError(VAULT_MESSAGES.enterUnlockPassphrase)
    const vault = user ? storedVault(user) : null
    if (!vault) return setError(VAULT_MESSAGES.unlockFailed)
    setStatus('submitting')
    setError(null)
    const thisAttempt = ++attempt.current
    setAttemptsNote(null)
    try {
      let moved = false
      const moveApi = keyMoveApi((user) => {
        moved = true
        queryClient.setQueryData(currentUserKey, user)
      })
      const unlocked = await vaultSession.unlock(
        passphrase,
        vault,
        async (body) => {
          queryClient.setQueryData(currentUserKey, await addSigningKey(body))
        },
        (passphraseKey, master, signingWrap) => moveToVaultKey(moveApi, passphraseKey, master, signingWrap),
      )
      if (!unlocked) {
        // A wrong passphrase counts towards Failed unlock attempts triggers (unless a right one
        // follows soon); errors (not a wrong passphrase) do not.
        setStatus('error')
        setError(VAULT_MESSAGES.invalidPassphrase)
        void reportFailedUnlock('vault_unlock').then((left) => {
          if (attempt.current === thisAttempt) setAttemptsNote(FAILED_UNLOCK_MESSAGES.attemptsLeft(left))
        })
        return
      }
      reportUnlockSuccess('vault_unlock')
      const next = afterUnlock({ moved, signingProblem: vaultSession.hasSigningProblem() })
      // Every wrap changed with the move: what was fetched before it holds the old ones.
      if (next.refetchAll) void queryClient.invalidateQueries()
      // Items stored before manifests get the vault's seal now, in the background.
      if (next.sealStored) void sealInBackground(queryClient)
      toast(next.toast)
      setStatus('idle')
      onUnlocked?.()
      close(false)
    } catch (error) {
      setStatus('error')
      setError(error instanceof VaultKeyProblemError ? error.message : VAULT_MESSAGES.unlockFailed)
    }
  }

  const busy = status === 'submitting'
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {recovering && user ? (
          <RecoverWithCode
            user={user}
            onBack={() => setRecovering(false)}
            onRecovered={() => {
              onUnlocked?.()
              close(false)
            }}
          />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Unlock Your Vault</DialogTitle>
              <DialogDescription>Enter your vault passphrase to decrypt your vault in this browser.</DialogDescription>
            </DialogHeader>
            <form onSubmit={onSubmit} className="grid gap-4" noValidate>
              <Field label="Vault passphrase" error={error ?? undefined}>
                {({ id, describedBy, invalid }) => (
                  <PasswordInput
                    key={fieldKey}
                    id={id}
                    autoComplete="current-password"
                    autoFocus
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                    value={passphrase}
                    onChange={(e) => setPassphrase(e.target.value)}
                  />
                )}
              </Field>
              {attemptsNote && (
                <p role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900" data-testid="unlock-attempts-left">
                  {attemptsNote}
                </p>
              )}
              <p className="text-xs text-slate-500">Your passphrase never leaves your device and is not stored on our servers.</p>
              <Button
                type="button"
                variant="link"
                className="h-auto justify-self-start p-0"
                onClick={() => setRecovering(true)}
                disabled={busy}
              >
                {RECOVERY_MESSAGES.forgotLink}
              </Button>
              <DialogFooter>
                <Button variant="outline" onClick={() => close(false)} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" disabled={!passphrase.trim() || busy}>
                  {busy ? 'Unlocking...' : 'Unlock Vault'}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
