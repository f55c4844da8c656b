import { describe, expect, it } from 'vitest'
import type { CancelOutcome, CancelView, DownloadedCopy } from '../../contract/releases'
import { at, cancelEnding, cancelledFacts, pendingFacts } from '@/features/releases/cancel-rules'

const copy: DownloadedCopy = { itemType: 'doc', plainSize: 10, itemAddedAt: '2026-11-01T00:00:00.000Z', beneficiaryName: 'Ben', downloadedAt: '2026-11-20T10:00:00.000Z' }

const view = (over: Partial<CancelView>): CancelView => ({
  state: 'waiting',
  triggerLabel: 'inactivity',
  earliestAt: null,
  waitingReleases: 0,
  availableItems: 0,
  downloaded: [],
  clockRuns: false,
  ...over,
})

describe("the owner's cancel link", () => {
  it('Cancel the release is offered only while something of it waits or is available; a cancelled or spent release says so', () => {
    expect(cancelEnding('waiting')).toBeNull()
    expect(cancelEnding('available')).toBeNull()
    expect(cancelEnding('cancelled')).toEqual({ title: 'Release already cancelled', description: 'This release was already cancelled. Nothing of it can be downloaded.' })
    expect(cancelEnding('over')).toEqual({ title: 'Nothing left to cancel', description: 'Everything this release made available has expired or been downloaded in full.' })
  })

  it('before cancelling: items available now are said to be withdrawn at once, never "nothing was made available"', () => {
    const facts = pendingFacts(view({ state: 'available', availableItems: 1 }))
    expect(facts[0]).toBe('One item is available to your beneficiaries now. Cancelling withdraws it at once: no further download will be allowed.')
    expect(pendingFacts(view({ state: 'available', availableItems: 3 }))[0]).toBe('3 items are available to your beneficiaries now. Cancelling withdraws them at once: no further download will be allowed.')
    expect(facts.join(' ')).not.toContain('Nothing has been made available')
  })

  it('before cancelling: "nothing has been made available" only when nothing is available and nothing was downloaded', () => {
    expect(pendingFacts(view({}))[0]).toBe('Nothing has been made available to anyone yet.')
    expect(pendingFacts(view({ downloaded: [copy] })).join(' ')).not.toContain('Nothing has been made available')
  })

  it('before cancelling: waiting releases are named with the earliest time they would go out', () => {
    const earliestAt = '2026-11-30T12:00:00.000Z'
    expect(pendingFacts(view({ waitingReleases: 1, earliestAt }))).toContain(`One release is waiting; the earliest would go out ${at(earliestAt)}. Cancelling stops it.`)
    expect(pendingFacts(view({ waitingReleases: 2, earliestAt }))).toContain(`2 releases are waiting; the earliest would go out ${at(earliestAt)}. Cancelling stops them.`)
    expect(pendingFacts(view({ waitingReleases: 0, earliestAt })).join(' ')).not.toContain('waiting;')
  })

  it('before cancelling: the inactivity clock is said to reset only when one runs', () => {
    expect(pendingFacts(view({ clockRuns: true })).at(-1)).toBe('Cancelling also resets your inactivity clock, and anyone who was told of the release is told it was withdrawn.')
    expect(pendingFacts(view({ clockRuns: false })).at(-1)).toBe('Anyone who was told of the release is told it was withdrawn.')
  })

  it('after cancelling: what was withdrawn, and who was told, counted', () => {
    const outcome = (over: Partial<CancelOutcome>): CancelOutcome => ({ cancelledReleases: 1, withdrawnItems: 0, heirsTold: 0, downloaded: [], ...over })
    expect(cancelledFacts(outcome({}))).toEqual(['One release was cancelled.', 'Nothing had been made available to anyone.'])
    expect(cancelledFacts(outcome({ cancelledReleases: 2, withdrawnItems: 1, heirsTold: 1 }))).toEqual([
      '2 releases were cancelled.',
      'One item that was available to your beneficiaries has been withdrawn.',
      'The beneficiary who was told of the release has been told it was withdrawn.',
    ])
    expect(cancelledFacts(outcome({ withdrawnItems: 4, heirsTold: 3 })).slice(1)).toEqual([
      '4 items that were available to your beneficiaries have been withdrawn.',
      'The 3 beneficiaries who were told of the release have been told it was withdrawn.',
    ])
  })
})
