import { useSearch } from '@tanstack/react-router'
import { DoorOpen } from 'lucide-react'
import { useState } from 'react'
import { accessDate, type AccessRequest } from '../../../contract/access-requests'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { cn } from '@/lib/utils'
import { useDecideAccessRequest, useOwnerAccessRequests } from './api'
import { canAnswer, previewLine, requestLine, requestsCardShown } from './request-lines'

const STATUS: Record<AccessRequest['status'], { label: string; variant: 'warning' | 'secondary' | 'success' | 'destructive' }> = {
  waiting: { label: 'Waiting', variant: 'warning' },
  approved: { label: 'Approved', variant: 'success' },
  released: { label: 'Released', variant: 'success' },
  refused: { label: 'Refused', variant: 'destructive' },
  withdrawn: { label: 'Ended', variant: 'secondary' },
}

/**
 * The Trigger Monitor's access requests: those waiting, with Approve now and Refuse, the decided
 * ones, and what a request on each policy that allows it would release, to whom and when.
 */
export function AccessRequestsCard() {
  const query = useOwnerAccessRequests()
  const decide = useDecideAccessRequest()
  const { request: highlighted } = useSearch({ strict: false }) as { request?: string }
  const [deciding, setDeciding] = useState<{ request: AccessRequest; decision: 'approve' | 'refuse' } | null>(null)
  if (!query.isPending && !query.isError && !requestsCardShown(query.data)) return null
  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={DoorOpen}>Access Requests</CardIconTitle>
        <CardDescription>People a policy lets ask for access. Unless you refuse in time, the policy’s items are released to them. Signing in or checking in does not stop a request.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {query.isPending ? (
          <Spinner className="size-5 justify-self-center" label="Loading access requests" />
        ) : query.isError ? (
          <LoadError title="Access requests could not be loaded" message={errorText(query.error, 'Please try again.')} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ) : (
          <>
            {query.data.requests.length > 0 && (
              <ul className="grid gap-2" aria-label="Requests">
                {query.data.requests.map((r) => (
                  <li
                    key={r.id}
                    aria-current={r.id === highlighted ? 'true' : undefined}
                    className={cn('grid gap-2 rounded-lg border border-slate-200 p-3', r.id === highlighted && 'border-brand-600 ring-1 ring-brand-600')}
                    data-testid="access-request"
                  >
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="font-medium text-slate-900">
                        {r.requesterName} asked for “{r.policyName}”
                      </p>
                      <Badge variant={STATUS[r.status].variant}>{STATUS[r.status].label}</Badge>
                    </div>
                    <p className="text-sm text-slate-600">
                      {requestLine(r)}
                    </p>
                    {canAnswer(r) && (
                      <div className="flex flex-wrap gap-2">
                        <Button size="sm" onClick={() => setDeciding({ request: r, decision: 'approve' })}>
                          Approve now
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setDeciding({ request: r, decision: 'refuse' })}>
                          Refuse
                        </Button>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {query.data.policies.length > 0 && (
              <div className="grid gap-2">
                <h3 className="text-sm font-semibold text-slate-900">If someone asked today</h3>
                <ul className="grid gap-1 text-sm text-slate-700" data-testid="access-request-preview">
                  {query.data.policies.map((p) => (
                    <li key={p.policyId}>{previewLine(p)}</li>
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={deciding !== null}
        onOpenChange={(open) => !open && setDeciding(null)}
        title={deciding?.decision === 'approve' ? 'Approve this request now?' : 'Refuse this request?'}
        description={
          deciding?.decision === 'approve'
            ? `${deciding.request.requesterName} gets access now instead of on ${accessDate(deciding.request.decideBy)}.`
            : `Nothing is released because of this request. ${deciding?.request.requesterName ?? ''} is told, and can ask again in a week.`
        }
        confirmLabel={deciding?.decision === 'approve' ? 'Approve now' : 'Refuse'}
        destructive={deciding?.decision === 'refuse'}
        pending={decide.isPending}
        onConfirm={() => {
          if (!deciding) return
          decide.mutate(
            { id: deciding.request.id, decision: deciding.decision },
            {
              onSuccess: () => {
                toast({ title: deciding.decision === 'approve' ? 'Request approved' : 'Request refused', variant: 'success' })
                setDeciding(null)
              },
              onError: (error) => {
                setDeciding(null)
                toast({ title: 'That did not work', description: errorText(error, 'Please try again.'), variant: 'destructive' })
              },
            },
          )
        }}
      />
    </Card>
  )
}
