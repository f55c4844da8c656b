import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import type { Beneficiary } from '../../../contract/circle'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useVaultUnlocked } from '@/features/vault/vault-session'
import { currentVaultFingerprint } from './access-kit'
import { useBeneficiaries } from './api'
import { RotateKeyDialog } from './rotate-key-dialog'

export const OLDER_KITS_COPY = {
  title: 'Some Access Kits can be made safer',
  text: 'These kits were printed before Access Kits carried your vault’s fingerprint. They still open what you leave, but the beneficiary portal cannot check for their holders that what it lists really comes from your vault; they would have to compare the fingerprint by hand. A new kit carries it. Issuing one replaces the person’s key, so their old kit stops working: hand over the new one in its place.',
  action: 'Issue a new kit',
  fingerprint: 'Until then, they can compare by hand with your vault’s fingerprint, which you can give them in writing:',
} as const

/**
 * On the Beneficiaries page: the people whose Access Kit predates the vault's fingerprint (0.3), each
 * with the replace-kit dialog (a key rotation) to give them one that carries it.
 */
export function OlderKitsNotice() {
  const { data } = useBeneficiaries()
  const [rotating, setRotating] = useState<Beneficiary | null>(null)
  const older = (data ?? []).filter((b) => !b.kitHasVaultFingerprint)
  // Known only while the vault is unlocked (the browser then holds the key it verified).
  const unlocked = useVaultUnlocked()
  const fingerprint = unlocked ? currentVaultFingerprint() : ''
  return (
    <>
      {older.length > 0 && (
        <Alert variant="info" data-testid="older-kits">
          <KeyRound aria-hidden />
          <AlertTitle>{OLDER_KITS_COPY.title}</AlertTitle>
          <AlertDescription className="grid gap-3">
            <p>{OLDER_KITS_COPY.text}</p>
            <ul className="grid gap-2">
              {older.map((b) => (
                <li key={b.id} className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium text-slate-900">{b.fullName}</span>
                  <Button size="sm" variant="outline" onClick={() => setRotating(b)} aria-label={`${OLDER_KITS_COPY.action} for ${b.fullName}`}>
                    {OLDER_KITS_COPY.action}
                  </Button>
                </li>
              ))}
            </ul>
            {fingerprint && (
              <p>
                {OLDER_KITS_COPY.fingerprint}{' '}
                <span className="break-all font-mono text-xs" data-testid="owner-vault-fingerprint">
                  {fingerprint}
                </span>
              </p>
            )}
          </AlertDescription>
        </Alert>
      )}
      {/* Stays mounted while the new kit is shown, after the list no longer names the person. */}
      <RotateKeyDialog beneficiary={rotating} onOpenChange={(open) => !open && setRotating(null)} />
    </>
  )
}
