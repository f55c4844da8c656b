import { describe, expect, it } from 'vitest'
import { hasInactivityTrigger, scheduledBeneficiariesText, startingType, triggerExtras } from '@/features/triggers/card-rules'

// The Triggers page: what each trigger card offers, and what the create dialog opens on.

describe('a trigger card', () => {
  it('offers the death report’s links again and the schedule edit only on a trigger not yet fired, each on its own type', () => {
    expect(triggerExtras({ type: 'verified_death', status: 'active' })).toEqual({ resendReportLinks: true, editSchedule: false })
    expect(triggerExtras({ type: 'verified_death', status: 'paused' })).toEqual({ resendReportLinks: true, editSchedule: false })
    expect(triggerExtras({ type: 'verified_death', status: 'triggered' })).toEqual({ resendReportLinks: false, editSchedule: false })
    expect(triggerExtras({ type: 'inactivity', status: 'active' })).toEqual({ resendReportLinks: false, editSchedule: true })
    expect(triggerExtras({ type: 'inactivity', status: 'triggered' })).toEqual({ resendReportLinks: false, editSchedule: false })
    expect(triggerExtras({ type: 'scheduled', status: 'active' })).toEqual({ resendReportLinks: false, editSchedule: false })
  })

  it('names a scheduled release’s beneficiaries, counts those removed since, and says None when there are neither', () => {
    const names: Record<string, string> = { a: 'Ada', b: 'Ben' }
    const nameOf = (id: string) => names[id]
    expect(scheduledBeneficiariesText(['a', 'b'], nameOf, true)).toBe('Ada, Ben')
    expect(scheduledBeneficiariesText(['a', 'gone'], nameOf, true)).toBe('Ada, 1 removed')
    expect(scheduledBeneficiariesText(['gone'], nameOf, true)).toBe('1 removed')
    // Before the names are loaded, nobody counts as removed.
    expect(scheduledBeneficiariesText(['gone'], nameOf, false)).toBe('None')
    expect(scheduledBeneficiariesText([], nameOf, true)).toBe('None')
  })
})

describe('the create trigger dialog', () => {
  it('does not offer a second inactivity trigger: asked for one while one exists, it opens on no type', () => {
    expect(hasInactivityTrigger([{ type: 'scheduled' }, { type: 'inactivity' }])).toBe(true)
    expect(hasInactivityTrigger([{ type: 'scheduled' }])).toBe(false)
    expect(hasInactivityTrigger(undefined)).toBe(false)
    expect(startingType('inactivity', true)).toBe('')
    expect(startingType('inactivity', false)).toBe('inactivity')
    expect(startingType('scheduled', true)).toBe('scheduled')
    expect(startingType(undefined, false)).toBe('')
  })
})
