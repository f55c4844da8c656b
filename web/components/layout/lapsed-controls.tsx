import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS } from '../../../contract/triggers'
import { Button } from '@/components/ui/button'
import { Heading } from '@/components/ui/heading-level'
import { toast } from '@/lib/toast-store'
import { TRIGGER_TOASTS } from '@/features/triggers/copy'
import { useCancelRelease, useCheckIn, useEngineStatus, useSetTriggerStatus, useTriggers } from '@/features/triggers/api'
import { failureToast } from '@/features/triggers/trigger-parts'

export const LAPSED_COPY = {
  title: 'Your triggers still watch over your vault',
  body: 'Without a plan your triggers keep running and may start a release. Whether you pay or not, you can always check in, pause a trigger or cancel a release from here.',
  checkIn: 'Check in now',
  pause: 'Pause',
  cancel: 'Cancel release',
  waiting: (name: string, at: string) => `${name}: waiting until ${new Date(at).toLocaleString()}`,
} as const

/**
 * What an owner without an active plan can still do (worker/middleware/subscription.ts: the promise
 * to the heirs is kept, and the owner can always check in, pause and cancel, paid or not).
 */
export function LapsedControls() {
  const triggers = useTriggers()
  const status = useEngineStatus()
  const checkIn = useCheckIn()
  const setStatus = useSetTriggerStatus()
  const cancel = useCancelRelease()
  const active = (triggers.data ?? []).filter((t) => t.status === 'active')
  const waiting = (status.data?.releases ?? []).filter((r) => r.status === 'waiting')
  // Nothing to watch over: a new account that never had a plan, say.
  if (triggers.isPending || ((triggers.data ?? []).length === 0 && waiting.length === 0)) return null

  return (
    <section aria-labelledby="lapsed-controls" className="mt-6 space-y-3 border-t pt-4 text-left">
      <Heading id="lapsed-controls" className="text-base font-semibold">
        {LAPSED_COPY.title}
      </Heading>
      <p className="text-sm text-slate-600">{LAPSED_COPY.body}</p>
      <Button
        variant="outline"
        disabled={checkIn.isPending}
        onClick={() =>
          checkIn.mutate(undefined, {
            onSuccess: () => toast({ title: TRIGGER_TOASTS.checkedIn, description: TRIGGER_MESSAGES.checkInRecorded, variant: 'success' }),
            onError: (error) => failureToast(TRIGGER_MESSAGES.checkInFailed, error),
          })
        }
      >
        {LAPSED_COPY.checkIn}
      </Button>
      {active.length > 0 && (
        <ul className="space-y-2" aria-label="Active triggers">
          {active.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-3 text-sm">
              <span>{TRIGGER_TYPE_LABELS[t.type].title}</span>
              <Button
                size="sm"
                variant="outline"
                disabled={setStatus.isPending}
                aria-label={`${LAPSED_COPY.pause} ${TRIGGER_TYPE_LABELS[t.type].title}`}
                onClick={() =>
                  setStatus.mutate(
                    { id: t.id, status: 'paused' },
                    {
                      onSuccess: () => toast({ title: TRIGGER_TOASTS.paused, variant: 'success' }),
                      onError: (error) => failureToast(TRIGGER_MESSAGES.updateFailed, error),
                    },
                  )
                }
              >
                {LAPSED_COPY.pause}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {waiting.length > 0 && (
        <ul className="space-y-2" aria-label="Releases waiting">
          {waiting.map((r) => (
            <li key={r.id} className="flex items-center justify-between gap-3 text-sm">
              <span>{LAPSED_COPY.waiting(r.sourceName, r.releaseAt)}</span>
              <Button
                size="sm"
                variant="destructive"
                disabled={cancel.isPending}
                onClick={() =>
                  cancel.mutate(r.id, {
                    onSuccess: () => toast({ title: TRIGGER_TOASTS.releaseCancelled, description: `The release from "${r.sourceName}" was cancelled.`, variant: 'success' }),
                    onError: (error) => failureToast(TRIGGER_TOASTS.cancelFailed, error),
                  })
                }
              >
                {LAPSED_COPY.cancel}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
