import { useQueryClient } from '@tanstack/react-query'
import { AlertTriangle, Archive, Download, LockOpen } from 'lucide-react'
import { useRef, useState } from 'react'
import { ESTATE_MESSAGES } from '../../../contract/estate-bundle'
import { EXPORT_MESSAGES } from '../../../contract/vault-export'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useCurrentUser } from '@/features/auth/api'
import { useBeneficiaries } from '@/features/circle/api'
import { useVaultItems } from '@/features/vault/items/api'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { estateScope, unsealedCount } from './estate-bundle'
import { saveEstateBundle } from './estate-owner'

type Phase = { kind: 'confirm' } | { kind: 'running'; done: number; total: number | null } | { kind: 'failed'; message: string }

/**
 * "Estate bundle": the encrypted items left to each beneficiary, with the page that opens them
 * offline, in one ZIP (estate-bundle.ts). Nothing is decrypted; the vault is unlocked only so the
 * bundle names the signing key this browser checked.
 */
export function EstateCard() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const items = useVaultItems({ enabled: !!user?.vaultSetup })
  const beneficiaries = useBeneficiaries()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  const [phase, setPhase] = useState<Phase>({ kind: 'confirm' })
  const controller = useRef<AbortController | null>(null)
  if (!user?.vaultSetup) return null

  const { granted, people } = estateScope(items.data ?? [], beneficiaries.data ?? [])
  const loading = items.data === undefined || beneficiaries.data === undefined
  const running = phase.kind === 'running'

  const close = (next: boolean) => {
    if (next) return setOpen(true)
    if (running) return
    setPhase({ kind: 'confirm' })
    setOpen(false)
  }

  const begin = async () => {
    const signer = vaultSession.signer()
    if (!signer) return setPhase({ kind: 'failed', message: ESTATE_MESSAGES.needsUnlock })
    const abort = new AbortController()
    controller.current = abort
    setPhase({ kind: 'running', done: 0, total: null })
    try {
      const outcome = await saveEstateBundle({
        signer,
        ownerName: user.displayName,
        queryClient,
        signal: abort.signal,
        onProgress: (done, total) => setPhase({ kind: 'running', done, total }),
      })
      if (outcome.kind === 'cancelled') toast({ title: EXPORT_MESSAGES.cancelled, variant: 'default' })
      else {
        const unsealed = unsealedCount(outcome.plan)
        const description = ESTATE_MESSAGES.doneBody(outcome.plan.length)
        toast({ title: ESTATE_MESSAGES.doneTitle, description: unsealed ? `${description} ${ESTATE_MESSAGES.notSealed(unsealed)}` : description, variant: unsealed ? 'default' : 'success' })
      }
      setPhase({ kind: 'confirm' })
      setOpen(false)
    } catch (error) {
      setPhase({ kind: 'failed', message: errorText(error, ESTATE_MESSAGES.failed) })
    } finally {
      controller.current = null
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Archive className="size-5 text-brand-700" aria-hidden /> {ESTATE_MESSAGES.title}
        </CardTitle>
        <CardDescription>{ESTATE_MESSAGES.body}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!unlocked ? (
          <>
            <p className="text-sm text-slate-700">{ESTATE_MESSAGES.needsUnlock}</p>
            <div>
              <Button variant="outline" onClick={() => setUnlockOpen(true)}>
                <LockOpen aria-hidden /> Unlock Vault
              </Button>
            </div>
          </>
        ) : !loading && granted.length === 0 ? (
          <p className="text-sm text-slate-700">{ESTATE_MESSAGES.nothingGranted}</p>
        ) : (
          <div>
            <Button onClick={() => setOpen(true)} disabled={loading}>
              <Archive aria-hidden /> {ESTATE_MESSAGES.button}
            </Button>
          </div>
        )}
      </CardContent>
      <Dialog open={open} onOpenChange={close}>
        <DialogContent hideClose={running} onEscapeKeyDown={(e) => running && e.preventDefault()} onPointerDownOutside={(e) => running && e.preventDefault()}>
          <DialogHeader>
            <DialogTitle>{phase.kind === 'failed' ? EXPORT_MESSAGES.failedTitle : ESTATE_MESSAGES.confirmTitle}</DialogTitle>
            <DialogDescription className="sr-only">{ESTATE_MESSAGES.confirmTitle}</DialogDescription>
          </DialogHeader>
          {phase.kind === 'confirm' && (
            <>
              <div className="grid gap-3 text-sm text-slate-700">
                <p>{ESTATE_MESSAGES.confirmBody}</p>
                <p className="font-medium text-slate-900">{ESTATE_MESSAGES.willHold(people, granted.length)}</p>
              </div>
              <DialogFooter>
                <Button variant="outline" onClick={() => close(false)}>
                  Cancel
                </Button>
                <Button onClick={() => void begin()}>
                  <Download aria-hidden /> Download
                </Button>
              </DialogFooter>
            </>
          )}
          {phase.kind === 'running' && (
            <>
              <p className="text-sm font-medium text-slate-900" role="status" aria-live="polite" data-testid="estate-progress">
                {phase.total === null ? 'Preparing...' : ESTATE_MESSAGES.progress(phase.done, phase.total)}
              </p>
              <DialogFooter>
                <Button variant="outline" onClick={() => controller.current?.abort()}>
                  Cancel
                </Button>
              </DialogFooter>
            </>
          )}
          {phase.kind === 'failed' && (
            <>
              <Alert variant="destructive" data-testid="estate-error">
                <AlertTriangle aria-hidden />
                <AlertDescription>{phase.message}</AlertDescription>
              </Alert>
              <DialogFooter>
                <Button variant="outline" onClick={() => close(false)}>
                  Close
                </Button>
                <Button onClick={() => setPhase({ kind: 'confirm' })}>Try again</Button>
              </DialogFooter>
            </>
          )}
        </DialogContent>
      </Dialog>
      <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
    </Card>
  )
}
