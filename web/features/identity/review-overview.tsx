import { useQueries } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { CircleCheckBig, MailCheck, UserPlus } from 'lucide-react'
import type { Approver, Beneficiary } from '../../../contract/circle'
import { DOCUMENT_TYPE_LABELS } from '../../../contract/identity'
import type { Policy } from '../../../contract/policies'
import { PageSection } from '@/components/layout/page-header'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { documentsQuery } from './api'
import { formatMoment, IDENTITY_TOASTS, REVIEW_RULES, WHO_REVIEWS } from './copy'
import { ApprovalCount, ReviewerLists, StatusBadge } from './document-parts'
import { pendingReviews, reviewersFor, reviewProgress } from './reviewers'

/**
 * The Verification Review tab. The spec's client let the owner review "as the first approver"
 * (seeds 001 §6, a weakness); here the owner only follows the reviews: who has reviewed each
 * pending document and who has not yet.
 */
export function ReviewOverview({
  beneficiaries,
  approvers,
  policies,
}: {
  beneficiaries: Beneficiary[]
  approvers: Approver[]
  policies: Policy[]
}) {
  const results = useQueries({ queries: beneficiaries.map((b) => documentsQuery(b.id)) })
  const loading = results.some((r) => r.isPending)
  const failed = results.find((r) => r.isError)

  const pending = pendingReviews(results.map((r) => r.data), beneficiaries)

  let body: React.ReactNode
  if (loading) {
    body = (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-12">
        <Spinner className="size-7" label="Loading documents" />
      </div>
    )
  } else if (failed) {
    body = (
      <LoadError
        title="Documents could not be loaded"
        message={errorText(failed.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => results.filter((r) => r.isError).forEach((r) => r.refetch())}
        retrying={results.some((r) => r.isFetching)}
      />
    )
  } else if (pending.length === 0) {
    body = (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <CircleCheckBig className="mx-auto size-10 text-emerald-500" aria-hidden />
        <h3 className="mt-3 font-semibold text-slate-900">Nothing is waiting for review</h3>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
          Documents you upload appear here until your approvers have decided on them.
        </p>
      </div>
    )
  } else {
    body = (
      <ul className="grid gap-4" aria-label="Documents waiting for review">
        {pending.map(({ document, beneficiary }) => {
          const progress = reviewProgress(document, reviewersFor(beneficiary.id, policies, approvers))
          return (
            <li key={document.id}>
              <Card className="grid gap-4 p-4 sm:p-5" data-testid="pending-review">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h3 className="font-semibold text-slate-900">
                      {beneficiary.fullName}: {DOCUMENT_TYPE_LABELS[document.documentType]}
                    </h3>
                    <p className="text-xs text-slate-500">Submitted {formatMoment(document.submittedAt)}</p>
                  </div>
                  <StatusBadge status={document.status} />
                </div>
                <ApprovalCount approvals={progress.approvals} required={progress.required} />
                <ReviewerLists progress={progress} pending />
              </Card>
            </li>
          )
        })}
      </ul>
    )
  }

  return (
    <div className="grid gap-6">
      <Card className="grid gap-3 p-5">
        <div className="flex items-start gap-3">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
          <div className="grid gap-2">
            <h2 className="font-semibold text-slate-900">How documents are reviewed</h2>
            <p className="text-sm text-slate-700">{WHO_REVIEWS}</p>
            <ul className="grid list-disc gap-1 pl-5 text-sm text-slate-700">
              {REVIEW_RULES.map((rule) => (
                <li key={rule}>{rule}</li>
              ))}
            </ul>
          </div>
        </div>
      </Card>
      {approvers.length === 0 && (
        <Alert variant="warning">
          <UserPlus aria-hidden />
          <AlertTitle>You have no approvers yet</AlertTitle>
          <AlertDescription className="grid gap-2">
            <p>Approvers are who review identity documents: add at least one before uploading a document.</p>
            <div>
              <Button asChild variant="outline" size="sm">
                <Link to="/beneficiaries">Add an approver</Link>
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      )}
      <PageSection title="Waiting for review">{body}</PageSection>
    </div>
  )
}
