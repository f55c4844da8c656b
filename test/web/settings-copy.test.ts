import { describe, expect, it } from 'vitest'
import { CHECKIN_FREQUENCY_OPTIONS } from '../../contract/constants'
import { newTriggerFrequency, settingsFrequencyDays, settingsGraceText, settingsNotice } from '../../contract/settings'
import { frequencyDaysOf, TRIGGER_DEFAULTS } from '../../contract/triggers'

// The /settings page's words (seeds 000 §2 'Account Settings'): the frequency chosen there is
// where the next inactivity trigger starts; the clock runs on the trigger's own schedule.

describe('the /settings check-in frequency', () => {
  it('falls back to 7 days, and seeds a new inactivity trigger with the same number of days', () => {
    expect(settingsFrequencyDays(null)).toBe(7)
    expect(frequencyDaysOf(newTriggerFrequency(null))).toBe(7)
    for (const days of CHECKIN_FREQUENCY_OPTIONS) {
      expect(settingsFrequencyDays(days)).toBe(days)
      expect(frequencyDaysOf(newTriggerFrequency(days))).toBe(days)
    }
    // Named where the trigger form has a name for it.
    expect(newTriggerFrequency(7)).toBe('weekly')
    expect(newTriggerFrequency(30)).toBe('monthly')
    expect(newTriggerFrequency(14)).toBe(14)
  })

  it("keeps the spec's notice, and it is true: settings apply only to the next trigger setup", () => {
    const notice = settingsNotice(14)
    expect(notice).toContain('Settings apply only to the next trigger setup')
    expect(notice).toContain('Existing triggers keep their original settings')
    expect(notice).toContain('every 14 days')
    // It does not claim to change a running clock.
    expect(notice).not.toMatch(/at once|applies? (at once|now)/i)
  })

  it('shows the grace that runs, never a fixed 3 days', () => {
    expect(settingsGraceText(14)).toBe('14 days, set on your inactivity trigger')
    expect(settingsGraceText(1)).toBe('1 day, set on your inactivity trigger')
    expect(settingsGraceText(null)).toBe(`Chosen when you set up an inactivity trigger (${TRIGGER_DEFAULTS.gracePeriod} days unless you change it)`)
    for (const text of [settingsGraceText(14), settingsGraceText(null)]) expect(text).not.toContain('3 days (fixed)')
  })
})
