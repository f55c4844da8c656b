import { createFileRoute } from '@tanstack/react-router'
import { Lock, LockOpen, ShieldCheck } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCurrentUser } from '@/features/auth/api'
import { VaultSetupDialog } from '@/features/vault/vault-setup-dialog'
import { useVaultUnlocked, VAULT_IDLE_LOCK_MS, vaultSession } from '@/features/vault/vault-session'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'

export const Route = createFileRoute('/_app/vault')({
  component: VaultPage,
})

/** /vault: opens setup when there is no vault yet, unlock when it is locked (seeds 001 §4). */
function VaultPage() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const [setupOpen, setSetupOpen] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  const prompted = useRef(false)

  useEffect(() => {
    if (!user || prompted.current) return
    prompted.current = true
    if (!user.vaultSetup) setSetupOpen(true)
    else if (!vaultSession.isUnlocked()) setUnlockOpen(true)
  }, [user])

  if (!user) return null
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Secure Vault</h1>
          <p className="text-sm text-slate-600">Encrypted in this browser before anything is uploaded.</p>
        </div>
        {user.vaultSetup &&
          (unlocked ? (
            <Button variant="outline" onClick={() => vaultSession.lock()}>
              <Lock aria-hidden /> Lock Vault
            </Button>
          ) : (
            <Button onClick={() => setUnlockOpen(true)}>
              <LockOpen aria-hidden /> Unlock Vault
            </Button>
          ))}
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
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              {unlocked ? <ShieldCheck className="size-5 text-emerald-600" aria-hidden /> : <Lock className="size-5 text-slate-500" aria-hidden />}
              <span data-testid="vault-state">{unlocked ? 'Vault unlocked' : 'Vault locked'}</span>
            </CardTitle>
            <CardDescription>
              {unlocked
                ? `Your vault key is held in this tab's memory only. It locks when you lock it, sign out, close the tab, or after ${VAULT_IDLE_LOCK_MS / 60000} minutes without activity.`
                : 'Unlock with your vault passphrase to work with your encrypted items.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="text-sm text-slate-600">
            Uploading encrypted documents, photos, videos and password entries arrives with the next release.
          </CardContent>
        </Card>
      )}

      <VaultSetupDialog open={setupOpen} onOpenChange={setSetupOpen} />
      <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
    </div>
  )
}
