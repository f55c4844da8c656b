import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CircleCheckBig, CircleX, ClipboardCheck, Info, ShieldCheck } from 'lucide-react'
import { useForm, useWatch } from 'react-hook-form'
import { z } from 'zod'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { DOCUMENT_TYPE_LABELS, IDENTITY_MESSAGES, type IdentityReviewView } from '../../../contract/identity'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Field, InputField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/textarea'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkDonePage, LinkFormPage, LinkPage, LoadingLinkPage, ReturnHomeButton, RetryLinkPage } from '@/features/circle/link-page'
import { toastFailure } from '@/features/circle/notify'
import { ApiRequestError } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { reviewFileQuery, reviewViewKey, reviewViewQuery, useSubmitReview, type FileSide } from './api'
import { DECIDED_TEXT, IDENTITY_TOASTS, REVIEW_DONE_TEXT, REVIEW_PAGE_COPY } from './copy'
import { DocumentFile } from './document-file'
import { DocumentDetails } from './document-list'
import { StatusBadge } from './document-parts'
import { reviewOpen } from './reviewers'

const decisionSchema = z.object({
  status: z.string().pipe(z.enum(['approved', 'rejected'], { error: REVIEW_PAGE_COPY.decisionRequired })),
  verificationNotes: z.string().trim().min(1, IDENTITY_MESSAGES.notesRequired).max(2000, 'Verification notes must be at most 2000 characters'),
  approverSignature: z.string().trim().max(200, 'Signature must be at most 200 characters'),
})
type DecisionInput = { status: string; verificationNotes: string; approverSignature: string }
type DecisionOutput = z.output<typeof decisionSchema>

/** A link the server does not accept (bad, expired, replaced): 400 or 404 with its reason. */
function isBadLink(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 400 || error.status === 404)
}

/**
 * /review-identity?token=… (seeds 001 §5 'Verification review'): an approver, from the link e-mailed
 * to them, sees one beneficiary's document and approves or rejects it with notes. No account: the
 * signed link says who they are, so nobody can review in another approver's name.
 */
export function ReviewIdentityPage({ token }: { token?: string }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return <Review token={token} />
}

function Review({ token }: { token: string }) {
  const view = useQuery(reviewViewQuery(token))
  const submit = useSubmitReview()

  if (view.isPending) return <LoadingLinkPage label="Loading the document" />
  if (view.isError) {
    if (isBadLink(view.error)) return <InvalidLinkPage reason={linkErrorText(view.error)} />
    return (
      <RetryLinkPage
        title="The document could not be loaded"
        description={linkErrorText(view.error, IDENTITY_TOASTS.fallback)}
        onRetry={() => view.refetch()}
        retrying={view.isFetching}
      />
    )
  }
  if (submit.isSuccess) {
    const status = submit.data.documentStatus
    return (
      <LinkDonePage title="Thank you" description="Your review is recorded.">
        <div className="grid justify-items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 text-center text-sm text-slate-700">
          <p className="flex items-center gap-2">
            Document status: <StatusBadge status={status} />
          </p>
          <p>{REVIEW_DONE_TEXT[status]}</p>
        </div>
      </LinkDonePage>
    )
  }
  if (submit.isError && isBadLink(submit.error)) return <InvalidLinkPage reason={linkErrorText(submit.error)} />
  if (!reviewOpen(view.data)) return <AlreadyDone view={view.data} />
  return <ReviewForm token={token} view={view.data} submit={submit} />
}

function AlreadyDone({ view }: { view: IdentityReviewView }) {
  const reviewed = view.alreadyReviewed
  return (
    <LinkPage
      icon={reviewed ? ClipboardCheck : view.status === 'rejected' ? CircleX : CircleCheckBig}
      tone={reviewed ? 'brand' : view.status === 'rejected' ? 'destructive' : 'success'}
      title={reviewed ? 'Already reviewed' : 'No review needed'}
      description={reviewed ? IDENTITY_MESSAGES.alreadyReviewed : IDENTITY_MESSAGES.alreadyDecided}
    >
      <div className="grid justify-items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-4 text-center text-sm text-slate-700">
        <p>
          {view.beneficiaryName}’s {DOCUMENT_TYPE_LABELS[view.documentType].toLowerCase()}, for {view.ownerName}
        </p>
        <p className="flex items-center gap-2">
          Status: <StatusBadge status={view.status} />
        </p>
        <p>{DECIDED_TEXT[view.status]}</p>
      </div>
      <ReturnHomeButton variant="outline" />
    </LinkPage>
  )
}

function DocumentSide({ token, side, view }: { token: string; side: FileSide; view: IdentityReviewView }) {
  const label = DOCUMENT_TYPE_LABELS[view.documentType].toLowerCase()
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-medium text-slate-800">{side === 'front' ? 'Front' : 'Back'}</h3>
      <DocumentFile
        query={reviewFileQuery(token, side)}
        alt={`${side === 'front' ? 'Front' : 'Back'} of ${view.beneficiaryName}’s ${label}`}
        fileName={`${view.beneficiaryName}-${label}-${side}`.toLowerCase().replace(/[^a-z0-9]+/g, '-')}
      />
    </div>
  )
}

const DECISION_OPTIONS = {
  approved: { label: REVIEW_PAGE_COPY.approve, hint: REVIEW_PAGE_COPY.approveHint, tone: 'success' },
  rejected: { label: REVIEW_PAGE_COPY.reject, hint: REVIEW_PAGE_COPY.rejectHint, tone: 'destructive' },
} as const

function DecisionOption({
  value,
  selected,
  register,
}: {
  value: 'approved' | 'rejected'
  selected: boolean
  register: ReturnType<ReturnType<typeof useForm<DecisionInput, unknown, DecisionOutput>>['register']>
}) {
  const { label, hint, tone } = DECISION_OPTIONS[value]
  return (
    <label
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
        selected
          ? tone === 'success'
            ? 'border-emerald-500 bg-emerald-50'
            : 'border-red-500 bg-red-50'
          : 'border-slate-300 bg-white hover:bg-slate-50',
      )}
    >
      <input type="radio" value={value} className="mt-1 size-4 accent-brand-700" {...register} />
      <span className="grid gap-0.5">
        <span className="flex items-center gap-1.5 font-medium text-slate-900">
          {tone === 'success' ? (
            <CircleCheckBig className="size-4 text-emerald-600" aria-hidden />
          ) : (
            <CircleX className="size-4 text-red-600" aria-hidden />
          )}
          {label}
        </span>
        <span className="text-sm text-slate-600">{hint}</span>
      </span>
    </label>
  )
}

function ReviewForm({ token, view, submit }: { token: string; view: IdentityReviewView; submit: ReturnType<typeof useSubmitReview> }) {
  const queryClient = useQueryClient()
  const form = useForm<DecisionInput, unknown, DecisionOutput>({
    resolver: zodResolver(decisionSchema),
    defaultValues: { status: '', verificationNotes: '', approverSignature: '' },
  })
  const { errors } = form.formState
  const status = useWatch({ control: form.control, name: 'status' })
  const statusRegister = form.register('status')

  const onSubmit = form.handleSubmit((values) =>
    submit.mutate(
      { token, status: values.status, verificationNotes: values.verificationNotes, approverSignature: values.approverSignature || undefined },
      {
        // The page changes to the outcome: show it from its top (the button is at the bottom).
        onSettled: () => window.scrollTo({ top: 0 }),
        onError: (error) => {
          // Reviewed or decided meanwhile: the page shows where things stand.
          if (error instanceof ApiRequestError && error.status === 409) {
            void queryClient.invalidateQueries({ queryKey: reviewViewKey(token) })
            return
          }
          if (!isBadLink(error)) toastFailure(IDENTITY_TOASTS.reviewFailed, error)
        },
      },
    ),
  )

  return (
    <LinkFormPage
      icon={ShieldCheck}
      title={REVIEW_PAGE_COPY.title}
      intro={REVIEW_PAGE_COPY.intro(view.approverName, view.ownerName, view.beneficiaryName)}
      aside={
        <p className="flex gap-2 rounded-md bg-slate-50 p-3 text-xs text-slate-600">
          <Info className="size-4 shrink-0 text-slate-500" aria-hidden />
          {REVIEW_PAGE_COPY.linkIsYours}
        </p>
      }
      wide
    >
      <Card className="grid gap-5 p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">The document</h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Beneficiary</dt>
            <dd className="mt-0.5 break-words text-sm text-slate-900">{view.beneficiaryName}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Vault owner</dt>
            <dd className="mt-0.5 break-words text-sm text-slate-900">{view.ownerName}</dd>
          </div>
          <div>
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Document type</dt>
            <dd className="mt-0.5 text-sm text-slate-900">{DOCUMENT_TYPE_LABELS[view.documentType]}</dd>
          </div>
          <DocumentDetails document={view} />
        </dl>
        <div className={cn('grid gap-4', view.hasBack && 'md:grid-cols-2')}>
          <DocumentSide token={token} side="front" view={view} />
          {view.hasBack && <DocumentSide token={token} side="back" view={view} />}
        </div>
      </Card>

      <Card className="p-5 sm:p-6">
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <fieldset className="grid gap-2" aria-describedby={errors.status ? 'decision-error' : undefined}>
            <legend className="mb-2 text-lg font-semibold text-slate-900">{REVIEW_PAGE_COPY.decision}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <DecisionOption value="approved" selected={status === 'approved'} register={statusRegister} />
              <DecisionOption value="rejected" selected={status === 'rejected'} register={statusRegister} />
            </div>
            {errors.status && (
              <p id="decision-error" role="alert" className="text-sm text-red-600">
                {errors.status.message}
              </p>
            )}
          </fieldset>
          <Field
            label={REVIEW_PAGE_COPY.notes}
            error={errors.verificationNotes?.message}
            hint={status === 'rejected' ? REVIEW_PAGE_COPY.notesHintReject : REVIEW_PAGE_COPY.notesHint}
          >
            {({ id, describedBy, invalid }) => (
              <Textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} rows={4} {...form.register('verificationNotes')} />
            )}
          </Field>
          <InputField
            label={REVIEW_PAGE_COPY.signature}
            hint={REVIEW_PAGE_COPY.signatureHint}
            error={errors.approverSignature?.message}
            autoComplete="name"
            {...form.register('approverSignature')}
          />
          {submit.isError && !isBadLink(submit.error) && (
            <Alert variant="destructive">
              <AlertTitle>{IDENTITY_TOASTS.reviewFailed}</AlertTitle>
              <AlertDescription>{linkErrorText(submit.error, IDENTITY_TOASTS.fallback)}</AlertDescription>
            </Alert>
          )}
          <Button type="submit" size="lg" disabled={submit.isPending} className="sm:justify-self-end">
            {submit.isPending ? REVIEW_PAGE_COPY.submitting : REVIEW_PAGE_COPY.submit}
          </Button>
        </form>
      </Card>
    </LinkFormPage>
  )
}
