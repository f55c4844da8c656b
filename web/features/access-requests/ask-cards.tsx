import { DoorOpen } from 'lucide-react'
import { useId, useState } from 'react'
import { accessDate, type RequestablePolicy } from '../../../contract/access-requests'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { linkErrorText } from '@/features/circle/api'
import { useAskForAccess, useRequesterView, type RequesterLink } from './api'
import { askStateText, canAsk } from './request-lines'

function AskCard({ link, policy }: { link: RequesterLink; policy: RequestablePolicy }) {
  const ask = useAskForAccess(link)
  const [confirming, setConfirming] = useState(false)
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3 rounded-lg border border-slate-200 p-4" data-testid="access-request-card">
      <h2 id={`${id}-title`} className="flex items-center gap-2 font-semibold text-slate-900">
        <DoorOpen className="size-4 text-brand-700" aria-hidden /> Ask for access: {policy.policyName}
      </h2>
      <p className="text-sm text-slate-700" data-testid="access-request-state">
        {askStateText(policy)}
      </p>
      {canAsk(policy) && (
        <Button onClick={() => setConfirming(true)} disabled={ask.isPending} className="sm:justify-self-start">
          Ask for access
        </Button>
      )}
      {ask.isSuccess && (
        <Alert variant="success" role="status">
          <AlertDescription>{ask.data.message}</AlertDescription>
        </Alert>
      )}
      {ask.isError && (
        <Alert variant="destructive">
          <AlertDescription>{linkErrorText(ask.error, 'The request could not be sent. Please try again.')}</AlertDescription>
        </Alert>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Ask for access?"
        description={`We will tell ${policy.ownerName} at once. Unless they refuse, access opens on ${accessDate(policy.opensAt)}.`}
        confirmLabel="Send request"
        destructive={false}
        pending={ask.isPending}
        onConfirm={() => ask.mutate(policy.policyId, { onSettled: () => setConfirming(false) })}
      />
    </section>
  )
}

/** Every policy this person may ask for, each with its state; nothing when there is none. */
export function AskForAccessCards({ link }: { link: RequesterLink }) {
  const view = useRequesterView(link)
  if (view.isPending) return <Spinner className="size-5 justify-self-center" label="Loading what you can ask for" />
  if (view.isError) return link.kind === 'approver' ? <Alert variant="destructive"><AlertDescription>{linkErrorText(view.error, 'This link does not work.')}</AlertDescription></Alert> : null
  if (view.data.policies.length === 0) {
    return link.kind === 'approver' ? <p className="text-sm text-slate-600">There is nothing you can ask for at the moment.</p> : null
  }
  return (
    <div className="grid gap-3">
      {view.data.policies.map((p) => (
        <AskCard key={p.policyId} link={link} policy={p} />
      ))}
    </div>
  )
}
