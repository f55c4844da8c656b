import { describe, expect, it } from 'vitest'
import { CLOCK_MESSAGES, FAILED_UNLOCK_MESSAGES, TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, type EngineStatus, type Trigger } from '../../contract/triggers'
import { RELEASE_PROTOCOL_LABELS } from '../../contract/vault-items'
import { TRIGGER_LABELS as POLICY_TRIGGER_LABELS } from '@/features/policies/copy'
import { sourceText } from '@/features/triggers/dry-run'
import { checkInText, clockStateText, configSummary, frequencyLabel, manualResultText, PHASE_TEXT, releasedItemsText, scheduleText } from '@/features/triggers/copy'
import { frequencyChoices } from '@/features/triggers/trigger-form'
import { isReleaseConfirmed, manualReleaseGuard } from '@/features/triggers/manual-release'

// The words the trigger screens derive from data: config summaries, the manual card's grace
// period and its 'Missing Information' rule, and the result toasts.

const trigger = (type: Trigger['type'], config: Record<string, unknown>) => ({ type, config }) as Pick<Trigger, 'type' | 'config'>

describe('configSummary', () => {
  it('words each type', () => {
    expect(configSummary(trigger('inactivity', { pingFrequency: 'weekly', gracePeriod: 14 }))).toBe('Check-ins weekly, 14-day grace')
    expect(configSummary(trigger('inactivity', { pingFrequency: 'daily', gracePeriod: 1 }))).toBe('Check-ins daily, 1-day grace')
    expect(configSummary(trigger('biometric_failure', { failureThreshold: 5, timeWindow: 30 }))).toBe('5 failed attempts within 30 days')
    expect(configSummary(trigger('biometric_failure', { failureThreshold: 1, timeWindow: 1 }))).toBe('1 failed attempt within 1 day')
    expect(configSummary(trigger('verified_death', {}))).toMatch(/approvers confirms a death certificate/)
  })

  it('words a frequency of so many days (a /settings choice) as such', () => {
    expect(configSummary(trigger('inactivity', { pingFrequency: 14, gracePeriod: 14 }))).toBe('Check-ins every 14 days, 14-day grace')
    expect(configSummary(trigger('inactivity', { pingFrequency: 90, gracePeriod: 1 }))).toBe('Check-ins every 90 days, 1-day grace')
    expect(configSummary(trigger('inactivity', { pingFrequency: 0, gracePeriod: 2 }))).toBe('Check-ins weekly, 2-day grace')
  })

  it('falls back to the defaults for a missing or odd config', () => {
    expect(configSummary(trigger('inactivity', {}))).toBe('Check-ins weekly, 14-day grace')
    expect(configSummary(trigger('inactivity', { pingFrequency: 'hourly', gracePeriod: '3' }))).toBe('Check-ins weekly, 14-day grace')
    expect(configSummary(trigger('biometric_failure', {}))).toBe('5 failed attempts within 30 days')
  })

  it('names a scheduled release’s date and people', () => {
    const t = trigger('scheduled', { releaseDate: '2030-05-01T09:30:00Z', beneficiaries: ['a', 'b'] })
    expect(configSummary(t, ['Ada', 'Ben', 'Cy'])).toMatch(/^Releases on .*2030.* to Ada, Ben and Cy$/)
    expect(configSummary(t)).toMatch(/^Releases on .*2030/)
    expect(configSummary(trigger('scheduled', {}))).toBe('Releases on an unknown date')
  })
})

describe('the Failed unlock attempts trigger', () => {
  it('has one person-readable name on every screen that shows it (the ids stay as the API has them)', () => {
    const name = 'Failed unlock attempts'
    expect(TRIGGER_TYPE_LABELS.biometric_failure.title).toBe(name)
    expect(RELEASE_PROTOCOL_LABELS.BIOMETRIC_FAILURE).toBe(name)
    expect(POLICY_TRIGGER_LABELS.biometric_failure.label).toBe(name)
    expect(sourceText({ kind: 'item', itemId: 'i1', protocol: 'BIOMETRIC_FAILURE' })).toBe(`Item release condition: ${name}`)
    const shown = [
      TRIGGER_TYPE_LABELS.biometric_failure,
      RELEASE_PROTOCOL_LABELS.BIOMETRIC_FAILURE,
      POLICY_TRIGGER_LABELS.biometric_failure,
      FAILED_UNLOCK_MESSAGES.policyHint,
      FAILED_UNLOCK_MESSAGES.thresholdHint,
      FAILED_UNLOCK_MESSAGES.attemptsLeft(2),
      configSummary(trigger('biometric_failure', {})),
    ]
    expect(JSON.stringify(shown)).not.toMatch(/biometric|passkey/i)
    // The forgiving time is stated where the trigger is chosen.
    expect(TRIGGER_TYPE_LABELS.biometric_failure.description).toContain('within 15 minutes')
  })
})

describe('manual trigger card', () => {
  it("shows each trigger's own settings, never another type's grace period", () => {
    expect(configSummary(trigger('verified_death', {}))).not.toMatch(/grace/i)
    expect(configSummary(trigger('manual_release', {}))).toBe('Fires only when you release by hand')
  })

  it('needs a trigger and a reason before anything else (Missing Information)', () => {
    expect(manualReleaseGuard('', 'testing')).toMatchObject({ ok: false, title: TRIGGER_MESSAGES.missingInformation })
    expect(manualReleaseGuard(undefined, 'testing')).toMatchObject({ ok: false, title: 'Missing Information' })
    expect(manualReleaseGuard('t1', '   ')).toEqual({ ok: false, title: 'Missing Information', description: TRIGGER_MESSAGES.reasonRequired })
    expect(manualReleaseGuard('t1', '  family present ')).toEqual({ ok: true, triggerId: 't1', reason: 'family present' })
  })

  it('confirms only with the typed word RELEASE', () => {
    expect(isReleaseConfirmed('RELEASE')).toBe(true)
    expect(isReleaseConfirmed(' RELEASE ')).toBe(true)
    for (const typed of ['', 'release', 'RELEAS', 'RELEASE NOW']) expect(isReleaseConfirmed(typed)).toBe(false)
  })
})

describe('result toasts', () => {
  it('states what a manual release did, counting what the release list and the heirs’ e-mails count', () => {
    const base = { releases: 2, transferredItems: 6, releasedItems: 3, beneficiariesNotified: 2, pendingReleases: 0, waitingUntil: null, nothingBecause: null }
    expect(manualResultText(base)).toBe('2 releases started. 3 items available now in 6 deliveries, 2 beneficiaries e-mailed.')
    expect(manualResultText({ ...base, releases: 3, transferredItems: 1, releasedItems: 1, beneficiariesNotified: 1, pendingReleases: 2, waitingUntil: '2030-05-01T09:30:00Z' })).toMatch(
      /^3 releases started\. 1 item available now in 1 delivery, 1 beneficiary e-mailed\. 2 releases still waiting for a delay, approvals or identity checks \(the first not before .*2030.*\)\.$/,
    )
  })

  it('never says "0 items released" when nothing was handed over: it says why', () => {
    const none = { releases: 0, transferredItems: 0, releasedItems: 0, beneficiariesNotified: 0, pendingReleases: 0, waitingUntil: null }
    expect(manualResultText({ ...none, nothingBecause: 'nothing_named' })).toBe('Nothing was released: no active policy or item release condition names this trigger.')
    const already = manualResultText({ ...none, releases: 3, nothingBecause: 'already_released' })
    expect(already).toBe('3 releases started. Nothing new was handed over: everything it names had already been released to the same people.')
    expect(already).not.toMatch(/0 item/)
  })

  it('states what a check-in did, and says the clock was reset only when one runs', () => {
    // No next check-in: no inactivity trigger runs a clock, so nothing was reset.
    expect(checkInText(0, null)).toBe('Check-in recorded.')
    expect(checkInText(2, null)).toBe('Check-in recorded. 2 pending releases cancelled.')
    expect(checkInText(2, null)).not.toContain('reset')
    expect(checkInText(0, '2030-05-01T09:30:00Z')).toMatch(/^Check-in recorded\. Your inactivity clock has been reset\. Next check-in: .*2030.*\.$/)
    expect(checkInText(1, '2030-05-01T09:30:00Z')).toMatch(/has been reset\. 1 pending release cancelled\. Next check-in: .*2030.*\.$/)
  })
})

describe('what a release hands over, in words', () => {
  it('names the items when the vault is unlocked, counts them when not', () => {
    const names = new Map([['a', 'deeds.pdf'], ['b', 'photo.jpg'], ['c', 'will.pdf'], ['d', 'letter.txt']])
    expect(releasedItemsText(['a', 'b'], (id) => names.get(id))).toBe('deeds.pdf, photo.jpg')
    expect(releasedItemsText(['a', 'b', 'c', 'd'], (id) => names.get(id))).toBe('deeds.pdf, photo.jpg, will.pdf and 1 more')
    expect(releasedItemsText(['a', 'x'], (id) => names.get(id))).toBe('2 items')
    expect(releasedItemsText([], () => undefined)).toBe('No items')
  })
})

describe('the check-in clock, in words', () => {
  const status = (over: Partial<EngineStatus> = {}) =>
    ({ inactivityTriggerId: 't1', phase: 'ok', pingFrequencyDays: 7, graceDays: 14, ...over }) as EngineStatus

  it("states the running trigger's own frequency and grace, the same words everywhere", () => {
    expect(scheduleText(status())).toBe('Every 7 days, 14 days grace')
    expect(scheduleText(status({ pingFrequencyDays: 1, graceDays: 1 }))).toBe('Every 1 day, 1 day grace')
    expect(CLOCK_MESSAGES.schedule(7, 14)).toBe(scheduleText(status()))
    expect(CLOCK_MESSAGES.emailSchedule(7, 14)).toContain('every 7 days')
    expect(CLOCK_MESSAGES.emailSchedule(7, 14)).toContain('waits 14 days')
    // No clock, no schedule to show (never the /settings frequency or a fixed 3-day grace).
    expect(scheduleText(status({ inactivityTriggerId: null, pingFrequencyDays: null, graceDays: null }))).toBeNull()
  })

  it('says why no clock runs instead of a phase', () => {
    const none = status({ inactivityTriggerId: null, pingFrequencyDays: null, graceDays: null })
    expect(clockStateText(none, [])).toBe(CLOCK_MESSAGES.notRunning)
    expect(clockStateText(none, [{ type: 'inactivity', status: 'paused' }])).toBe(CLOCK_MESSAGES.paused)
    expect(clockStateText(none, [{ type: 'inactivity', status: 'triggered' }])).toBe(CLOCK_MESSAGES.fired)
    expect(clockStateText(none, [{ type: 'verified_death', status: 'active' }])).toBe(CLOCK_MESSAGES.notRunning)
    expect(clockStateText(status({ phase: 'checkin_sent' }), [{ type: 'inactivity', status: 'active' }])).toBe(PHASE_TEXT.checkin_sent)
  })

  it('offers the spec’s three frequencies and a /settings day count, shortest first', () => {
    expect(frequencyChoices()).toEqual(['daily', 'weekly', 'monthly'])
    expect(frequencyChoices(14)).toEqual(['daily', 'weekly', 14, 'monthly'])
    expect(frequencyChoices(7, 'weekly', 90)).toEqual(['daily', 'weekly', 'monthly', 90])
    expect(frequencyChoices(14).map(frequencyLabel)).toEqual(['Daily', 'Weekly', 'Every 14 days', 'Monthly'])
  })

  it('a day count equal to one of the spec’s frequencies is offered under the spec’s name, once', () => {
    expect(frequencyChoices(7)).toEqual(['daily', 'weekly', 'monthly'])
    expect(frequencyChoices(1, 30).map(frequencyLabel)).toEqual(['Daily', 'Weekly', 'Monthly'])
  })
})
