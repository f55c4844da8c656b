import { useQueryClient } from '@tanstack/react-query'
import { KeyRound, Loader2, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import type { Beneficiary } from '../../../contract/circle'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { generateBeneficiaryKeyPair, privateKeyToPem, publicKeyFingerprint } from '@/crypto'
import { useCurrentUser } from '@/features/auth/api'
import { rotateBeneficiaryKey } from '@/features/policies/grants'
import { useVaultItems, vaultItemsKey } from '@/features/vault/items/api'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { VaultLockedAlert } from '@/features/vault/vault-locked-alert'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { currentVaultFingerprint } from './access-kit'
import { AccessKitStep, useAccessKitGuard, type KitStep } from './add-beneficiary-dialog'
import { beneficiariesKey, useBeneficiaries } from './api'
import { toastFailure, toastSuccess } from './notify'
import { statedFields, withStatementSequence } from './statements'
import { assertTrustedKeys, mayReplaceDespite } from './trusted-keys'

type Phase = 'idle' | 'generating' | 'rewrapping'

export const ROTATE_KEY_COPY = {
  failed: 'Failed to replace key',
  done: 'Key replaced',
  keyGenerationFailed: 'This browser could not create the encryption keys. Try again, or use an up-to-date browser.',
  doneText: (name: string, items: number) =>
    `${name}'s old Access Kit no longer opens anything. ${items === 1 ? '1 item was' : `${items} items were`} re-wrapped for the new key.`,
} as const

/**
 * 'Replace key (lost kit)' (ARCHITECTURE §3): a new key pair made here, every item granted to the
 * beneficiary re-wrapped with the new public key in this browser, key and grants swapped by the
 * server in one step, then the new Access Kit, which must be saved before the dialog closes (the
 * same step as when a beneficiary is added). The private key is never sent.
 */
export function RotateKeyDialog({
  beneficiary,
  onOpenChange,
}: {
  beneficiary: Beneficiary | null
  onOpenChange: (open: boolean) => void
}) {
  const open = beneficiary !== null
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const queryClient = useQueryClient()
  const items = useVaultItems({ enabled: open })
  const known = useBeneficiaries().data ?? []
  const [phase, setPhase] = useState<Phase>('idle')
  const [step, setStep] = useState<KitStep | null>(null)
  const [lockedError, setLockedError] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  // The person the dialog was opened for, kept while the list refreshes underneath.
  const [target, setTarget] = useState<Beneficiary | null>(beneficiary)
  if (beneficiary && beneficiary.id !== target?.id) setTarget(beneficiary)
  const busy = phase !== 'idle'
  const guard = useAccessKitGuard(step, busy)
  const hasVault = user?.vaultSetup !== false
  // The vault signs the new key, so it must exist and be unlocked.
  const canRun = unlocked

  function close() {
    // The private key leaves memory with this state (as far as JavaScript lets it).
    setStep(null)
    guard.reset()
    setLockedError(false)
    onOpenChange(false)
  }

  function requestClose() {
    if (guard.mayClose()) close()
  }

  async function replace() {
    if (!target) return
    // The vault signs the new key: it must exist and be unlocked.
    if (!vaultSession.isUnlocked()) {
      setLockedError(true)
      return
    }
    setPhase('generating')
    let pair: Awaited<ReturnType<typeof generateBeneficiaryKeyPair>>
    try {
      pair = await generateBeneficiaryKeyPair()
    } catch {
      setPhase('idle')
      toastFailure(ROTATE_KEY_COPY.failed, new Error(ROTATE_KEY_COPY.keyGenerationFailed))
      return
    }
    setPhase('rewrapping')
    try {
      const master = vaultSession.requireKey()
      // The statement restates who this is with the new key: the row as it is must not have been
      // changed outside the vault (a key never confirmed can still be replaced: its kit is lost).
      await assertTrustedKeys([target]).catch((error: unknown) => {
        if (!mayReplaceDespite(error)) throw error
      })
      const next = statedFields({ ...target, keyVersion: target.keyVersion + 1, publicKey: pair.publicKeySpki })
      const { beneficiary: updated, itemCount } = await withStatementSequence(known, async (statementSequence) =>
        rotateBeneficiaryKey({
          beneficiaryId: target.id,
          replacesKeyVersion: target.keyVersion,
          publicKeySpki: pair.publicKeySpki,
          keySignature: await vaultSession.signBeneficiary({ ...next, sequence: statementSequence }),
          statementSequence,
          signGrants: (grants) => vaultSession.signGrants(grants),
          master,
        }),
      )
      const fingerprint = await publicKeyFingerprint(pair.publicKeySpki)
      setStep({
        kit: {
          fullName: updated.fullName,
          email: updated.email,
          ownerName: user?.displayName ?? '',
          createdAt: new Date(),
          fingerprint,
          vaultFingerprint: currentVaultFingerprint(),
          portalUrl: `${window.location.origin}/beneficiary-portal`,
          privateKeyPem: privateKeyToPem(pair.privateKeyPkcs8),
        },
        fingerprintMismatch: fingerprint !== updated.publicKeyFingerprint,
      })
      toastSuccess(ROTATE_KEY_COPY.done, ROTATE_KEY_COPY.doneText(updated.fullName, itemCount))
      void queryClient.invalidateQueries({ queryKey: beneficiariesKey, exact: true })
      void queryClient.invalidateQueries({ queryKey: vaultItemsKey, exact: true })
    } catch (error) {
      toastFailure(ROTATE_KEY_COPY.failed, error)
    } finally {
      setPhase('idle')
    }
  }

  const name = target?.fullName ?? 'this beneficiary'
  const granted = target && items.data ? items.data.filter((i) => i.beneficiaryIds.includes(target.id)).length : null

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : requestClose())}>
      <DialogContent
        hideClose={guard.mustStay}
        onEscapeKeyDown={guard.preventIfStaying}
        onInteractOutside={guard.preventIfStaying}
        className={step ? 'max-w-xl' : undefined}
      >
        {step ? (
          <AccessKitStep
            step={step}
            guard={guard}
            title="New Access Kit"
            description={`${step.kit.fullName}'s key has been replaced and their old kit no longer opens anything. Save this new kit and hand it over in place of the old one.`}
            mismatchText={`Do not use this kit. Replace ${step.kit.fullName}'s key again.`}
            onDone={requestClose}
          />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Replace {name}&apos;s key?</DialogTitle>
              <DialogDescription>For a lost or exposed Access Kit: {name} gets a new key pair and a new kit.</DialogDescription>
            </DialogHeader>
            <Alert variant="warning">
              <TriangleAlert aria-hidden />
              <AlertTitle>The old kit stops working for everything</AlertTitle>
              <AlertDescription className="grid gap-2">
                <p>
                  A new key pair is made in this browser and every item assigned to {name}
                  {granted !== null ? ` (${granted === 1 ? '1 item' : `${granted} items`})` : ''} is locked again with the new
                  key. From then on, the old Access Kit opens nothing, whoever holds it, and cannot be made to work again.
                </p>
                <p>You will get a new Access Kit to save and hand over, exactly as when you added {name}.</p>
              </AlertDescription>
            </Alert>
            {!canRun && (
              <VaultLockedAlert
                hasVault={hasVault}
                why={`Your vault signs the new key, and each item's key is unlocked with your vault key before it is locked again for ${name}.`}
                tried={lockedError}
                onUnlock={() => setUnlockOpen(true)}
              />
            )}
            <DialogFooter>
              <Button variant="outline" onClick={requestClose} disabled={busy}>
                Cancel
              </Button>
              <Button variant="destructive" onClick={() => void replace()} disabled={busy || !canRun}>
                {busy ? <Loader2 className="animate-spin" aria-hidden /> : <KeyRound aria-hidden />}{' '}
                {phase === 'generating' ? 'Generating keys...' : phase === 'rewrapping' ? 'Re-wrapping items...' : 'Replace key'}
              </Button>
            </DialogFooter>
            <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} onUnlocked={() => setLockedError(false)} />
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
