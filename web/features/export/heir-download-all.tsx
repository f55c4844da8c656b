import { FolderDown } from 'lucide-react'
import { useState } from 'react'
import type { ReleasedAsset } from '../../../contract/releases'
import { EXPORT_MESSAGES } from '../../../contract/vault-export'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import type { BeneficiaryPrivateKey } from '@/crypto'
import { downloadErrorText, type BeneficiaryLink, type CardSeal, type DownloadCounts } from '@/features/releases/portal'
import { ExportDialog, LeftOutList } from './export-dialog'
import { downloadAllPlan, heirExportOptions, heirSources } from './heir-export'
import { saveExport } from './run-export'
import { exportFileName } from './vault-zip'

/**
 * The heir's "Download all" on the assets page: what it will hold and what it will not (with the
 * reason each card gives), then one ZIP of every item they can open now.
 */
export function HeirDownloadAll({
  link,
  privateKey,
  assets,
  ready,
  disabled,
  sealOf,
  nameOf,
  ownerName,
  onCounted,
}: {
  link: BeneficiaryLink
  /** Null until the heir loads their key. */
  privateKey: BeneficiaryPrivateKey | null
  assets: readonly ReleasedAsset[]
  /** The seals have been checked (nothing opens before). */
  ready: boolean
  disabled: boolean
  sealOf: (assetId: string) => CardSeal | null
  nameOf: (assetId: string) => string | null
  ownerName: string
  onCounted: (assetId: string, counts: DownloadCounts) => void
}) {
  const [open, setOpen] = useState(false)
  const plan = downloadAllPlan(assets, { sealOf, nameOf, ownerName }, { keyReady: privateKey !== null, sealsChecked: ready })
  const count = plan?.included.length ?? 0
  const notIncluded = plan?.notIncluded.map((n) => ({ name: n.title, problem: n.reason })) ?? []

  return (
    <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between" data-testid="download-all">
      <div className="grid gap-1">
        <h2 className="font-semibold text-slate-900">{EXPORT_MESSAGES.heirTitle}</h2>
        <p className="text-sm text-slate-600">
          {!privateKey ? EXPORT_MESSAGES.heirNeedsKey : !plan ? 'Checking seals...' : count === 0 ? EXPORT_MESSAGES.heirNothing : EXPORT_MESSAGES.heirBody(count)}
        </p>
        {notIncluded.length > 0 && count > 0 && (
          <p className="text-sm text-amber-800" data-testid="download-all-left-out">
            {EXPORT_MESSAGES.heirSomeLeftOut(notIncluded.length)}
          </p>
        )}
      </div>
      <Button className="shrink-0" onClick={() => setOpen(true)} disabled={disabled || !plan || count === 0}>
        <FolderDown aria-hidden /> {EXPORT_MESSAGES.heirTitle}
      </Button>
      {plan && privateKey && (
        <ExportDialog
          open={open}
          onOpenChange={setOpen}
          title={EXPORT_MESSAGES.heirTitle}
          confirmLabel="Download"
          errorText={(error) => downloadErrorText(error, ownerName)}
          doneBody={(report) => EXPORT_MESSAGES.heirDoneBody(report.manifest.included)}
          start={({ signal, onProgress, onListed }) =>
            saveExport(exportFileName('released-items'), async () => heirSources(link, privateKey, assets, plan, { ownerName, signal, onCounted }), {
              ...heirExportOptions(ownerName),
              size: plan.included.reduce((n, i) => n + i.asset.vaultItem.plainSize, 0),
              signal,
              onProgress,
              onListed,
            })
          }
        >
          <p>{EXPORT_MESSAGES.heirBody(count)}</p>
          <p>{EXPORT_MESSAGES.heirCounts}</p>
          <p>{EXPORT_MESSAGES.heirUnencrypted}</p>
          <LeftOutList items={notIncluded} title={EXPORT_MESSAGES.heirNotIncluded} />
        </ExportDialog>
      )}
    </Card>
  )
}
