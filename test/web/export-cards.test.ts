import { describe, expect, it } from 'vitest'
import { estateScope } from '@/features/export/estate-bundle'
import { exportRecordOf } from '@/features/export/owner-export'
import type { ExportOutcome } from '@/features/export/run-export'

// The Settings cards that export: what the owner's audit chain is told of an export, and what
// the estate card counts before it offers a bundle.

describe('the owner’s vault export', () => {
  it('a saved export is recorded by its counts; a cancelled one is not recorded at all', () => {
    const saved = { kind: 'saved', report: { manifest: { included: 4, leftOut: 1 }, leftOut: [] } } as unknown as ExportOutcome
    expect(exportRecordOf(saved)).toEqual({ included: 4, leftOut: 1 })
    expect(exportRecordOf({ kind: 'cancelled' })).toBeNull()
  })
})

describe('the estate bundle card', () => {
  it('counts only items granted to a beneficiary the owner still has, and those beneficiaries once each', () => {
    const items = [
      { id: 'a', beneficiaryIds: ['ben', 'cy'] },
      { id: 'b', beneficiaryIds: ['ben'] },
      { id: 'c', beneficiaryIds: ['gone'] },
      { id: 'd', beneficiaryIds: [] },
    ]
    const { granted, people } = estateScope(items, [{ id: 'ben' }, { id: 'cy' }])
    expect(granted.map((i) => i.id)).toEqual(['a', 'b'])
    expect(people).toBe(2)
    // Items granted only to someone deleted: nothing to bundle, the card says so.
    expect(estateScope([{ beneficiaryIds: ['gone'] }], [{ id: 'ben' }])).toEqual({ granted: [], people: 0 })
  })
})
