import { Download, File, FileText, Image, KeyRound, ShieldAlert, ShieldCheck, ShieldQuestion, Video, type LucideIcon } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { cn } from '@/lib/utils'
import { RELEASE_MESSAGES } from '../../../contract/releases'
import type { AssetCardModel, AssetIconKind } from './portal'

const ICONS: Record<AssetIconKind, { icon: LucideIcon; tile: string }> = {
  photo: { icon: Image, tile: 'bg-violet-100 text-violet-700' },
  video: { icon: Video, tile: 'bg-rose-100 text-rose-700' },
  password: { icon: KeyRound, tile: 'bg-amber-100 text-amber-800' },
  document: { icon: FileText, tile: 'bg-sky-100 text-sky-700' },
  other: { icon: File, tile: 'bg-slate-100 text-slate-700' },
}

const SEAL_LOOK = {
  sealed: { icon: ShieldCheck, className: 'text-emerald-700' },
  unsealed: { icon: ShieldQuestion, className: 'text-amber-800' },
  refused: { icon: ShieldAlert, className: 'text-red-700' },
} as const

/** One released asset (seeds 001 §2): icon, name, status, seal, type, downloads, expiry, and the button. */
export function AssetCard({
  model,
  busy,
  progress,
  onDownload,
  onOpenUnsealed,
}: {
  model: AssetCardModel
  /** This asset is the one being downloaded. */
  busy: boolean
  progress: number | null
  onDownload: () => void
  /** The heir chose to open an item the vault never sealed (an older kit). */
  onOpenUnsealed: () => void
}) {
  const { icon: Icon, tile } = ICONS[model.icon]
  return (
    <Card className="flex flex-col gap-4 p-5" data-testid="released-asset">
      <div className="flex items-start gap-3">
        <span className={cn('flex size-11 shrink-0 items-center justify-center rounded-lg', tile)}>
          <Icon className="size-5" aria-hidden />
        </span>
        <div className="grid min-w-0 flex-1 gap-1">
          <h3 className="line-clamp-2 break-words font-medium text-slate-900" title={model.title}>
            {model.title}
          </h3>
          <Badge variant={model.statusVariant} className="justify-self-start">
            {model.statusLabel}
          </Badge>
        </div>
      </div>
      <dl className="grid gap-1 text-sm text-slate-600">
        <div className="flex justify-between gap-2">
          <dt>Type</dt>
          <dd className="text-slate-900">{model.typeLabel}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="sr-only">Downloads</dt>
          <dd>{model.downloadsText}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="sr-only">Expiry</dt>
          <dd>{model.expiresText}</dd>
        </div>
      </dl>
      {model.seal && <SealLine seal={model.seal} />}
      {model.seal?.tone === 'unsealed' && model.seal.detail && <p className="text-xs text-slate-600">{model.seal.detail}</p>}
      {model.blockedReason && <p className={cn('text-xs', model.seal?.tone === 'refused' ? 'text-red-700' : 'text-slate-500')}>{model.blockedReason}</p>}
      {model.canOpenUnsealed && (
        <Button variant="outline" onClick={onOpenUnsealed}>
          {RELEASE_MESSAGES.openUnsealed}
        </Button>
      )}
      <Button className="mt-auto" onClick={onDownload} disabled={!model.canDownload} aria-busy={busy}>
        <Download aria-hidden />
        {busy ? (progress === null ? 'Decrypting...' : `Decrypting... ${progress}%`) : 'Download & Decrypt'}
      </Button>
    </Card>
  )
}

function SealLine({ seal }: { seal: NonNullable<AssetCardModel['seal']> }) {
  const { icon: Icon, className } = SEAL_LOOK[seal.tone]
  return (
    <p className={cn('flex items-start gap-1.5 text-sm font-medium', className)} data-testid="asset-seal">
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      {seal.label}
    </p>
  )
}
