import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { newTriggerFrequency } from '../../../contract/settings'
import { inactivitySchedule, TRIGGER_DEFAULTS, frequencyDaysOf, type InactivityFrequency, type Trigger } from '../../../contract/triggers'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useCurrentUser } from '@/features/auth/api'
import { toast } from '@/lib/toast-store'
import { useUpdateTriggerSchedule } from './api'
import { configSummary, SCHEDULE_COPY } from './copy'
import { ScheduleFields } from './schedule-fields'
import { buildSchedule, frequencyChoices, frequencyValue } from './trigger-form'
import { failureToast } from './trigger-parts'

interface ScheduleValues {
  pingFrequency: string
  gracePeriod: number
}

/** The inactivity trigger's own schedule, changed in place (one inactivity trigger per owner). */
export function EditScheduleDialog({ trigger, open, onOpenChange }: { trigger: Trigger; open: boolean; onOpenChange: (open: boolean) => void }) {
  const update = useUpdateTriggerSchedule()
  const { data: user } = useCurrentUser()
  const form = useForm<ScheduleValues>()
  const busy = update.isPending
  const config = trigger.config as Record<string, unknown>
  const current: InactivityFrequency = frequencyDaysOf(config.pingFrequency) === null ? TRIGGER_DEFAULTS.pingFrequency : (config.pingFrequency as InactivityFrequency)
  const { graceDays } = inactivitySchedule(config)
  const settings = newTriggerFrequency(user?.pingFrequency ?? null)

  useEffect(() => {
    if (open) form.reset({ pingFrequency: frequencyValue(current), gracePeriod: graceDays })
  }, [open, form, current, graceDays])

  const close = () => {
    if (!busy) onOpenChange(false)
  }

  const submit = form.handleSubmit((values) => {
    const schedule = buildSchedule(values)
    if (!schedule.ok) {
      for (const [name, message] of Object.entries(schedule.errors)) form.setError(name as keyof ScheduleValues, { message })
      return
    }
    update.mutate(
      { id: trigger.id, config: schedule.config },
      {
        onSuccess: (updated) => {
          toast({ title: SCHEDULE_COPY.saved, description: `${configSummary(updated)}.`, variant: 'success' })
          onOpenChange(false)
        },
        onError: (error) => failureToast(SCHEDULE_COPY.saveFailed, error),
      },
    )
  })

  const { errors } = form.formState
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent hideClose={busy} className="grid-cols-1">
        <DialogHeader>
          <DialogTitle>{SCHEDULE_COPY.editTitle}</DialogTitle>
          <DialogDescription>{SCHEDULE_COPY.editDescription}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid min-w-0 grid-cols-1 gap-5">
          <ScheduleFields
            choices={frequencyChoices(current, settings)}
            frequency={form.register('pingFrequency')}
            grace={form.register('gracePeriod', { valueAsNumber: true })}
            errors={{ pingFrequency: errors.pingFrequency?.message, gracePeriod: errors.gracePeriod?.message }}
            disabled={busy}
          />
          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : 'Save Schedule'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
