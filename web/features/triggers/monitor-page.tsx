import { Link } from '@tanstack/react-router'
import { ArrowLeft, Gauge, ListChecks, RefreshCw, Send, X } from 'lucide-react'
import { useState } from 'react'
import { TRIGGER_TYPE_LABELS, type EngineStatus, type ReleaseSummary, type Trigger } from '../../../contract/triggers'
import { PageHeader } from '@/components/layout/page-header'
import { ConfirmDialog } from '@/components/ui/alert-dialog'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardIconTitle } from '@/components/ui/card'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useDecryptedMetadata } from '@/features/vault/items/decrypt-items'
import { useVaultItems } from '@/features/vault/items/api'
import { useCancelRelease, useEngineStatus, useTriggers } from './api'
import { clockStateText, configSummary, formatWhen, RELEASE_STATUS_BADGES, releasedItemsText, scheduleText, TRIGGER_TOASTS } from './copy'
import { PaymentHoldNotice } from './dry-run-panel'
import { ManualTestCard } from './manual-test-card'
import { cancelReleaseText, releaseAction, releaseWhenText, triggerFireText } from './monitor-rules'
import { AccessRequestsCard } from '@/features/access-requests/requests-card'
import { Fact, failureToast, ToggleButton, TriggerStatusBadge, useTriggerToggle } from './trigger-parts'

function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-10">
      <Spinner className="size-6" label={label} />
    </div>
  )
}

function EngineStatusCard({ query, triggers }: { query: ReturnType<typeof useEngineStatus>; triggers: Trigger[] | undefined }) {
  const { data, isPending, isError, error, refetch, isFetching, dataUpdatedAt } = query
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardIconTitle icon={Gauge}>Engine Status</CardIconTitle>
          <CardDescription>Refreshes every 30 seconds{dataUpdatedAt ? `; last updated ${formatWhen(new Date(dataUpdatedAt).toISOString())}` : ''}.</CardDescription>
        </div>
        <div className="flex items-center gap-2">
          {data && (
            <Badge variant={data.isRunning ? 'success' : 'destructive'} data-testid="engine-running">
              {data.isRunning ? 'Running' : 'Stopped'}
            </Badge>
          )}
          <Button variant="ghost" size="icon" onClick={() => refetch()} disabled={isFetching} aria-label="Refresh engine status">
            <RefreshCw className={isFetching ? 'animate-spin' : undefined} aria-hidden />
          </Button>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isPending ? (
          <Loading label="Loading engine status" />
        ) : isError ? (
          <LoadError title="The engine status could not be loaded" message={errorText(error, TRIGGER_TOASTS.fallback)} onRetry={() => refetch()} retrying={isFetching} />
        ) : (
          <>
            {data.paymentHoldUntil && <PaymentHoldNotice until={data.paymentHoldUntil} />}
            <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <Fact label="Next alarm">{formatWhen(data.nextAlarmAt, 'None armed')}</Fact>
              <Fact label="Last sweep">{formatWhen(data.lastSweepAt)}</Fact>
              <Fact label="Check-in state" testId="clock-state">
                {clockStateText(data, triggers)}
              </Fact>
              <Fact label="Last check-in">{formatWhen(data.lastCheckInAt, 'Not yet')}</Fact>
              {data.inactivityTriggerId && (
                <>
                  <Fact label="Next check-in" testId="next-check-in">
                    {formatWhen(data.nextCheckInAt)}
                  </Fact>
                  <Fact label="Check-in schedule" testId="check-in-schedule">
                    {scheduleText(data)}
                  </Fact>
                  <Fact label="Inactivity trigger fires" testId="fires-at">
                    {formatWhen(data.firesAt)} unless you check in
                  </Fact>
                </>
              )}
            </dl>
          </>
        )}
      </CardContent>
    </Card>
  )
}

function TriggerListCard({ query }: { query: ReturnType<typeof useTriggers> }) {
  const { toggle, pendingId } = useTriggerToggle()
  const { data, isPending, isError, error, refetch, isFetching } = query
  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={ListChecks}>Your Triggers</CardIconTitle>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Loading label="Loading triggers" />
        ) : isError ? (
          <LoadError title="Your triggers could not be loaded" message={errorText(error, TRIGGER_TOASTS.fallback)} onRetry={() => refetch()} retrying={isFetching} />
        ) : data.length === 0 ? (
          <p className="text-sm text-slate-600">
            No triggers yet.{' '}
            <Link to="/triggers" className="font-medium text-brand-700 underline-offset-4 hover:underline">
              Set one up
            </Link>
            .
          </p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Your triggers">
            {data.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="grid min-w-0 gap-0.5">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {TRIGGER_TYPE_LABELS[t.type].title} <TriggerStatusBadge status={t.status} />
                  </p>
                  <p className="text-sm text-slate-600">{configSummary(t)}</p>
                  <p className="text-xs text-slate-500">
                    {triggerFireText(t)}
                  </p>
                </div>
                <ToggleButton trigger={t} pending={pendingId === t.id} onToggle={() => toggle(t)} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function ReleaseRow({ release, onCancel, itemName }: { release: ReleaseSummary; onCancel: () => void; itemName: (id: string) => string | undefined }) {
  const badge = RELEASE_STATUS_BADGES[release.status]
  const when = releaseWhenText(release)
  const action = releaseAction(release.status)
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span className="break-words">{release.sourceName}</span>
          <Badge variant={badge.variant}>{badge.label}</Badge>
        </p>
        <p className="text-sm text-slate-700" data-testid="release-what">
          {releasedItemsText(release.itemIds, itemName)}
          {release.beneficiaryNames.length > 0 && <> to {release.beneficiaryNames.join(', ')}</>}
        </p>
        <p className="text-sm text-slate-700">{when}</p>
        <div className="flex flex-wrap gap-1.5">
          {release.requiredApprovals > 0 && (
            <Badge variant="outline">
              Approvals {release.approvals} of {release.requiredApprovals}
            </Badge>
          )}
          {release.identityRequired && <Badge variant="outline">Identity required</Badge>}
        </div>
      </div>
      {action === 'cancel' && (
        <Button variant="outline" size="sm" onClick={onCancel} aria-label={`Cancel release from ${release.sourceName}`}>
          <X aria-hidden /> Cancel
        </Button>
      )}
      {action === 'withdraw' && (
        <Button variant="outline" size="sm" onClick={onCancel} aria-label={`Withdraw release from ${release.sourceName}`}>
          <X aria-hidden /> Withdraw
        </Button>
      )}
    </li>
  )
}

function ReleasesCard({ status }: { status: EngineStatus | undefined }) {
  const cancel = useCancelRelease()
  const [cancelling, setCancelling] = useState<ReleaseSummary | null>(null)
  const releases = status?.releases ?? []
  const items = useVaultItems()
  const metadata = useDecryptedMetadata(items.data)
  const itemName = (id: string) => {
    const entry = metadata.get(id)
    return entry?.status === 'ready' ? entry.metadata.filename : undefined
  }
  return (
    <Card>
      <CardHeader>
        <CardIconTitle icon={Send}>Releases</CardIconTitle>
        <CardDescription>Releases your triggers have started, newest first. A waiting release can be cancelled, and a released one withdrawn: what was already downloaded cannot be taken back.</CardDescription>
      </CardHeader>
      <CardContent>
        {!status ? (
          <p className="text-sm text-slate-500">Shown with the engine status.</p>
        ) : releases.length === 0 ? (
          <p className="text-sm text-slate-600">No releases yet. Nothing has been released.</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Releases">
            {releases.map((r) => (
              <ReleaseRow key={r.id} release={r} onCancel={() => setCancelling(r)} itemName={itemName} />
            ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && !cancel.isPending && setCancelling(null)}
        title={cancelling?.status === 'released' ? 'Withdraw this release?' : 'Cancel this release?'}
        description={cancelling ? cancelReleaseText(cancelling) : ''}
        confirmLabel={cancel.isPending ? 'Cancelling...' : cancelling?.status === 'released' ? 'Withdraw Release' : 'Cancel Release'}
        pending={cancel.isPending}
        onConfirm={() => {
          if (!cancelling) return
          cancel.mutate(cancelling.id, {
            onSuccess: () => {
              toast({
                title: TRIGGER_TOASTS.releaseCancelled,
                description: `The release from "${cancelling.sourceName}" was ${cancelling.status === 'released' ? 'withdrawn' : 'cancelled'}.`,
                variant: 'success',
              })
              setCancelling(null)
            },
            onError: (error) => {
              setCancelling(null)
              failureToast(TRIGGER_TOASTS.cancelFailed, error)
            },
          })
        }}
      />
    </Card>
  )
}

/** /trigger-monitor (seeds 001 §2 'Trigger Monitor page'): engine status, triggers, releases, manual test. */
export function TriggerMonitorPage() {
  const status = useEngineStatus({ poll: true })
  const triggers = useTriggers()
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Trigger Monitor" description="The release engine's state, your triggers and what they have released.">
        <Link to="/triggers" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
          <ArrowLeft className="size-4" aria-hidden /> Security Triggers
        </Link>
      </PageHeader>
      <EngineStatusCard query={status} triggers={triggers.data} />
      <AccessRequestsCard />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <TriggerListCard query={triggers} />
        <ReleasesCard status={status.data} />
      </div>
      {triggers.data && <ManualTestCard triggers={triggers.data} />}
    </div>
  )
}
