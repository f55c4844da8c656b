import { describe, expect, it } from 'vitest'
import { downloadAllPlan } from '@/features/export/heir-export'
import { renewalCard } from '@/features/releases/renewal-rules'

const options = { sealOf: () => null, nameOf: () => null, ownerName: 'Grace' }

describe("the heir's Download all", () => {
  it('plans nothing until the seals have been checked, and nothing without the heir’s key', () => {
    expect(downloadAllPlan([], options, { keyReady: true, sealsChecked: false })).toBeNull()
    expect(downloadAllPlan([], options, { keyReady: false, sealsChecked: true })).toBeNull()
    expect(downloadAllPlan([], options, { keyReady: true, sealsChecked: true })).toEqual({ included: [], notIncluded: [] })
  })
})

describe('asking for more time', () => {
  it('the portal offers "Ask for more time" only when the heir can ask: someone can answer and nothing waits', () => {
    const waiting = { requestedAt: '2026-11-27T10:00:00.000Z' }
    expect(renewalCard({ needed: true, canAsk: true, waiting: null })).toBe('ask')
    // Something ran out, but nobody can answer any more: said plainly, no button.
    expect(renewalCard({ needed: true, canAsk: false, waiting: null })).toBe('nobody-to-ask')
    expect(renewalCard({ needed: true, canAsk: false, waiting })).toBe('waiting')
    expect(renewalCard({ needed: false, canAsk: false, waiting: null })).toBe('none')
  })
})
