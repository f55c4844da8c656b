import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CircleCheckBig, CircleX, ShieldCheck } from 'lucide-react'
import { useId, useState } from 'react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import type { ReleaseApprovalView } from '../../../contract/releases'
import { TRIGGER_TYPE_LABELS, type TriggerType } from '../../../contract/triggers'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkFormPage, LoadingLinkPage } from '@/features/circle/link-page'
import { approvalKey, approvalQuery, useDecideRelease } from './api'
import { approvalStanding, canDecide } from './approval-state'
import { isBadLink, isConflict } from './http'
import { Detail, FailureAlert, LoadFailedPage } from './link-parts'

const STATUS: Record<ReleaseApprovalView['status'], { label: string; variant: 'warning' | 'success' | 'secondary'; text: string }> = {
  waiting: { label: 'Waiting for approvals', variant: 'warning', text: 'Nothing is released until enough approvers agree.' },
  released: { label: 'Released', variant: 'success', text: 'This release has already been carried out.' },
  cancelled: { label: 'Cancelled', variant: 'secondary', text: 'This release was cancelled; nothing was released.' },
}

const AGREED = {
  label: 'Approved, not yet released',
  variant: 'success' as const,
  text: 'Enough approvers agreed. The release still waits for its time (the policy’s delay, and at least the owner’s safety window unless the owner started it), and the owner can stop it until then.',
}

const DECISION_TEXT: Record<'approved' | 'rejected', string> = {
  approved: 'You approved this release.',
  rejected: 'You rejected this release.',
}

function triggerLabel(type: string): string {
  return TRIGGER_TYPE_LABELS[type as TriggerType]?.title ?? type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())
}

/**
 * /approve-release?token=… : an approver named in the owner's policy signs off (or refuses) a
 * release waiting for approvals. The signed link says who they are.
 */
export function ApproveReleasePage({ token }: { token: string | undefined }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return <Approval token={token} />
}

function Approval({ token }: { token: string }) {
  const view = useQuery(approvalQuery(token))
  if (view.isPending) return <LoadingLinkPage label="Loading the release" />
  if (view.isError) {
    return <LoadFailedPage error={view.error} title="The release could not be loaded" onRetry={() => view.refetch()} retrying={view.isFetching} />
  }
  return <ApprovalView token={token} view={view.data} />
}

function ApprovalView({ token, view }: { token: string; view: ReleaseApprovalView }) {
  const queryClient = useQueryClient()
  const decide = useDecideRelease()
  const notesId = useId()
  const [notes, setNotes] = useState('')
  const [confirmReject, setConfirmReject] = useState(false)
  const standing = approvalStanding(view)
  const status = standing === 'agreed' ? AGREED : STATUS[standing]
  const open = canDecide(view)

  const submit = (decision: 'approved' | 'rejected') =>
    decide.mutate(
      { token, decision, notes: notes.trim() },
      {
        onSuccess: (next) => queryClient.setQueryData(approvalKey(token), next),
        // Answered or decided meanwhile: show where things stand, with the server's words.
        onError: (error) => {
          if (isConflict(error)) void queryClient.invalidateQueries({ queryKey: approvalKey(token) })
        },
        onSettled: () => setConfirmReject(false),
      },
    )

  if (decide.isError && isBadLink(decide.error)) return <InvalidLinkPage reason={linkErrorText(decide.error)} />

  return (
    <LinkFormPage
      icon={ShieldCheck}
      title="Approve a release"
      intro={
        <>
          {view.approverName}, {view.ownerName} named you as an approver. A release of their vault is waiting for approvals: check
          the details, then approve or reject it.
        </>
      }
    >
      <Card className="grid gap-5 p-5 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold text-slate-900">The release</h2>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Detail label="Vault owner">{view.ownerName}</Detail>
          <Detail label="Policy">{view.policyName}</Detail>
          <Detail label="Trigger">{triggerLabel(view.triggerType)}</Detail>
          <Detail label="Items">{view.itemCount === 1 ? '1 item' : `${view.itemCount} items`}</Detail>
          <Detail label="Beneficiaries">{view.beneficiaryNames.length ? view.beneficiaryNames.join(', ') : '—'}</Detail>
          <Detail label="Approvals">
            {view.approvals} of {view.requiredApprovals}
          </Detail>
          {view.reason && (
            <div className="sm:col-span-2">
              <Detail label="Reason">{view.reason}</Detail>
            </div>
          )}
        </dl>
        <p className="text-sm text-slate-600">{status.text}</p>
      </Card>

      <Card className="grid gap-5 p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Your decision</h2>
        {decide.isSuccess && (
          <Alert variant="success" role="status">
            <AlertTitle>Thank you</AlertTitle>
            <AlertDescription>
              Your decision is recorded. Approvals: {view.approvals} of {view.requiredApprovals}.
            </AlertDescription>
          </Alert>
        )}
        {decide.isError && <FailureAlert title="Your decision was not recorded" error={decide.error} />}
        {view.yourDecision ? (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            {view.yourDecision === 'approved' ? (
              <CircleCheckBig className="size-4 text-emerald-600" aria-hidden />
            ) : (
              <CircleX className="size-4 text-red-600" aria-hidden />
            )}
            {DECISION_TEXT[view.yourDecision]}
          </p>
        ) : !open ? (
          <p className="text-sm text-slate-700">This release is no longer waiting for a decision.</p>
        ) : (
          <>
            <div className="grid gap-1.5">
              <Label htmlFor={notesId}>Notes (optional)</Label>
              <Textarea id={notesId} rows={3} maxLength={1000} value={notes} onChange={(e) => setNotes(e.target.value)} disabled={decide.isPending} />
              <p className="text-xs text-slate-500">Your notes are recorded with your decision.</p>
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => setConfirmReject(true)} disabled={decide.isPending}>
                Reject
              </Button>
              <Button onClick={() => submit('approved')} disabled={decide.isPending}>
                {decide.isPending && decide.variables?.decision === 'approved' ? 'Approving...' : 'Approve'}
              </Button>
            </div>
          </>
        )}
      </Card>
      <ConfirmDialog
        open={confirmReject}
        onOpenChange={(next) => !decide.isPending && setConfirmReject(next)}
        title="Reject this release?"
        description={`Your rejection of the release of ${view.ownerName}’s vault is recorded in your name. You cannot change your answer afterwards.`}
        confirmLabel={decide.isPending ? 'Rejecting...' : 'Reject release'}
        pending={decide.isPending}
        onConfirm={() => submit('rejected')}
      />
    </LinkFormPage>
  )
}
