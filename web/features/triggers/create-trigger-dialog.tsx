import { useEffect } from 'react'
import { Controller, useForm, type FieldErrors, type Resolver } from 'react-hook-form'
import { newTriggerFrequency } from '../../../contract/settings'
import { DEVICE_LOSS_MESSAGES, DEVICE_DAYS_MAX, DEVICE_DAYS_MIN, FAILED_UNLOCK_MESSAGES, TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, TRIGGER_TYPES, type TriggerCreateBody, type TriggerType } from '../../../contract/triggers'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, InputField, NumberField, SelectField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/textarea'
import { useCurrentUser } from '@/features/auth/api'
import { useBeneficiaries } from '@/features/circle/api'
import { BeneficiaryCheckboxes } from '@/features/policies/checkbox-group'
import { errorText, PaymentRedirectError } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { useCreateTrigger, useTriggers } from './api'
import { configSummary, SCHEDULE_COPY, TRIGGER_TOASTS } from './copy'
import { ScheduleFields } from './schedule-fields'
import { buildCreateBody, frequencyChoices, frequencyValue, toLocalInputValue, TRIGGER_FORM_DEFAULTS, type TriggerFormValues } from './trigger-form'
import { hasInactivityTrigger, startingType } from './card-rules'

const resolver: Resolver<TriggerFormValues, unknown, TriggerCreateBody> = async (values) => {
  const result = buildCreateBody(values)
  if (result.ok) return { values: result.body, errors: {} }
  const errors: FieldErrors<TriggerFormValues> = {}
  for (const [name, message] of Object.entries(result.errors)) {
    ;(errors as Record<string, { type: string; message: string }>)[name] = { type: 'validate', message }
  }
  return { values: {}, errors }
}

/** Create Trigger (seeds 001 §2, §5 'Trigger form'); `initialType` preselects the type from a card's Set Up. */
export function CreateTriggerDialog({
  open,
  onOpenChange,
  initialType,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  initialType?: TriggerType
}) {
  const create = useCreateTrigger()
  const beneficiaries = useBeneficiaries()
  const { data: user } = useCurrentUser()
  const triggers = useTriggers()
  const form = useForm<TriggerFormValues, unknown, TriggerCreateBody>({ resolver, defaultValues: TRIGGER_FORM_DEFAULTS })
  const { errors } = form.formState
  const type = form.watch('type')
  const busy = create.isPending
  // One inactivity trigger per owner (one check-in clock): with one, it is not offered again.
  const inactivityTaken = hasInactivityTrigger(triggers.data)
  // A new inactivity trigger starts at the /settings frequency.
  const settingsFrequency = user?.pingFrequency ?? null
  const preset = newTriggerFrequency(settingsFrequency)

  useEffect(() => {
    if (!open) return
    const start = startingType(initialType, inactivityTaken)
    form.reset({ ...TRIGGER_FORM_DEFAULTS, type: start, pingFrequency: frequencyValue(preset) })
  }, [open, initialType, form, inactivityTaken, preset])

  const close = () => {
    if (!busy) onOpenChange(false)
  }

  const submit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: (trigger) => {
        toast({ title: TRIGGER_TOASTS.created, description: `${TRIGGER_TYPE_LABELS[trigger.type].title}: ${configSummary(trigger)}.`, variant: 'success' })
        onOpenChange(false)
      },
      onError: (error) => {
        if (error instanceof PaymentRedirectError) return
        toast({ title: TRIGGER_MESSAGES.createFailed, description: errorText(error, TRIGGER_TOASTS.fallback), variant: 'destructive' })
      },
    }),
  )

  const preventWhileBusy = (event: Event) => {
    if (busy) event.preventDefault()
  }
  /** A whole number of at least 1: days, or attempts. */
  const countField = (name: 'failureThreshold' | 'timeWindow', label: string, hint: string) => (
    <NumberField label={label} min={1} disabled={busy} error={errors[name]?.message} hint={hint} {...form.register(name, { valueAsNumber: true })} />
  )

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent hideClose={busy} onEscapeKeyDown={preventWhileBusy} onInteractOutside={preventWhileBusy} className="grid-cols-1">
        <DialogHeader>
          <DialogTitle>Create Trigger</DialogTitle>
          <DialogDescription>Choose what starts your releases. New triggers start active; you can pause them at any time.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid min-w-0 grid-cols-1 gap-5">
          <SelectField
            label="Trigger type"
            error={errors.type?.message}
            hint={type ? TRIGGER_TYPE_LABELS[type].description : inactivityTaken ? TRIGGER_MESSAGES.inactivityExists : undefined}
            disabled={busy}
            {...form.register('type')}
          >
            <option value="">Select a trigger type</option>
            {TRIGGER_TYPES.map((t) => (
              <option key={t} value={t} disabled={t === 'inactivity' && inactivityTaken}>
                {t === 'inactivity' && inactivityTaken ? SCHEDULE_COPY.taken : TRIGGER_TYPE_LABELS[t].title}
              </option>
            ))}
          </SelectField>

          {type === 'inactivity' && (
            <ScheduleFields
              choices={frequencyChoices(preset)}
              frequency={form.register('pingFrequency')}
              grace={form.register('gracePeriod', { valueAsNumber: true })}
              errors={{ pingFrequency: errors.pingFrequency?.message, gracePeriod: errors.gracePeriod?.message }}
              disabled={busy}
              frequencyHint={settingsFrequency === null ? undefined : SCHEDULE_COPY.fromSettings(preset)}
            />
          )}

          {type === 'biometric_failure' && (
            <div className="grid gap-4 sm:grid-cols-2">
              {countField('failureThreshold', 'Failure threshold', FAILED_UNLOCK_MESSAGES.thresholdHint)}
              {countField('timeWindow', 'Time window (days)', FAILED_UNLOCK_MESSAGES.timeWindowHint)}
            </div>
          )}

          {type === 'device_loss' && (
            <NumberField
              label={DEVICE_LOSS_MESSAGES.daysLabel}
              min={DEVICE_DAYS_MIN}
              max={DEVICE_DAYS_MAX}
              disabled={busy}
              error={errors.deviceDays?.message}
              hint={DEVICE_LOSS_MESSAGES.daysHint}
              {...form.register('deviceDays', { valueAsNumber: true })}
            />
          )}

          {type === 'verified_death' && (
            <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600">
              Nothing to set: your approvers receive a signed link to confirm a death certificate.
            </p>
          )}

          {type === 'scheduled' && (
            <>
              <InputField
                label="Release date"
                type="datetime-local"
                min={toLocalInputValue(new Date())}
                disabled={busy}
                error={errors.releaseDate?.message}
                hint="In your time zone."
                {...form.register('releaseDate')}
              />
              <Controller
                control={form.control}
                name="beneficiaries"
                render={({ field }) => (
                  <BeneficiaryCheckboxes
                    beneficiaries={beneficiaries}
                    emptyText="A scheduled release goes to at least one beneficiary. You have none yet."
                    value={field.value}
                    onChange={field.onChange}
                    error={errors.beneficiaries?.message}
                    disabled={busy}
                  />
                )}
              />
              <Field label="Description" error={errors.description?.message} hint="Optional: what this release is for.">
                {({ id, describedBy, invalid }) => (
                  <Textarea id={id} aria-describedby={describedBy} aria-invalid={invalid} rows={2} maxLength={500} disabled={busy} {...form.register('description')} />
                )}
              </Field>
            </>
          )}

          <DialogFooter>
            <Button variant="outline" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Creating...' : 'Create Trigger'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
