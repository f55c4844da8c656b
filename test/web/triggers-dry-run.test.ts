import { describe, expect, it } from 'vitest'
import type { DryRunCause, DryRunResult, ReleasePlanEntry } from '../../contract/triggers'
import { conditionTexts, dryRunShown, dryRunView, sourceText, type KnownItem } from '@/features/triggers/dry-run'

// A dry run in words: per source its conditions, people and items, grouped by type; file names
// only where this browser decrypted them, "<Type> item" otherwise.

const ada = { id: 'b1', fullName: 'Ada', identityRequired: true, identityVerified: false, secrecyMode: false }
const ben = { id: 'b2', fullName: 'Ben', identityRequired: false, identityVerified: false, secrecyMode: true }

const entry = (over: Partial<ReleasePlanEntry>): ReleasePlanEntry => ({
  source: { kind: 'policy', policyId: 'p1', name: 'Family' },
  itemIds: [],
  beneficiaries: [ada],
  conditions: { delayHours: 0, minimumApprovals: 0, approvers: [], identityRequired: false },
  ...over,
})

const cause = (entries: ReleasePlanEntry[], over: Partial<DryRunCause> = {}): DryRunCause => ({
  cause: 'fires',
  label: 'If your check-in grace ran out now',
  entries,
  itemCount: 3,
  beneficiaryCount: 2,
  deliveryCount: 4,
  earliestAt: null,
  ...over,
})

/** A dry run whose one cause (firing by itself) lists `entries`. */
const result = (entries: ReleasePlanEntry[], over: Partial<DryRunResult> = {}, causeOver: Partial<DryRunCause> = {}): DryRunResult => ({
  triggerId: 't1',
  type: 'inactivity',
  causes: [cause(entries, causeOver)],
  safetyWindowHours: 72,
  paymentHold: false,
  ...over,
})

const typesOnly = new Map<string, KnownItem>([
  ['i1', { type: 'doc' }],
  ['i2', { type: 'photo' }],
  ['i3', { type: 'doc' }],
])
const named = new Map<string, KnownItem>([
  ['i1', { type: 'doc', filename: 'will.pdf' }],
  ['i2', { type: 'photo', filename: 'beach.jpg' }],
  ['i3', { type: 'doc', filename: 'deed.pdf' }],
])

describe('dryRunView', () => {
  it('says so when nothing would be released', () => {
    const view = dryRunView(result([], {}, { itemCount: 0, beneficiaryCount: 0 }), new Map())
    expect(view.namesHidden).toBe(false)
    expect(view.causes[0]).toMatchObject({ empty: true, summary: 'Nothing would be released', entries: [], when: null })
  })

  it('groups items by type, by type name only while the vault is locked', () => {
    const view = dryRunView(result([entry({ itemIds: ['i2', 'i1', 'i3', 'i1'], beneficiaries: [ada, ben] })]), typesOnly)
    expect(view.causes[0]!.empty).toBe(false)
    expect(view.causes[0]!.summary).toBe('Would release 3 items to 2 beneficiaries in 4 deliveries')
    expect(view.namesHidden).toBe(true)
    const [e] = view.causes[0]!.entries
    expect(e!.itemCount).toBe(3)
    expect(e!.groups).toEqual([
      { type: 'doc', heading: 'Documents (2)', labels: ['Document item', 'Document item'] },
      { type: 'photo', heading: 'Photos (1)', labels: ['Photo item'] },
    ])
    expect(e!.beneficiaries).toEqual([
      { id: 'b1', name: 'Ada', note: 'identity not yet verified' },
      { id: 'b2', name: 'Ben', note: null },
    ])
  })

  it("notes 'identity not yet verified' only for a beneficiary who must verify and has not", () => {
    const verified = { ...ada, id: 'b3', fullName: 'Cy', identityVerified: true }
    const view = dryRunView(result([entry({ itemIds: ['i1'], beneficiaries: [ada, verified, ben] })]), typesOnly)
    expect(view.causes[0]!.entries[0]!.beneficiaries).toEqual([
      { id: 'b1', name: 'Ada', note: 'identity not yet verified' },
      { id: 'b3', name: 'Cy', note: null },
      { id: 'b2', name: 'Ben', note: null },
    ])
  })

  it('names the files, sorted, when they were decrypted', () => {
    const view = dryRunView(result([entry({ itemIds: ['i2', 'i1', 'i3'] })]), named)
    expect(view.namesHidden).toBe(false)
    expect(view.causes[0]!.entries[0]!.groups).toEqual([
      { type: 'doc', heading: 'Documents (2)', labels: ['deed.pdf', 'will.pdf'] },
      { type: 'photo', heading: 'Photos (1)', labels: ['beach.jpg'] },
    ])
  })

  it('lists items missing from the vault list last, as unknown', () => {
    const view = dryRunView(result([entry({ itemIds: ['gone', 'i1'] })]), named)
    expect(view.causes[0]!.entries[0]!.groups.map((g) => g.heading)).toEqual(['Documents (1)', 'Other items (1)'])
    expect(view.causes[0]!.entries[0]!.groups[1]!.labels).toEqual(['Unknown item'])
    expect(view.namesHidden).toBe(true)
  })

  it('keeps one entry per source and passes the payment hold on', () => {
    const view = dryRunView(
      result(
        [
          entry({ itemIds: ['i1'] }),
          entry({ source: { kind: 'item', itemId: 'i2', protocol: 'INACTIVITY_90_DAYS' }, itemIds: ['i2'] }),
          entry({ source: { kind: 'scheduled', triggerId: 't1' }, itemIds: [] }),
        ],
        { paymentHold: true },
      ),
      named,
    )
    expect(view.paymentHold).toBe(true)
    expect(view.causes[0]!.entries.map((e) => e.source)).toEqual(['Policy "Family"', 'Item release condition: Inactivity (90 days)', 'Scheduled release'])
    expect(new Set(view.causes[0]!.entries.map((e) => e.key)).size).toBe(3)
    expect(view.causes[0]!.entries[2]!.groups).toEqual([])
  })
})

describe('conditions and sources', () => {
  it('words delay, approvals and identity', () => {
    expect(conditionTexts({ delayHours: 0, minimumApprovals: 0, approvers: [], identityRequired: false })).toEqual(['No delay'])
    expect(conditionTexts({ delayHours: 72, minimumApprovals: 2, approvers: ['Cy', 'Di'], identityRequired: true })).toEqual([
      'Waits 72 hours after the trigger',
      '2 approvals needed from Cy and Di',
      'Identity verification required',
    ])
    expect(conditionTexts({ delayHours: 1, minimumApprovals: 1, approvers: [], identityRequired: false })).toEqual([
      'Waits 1 hour after the trigger',
      '1 approval needed',
    ])
  })

  it('shows an unknown protocol as given', () => {
    expect(sourceText({ kind: 'item', itemId: 'x', protocol: 'CUSTOM' })).toBe('Item release condition: CUSTOM')
  })
})

describe('the safety window in the dry run', () => {
  it('says what a firing by itself adds, and nothing for a scheduled trigger', () => {
    const view = dryRunView(result([entry({})], { safetyWindowHours: 48 }), new Map())
    expect(view.safetyWindow).toContain('48-hour safety window')
    expect(view.safetyWindow).toContain('never shorter')
    expect(dryRunView(result([entry({})], { type: 'scheduled', safetyWindowHours: null }), new Map()).safetyWindow).toBeNull()
  })
})

describe('a dry run per cause', () => {
  it('shows each cause under its own words, with when the first item would be available', () => {
    const now = new Date('2026-11-27T12:00:00Z')
    const view = dryRunView(
      {
        triggerId: 't1',
        type: 'verified_death',
        causes: [
          cause([entry({ itemIds: ['i1'] })], { label: 'If a death report came now', itemCount: 1, beneficiaryCount: 1, deliveryCount: 1, earliestAt: '2026-11-30T12:00:00Z' }),
          cause([entry({ itemIds: ['i2'] })], { cause: 'release_now', label: 'If you release now', itemCount: 1, beneficiaryCount: 1, deliveryCount: 1, earliestAt: now.toISOString() }),
        ],
        safetyWindowHours: 72,
        paymentHold: false,
      },
      named,
      now,
    )
    expect(view.causes.map((c) => [c.key, c.label])).toEqual([
      ['fires', 'If a death report came now'],
      ['release_now', 'If you release now'],
    ])
    expect(view.causes[0]!.when).toMatch(/^Available from .*2026.* at the earliest$/)
    expect(view.causes[1]!.when).toBe('Available at once')
    expect(view.causes[0]!.entries[0]!.groups[0]!.labels).toEqual(['will.pdf'])
    expect(view.causes[1]!.entries[0]!.groups[0]!.labels).toEqual(['beach.jpg'])
  })

  it('a release due within the next minute (the server answered a moment ago) is still available at once', () => {
    const now = new Date('2026-11-27T12:00:00Z')
    const whenAt = (earliestAt: string) =>
      dryRunView(
        { triggerId: 't1', type: 'manual_release', causes: [cause([entry({ itemIds: ['i1'] })], { cause: 'release_now', itemCount: 1, beneficiaryCount: 1, deliveryCount: 1, earliestAt })], safetyWindowHours: null, paymentHold: false },
        named,
        now,
      ).causes[0]!.when
    expect(whenAt('2026-11-27T12:00:30Z')).toBe('Available at once')
    expect(whenAt('2026-11-27T12:01:00Z')).toBe('Available at once')
    expect(whenAt('2026-11-27T12:01:01Z')).toMatch(/^Available from /)
  })
})

describe('the manual test card', () => {
  it('shows a dry run only under the trigger it was run for', () => {
    const result = { triggerId: 't1' }
    expect(dryRunShown(result, 't1')).toBe(result)
    expect(dryRunShown(result, 't2')).toBeUndefined()
    expect(dryRunShown(undefined, 't1')).toBeUndefined()
  })
})
