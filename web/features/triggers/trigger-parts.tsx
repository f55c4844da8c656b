import { Pause, Play } from 'lucide-react'
import type { ReactNode } from 'react'
import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, type Trigger } from '../../../contract/triggers'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useSetTriggerStatus } from './api'
import { TRIGGER_STATUS_BADGES, TRIGGER_TOASTS } from './copy'
import { toggleTarget } from './monitor-rules'

export function failureToast(title: string, error: unknown) {
  if (error instanceof PaymentRedirectError) return
  toast({ title, description: errorText(error, TRIGGER_TOASTS.fallback), variant: 'destructive' })
}

export function TriggerStatusBadge({ status }: { status: Trigger['status'] }) {
  const badge = TRIGGER_STATUS_BADGES[status]
  return (
    <Badge variant={badge.variant} data-testid="trigger-status">
      {badge.label}
    </Badge>
  )
}

/** Pause/Activate (seeds 001 §4 'Trigger'); a fired trigger has no toggle. */
export function useTriggerToggle() {
  const setStatus = useSetTriggerStatus()
  const pendingId = setStatus.isPending ? setStatus.variables?.id : undefined
  const toggle = (trigger: Trigger) => {
    const status = toggleTarget(trigger.status)
    if (!status) return
    setStatus.mutate(
      { id: trigger.id, status },
      {
        onSuccess: (updated) =>
          toast({
            title: updated.status === 'active' ? TRIGGER_TOASTS.activated : TRIGGER_TOASTS.paused,
            description:
              updated.status === 'active'
                ? `${TRIGGER_TYPE_LABELS[updated.type].title} will fire when its conditions are met.`
                : `${TRIGGER_TYPE_LABELS[updated.type].title} will not fire until you activate it again.`,
            variant: 'success',
          }),
        onError: (error) => failureToast(TRIGGER_MESSAGES.updateFailed, error),
      },
    )
  }
  return { toggle, pendingId }
}

export function ToggleButton({ trigger, pending, onToggle }: { trigger: Trigger; pending: boolean; onToggle: () => void }) {
  const target = toggleTarget(trigger.status)
  if (!target) return null
  const active = target === 'paused'
  const title = TRIGGER_TYPE_LABELS[trigger.type].title
  return (
    <Button variant={active ? 'outline' : 'default'} size="sm" onClick={onToggle} disabled={pending} aria-label={`${active ? 'Pause' : 'Activate'} ${title} trigger`}>
      {active ? <Pause aria-hidden /> : <Play aria-hidden />} {pending ? 'Saving...' : active ? 'Pause' : 'Activate'}
    </Button>
  )
}

/** A label over its value, for the small facts on cards. */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  )
}
