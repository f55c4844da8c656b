import { Link } from '@tanstack/react-router'
import { Lock, LockOpen } from 'lucide-react'
import type { ReactNode } from 'react'
import { VAULT_ITEM_MESSAGES } from '../../../contract/vault-items'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'

/**
 * What a dialog that needs the unlocked vault shows while it is locked: why it needs it, and the
 * way to unlock it (or, with no vault yet, where to create one). Red once the owner tried anyway.
 */
export function VaultLockedAlert({
  hasVault,
  why,
  tried,
  onUnlock,
}: {
  hasVault: boolean
  why: ReactNode
  tried: boolean
  onUnlock: () => void
}) {
  return (
    <Alert variant={tried ? 'destructive' : 'warning'}>
      <Lock aria-hidden />
      <AlertTitle>{VAULT_ITEM_MESSAGES.locked}</AlertTitle>
      <AlertDescription className="grid gap-2">
        {hasVault ? (
          <>
            <p>{why}</p>
            <div>
              <Button size="sm" onClick={onUnlock}>
                <LockOpen aria-hidden /> Unlock Vault
              </Button>
            </div>
          </>
        ) : (
          <p>
            You have no vault yet. Create it on the{' '}
            <Link to="/vault" className="font-medium underline underline-offset-4">
              Vault
            </Link>{' '}
            page first. {why}
          </p>
        )}
      </AlertDescription>
    </Alert>
  )
}
