import { Ban, CircleAlert, CircleCheck, RotateCw } from 'lucide-react'
import { VAULT_ITEM_MESSAGES } from '../../../../contract/vault-items'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { formatBytes } from '@/lib/format-bytes'
import { ITEM_TYPE_META } from '../items/item-format'
import { jobPercent, type UploadJob } from './use-upload-queue'

// One row per item being uploaded: its progress bar and where it stands.

function statusText(job: UploadJob, percent: number): string {
  switch (job.status) {
    case 'queued':
      return 'Queued'
    case 'uploading':
      return percent >= 100 ? 'Finishing...' : `Encrypting & uploading ${percent}%`
    case 'done':
      return 'Encrypted & stored'
    case 'failed':
      return 'Failed'
    case 'cancelled':
      return 'Cancelled'
  }
}

export function UploadQueueView({ jobs, running, onRetry }: { jobs: UploadJob[]; running: boolean; onRetry: (id: string) => void }) {
  return (
    <ul className="grid grid-cols-1 gap-2" aria-label="Uploads">
      {jobs.map((job) => {
        const percent = jobPercent(job)
        const Icon = ITEM_TYPE_META[job.type].icon
        return (
          <li key={job.id} className="grid min-w-0 grid-cols-1 gap-2 rounded-lg border border-slate-200 p-3" data-testid="upload-row" data-status={job.status}>
            <div className="flex items-center gap-3">
              <Icon className="size-5 shrink-0 text-slate-500" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-slate-900">{job.name}</p>
                <p className="text-xs text-slate-600" data-testid="upload-status">
                  {formatBytes(job.size)} · {statusText(job, percent)}
                </p>
              </div>
              {job.status === 'done' && <CircleCheck className="size-5 shrink-0 text-emerald-600" aria-label="Stored" />}
              {job.status === 'cancelled' && <Ban className="size-5 shrink-0 text-slate-400" aria-label="Cancelled" />}
              {job.status === 'failed' && (
                <Button variant="outline" size="sm" onClick={() => onRetry(job.id)} disabled={running} aria-label={`Retry ${job.name}`}>
                  <RotateCw aria-hidden /> Retry
                </Button>
              )}
            </div>
            <div
              role="progressbar"
              aria-label={`Upload progress for ${job.name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 overflow-hidden rounded-full bg-slate-100"
            >
              <div
                className={cn(
                  'h-full rounded-full transition-[width] duration-300',
                  job.status === 'failed' ? 'bg-red-500' : job.status === 'done' ? 'bg-emerald-500' : 'bg-brand-600',
                )}
                style={{ width: `${job.status === 'failed' ? Math.max(percent, 100) : percent}%` }}
              />
            </div>
            {job.status === 'failed' && (
              <p role="alert" className="flex items-start gap-1.5 text-sm text-red-700">
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>
                  {VAULT_ITEM_MESSAGES.uploadFailed(job.name)}
                  {job.error ? <span className="block text-red-600">{job.error}</span> : null}
                </span>
              </p>
            )}
          </li>
        )
      })}
    </ul>
  )
}
