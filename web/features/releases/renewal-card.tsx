import { Clock, Hourglass } from 'lucide-react'
import { useState } from 'react'
import { RENEWAL_MESSAGES, type RenewalState } from '../../../contract/renewals'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { useRequestRenewal } from './api'
import { FailureAlert } from './link-parts'
import { renewalCard } from './renewal-rules'
import type { BeneficiaryLink } from './portal'

/**
 * Above the released items, once something ran out (its downloads used up, or its time): who can
 * allow more, named from the facts, and one "Ask for more time" for everything that ran out; or the
 * request already waiting; or, when nobody can answer any more, that plainly, with no button.
 */
export function RenewalCard({
  link,
  renewal,
  itemCount,
  onAsked,
}: {
  link: BeneficiaryLink
  renewal: RenewalState
  /** The items that ran out, as the page counts them. */
  itemCount: number
  onAsked: (renewal: RenewalState) => void
}) {
  const request = useRequestRenewal(link)
  const [confirming, setConfirming] = useState(false)
  const shows = renewalCard(renewal)
  if (shows === 'waiting' && renewal.waiting) {
    return (
      <Alert variant="info" role="status" data-testid="renewal">
        <Hourglass aria-hidden />
        <AlertDescription>{RENEWAL_MESSAGES.waiting(renewal.waiting.requestedAt)}</AlertDescription>
      </Alert>
    )
  }
  if (shows === 'none') return null
  return (
    <Card className="grid gap-3 p-5 sm:p-6" data-testid="renewal">
      <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Clock className="size-5 text-slate-500" aria-hidden />
        Items that ran out
      </h2>
      <p className="text-sm text-slate-700">{RENEWAL_MESSAGES.whoCanHelp(renewal.helpers)}</p>
      {renewal.lastOutcome?.status === 'refused' && <p className="text-sm text-slate-600">{RENEWAL_MESSAGES.lastRefused}</p>}
      {request.isError && <FailureAlert error={request.error} />}
      {shows === 'ask' && (
        <Button className="justify-self-start" onClick={() => setConfirming(true)} disabled={request.isPending}>
          {RENEWAL_MESSAGES.askButton}
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(next) => !request.isPending && setConfirming(next)}
        title={RENEWAL_MESSAGES.askTitle}
        description={RENEWAL_MESSAGES.askBody(renewal.helpers, itemCount)}
        confirmLabel={request.isPending ? 'Sending...' : 'Send the request'}
        destructive={false}
        pending={request.isPending}
        onConfirm={() =>
          request.mutate(undefined, {
            onSuccess: (done) => onAsked(done.renewal),
            onSettled: () => setConfirming(false),
          })
        }
      />
    </Card>
  )
}
