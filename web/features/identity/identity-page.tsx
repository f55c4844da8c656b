import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ClipboardCheck, FileUp, FolderOpen, Users } from 'lucide-react'
import { Tabs } from 'radix-ui'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Field, selectClass } from '@/components/ui/form-field'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { useApprovers, useBeneficiaries } from '@/features/circle/api'
import { IDENTITY_BADGES } from '@/features/circle/copy'
import { errorText } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { policiesQuery } from './api'
import { FIELD_COPY, IDENTITY_TOASTS } from './copy'
import { DocumentList, tabClass } from './document-list'
import { PageUploadDialog } from './page-upload-dialog'
import { PoliciesSection } from './policies-section'
import { ReviewOverview } from './review-overview'
import { reviewersFor } from './reviewers'

type Tab = 'documents' | 'review'

/**
 * /identity-verification (seeds 001 §2): the owner's beneficiaries' identity documents, the
 * policies that ask for them, and how far each review has come. Reviewing itself happens only
 * through each approver's own link.
 */
export function IdentityVerificationPage({
  beneficiaryId,
  onSelectBeneficiary,
}: {
  beneficiaryId: string | undefined
  onSelectBeneficiary: (id: string) => void
}) {
  const [tab, setTab] = useState<Tab>('documents')
  const [uploading, setUploading] = useState(false)
  const beneficiaries = useBeneficiaries()
  const approvers = useApprovers()
  const policies = useQuery(policiesQuery)

  const list = beneficiaries.data ?? []
  const selected = list.find((b) => b.id === beneficiaryId) ?? list[0]
  const reviewers = selected ? reviewersFor(selected.id, policies.data ?? [], approvers.data ?? []) : []

  let documents: React.ReactNode
  if (beneficiaries.isPending) {
    documents = (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-12">
        <Spinner className="size-7" label="Loading beneficiaries" />
      </div>
    )
  } else if (beneficiaries.isError) {
    documents = (
      <LoadError
        title="Your beneficiaries could not be loaded"
        message={errorText(beneficiaries.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => beneficiaries.refetch()}
        retrying={beneficiaries.isFetching}
      />
    )
  } else if (!selected) {
    documents = (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <Users className="mx-auto size-10 text-slate-400" aria-hidden />
        <h3 className="mt-3 font-semibold text-slate-900">No beneficiaries yet</h3>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
          Identity documents belong to beneficiaries. Add the people who will inherit first, and at least one approver to
          review their documents.
        </p>
        <Button asChild className="mt-5">
          <Link to="/beneficiaries">Go to Beneficiaries</Link>
        </Button>
      </div>
    )
  } else {
    const badge = IDENTITY_BADGES[selected.identityStatus]
    documents = (
      <>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <Field label={FIELD_COPY.beneficiary} className="sm:max-w-sm sm:flex-1">
            {({ id }) => (
              <div className="flex items-center gap-2">
                <select id={id} className={selectClass} value={selected.id} onChange={(e) => onSelectBeneficiary(e.currentTarget.value)}>
                  {list.map((b) => (
                    <option key={b.id} value={b.id}>
                      {b.fullName}
                    </option>
                  ))}
                </select>
                <Badge variant={badge.variant} className="shrink-0">
                  {badge.label}
                </Badge>
              </div>
            )}
          </Field>
          <Button onClick={() => setUploading(true)}>
            <FileUp aria-hidden /> Upload Document
          </Button>
        </div>
        <DocumentList beneficiary={selected} reviewers={reviewers} onUpload={() => setUploading(true)} />
      </>
    )
  }

  let review: React.ReactNode
  const reviewQueries = [beneficiaries, approvers, policies]
  const reviewFailed = reviewQueries.find((q) => q.isError)
  if (reviewQueries.some((q) => q.isPending)) {
    review = (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-12">
        <Spinner className="size-7" label="Loading reviews" />
      </div>
    )
  } else if (reviewFailed) {
    review = (
      <LoadError
        title="The reviews could not be loaded"
        message={errorText(reviewFailed.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => reviewQueries.filter((q) => q.isError).forEach((q) => q.refetch())}
        retrying={reviewQueries.some((q) => q.isFetching)}
      />
    )
  } else {
    review = <ReviewOverview beneficiaries={list} approvers={approvers.data ?? []} policies={policies.data ?? []} />
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        title="Identity Verification"
        description="Your beneficiaries’ government-issued IDs, checked by your approvers. Policies that require identity verification release nothing to a beneficiary until their document is verified."
      />

      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Tab)} className="grid gap-6">
        <Tabs.List aria-label="Identity verification" className="flex gap-1 rounded-lg bg-slate-100 p-1 sm:w-fit">
          <Tabs.Trigger value="documents" className={cn(tabClass, 'sm:whitespace-nowrap')}>
            <FolderOpen className="size-4 shrink-0" aria-hidden /> Document Management
          </Tabs.Trigger>
          <Tabs.Trigger value="review" className={cn(tabClass, 'sm:whitespace-nowrap')}>
            <ClipboardCheck className="size-4 shrink-0" aria-hidden /> Verification Review
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="documents" className="grid gap-8 focus-visible:outline-none">
          <section aria-labelledby="documents-title" className="grid gap-4">
            <h2 id="documents-title" className="sr-only">
              Documents
            </h2>
            {documents}
          </section>
          <PoliciesSection approvers={approvers.data ?? []} beneficiaries={list} />
        </Tabs.Content>
        <Tabs.Content value="review" className="focus-visible:outline-none">
          {review}
        </Tabs.Content>
      </Tabs.Root>

      <PageUploadDialog
        open={uploading}
        onOpenChange={setUploading}
        beneficiaries={list}
        beneficiaryId={selected?.id}
        onUploaded={(id) => {
          if (id !== selected?.id) onSelectBeneficiary(id)
        }}
      />
    </div>
  )
}
