import { Link, useSearch } from '@tanstack/react-router'
import { Activity, CalendarClock, FileCheck2, Hand, HeartHandshake, LockKeyhole, MonitorSmartphone, Pencil, Plus, Send, Timer, type LucideIcon } from 'lucide-react'
import { useState } from 'react'
import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, type Trigger, type TriggerType } from '../../../contract/triggers'
import { PageHeader, PageSection } from '@/components/layout/page-header'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { InlineLoadState } from '@/components/ui/inline-load-state'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { useBeneficiaries } from '@/features/circle/api'
import { errorText } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useCheckIn, useEngineStatus, useResendReportLinks, useTriggers } from './api'
import { checkInText, clockStateText, configSummary, formatDay, formatWhen, SCHEDULE_COPY, TRIGGER_TOASTS } from './copy'
import { CreateTriggerDialog } from './create-trigger-dialog'
import { EditScheduleDialog } from './edit-schedule-dialog'
import { Fact, failureToast, ToggleButton, TriggerStatusBadge, useTriggerToggle } from './trigger-parts'
import { scheduledBeneficiariesText, triggerExtras } from './card-rules'

const CARD_TYPES = ['inactivity', 'verified_death', 'biometric_failure', 'device_loss', 'manual_release'] as const satisfies readonly TriggerType[]
const TYPE_ICONS: Record<TriggerType, LucideIcon> = {
  inactivity: Timer,
  verified_death: FileCheck2,
  biometric_failure: LockKeyhole,
  scheduled: CalendarClock,
  manual_release: Hand,
  device_loss: MonitorSmartphone,
}

function CheckInCard({ triggers }: { triggers: Trigger[] | undefined }) {
  const status = useEngineStatus()
  const checkIn = useCheckIn()
  const onCheckIn = () =>
    checkIn.mutate(undefined, {
      onSuccess: (result) =>
        toast({ title: TRIGGER_TOASTS.checkedIn, description: checkInText(result.cancelledReleases, result.nextCheckInAt), variant: 'success' }),
      onError: (error) => failureToast(TRIGGER_MESSAGES.checkInFailed, error),
    })

  return (
    <Card className="border-brand-100 bg-brand-50/40">
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between sm:gap-6">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <HeartHandshake className="size-5 text-brand-700" aria-hidden /> I'm Still Here
          </CardTitle>
          <CardDescription>
            Check in to reset your inactivity clock. Releases still in their delay are cancelled. Check-in e-mails follow your
            Inactivity trigger's own schedule, shown on its card below.
          </CardDescription>
        </div>
        <Button size="lg" className="mt-3 w-full shrink-0 sm:mt-0 sm:w-auto" onClick={onCheckIn} disabled={checkIn.isPending}>
          {checkIn.isPending ? <Spinner className="size-4" label="Checking in" /> : <HeartHandshake aria-hidden />}
          {checkIn.isPending ? 'Checking in...' : "I'm Still Here"}
        </Button>
      </CardHeader>
      <CardContent>
        <InlineLoadState query={status} loadingLabel="Loading check-in status" errorFallback="Your check-in status could not be loaded.">
          {status.data && (
            <dl className="grid gap-4 sm:grid-cols-3">
              <Fact label="Last check-in" testId="last-check-in">
                {formatWhen(status.data.lastCheckInAt, 'Not yet')}
              </Fact>
              {status.data.inactivityTriggerId && (
                <Fact label="Next check-in" testId="next-check-in">
                  {formatWhen(status.data.nextCheckInAt, 'Not scheduled')}
                </Fact>
              )}
              <Fact label="Status" testId="clock-state">
                {clockStateText(status.data, triggers)}
              </Fact>
            </dl>
          )}
        </InlineLoadState>
      </CardContent>
    </Card>
  )
}

function TriggerFacts({ trigger, names }: { trigger: Trigger; names?: string[] }) {
  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <TriggerStatusBadge status={trigger.status} />
        <span className="text-sm text-slate-900" data-testid="trigger-summary">
          {configSummary(trigger, names)}
        </span>
      </div>
      <p className="text-xs text-slate-500">
        Created {formatDay(trigger.createdAt)}
        {trigger.status === 'triggered' && trigger.firedAt && <> · Fired {formatWhen(trigger.firedAt)}</>}
        {trigger.status === 'active' && trigger.nextFireAt && <> · Fires {formatWhen(trigger.nextFireAt)} if nothing changes</>}
      </p>
    </div>
  )
}

/** Verified death: the report links approvers use, sent again (to every verified approver). */
function ResendReportLinks({ triggerId }: { triggerId: string }) {
  const resend = useResendReportLinks()
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={resend.isPending}
      onClick={() =>
        resend.mutate(triggerId, {
          onSuccess: (r) => toast({ title: 'Report links sent', description: r.message, variant: 'success' }),
          onError: (error) => failureToast('Report links not sent', error),
        })
      }
    >
      <Send aria-hidden /> {resend.isPending ? 'Sending...' : 'Resend report links'}
    </Button>
  )
}

function TypeCard({
  type,
  triggers,
  pendingId,
  onToggle,
  onSetUp,
}: {
  type: (typeof CARD_TYPES)[number]
  triggers: Trigger[]
  pendingId: string | undefined
  onToggle: (trigger: Trigger) => void
  onSetUp: () => void
}) {
  const Icon = TYPE_ICONS[type]
  const label = TRIGGER_TYPE_LABELS[type]
  const [editing, setEditing] = useState<Trigger | null>(null)
  // A card with a trigger shows that trigger's state (a fired one included: its release is under
  // way, and "Set Up" beside it would read as if nothing had happened).
  const canSetUp = triggers.length === 0
  return (
    <li className="flex">
      <Card className="flex w-full flex-col" data-testid={`trigger-card-${type}`}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Icon className="size-5 text-brand-700" aria-hidden /> {label.title}
          </CardTitle>
          <CardDescription>{label.description}</CardDescription>
        </CardHeader>
        <CardContent className="mt-auto grid gap-4">
          {triggers.map((trigger) => (
            <div key={trigger.id} className="flex flex-wrap items-end justify-between gap-3 border-t border-slate-100 pt-3">
              <TriggerFacts trigger={trigger} />
              <div className="flex flex-wrap gap-2">
                {triggerExtras(trigger).resendReportLinks && <ResendReportLinks triggerId={trigger.id} />}
                {triggerExtras(trigger).editSchedule && (
                  <Button size="sm" variant="outline" onClick={() => setEditing(trigger)} aria-label={`${SCHEDULE_COPY.edit} of ${label.title} trigger`}>
                    <Pencil aria-hidden /> {SCHEDULE_COPY.edit}
                  </Button>
                )}
                <ToggleButton trigger={trigger} pending={pendingId === trigger.id} onToggle={() => onToggle(trigger)} />
              </div>
            </div>
          ))}
          {triggers.length === 0 && <p className="text-sm text-slate-500">Not set up.</p>}
          {canSetUp && (
            <div>
              <Button size="sm" onClick={onSetUp} aria-label={`Set Up ${label.title} trigger`}>
                <Plus aria-hidden /> Set Up
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
      {editing && <EditScheduleDialog trigger={editing} open onOpenChange={(open) => !open && setEditing(null)} />}
    </li>
  )
}

function ScheduledList({
  triggers,
  pendingId,
  onToggle,
  onCreate,
}: {
  triggers: Trigger[]
  pendingId: string | undefined
  onToggle: (trigger: Trigger) => void
  onCreate: () => void
}) {
  const beneficiaries = useBeneficiaries()
  const byId = new Map((beneficiaries.data ?? []).map((b) => [b.id, b.fullName]))
  if (triggers.length === 0) {
    return (
      <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <CalendarClock className="mx-auto size-9 text-slate-400" aria-hidden />
        <h3 className="mt-3 font-semibold text-slate-900">No scheduled releases</h3>
        <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">{TRIGGER_TYPE_LABELS.scheduled.description}</p>
        <Button className="mt-4" variant="outline" onClick={onCreate}>
          <Plus aria-hidden /> Schedule a release
        </Button>
      </div>
    )
  }
  return (
    <ul className="grid gap-3" aria-label="Scheduled releases">
      {triggers.map((trigger) => {
        const config = trigger.config as { releaseDate?: string; beneficiaries?: string[]; description?: string }
        return (
          <li key={trigger.id}>
            <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
              <dl className="grid min-w-0 flex-1 gap-3 sm:grid-cols-3">
                <Fact label="Release date">{formatWhen(config.releaseDate, 'Unknown')}</Fact>
                <Fact label="Beneficiaries">
                  {beneficiaries.isPending
                    ? 'Loading...'
                    : scheduledBeneficiariesText(config.beneficiaries ?? [], (id) => byId.get(id), !!beneficiaries.data)}
                </Fact>
                <Fact label="Description">{config.description?.trim() || <span className="text-slate-500">No description</span>}</Fact>
              </dl>
              <div className="flex items-center gap-2">
                <TriggerStatusBadge status={trigger.status} />
                <ToggleButton trigger={trigger} pending={pendingId === trigger.id} onToggle={() => onToggle(trigger)} />
              </div>
            </Card>
          </li>
        )
      })}
    </ul>
  )
}

/** /triggers (seeds 001 §2 'Security Triggers page'): check-in, a card per kind of trigger, scheduled releases, Create Trigger. */
export function TriggersPage() {
  const triggers = useTriggers()
  const { toggle, pendingId } = useTriggerToggle()
  const { create } = useSearch({ strict: false }) as { create?: TriggerType }
  const [dialog, setDialog] = useState<{ open: boolean; type?: TriggerType }>(() => (create ? { open: true, type: create } : { open: false }))
  const openCreate = (type?: TriggerType) => setDialog({ open: true, type })

  let body
  if (triggers.isPending) {
    body = (
      <div className="flex justify-center rounded-xl border border-slate-200 bg-white py-16">
        <Spinner className="size-7" label="Loading triggers" />
      </div>
    )
  } else if (triggers.isError) {
    body = (
      <LoadError
        title="Your triggers could not be loaded"
        message={errorText(triggers.error, TRIGGER_TOASTS.fallback)}
        onRetry={() => triggers.refetch()}
        retrying={triggers.isFetching}
      />
    )
  } else {
    const ofType = (type: TriggerType) => triggers.data.filter((t) => t.type === type)
    body = (
      <>
        <PageSection title="Your triggers">
          <ul className="grid grid-cols-1 gap-4 lg:grid-cols-3">
            {CARD_TYPES.map((type) => (
              <TypeCard key={type} type={type} triggers={ofType(type)} pendingId={pendingId} onToggle={toggle} onSetUp={() => openCreate(type)} />
            ))}
          </ul>
        </PageSection>
        <PageSection title="Scheduled releases">
          <ScheduledList triggers={ofType('scheduled')} pendingId={pendingId} onToggle={toggle} onCreate={() => openCreate('scheduled')} />
        </PageSection>
      </>
    )
  }

  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader
        title="Security Triggers"
        description="What starts your releases: inactivity, a confirmed death, repeated failed unlocks, or a date you choose."
      >
        <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
          <Button variant="outline" asChild>
            <Link to="/trigger-monitor">
              <Activity aria-hidden /> Open Trigger Monitor
            </Link>
          </Button>
          <Button onClick={() => openCreate()}>
            <Plus aria-hidden /> Create Trigger
          </Button>
        </div>
      </PageHeader>
      <CheckInCard triggers={triggers.data} />
      {body}
      <CreateTriggerDialog open={dialog.open} initialType={dialog.type} onOpenChange={(open) => setDialog((d) => ({ ...d, open }))} />
    </div>
  )
}
