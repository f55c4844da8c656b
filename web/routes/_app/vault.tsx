import { createFileRoute, Link } from '@tanstack/react-router'
import { Lock, LockOpen, Plus, ShieldCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCurrentUser } from '@/features/auth/api'
import { VaultItemList } from '@/features/vault/items/item-list'
import { AddItemDialog } from '@/features/vault/upload/add-item-dialog'
import { VaultSetupDialog } from '@/features/vault/vault-setup-dialog'
import { useVaultUnlocked, VAULT_IDLE_LOCK_MS, vaultSession } from '@/features/vault/vault-session'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'

export const Route = createFileRoute('/_app/vault')({
  component: VaultPage,
})

/**
 * /vault (seeds 001 §2 'Secure Vault page', §4): opens setup when there is no vault yet and unlock
 * when it is locked; then the items, decrypted in this browser.
 */
function VaultPage() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const [setupOpen, setSetupOpen] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  const [addOpen, setAddOpen] = useState(false)
  const prompted = useRef(false)

  useEffect(() => {
    if (!user || prompted.current) return
    prompted.current = true
    if (!user.vaultSetup) setSetupOpen(true)
    else if (!vaultSession.isUnlocked()) setUnlockOpen(true)
  }, [user])

  if (!user) return null
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Secure Vault</h1>
          <p className="text-sm text-slate-600">Encrypted in this browser before anything is uploaded.</p>
        </div>
        {user.vaultSetup && (
          <div className="flex flex-wrap gap-2">
            {unlocked ? (
              <Button variant="outline" onClick={() => vaultSession.lock()}>
                <Lock aria-hidden /> Lock Vault
              </Button>
            ) : (
              <Button variant="outline" onClick={() => setUnlockOpen(true)}>
                <LockOpen aria-hidden /> Unlock Vault
              </Button>
            )}
            <Button onClick={() => setAddOpen(true)}>
              <Plus aria-hidden /> Add Item
            </Button>
          </div>
        )}
      </div>

      {!user.vaultSetup ? (
        <Card>
          <CardHeader>
            <CardTitle>Create your vault</CardTitle>
            <CardDescription>
              Choose a master passphrase. It encrypts everything you keep here and never leaves this device.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button onClick={() => setSetupOpen(true)}>Create Vault Passphrase</Button>
          </CardContent>
        </Card>
      ) : (
        <>
          <div
            className={
              unlocked
                ? 'flex items-start gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900'
                : 'flex items-start gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700'
            }
          >
            {unlocked ? (
              <ShieldCheck className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden />
            ) : (
              <Lock className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden />
            )}
            <div className="grid gap-0.5">
              <p className="font-semibold" data-testid="vault-state">
                {unlocked ? 'Vault unlocked' : 'Vault locked'}
              </p>
              <p className={unlocked ? 'text-emerald-800' : 'text-slate-600'}>
                {unlocked
                  ? `Your vault key is held in this tab's memory only. It locks when you lock it, sign out, close the tab, or after ${VAULT_IDLE_LOCK_MS / 60000} minutes without activity.`
                  : 'Unlock with your vault passphrase to work with your encrypted items.'}
              </p>
            </div>
          </div>
          {unlocked && user.vaultKey && !user.vaultRecovery && (
            <p className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" data-testid="no-recovery-code">
              Your vault has no recovery code: if you forget its passphrase, nothing else opens it.{' '}
              <Link to="/settings" className="font-medium underline underline-offset-4">
                Make a recovery code in Settings
              </Link>
            </p>
          )}
          <VaultItemList unlocked={unlocked} onAdd={() => setAddOpen(true)} onUnlock={() => setUnlockOpen(true)} />
          <AddItemDialog open={addOpen} onOpenChange={setAddOpen} />
        </>
      )}

      <VaultSetupDialog open={setupOpen} onOpenChange={setSetupOpen} />
      <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
    </div>
  )
}
