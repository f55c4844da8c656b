import { describe, expect, it } from 'vitest'
import { appliedText } from '@/features/policies/copy'
import { offersApply, policyToggleTarget } from '@/features/policies/list-rules'

// The policy list: which buttons a policy card offers, and what assigning its items is said to do.

const ready = { status: 'ready' as const, selectors: { types: ['doc' as const], tags: [] } }

describe('a policy card', () => {
  it('offers Apply to items only on an active policy, with the vault unlocked and its settings decrypted', () => {
    expect(offersApply({ active: true, unlocked: true, selectors: ready })).toBe(true)
    expect(offersApply({ active: false, unlocked: true, selectors: ready })).toBe(false)
    expect(offersApply({ active: true, unlocked: false, selectors: ready })).toBe(false)
    expect(offersApply({ active: true, unlocked: true, selectors: { status: 'pending' } })).toBe(false)
    expect(offersApply({ active: true, unlocked: true, selectors: { status: 'error' } })).toBe(false)
    expect(offersApply({ active: true, unlocked: true, selectors: undefined })).toBe(false)
  })

  it('Deactivate turns an active policy inactive; Activate turns an inactive or draft one active', () => {
    expect(policyToggleTarget('active')).toBe('inactive')
    expect(policyToggleTarget('inactive')).toBe('active')
    expect(policyToggleTarget('draft')).toBe('active')
  })
})

describe('assigning a policy’s items', () => {
  it('says how many now go, and how many could not be assigned, counting the failures out of the matched', () => {
    expect(appliedText({ matchedItemIds: ['a', 'b', 'c'], failed: [] }, ['Ada'])).toBe('3 items now go to Ada.')
    expect(appliedText({ matchedItemIds: ['a', 'b', 'c'], failed: [{}] }, ['Ada'])).toBe('2 items now go to Ada. 1 item could not be assigned. Use Apply to items to try again.')
    expect(appliedText({ matchedItemIds: ['a'], failed: [{}] }, ['Ada'])).toBe(
      'No items match it yet; new uploads that match will go to Ada. 1 item could not be assigned. Use Apply to items to try again.',
    )
  })
})
