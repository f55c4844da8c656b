import type { z } from 'zod'
import {
  biometricConfigSchema,
  deviceLossConfigSchema,
  frequencyDaysOf,
  inactivityScheduleSchema,
  PING_FREQUENCIES,
  scheduledConfigSchema,
  TRIGGER_DEFAULTS,
  TRIGGER_MESSAGES,
  TRIGGER_TYPES,
  type InactivityConfig,
  type InactivityFrequency,
  type TriggerCreateBody,
  type TriggerType,
} from '../../../contract/triggers'

// The Create Trigger form (seeds 001 §5 'Trigger form', §9 defaults). Each type's config is
// checked with the contract's own schema, so only the fields of the chosen type can fail.

export interface TriggerFormValues {
  type: TriggerType | ''
  /** The Check-in frequency select's value: 'daily', 'weekly', 'monthly', or a number of days ('14'). */
  pingFrequency: string
  /** NaN when the number field is empty (react-hook-form's valueAsNumber). */
  gracePeriod: number
  failureThreshold: number
  timeWindow: number
  /** Loss of trusted devices: days without any trusted device used. */
  deviceDays: number
  /** A `datetime-local` value, in the browser's time zone. */
  releaseDate: string
  beneficiaries: string[]
  description: string
}

export type TriggerFormErrors = Partial<Record<keyof TriggerFormValues, string>>

export const TRIGGER_FORM_DEFAULTS: TriggerFormValues = {
  type: '',
  pingFrequency: TRIGGER_DEFAULTS.pingFrequency,
  gracePeriod: TRIGGER_DEFAULTS.gracePeriod,
  failureThreshold: TRIGGER_DEFAULTS.failureThreshold,
  timeWindow: TRIGGER_DEFAULTS.timeWindow,
  deviceDays: TRIGGER_DEFAULTS.deviceDays,
  releaseDate: '',
  beneficiaries: [],
  description: '',
}

/** A frequency as the select's option value. */
export const frequencyValue = (frequency: InactivityFrequency): string => String(frequency)

/** The select's value as the config's frequency (a number of days for '14'); anything else is left for the schema to refuse. */
export function frequencyOfValue(value: string): InactivityFrequency | string {
  if ((PING_FREQUENCIES as readonly string[]).includes(value)) return value
  return /^\d+$/.test(value) ? Number(value) : value
}

/** The Check-in frequency select's choices: the spec's three, and any day counts in `extra` (a /settings choice, the current schedule), by length. */
export function frequencyChoices(...extra: InactivityFrequency[]): InactivityFrequency[] {
  const all = new Map<number, InactivityFrequency>()
  for (const f of [...PING_FREQUENCIES, ...extra]) {
    const days = frequencyDaysOf(f)
    if (days !== null && !all.has(days)) all.set(days, f)
  }
  return [...all.entries()].sort(([a], [b]) => a - b).map(([, f]) => f)
}

export type ScheduleFormResult = { ok: true; config: InactivityConfig } | { ok: false; errors: TriggerFormErrors }

/** An inactivity trigger's schedule fields as its config (creating it, or editing its schedule). */
export function buildSchedule(values: Pick<TriggerFormValues, 'pingFrequency' | 'gracePeriod'>): ScheduleFormResult {
  const parsed = inactivityScheduleSchema.safeParse({ pingFrequency: frequencyOfValue(values.pingFrequency), gracePeriod: values.gracePeriod })
  if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error, { pingFrequency: 'pingFrequency', gracePeriod: 'gracePeriod' }) }
  return { ok: true, config: parsed.data }
}

const pad = (n: number) => String(Math.trunc(Math.abs(n))).padStart(2, '0')

/**
 * A `datetime-local` value ("2030-05-01T09:30") as an ISO date-time with the browser's offset
 * ("2030-05-01T09:30:00+02:00"), or null when it is not a complete, real local time.
 */
export function localDateTimeToIso(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim())
  if (!m) return null
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number]
  const date = new Date(y, mo - 1, d, h, mi, s)
  // Rejects overflowing parts (Feb 30) and times skipped by a daylight-saving change.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) return null
  const offset = -date.getTimezoneOffset()
  const sign = offset >= 0 ? '+' : '-'
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${pad(s)}${sign}${pad(offset / 60)}:${pad(offset % 60)}`
}

/** A Date as a `datetime-local` value (for the field's `min`). */
export function toLocalInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

function errorsOf(error: z.ZodError, fields: Partial<Record<string, keyof TriggerFormValues>>): TriggerFormErrors {
  const errors: TriggerFormErrors = {}
  for (const issue of error.issues) {
    const field = fields[String(issue.path[0])]
    if (field && !errors[field]) errors[field] = issue.message
  }
  return errors
}

export type TriggerFormResult = { ok: true; body: TriggerCreateBody } | { ok: false; errors: TriggerFormErrors }

/** The form's values as POST /api/triggers's body, or the message for each wrong field. New triggers start active. */
export function buildCreateBody(values: TriggerFormValues): TriggerFormResult {
  const type = values.type
  if (!type || !(TRIGGER_TYPES as readonly string[]).includes(type)) return { ok: false, errors: { type: TRIGGER_MESSAGES.typeRequired } }
  switch (type) {
    case 'verified_death':
    case 'manual_release':
      return { ok: true, body: { type, config: {}, status: 'active' } }
    case 'inactivity': {
      const schedule = buildSchedule(values)
      return schedule.ok ? { ok: true, body: { type, config: schedule.config, status: 'active' } } : schedule
    }
    case 'biometric_failure': {
      const parsed = biometricConfigSchema.safeParse({ failureThreshold: values.failureThreshold, timeWindow: values.timeWindow })
      if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error, { failureThreshold: 'failureThreshold', timeWindow: 'timeWindow' }) }
      return { ok: true, body: { type, config: parsed.data, status: 'active' } }
    }
    case 'device_loss': {
      const parsed = deviceLossConfigSchema.safeParse({ days: values.deviceDays })
      if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error, { days: 'deviceDays' }) }
      return { ok: true, body: { type, config: parsed.data, status: 'active' } }
    }
    case 'scheduled': {
      const releaseDate = localDateTimeToIso(values.releaseDate)
      const parsed = scheduledConfigSchema.safeParse({
        releaseDate: releaseDate ?? '',
        beneficiaries: [...new Set(values.beneficiaries)],
        description: values.description,
      })
      if (!parsed.success) {
        return {
          ok: false,
          errors: errorsOf(parsed.error, { releaseDate: 'releaseDate', beneficiaries: 'beneficiaries', description: 'description' }),
        }
      }
      return { ok: true, body: { type, config: parsed.data, status: 'active' } }
    }
  }
}
