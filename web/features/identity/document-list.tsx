import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Eye, FileUp, IdCard } from 'lucide-react'
import { Tabs } from 'radix-ui'
import { useEffect, useState } from 'react'
import type { Approver, Beneficiary } from '../../../contract/circle'
import { DOCUMENT_TYPE_LABELS, type IdentityDocument } from '../../../contract/identity'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { beneficiariesKey } from '@/features/circle/api'
import { errorText } from '@/lib/api-client'
import { documentsQuery, ownerFileQuery, type FileSide } from './api'
import { formatDay, formatMoment, IDENTITY_TOASTS, isExpired } from './copy'
import { DocumentFile } from './document-file'
import { ApprovalCount, ReviewerLists, StatusBadge } from './document-parts'
import { identityBadgeStale, reviewProgress } from './reviewers'

export const tabClass =
  'inline-flex flex-1 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm'

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  )
}

export function DocumentDetails({ document }: { document: Pick<IdentityDocument, 'documentNumber' | 'issuingAuthority' | 'expirationDate'> }) {
  const expired = isExpired(document.expirationDate)
  return (
    <>
      <Detail label="Number">{document.documentNumber || <span className="text-slate-500">Not given</span>}</Detail>
      <Detail label="Issuing authority">{document.issuingAuthority || <span className="text-slate-500">Not given</span>}</Detail>
      <Detail label="Expires">
        {document.expirationDate ? (
          <span className="inline-flex flex-wrap items-center gap-1.5">
            {formatDay(document.expirationDate)}
            {expired && <Badge variant="destructive">Expired</Badge>}
          </span>
        ) : (
          <span className="text-slate-500">Not given</span>
        )}
      </Detail>
    </>
  )
}

function DocumentCard({
  document,
  reviewers,
  onView,
}: {
  document: IdentityDocument
  reviewers: Approver[]
  onView: () => void
}) {
  const label = DOCUMENT_TYPE_LABELS[document.documentType]
  const progress = reviewProgress(document, reviewers)
  const pending = document.status === 'pending'
  return (
    <li>
      <Card className="grid gap-4 p-4 sm:p-5" data-testid="identity-document">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700" aria-hidden>
              <IdCard className="size-5" />
            </span>
            <div className="min-w-0">
              <h3 className="font-semibold text-slate-900">{label}</h3>
              <p className="text-xs text-slate-500">Submitted {formatMoment(document.submittedAt)}</p>
            </div>
          </div>
          <div className="flex items-center gap-2">
            <StatusBadge status={document.status} />
            <Button variant="outline" size="sm" onClick={onView} aria-label={`View ${label}`}>
              <Eye aria-hidden /> View
            </Button>
          </div>
        </div>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <DocumentDetails document={document} />
          {document.decidedAt && <Detail label="Decided">{formatMoment(document.decidedAt)}</Detail>}
        </dl>
        {document.status === 'rejected' && document.rejectionReason && (
          <Alert variant="destructive">
            <AlertTitle>Rejection reason</AlertTitle>
            <AlertDescription className="whitespace-pre-line break-words">{document.rejectionReason}</AlertDescription>
          </Alert>
        )}
        <div className="grid gap-3 border-t border-slate-100 pt-4">
          <ApprovalCount approvals={progress.approvals} required={progress.required} />
          <ReviewerLists progress={progress} pending={pending} />
        </div>
      </Card>
    </li>
  )
}

/** The owner's look at a document's front (and back): images inline, PDFs to download. */
function ViewDocumentDialog({
  document,
  beneficiaryName,
  onOpenChange,
}: {
  document: IdentityDocument | null
  beneficiaryName: string
  onOpenChange: (open: boolean) => void
}) {
  const [side, setSide] = useState<FileSide>('front')
  const label = document ? DOCUMENT_TYPE_LABELS[document.documentType] : ''
  const fileName = `${beneficiaryName}-${label}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
  const file = (which: FileSide) =>
    document && (
      <DocumentFile
        query={ownerFileQuery(document.id, which)}
        alt={`${which === 'front' ? 'Front' : 'Back'} of ${beneficiaryName}’s ${label.toLowerCase()}`}
        fileName={`${fileName}-${which}`}
      />
    )
  return (
    <Dialog
      open={document !== null}
      onOpenChange={(open) => {
        if (!open) setSide('front')
        onOpenChange(open)
      }}
    >
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            {beneficiaryName}’s {label.toLowerCase()}
          </DialogTitle>
          <DialogDescription>The copy your approvers review. It is shown only to you and to them.</DialogDescription>
        </DialogHeader>
        {document?.hasBack ? (
          <Tabs.Root value={side} onValueChange={(value) => setSide(value as FileSide)} className="grid gap-3">
            <Tabs.List aria-label="Side" className="flex gap-1 rounded-lg bg-slate-100 p-1">
              <Tabs.Trigger value="front" className={tabClass}>
                Front
              </Tabs.Trigger>
              <Tabs.Trigger value="back" className={tabClass}>
                Back
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="front">{file('front')}</Tabs.Content>
            <Tabs.Content value="back">{file('back')}</Tabs.Content>
          </Tabs.Root>
        ) : (
          file('front')
        )}
      </DialogContent>
    </Dialog>
  )
}

/** One beneficiary's documents, newest first. */
export function DocumentList({
  beneficiary,
  reviewers,
  onUpload,
}: {
  beneficiary: Beneficiary
  reviewers: Approver[]
  onUpload: () => void
}) {
  const documents = useQuery(documentsQuery(beneficiary.id))
  const [viewing, setViewing] = useState<IdentityDocument | null>(null)
  const queryClient = useQueryClient()

  // An approver may have decided since the beneficiaries were loaded: when the newest document
  // says otherwise than the beneficiary's badge, reload the beneficiaries once.
  const newest = documents.data?.[0]
  const stale = identityBadgeStale(newest, beneficiary)
  useEffect(() => {
    if (stale) void queryClient.invalidateQueries({ queryKey: beneficiariesKey, exact: true })
    // Only when the documents were (re)loaded, so a lasting difference cannot loop.
  }, [documents.dataUpdatedAt])

  if (documents.isPending) {
    return (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-12">
        <Spinner className="size-7" label="Loading documents" />
      </div>
    )
  }
  if (documents.isError) {
    return (
      <LoadError
        title={`${beneficiary.fullName}’s documents could not be loaded`}
        message={errorText(documents.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => documents.refetch()}
        retrying={documents.isFetching}
      />
    )
  }
  if (documents.data.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <IdCard className="mx-auto size-10 text-slate-400" aria-hidden />
        <h3 className="mt-3 font-semibold text-slate-900">No documents for {beneficiary.fullName} yet</h3>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
          Upload a government-issued ID. Your approvers will be e-mailed a private link to review it.
        </p>
        <Button className="mt-5" onClick={onUpload}>
          <FileUp aria-hidden /> Upload Document
        </Button>
      </div>
    )
  }
  return (
    <>
      <ul className="grid gap-4" aria-label={`${beneficiary.fullName}’s documents`}>
        {documents.data.map((document) => (
          <DocumentCard key={document.id} document={document} reviewers={reviewers} onView={() => setViewing(document)} />
        ))}
      </ul>
      <ViewDocumentDialog document={viewing} beneficiaryName={beneficiary.fullName} onOpenChange={(open) => !open && setViewing(null)} />
    </>
  )
}
