import { AlertTriangle } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { VAULT_MESSAGES } from '../../../contract/vault'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { PasswordField } from '@/components/ui/form-field'
import { errorText } from '@/lib/api-client'
import { useCreateVault } from './api'
import { useCurrentUser } from '@/features/auth/api'
import { PassphraseAdvice } from './passphrase-advice'
import { checkGuessing, GUESSING_MESSAGES, usePassphraseGuessing } from './passphrase-guessing'
import { scorePassphrase, STRENGTH_MIN } from './passphrase-strength'
import { confirmationMismatch, passphraseReady, passphraseRuleProblem, setupDialogMayChange } from './setup-rules'
import { StrengthMeter } from './strength-meter'
import { RecoveryKitPanel, recoveryKitFor } from './recovery/recovery-kit-panel'
import type { RecoveryKit } from './recovery/recovery-kit'

/** Creates the vault's master passphrase (seeds 001 §2 'Vault setup modal', §5 'Setup'). */
export function VaultSetupDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [passphrase, setPassphrase] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [error, setError] = useState<string | null>(null)
  const createVault = useCreateVault()
  const strength = scorePassphrase(passphrase)
  const { data: user } = useCurrentUser()
  const personal = user ? [user.email, user.displayName ?? ''] : []
  const guessing = usePassphraseGuessing(strength.score >= STRENGTH_MIN ? passphrase : '', personal)
  const [checking, setChecking] = useState(false)
  const mismatch = confirmationMismatch(passphrase, confirmation)
  // The first recovery code, shown once the vault exists: the dialog closes only through its Done.
  const [kit, setKit] = useState<RecoveryKit | null>(null)

  const close = (next: boolean) => {
    if (!setupDialogMayChange({ creating: createVault.isPending, recoveryCodeShown: kit !== null, opening: next })) return
    if (!next) {
      setPassphrase('')
      setConfirmation('')
      setError(null)
    }
    onOpenChange(next)
  }

  const finish = () => {
    setKit(null)
    setPassphrase('')
    setConfirmation('')
    onOpenChange(false)
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = passphraseRuleProblem(passphrase, confirmation, strength.score)
    if (problem) return setError(problem)
    setChecking(true)
    const verdict = await checkGuessing(passphrase, personal)
    setChecking(false)
    if (!verdict.ok) return setError([GUESSING_MESSAGES.tooGuessable, ...verdict.advice].join(' '))
    setError(null)
    createVault.mutate(passphrase, {
      onSuccess: ({ user: created, recoveryCode }) => setKit(recoveryKitFor(created, recoveryCode)),
      onError: (e) => setError(errorText(e, VAULT_MESSAGES.setupFailed)),
    })
  }

  const disabled = !passphraseReady(passphrase, confirmation, strength.score, guessing) || checking || createVault.isPending

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {kit ? (
          <>
            <DialogHeader>
              <DialogTitle>Save Your Recovery Code</DialogTitle>
              <DialogDescription>
                Your vault is ready. One more step: keep a way back in if you ever forget its passphrase.
              </DialogDescription>
            </DialogHeader>
            <RecoveryKitPanel kit={kit} doneLabel="Done" onDone={finish} />
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Create Your Vault Passphrase</DialogTitle>
              <DialogDescription>
                Your vault is encrypted in this browser with a key made from a passphrase only you know. It is separate from your account
                password.
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={(e) => void onSubmit(e)} className="grid gap-4" noValidate>
              <PasswordField
                label="Master passphrase"
                autoComplete="new-password"
                value={passphrase}
                onChange={(e) => setPassphrase(e.target.value)}
              />
              {passphrase && <StrengthMeter strength={strength} />}
              <PassphraseAdvice verdict={guessing} />
              <PasswordField
                label="Confirm passphrase"
                autoComplete="new-password"
                error={mismatch ? VAULT_MESSAGES.passphrasesDoNotMatch : undefined}
                value={confirmation}
                onChange={(e) => setConfirmation(e.target.value)}
              />
              <Alert variant="warning">
                <AlertTriangle aria-hidden />
                <AlertDescription>
                  We never receive this passphrase, so we cannot reset it. Next you get a recovery code: if you forget the passphrase, that
                  code is the only other way in. Without either, nobody — including us — can decrypt your vault.
                </AlertDescription>
              </Alert>
              {error && (
                <p role="alert" className="text-sm text-red-600">
                  {error}
                </p>
              )}
              <DialogFooter>
                <Button variant="outline" onClick={() => close(false)} disabled={createVault.isPending}>
                  Cancel
                </Button>
                <Button type="submit" disabled={disabled}>
                  {createVault.isPending ? 'Creating...' : 'Create Vault'}
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
