import { describe, expect, it } from 'vitest'
import { formatWhen } from '@/features/triggers/copy'
import { cancelReleaseText, releaseAction, releaseWhenText, toggleTarget, triggerFireText } from '@/features/triggers/monitor-rules'

// The Monitor's lists: which action each trigger and release offers, and what each is said to do.

const AT = '2026-12-01T10:00:00.000Z'
const LATER = '2026-12-03T10:00:00.000Z'

describe('a trigger’s toggle', () => {
  it('pauses an active trigger, activates a paused one, and a fired trigger has no toggle', () => {
    expect(toggleTarget('active')).toBe('paused')
    expect(toggleTarget('paused')).toBe('active')
    expect(toggleTarget('triggered')).toBeNull()
  })

  it('says when a trigger fires: fired, would fire while paused, fires, or not known', () => {
    expect(triggerFireText({ status: 'triggered', firedAt: AT, nextFireAt: LATER })).toBe(`Fired ${formatWhen(AT)}`)
    expect(triggerFireText({ status: 'triggered', firedAt: null, nextFireAt: null })).toBe('Fired at an unknown time')
    expect(triggerFireText({ status: 'paused', firedAt: null, nextFireAt: AT })).toBe(`Would fire ${formatWhen(AT)} if nothing changes`)
    expect(triggerFireText({ status: 'active', firedAt: null, nextFireAt: AT })).toBe(`Fires ${formatWhen(AT)} if nothing changes`)
    expect(triggerFireText({ status: 'active', firedAt: null, nextFireAt: null })).toBe('No firing time known')
  })
})

describe('a release on the Monitor', () => {
  it('Cancel is offered only while it waits, Withdraw only once released, nothing once cancelled', () => {
    expect(releaseAction('waiting')).toBe('cancel')
    expect(releaseAction('released')).toBe('withdraw')
    expect(releaseAction('cancelled')).toBeNull()
  })

  it('says when it went: released, released then withdrawn, cancelled before it went, or at the earliest', () => {
    expect(releaseWhenText({ status: 'waiting', releaseAt: AT, releasedAt: null, cancelledAt: null })).toBe(`Releases ${formatWhen(AT)} at the earliest`)
    expect(releaseWhenText({ status: 'released', releaseAt: AT, releasedAt: LATER, cancelledAt: null })).toBe(`Released ${formatWhen(LATER)}`)
    expect(releaseWhenText({ status: 'released', releaseAt: AT, releasedAt: null, cancelledAt: null })).toBe(`Released ${formatWhen(AT)}`)
    expect(releaseWhenText({ status: 'cancelled', releaseAt: AT, releasedAt: AT, cancelledAt: LATER })).toBe(`Released ${formatWhen(AT)}, withdrawn ${formatWhen(LATER)}`)
    expect(releaseWhenText({ status: 'cancelled', releaseAt: AT, releasedAt: null, cancelledAt: LATER })).toBe(`Cancelled ${formatWhen(LATER)}`)
  })

  it('withdrawing a released one says downloads stop and copies stay; cancelling a waiting one says nothing is delivered', () => {
    expect(cancelReleaseText({ status: 'released', sourceName: 'Family' })).toMatch(/^What the release from "Family" made available is withdrawn at once: no further download is allowed\. Copies already downloaded cannot be taken back\./)
    expect(cancelReleaseText({ status: 'waiting', sourceName: 'Family' })).toMatch(/^The release from "Family" will not happen: nothing is delivered\./)
  })
})
