import { afterEach, describe, expect, it } from 'vitest'
import { TRIGGER_DEFAULTS, TRIGGER_MESSAGES, triggerCreateBodySchema } from '../../contract/triggers'
import { buildCreateBody, localDateTimeToIso, toLocalInputValue, TRIGGER_FORM_DEFAULTS, type TriggerFormValues } from '@/features/triggers/trigger-form'

// The Create Trigger form (seeds 001 §5 'Trigger form', §9 defaults): only the chosen type's
// fields are checked, with the spec's messages, and the body is what POST /api/triggers accepts.

const form = (values: Partial<TriggerFormValues>): TriggerFormValues => ({ ...TRIGGER_FORM_DEFAULTS, ...values })
const inAYear = () => toLocalInputValue(new Date(Date.now() + 365 * 86_400_000))
const originalTz = process.env.TZ

afterEach(() => {
  process.env.TZ = originalTz
})

describe('defaults', () => {
  it('are the seeds’ defaults, with no type chosen', () => {
    expect(TRIGGER_FORM_DEFAULTS).toMatchObject({ type: '', pingFrequency: 'weekly', gracePeriod: 14, failureThreshold: 5, timeWindow: 30 })
    expect(TRIGGER_FORM_DEFAULTS.gracePeriod).toBe(TRIGGER_DEFAULTS.gracePeriod)
  })

  it('build each config as-is when untouched, starting active', () => {
    expect(buildCreateBody(form({ type: 'inactivity' }))).toEqual({
      ok: true,
      body: { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 14 }, status: 'active' },
    })
    expect(buildCreateBody(form({ type: 'biometric_failure' }))).toEqual({
      ok: true,
      body: { type: 'biometric_failure', config: { failureThreshold: 5, timeWindow: 30 }, status: 'active' },
    })
    expect(buildCreateBody(form({ type: 'verified_death' }))).toEqual({ ok: true, body: { type: 'verified_death', config: {}, status: 'active' } })
  })
})

describe('validation', () => {
  it('requires a type', () => {
    expect(buildCreateBody(form({}))).toEqual({ ok: false, errors: { type: TRIGGER_MESSAGES.typeRequired } })
    expect(buildCreateBody(form({ type: 'bogus' as never }))).toEqual({ ok: false, errors: { type: TRIGGER_MESSAGES.typeRequired } })
  })

  it('checks the grace period (empty, zero, fractional)', () => {
    for (const gracePeriod of [Number.NaN, 0, -3, 1.5]) {
      expect(buildCreateBody(form({ type: 'inactivity', gracePeriod }))).toEqual({ ok: false, errors: { gracePeriod: TRIGGER_MESSAGES.gracePeriodMin } })
    }
    const ok = buildCreateBody(form({ type: 'inactivity', pingFrequency: 'monthly', gracePeriod: 1 }))
    expect(ok.ok && ok.body.config).toEqual({ pingFrequency: 'monthly', gracePeriod: 1 })
  })

  it('takes a frequency of so many days (a /settings choice) and refuses anything else', () => {
    const days = buildCreateBody(form({ type: 'inactivity', pingFrequency: '14', gracePeriod: 3 }))
    expect(days.ok && days.body.config).toEqual({ pingFrequency: 14, gracePeriod: 3 })
    expect(triggerCreateBodySchema.safeParse(days.ok && days.body).success).toBe(true)
    for (const pingFrequency of ['hourly', '0', '366', '']) {
      expect(buildCreateBody(form({ type: 'inactivity', pingFrequency }))).toEqual({ ok: false, errors: { pingFrequency: TRIGGER_MESSAGES.pingFrequencyInvalid } })
    }
  })

  it('checks the failure threshold and time window together', () => {
    expect(buildCreateBody(form({ type: 'biometric_failure', failureThreshold: 0, timeWindow: Number.NaN }))).toEqual({
      ok: false,
      errors: { failureThreshold: TRIGGER_MESSAGES.failureThresholdMin, timeWindow: TRIGGER_MESSAGES.timeWindowMin },
    })
  })

  it('ignores the fields of other types', () => {
    expect(buildCreateBody(form({ type: 'verified_death', gracePeriod: Number.NaN, failureThreshold: 0 })).ok).toBe(true)
    expect(buildCreateBody(form({ type: 'inactivity', timeWindow: 0, releaseDate: 'x' })).ok).toBe(true)
  })

  it('checks a scheduled release: date given, in the future, at least one beneficiary', () => {
    expect(buildCreateBody(form({ type: 'scheduled' }))).toEqual({
      ok: false,
      errors: { releaseDate: TRIGGER_MESSAGES.releaseDateRequired, beneficiaries: TRIGGER_MESSAGES.beneficiariesRequired },
    })
    const past = buildCreateBody(form({ type: 'scheduled', releaseDate: '2001-01-01T10:00', beneficiaries: [crypto.randomUUID()] }))
    expect(past).toEqual({ ok: false, errors: { releaseDate: TRIGGER_MESSAGES.releaseDateFuture } })
  })

  it('builds a scheduled body the contract accepts, with beneficiaries de-duplicated', () => {
    const id = crypto.randomUUID()
    const releaseDate = inAYear()
    const result = buildCreateBody(form({ type: 'scheduled', releaseDate, beneficiaries: [id, id], description: '  For the kids  ' }))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.body).toEqual({
      type: 'scheduled',
      config: { releaseDate: localDateTimeToIso(releaseDate), beneficiaries: [id], description: 'For the kids' },
      status: 'active',
    })
    expect(triggerCreateBodySchema.safeParse(result.body).success).toBe(true)
  })
})

describe('localDateTimeToIso', () => {
  it('keeps the wall time and adds the browser’s offset', () => {
    process.env.TZ = 'Asia/Kolkata'
    expect(localDateTimeToIso('2030-05-01T09:30')).toBe('2030-05-01T09:30:00+05:30')
    process.env.TZ = 'America/New_York'
    expect(localDateTimeToIso('2030-01-15T23:05')).toBe('2030-01-15T23:05:00-05:00')
    expect(localDateTimeToIso('2030-07-15T23:05:07')).toBe('2030-07-15T23:05:07-04:00')
    process.env.TZ = 'UTC'
    expect(localDateTimeToIso('2030-05-01T09:30')).toBe('2030-05-01T09:30:00+00:00')
  })

  it('names the same instant as the browser’s own parse', () => {
    const value = '2031-03-04T05:06'
    expect(Date.parse(localDateTimeToIso(value)!)).toBe(new Date(value).getTime())
  })

  it('refuses empty, partial and impossible times', () => {
    process.env.TZ = 'Europe/Berlin'
    for (const value of ['', '2030-05-01', '2030-02-30T10:00', '2030-13-01T10:00', 'tomorrow', '2030-03-31T02:30']) {
      expect(localDateTimeToIso(value)).toBeNull()
    }
  })

  it('refuses a time with anything after it (a cut-off seconds field, stray text)', () => {
    process.env.TZ = 'UTC'
    for (const value of ['2030-05-01T09:30:5', '2030-05-01T09:30x', '2030-05-01T09:30:00.000']) {
      expect(localDateTimeToIso(value)).toBeNull()
    }
  })

  it('toLocalInputValue is its inverse for the field’s min', () => {
    process.env.TZ = 'Asia/Kolkata'
    expect(toLocalInputValue(new Date('2030-05-01T04:00:00Z'))).toBe('2030-05-01T09:30')
  })
})
