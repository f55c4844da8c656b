import type { UseFormRegisterReturn } from 'react-hook-form'
import type { InactivityFrequency } from '../../../contract/triggers'
import { NumberField, SelectField } from '@/components/ui/form-field'
import { frequencyLabel, SCHEDULE_COPY } from './copy'
import { frequencyValue } from './trigger-form'

/** An inactivity trigger's schedule: the Check-in frequency select and the grace period (Create Trigger, Edit schedule). */
export function ScheduleFields({
  choices,
  frequency,
  grace,
  errors,
  disabled,
  frequencyHint,
}: {
  choices: InactivityFrequency[]
  frequency: UseFormRegisterReturn
  grace: UseFormRegisterReturn
  errors: { pingFrequency?: string; gracePeriod?: string }
  disabled: boolean
  frequencyHint?: string
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField label="Check-in frequency" error={errors.pingFrequency} hint={frequencyHint} disabled={disabled} {...frequency}>
        {choices.map((f) => (
          <option key={frequencyValue(f)} value={frequencyValue(f)}>
            {frequencyLabel(f)}
          </option>
        ))}
      </SelectField>
      <NumberField label="Grace period (days)" min={1} disabled={disabled} error={errors.gracePeriod} hint={SCHEDULE_COPY.graceHint} {...grace} />
    </div>
  )
}
