import { useQueryClient } from '@tanstack/react-query'
import { FolderDown, LockOpen } from 'lucide-react'
import { useState } from 'react'
import { EXPORT_MESSAGES } from '../../../contract/vault-export'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useCurrentUser } from '@/features/auth/api'
import { ExportDialog } from '@/features/export/export-dialog'
import { exportRecordOf, ownerExportOptions, ownerSources, recordExport } from '@/features/export/owner-export'
import { saveExport } from '@/features/export/run-export'
import { exportFileName } from '@/features/export/vault-zip'
import { useVaultItems, vaultItemsQuery } from '@/features/vault/items/api'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { VaultUnlockDialog } from '@/features/vault/vault-unlock-dialog'
import { errorText } from '@/lib/api-client'

/**
 * "Download my vault": every item decrypted in this browser into one ZIP saved to this device,
 * with a manifest. The vault must be unlocked; the ZIP is never seen by the server.
 */
export function ExportCard() {
  const { data: user } = useCurrentUser()
  const unlocked = useVaultUnlocked()
  const items = useVaultItems({ enabled: !!user?.vaultSetup })
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [unlockOpen, setUnlockOpen] = useState(false)
  if (!user?.vaultSetup) return null
  const count = items.data?.length ?? null

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FolderDown className="size-5 text-brand-700" aria-hidden /> {EXPORT_MESSAGES.ownerTitle}
        </CardTitle>
        <CardDescription>{EXPORT_MESSAGES.ownerBody}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {!unlocked ? (
          <>
            <p className="text-sm text-slate-700">{EXPORT_MESSAGES.needsUnlock}</p>
            <div>
              <Button variant="outline" onClick={() => setUnlockOpen(true)}>
                <LockOpen aria-hidden /> Unlock Vault
              </Button>
            </div>
          </>
        ) : count === 0 ? (
          <p className="text-sm text-slate-700">{EXPORT_MESSAGES.empty}</p>
        ) : (
          <div>
            <Button onClick={() => setOpen(true)} disabled={count === null}>
              <FolderDown aria-hidden /> {EXPORT_MESSAGES.ownerTitle}
            </Button>
          </div>
        )}
      </CardContent>
      <ExportDialog
        open={open}
        onOpenChange={setOpen}
        title={EXPORT_MESSAGES.confirmTitle}
        confirmLabel="Download"
        errorText={(error) => errorText(error, EXPORT_MESSAGES.failed)}
        doneBody={(report) => EXPORT_MESSAGES.doneBody(report.manifest.included)}
        start={async ({ signal, onProgress, onListed }) => {
          const master = vaultSession.requireKey()
          const outcome = await saveExport(
            exportFileName('vault-export'),
            // The list as it is now, not as the page last saw it.
            async () => ownerSources(await queryClient.fetchQuery({ ...vaultItemsQuery, staleTime: 0 }), master, { signal }),
            { ...ownerExportOptions, signal, onProgress, onListed, size: items.data?.reduce((n, item) => n + item.plainSize, 0) },
          )
          const record = exportRecordOf(outcome)
          if (record) await recordExport(record)
          return outcome
        }}
      >
        <p>{EXPORT_MESSAGES.confirmBody}</p>
        {count !== null && <p className="font-medium text-slate-900">{EXPORT_MESSAGES.willHold(count)}</p>}
      </ExportDialog>
      <VaultUnlockDialog open={unlockOpen} onOpenChange={setUnlockOpen} />
    </Card>
  )
}
