import { describe, expect, it } from 'vitest'
import { FAILED_UNLOCK_TRIGGER_NAME } from '../../contract/trigger-types'
import { RELEASE_PROTOCOLS } from '../../contract/vault-items'
import {
  earliestHours,
  EARLIEST_COPY,
  policyCauses,
  policyEarliestLines,
  policyEarliestSummary,
  policyWhenText,
  protocolEarliestSentence,
  protocolEarliestText,
  type ReleaseCause,
} from '@/features/triggers/earliest'

// When a release's items become available at the earliest, as the policy form, the policy list and
// the Add Item dialog say it: the engine's rule (a cause that is not the owner acting waits the
// longer of the delay and the safety window; the owner's own hand waits the delay alone).

const NOT_OWNER: readonly ReleaseCause[] = ['verified_death', 'inactivity', 'biometric_failure']

describe('earliestHours', () => {
  it.each(NOT_OWNER)('%s: the window when the delay is shorter, the delay when it is longer', (cause) => {
    expect(earliestHours(cause, 0, 72)).toBe(72)
    expect(earliestHours(cause, 48, 72)).toBe(72)
    expect(earliestHours(cause, 72, 72)).toBe(72)
    expect(earliestHours(cause, 100, 72)).toBe(100)
    expect(earliestHours(cause, 100, 720)).toBe(720)
    expect(earliestHours(cause, 48, null)).toBeNull()
  })

  it('the owner by hand: the delay alone, whatever the window', () => {
    expect(earliestHours('manual', 0, 72)).toBe(0)
    expect(earliestHours('manual', 48, 72)).toBe(48)
    expect(earliestHours('manual', 100, 72)).toBe(100)
    expect(earliestHours('manual', 48, null)).toBe(48)
  })
})

describe('policyWhenText', () => {
  it.each(NOT_OWNER)('%s: names the window when it is what holds the items back', (cause) => {
    expect(policyWhenText(cause, 0, 72)).toBe('72 hours after (your safety window)')
    expect(policyWhenText(cause, 48, 72)).toBe('72 hours after (your safety window)')
    expect(policyWhenText(cause, 72, 72)).toBe('72 hours after')
    expect(policyWhenText(cause, 100, 72)).toBe('100 hours after')
  })

  it.each(NOT_OWNER)('%s: with the window not known yet, never claims less than it', (cause) => {
    expect(policyWhenText(cause, 0, null)).toBe('once your safety window has passed')
    expect(policyWhenText(cause, 100, null)).toBe('100 hours after, or later if your safety window is longer')
  })

  it.each(NOT_OWNER)('%s: with the window not known, a delay of one hour is still named, in the singular', (cause) => {
    expect(policyWhenText(cause, 1, null)).toBe('1 hour after, or later if your safety window is longer')
  })

  it('the owner by hand: at once, or the delay', () => {
    expect(policyWhenText('manual', 0, 72)).toBe('at once')
    expect(policyWhenText('manual', 1, 72)).toBe('1 hour after')
    expect(policyWhenText('manual', 48, 72)).toBe('48 hours after')
    expect(policyWhenText('manual', 100, null)).toBe('100 hours after')
  })
})

describe('policyCauses', () => {
  it('each trigger the policy names that fires by itself, then the owner by hand (any named trigger can be released by hand)', () => {
    expect(policyCauses(['inactivity', 'verified_death'])).toEqual(['verified_death', 'inactivity', 'manual'])
    expect(policyCauses(['biometric_failure'])).toEqual(['biometric_failure', 'manual'])
    expect(policyCauses(['manual_release'])).toEqual(['manual'])
    expect(policyCauses(['manual_release', 'verified_death', 'verified_death'])).toEqual(['verified_death', 'manual'])
    expect(policyCauses([])).toEqual([])
  })
})

describe('policyEarliestLines', () => {
  it('delay 0 with a 72-hour window: the window for a death report, at once by hand', () => {
    expect(policyEarliestLines(['verified_death', 'manual_release'], 0, 72).map((l) => l.text)).toEqual([
      'If a death report starts it: 72 hours after (your safety window)',
      'If you release it by hand: at once',
    ])
  })

  it('delay 100: 100 hours after for every cause', () => {
    expect(policyEarliestLines(['verified_death', 'inactivity', 'biometric_failure', 'manual_release'], 100, 72).map((l) => l.text)).toEqual([
      'If a death report starts it: 100 hours after',
      'If your check-in grace runs out: 100 hours after',
      `If ${FAILED_UNLOCK_TRIGGER_NAME.toLowerCase()} reach your limit: 100 hours after`,
      'If you release it by hand: 100 hours after',
    ])
  })

  it('a delay under the window: the window for causes that fire by themselves, the delay by hand', () => {
    expect(policyEarliestLines(['inactivity'], 48, 72)).toEqual([
      { cause: 'inactivity', text: 'If your check-in grace runs out: 72 hours after (your safety window)' },
      { cause: 'manual', text: 'If you release it by hand: 48 hours after' },
    ])
    expect(policyEarliestLines(['biometric_failure'], 24, 168).map((l) => l.text)).toEqual([
      'If failed unlock attempts reach your limit: 168 hours after (your safety window)',
      'If you release it by hand: 24 hours after',
    ])
  })

  it('a Manual Release policy is never held by the window', () => {
    expect(policyEarliestLines(['manual_release'], 0, 720).map((l) => l.text)).toEqual(['If you release it by hand: at once'])
  })

  it('nothing while no trigger is named or the delay is not a number of hours', () => {
    expect(policyEarliestLines([], 72, 72)).toEqual([])
    expect(policyEarliestLines(['verified_death'], Number.NaN, 72)).toEqual([])
    expect(policyEarliestLines(['verified_death'], -1, 72)).toEqual([])
    expect(policyEarliestLines(['verified_death'], 1.5, 72)).toEqual([])
  })
})

describe('policyEarliestSummary', () => {
  it('one time when every cause has the same', () => {
    expect(policyEarliestSummary(['verified_death'], 100, 72)).toBe('100 hours after')
    expect(policyEarliestSummary(['verified_death'], 72, 72)).toBe('72 hours after')
    expect(policyEarliestSummary(['manual_release'], 0, 72)).toBe('at once')
    expect(policyEarliestSummary(['manual_release'], 48, 72)).toBe('48 hours after')
  })

  it('the window, and the delay by hand, when they differ', () => {
    expect(policyEarliestSummary(['inactivity', 'verified_death'], 48, 72)).toBe('72 hours after (your safety window), or 48 hours after if you release it by hand')
    expect(policyEarliestSummary(['verified_death', 'manual_release'], 0, 72)).toBe('72 hours after (your safety window), or at once if you release it by hand')
    expect(policyEarliestSummary(['verified_death'], 0, null)).toBe('once your safety window has passed, or at once if you release it by hand')
  })

  it('nothing for no trigger or a delay that is not a number of hours', () => {
    expect(policyEarliestSummary([], 0, 72)).toBe('')
    expect(policyEarliestSummary(['verified_death'], Number.NaN, 72)).toBe('')
  })
})

describe('protocolEarliestText (Add Item)', () => {
  it('Verified Death: the window after a death report, at once by hand', () => {
    expect(protocolEarliestText('VERIFIED_DEATH', 72)).toBe(
      '72 hours after an approver confirms a death (your safety window), if you do not cancel; at once if you release your Verified Death trigger by hand',
    )
    expect(protocolEarliestText('VERIFIED_DEATH', 24)).toMatch(/^24 hours after an approver confirms a death \(your safety window\)/)
  })

  it('Inactivity: the owner’s silence, and not before the window after the trigger fires', () => {
    expect(protocolEarliestText('INACTIVITY_90_DAYS', 72)).toBe(
      'after 90 days without a check-in, and not before 72 hours after your Inactivity trigger fires (your safety window), if you do not cancel; if you release your Inactivity trigger by hand, after 90 days without a check-in',
    )
    expect(protocolEarliestText('INACTIVITY_30_DAYS', 720)).toMatch(/^after 30 days without a check-in, and not before 720 hours after/)
    expect(protocolEarliestText('INACTIVITY_180_DAYS', 72)).toMatch(/^after 180 days without a check-in/)
    expect(protocolEarliestText('INACTIVITY_365_DAYS', 72)).toMatch(/^after 365 days without a check-in/)
  })

  it('Failed unlock attempts: the window after the limit, at once by hand', () => {
    expect(protocolEarliestText('BIOMETRIC_FAILURE', 72)).toBe(
      `72 hours after failed unlock attempts reach your limit (your safety window), if you do not cancel; at once if you release your ${FAILED_UNLOCK_TRIGGER_NAME} trigger by hand`,
    )
  })

  it('Manual Release and Emergency: at once when the owner releases them; Scheduled: its date', () => {
    expect(protocolEarliestText('MANUAL_RELEASE', 72)).toBe('at once when you release it by hand')
    expect(protocolEarliestText('EMERGENCY', 720)).toBe('at once when you release it by hand')
    expect(protocolEarliestText('SCHEDULED', 720)).toBe('on the date you set')
  })

  it('with the window not known yet', () => {
    expect(protocolEarliestText('VERIFIED_DEATH', null)).toBe(
      'the end of your safety window after an approver confirms a death, if you do not cancel; at once if you release your Verified Death trigger by hand',
    )
    expect(protocolEarliestText('INACTIVITY_60_DAYS', null)).toMatch(/^after 60 days without a check-in, and not before the end of your safety window after your Inactivity trigger fires,/)
    expect(protocolEarliestText('MANUAL_RELEASE', null)).toBe('at once when you release it by hand')
  })

  it('every protocol has a sentence, and only the owner’s own ones skip the window', () => {
    for (const protocol of RELEASE_PROTOCOLS) {
      const sentence = protocolEarliestSentence(protocol, 72)
      expect(sentence.startsWith(`${EARLIEST_COPY.heading}: `)).toBe(true)
      expect(sentence.endsWith('.')).toBe(true)
      const owners = protocol === 'MANUAL_RELEASE' || protocol === 'EMERGENCY' || protocol === 'SCHEDULED'
      expect(sentence.includes('(your safety window)')).toBe(!owners)
    }
  })
})
