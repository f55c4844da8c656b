import { useQuery, useQueryClient } from '@tanstack/react-query'
import { CircleCheckBig, CircleX, Clock } from 'lucide-react'
import { useState } from 'react'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import { RELEASE_LIMITS } from '../../../contract/releases'
import { RENEWAL_MESSAGES, type RenewalDecisionView } from '../../../contract/renewals'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, LinkFormPage, LoadingLinkPage } from '@/features/circle/link-page'
import { renewalDecisionKey, renewalDecisionQuery, useDecideRenewal } from './api'
import { renewalAnswer } from './approval-state'
import { isBadLink, isConflict } from './http'
import { Detail, FailureAlert, LoadFailedPage } from './link-parts'

const STATUS: Record<RenewalDecisionView['status'], { label: string; variant: 'warning' | 'success' | 'secondary' }> = {
  waiting: { label: 'Waiting for an answer', variant: 'warning' },
  approved: { label: 'Allowed', variant: 'success' },
  refused: { label: 'Refused', variant: 'secondary' },
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' })

/**
 * /approve-renewal?token=… : the owner, or one of their approvers, answers an heir's request for
 * more downloads and time on items that ran out. The signed link says who is answering.
 */
export function ApproveRenewalPage({ token }: { token: string | undefined }) {
  if (!token) return <InvalidLinkPage reason={CIRCLE_MESSAGES.noToken} />
  return <Renewal token={token} />
}

function Renewal({ token }: { token: string }) {
  const view = useQuery(renewalDecisionQuery(token))
  if (view.isPending) return <LoadingLinkPage label="Loading the request" />
  if (view.isError) {
    return <LoadFailedPage error={view.error} title="The request could not be loaded" onRetry={() => view.refetch()} retrying={view.isFetching} />
  }
  return <RenewalView token={token} view={view.data} />
}

function RenewalView({ token, view }: { token: string; view: RenewalDecisionView }) {
  const queryClient = useQueryClient()
  const decide = useDecideRenewal()
  const [confirmRefuse, setConfirmRefuse] = useState(false)
  const status = STATUS[view.status]
  const answer = renewalAnswer(view)
  const items = view.itemCount === 1 ? '1 item' : `${view.itemCount} items`

  const submit = (decision: 'approved' | 'refused') =>
    decide.mutate(
      { token, decision },
      {
        onSuccess: ({ message: _message, ...next }) => queryClient.setQueryData(renewalDecisionKey(token), next),
        // Answered meanwhile: show where things stand, with the server's words.
        onError: (error) => {
          if (isConflict(error)) void queryClient.invalidateQueries({ queryKey: renewalDecisionKey(token) })
        },
        onSettled: () => setConfirmRefuse(false),
      },
    )

  if (decide.isError && isBadLink(decide.error)) return <InvalidLinkPage reason={linkErrorText(decide.error)} />

  return (
    <LinkFormPage
      icon={Clock}
      title="More time for a beneficiary"
      intro={
        view.asOwner ? (
          <>
            {view.yourName}, {view.heirName} can no longer download what your vault released to them: the downloads were used up, or
            the time ran out. They ask to be allowed again.
          </>
        ) : (
          <>
            {view.yourName}, {view.heirName} can no longer download what {view.ownerName}’s vault released to them: the downloads were
            used up, or the time ran out. They ask to be allowed again, and {view.ownerName} named you as one of the people who can
            decide.
          </>
        )
      }
    >
      <Card className="grid gap-5 p-5 sm:p-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold text-slate-900">The request</h2>
          <Badge variant={status.variant}>{status.label}</Badge>
        </div>
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Detail label="Vault owner">{view.ownerName}</Detail>
          <Detail label="Beneficiary">{view.heirName}</Detail>
          <Detail label="Items">{items}</Detail>
          <Detail label="Asked on">{day(view.requestedAt)}</Detail>
        </dl>
        <p className="text-sm text-slate-600">
          If you allow it, each item can be downloaded {RELEASE_LIMITS.maxDownloads} more times over the next {RELEASE_LIMITS.assetTtlDays}{' '}
          days. Items the owner withdrew stay withdrawn. The first person to allow it decides.
        </p>
      </Card>

      <Card className="grid gap-5 p-5 sm:p-6">
        <h2 className="text-lg font-semibold text-slate-900">Your answer</h2>
        {decide.isSuccess && (
          <Alert variant="success" role="status">
            <AlertTitle>Thank you</AlertTitle>
            <AlertDescription>{decide.data.message}</AlertDescription>
          </Alert>
        )}
        {decide.isError && <FailureAlert title="Your answer was not recorded" error={decide.error} />}
        {answer === 'answered' ? (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            {view.yourDecision === 'approved' ? (
              <CircleCheckBig className="size-4 text-emerald-600" aria-hidden />
            ) : (
              <CircleX className="size-4 text-red-600" aria-hidden />
            )}
            {view.yourDecision === 'approved' ? 'You allowed this request.' : 'You refused this request.'}
          </p>
        ) : answer === 'decided' ? (
          <p className="text-sm text-slate-700">{RENEWAL_MESSAGES.alreadyDecided}</p>
        ) : (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => setConfirmRefuse(true)} disabled={decide.isPending}>
              Refuse
            </Button>
            <Button onClick={() => submit('approved')} disabled={decide.isPending}>
              {decide.isPending && decide.variables?.decision === 'approved' ? 'Allowing...' : 'Allow more time'}
            </Button>
          </div>
        )}
      </Card>
      <ConfirmDialog
        open={confirmRefuse}
        onOpenChange={(next) => !decide.isPending && setConfirmRefuse(next)}
        title="Refuse this request?"
        description={`${view.heirName} will be told that the request was refused once everyone asked has refused${view.asOwner ? '; as the owner, your refusal ends it at once' : ''}. You cannot change your answer afterwards.`}
        confirmLabel={decide.isPending ? 'Refusing...' : 'Refuse the request'}
        pending={decide.isPending}
        onConfirm={() => submit('refused')}
      />
    </LinkFormPage>
  )
}
