import { CircleCheck, CircleX, Clock } from 'lucide-react'
import type { IdentityDocument } from '../../../contract/identity'
import { Badge } from '@/components/ui/badge'
import { DECISION_LABELS, formatMoment, STATUS_BADGES } from './copy'
import type { ReviewProgress } from './reviewers'

// Pieces shared by the document list and the review overview.

export function StatusBadge({ status }: { status: IdentityDocument['status'] }) {
  const badge = STATUS_BADGES[status]
  return (
    <Badge variant={badge.variant} data-testid="document-status">
      {badge.label}
    </Badge>
  )
}

/** "1 of 2 approvals", with a bar for the eye. */
export function ApprovalCount({ approvals, required }: { approvals: number; required: number }) {
  const shown = Math.min(approvals, required)
  return (
    <div className="grid gap-1.5">
      <p className="text-sm text-slate-700">
        <span className="font-semibold text-slate-900">
          {shown} of {required}
        </span>{' '}
        {required === 1 ? 'approval' : 'approvals'}
      </p>
      <div
        className="h-1.5 w-full max-w-48 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Approvals"
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={shown}
      >
        <div className="h-full rounded-full bg-emerald-500" style={{ width: `${required ? (shown / required) * 100 : 0}%` }} />
      </div>
    </div>
  )
}

/** Who reviewed (with their decision and notes) and, while pending, who has not yet. */
export function ReviewerLists({ progress, pending }: { progress: ReviewProgress; pending: boolean }) {
  return (
    <div className="grid gap-3">
      {progress.reviewed.length > 0 ? (
        <ul className="grid gap-2" aria-label="Reviews">
          {progress.reviewed.map((review) => (
            <li key={`${review.approverName}-${review.createdAt}`} className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                {review.status === 'approved' ? (
                  <CircleCheck className="size-4 shrink-0 text-emerald-600" aria-hidden />
                ) : (
                  <CircleX className="size-4 shrink-0 text-red-600" aria-hidden />
                )}
                <span className="font-medium text-slate-900">{review.approverName}</span>
                <Badge variant={review.status === 'approved' ? 'success' : 'destructive'}>{DECISION_LABELS[review.status]}</Badge>
                <span className="text-xs text-slate-500">{formatMoment(review.createdAt)}</span>
              </div>
              {review.notes && <p className="mt-1.5 whitespace-pre-line break-words text-slate-700">{review.notes}</p>}
            </li>
          ))}
        </ul>
      ) : (
        pending && <p className="text-sm text-slate-600">No approver has reviewed it yet.</p>
      )}
      {pending && progress.waitingFor.length > 0 && (
        <div className="text-sm">
          <p className="font-medium text-slate-800">Not reviewed yet</p>
          <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Not reviewed yet">
            {progress.waitingFor.map((name) => (
              <li key={name}>
                <Badge variant="outline">
                  <Clock className="size-3" aria-hidden /> {name}
                </Badge>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
