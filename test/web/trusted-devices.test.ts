import { describe, expect, it } from 'vitest'
import { DEVICE_LOSS_MESSAGES, DEVICE_LOSS_TRIGGER_NAME, DRY_RUN_CAUSE_LABELS, TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, triggerCreateBodySchema, type Trigger } from '../../contract/triggers'
import { TRUSTED_DEVICE_PATHS } from '../../contract/trusted-devices'
import { TRIGGER_LABELS as POLICY_TRIGGER_LABELS } from '@/features/policies/copy'
import { configSummary } from '@/features/triggers/copy'
import { earliestHours, policyCauses, policyEarliestLines } from '@/features/triggers/earliest'
import { buildCreateBody, TRIGGER_FORM_DEFAULTS, type TriggerFormValues } from '@/features/triggers/trigger-form'

// The Loss of trusted devices trigger in the web app's words and forms: one name everywhere, the
// Create Trigger form's days field (7–365, default 30), the card's summary, the policy form's
// earliest-time lines (the safety window applies: it is not the owner acting now).

const form = (values: Partial<TriggerFormValues>): TriggerFormValues => ({ ...TRIGGER_FORM_DEFAULTS, ...values })
const trigger = (config: Record<string, unknown>) => ({ type: 'device_loss', config }) as Pick<Trigger, 'type' | 'config'>

describe('the Create Trigger form', () => {
  it('sends the default 30 days untouched, and the days chosen', () => {
    expect(buildCreateBody(form({ type: 'device_loss' }))).toEqual({ ok: true, body: { type: 'device_loss', config: { days: 30 }, status: 'active' } })
    expect(buildCreateBody(form({ type: 'device_loss', deviceDays: 7 }))).toEqual({ ok: true, body: { type: 'device_loss', config: { days: 7 }, status: 'active' } })
    expect(triggerCreateBodySchema.safeParse({ type: 'device_loss', config: { days: 365 } }).success).toBe(true)
  })

  it('refuses days outside 7–365, on the days field, in plain words', () => {
    for (const deviceDays of [6, 366, 7.5, Number.NaN]) {
      expect(buildCreateBody(form({ type: 'device_loss', deviceDays }))).toEqual({ ok: false, errors: { deviceDays: TRIGGER_MESSAGES.deviceDaysRange } })
    }
  })
})

describe('copy', () => {
  it('names the trigger the same everywhere', () => {
    expect(TRIGGER_TYPE_LABELS.device_loss.title).toBe(DEVICE_LOSS_TRIGGER_NAME)
    expect(POLICY_TRIGGER_LABELS.device_loss).toEqual({ label: DEVICE_LOSS_TRIGGER_NAME, hint: DEVICE_LOSS_MESSAGES.policyHint })
    expect(DRY_RUN_CAUSE_LABELS.device_loss).toBe('If your trusted devices went unused long enough now')
  })

  it("summarises the card's days, the default filling a missing one", () => {
    expect(configSummary(trigger({ days: 14 }))).toBe('No trusted device used for 14 days')
    expect(configSummary(trigger({}))).toBe('No trusted device used for 30 days')
  })

  it('paths name the device, escaped', () => {
    expect(TRUSTED_DEVICE_PATHS.session('12')).toBe('/api/auth/sessions/12/trust')
    expect(TRUSTED_DEVICE_PATHS.key('a/b')).toBe('/api/auth/security-keys/a%2Fb/trust')
  })
})

describe('earliest availability', () => {
  it('is held by the safety window, as every cause that is not the owner acting now', () => {
    expect(earliestHours('device_loss', 0, 72)).toBe(72)
    expect(policyCauses(['device_loss'])).toEqual(['device_loss', 'manual'])
    expect(policyEarliestLines(['device_loss'], 24, 72).map((l) => l.text)).toEqual([
      'If none of your trusted devices is used for your chosen days: 72 hours after (your safety window)',
      'If you release it by hand: 24 hours after',
    ])
  })
})
