import { describe, expect, it } from 'vitest'
import { protocolTriggerState } from '@/features/vault/upload/protocol-rules'

// Under Add Item's release protocol: whether the trigger the items wait for is there to release them.

describe('the trigger an upload waits for', () => {
  it('is there only when a trigger of its type is active; a paused one is told apart from none', () => {
    expect(protocolTriggerState('inactivity', [{ type: 'inactivity', status: 'active' }])).toEqual({ active: true, matching: 1 })
    expect(protocolTriggerState('inactivity', [{ type: 'inactivity', status: 'paused' }])).toEqual({ active: false, matching: 1 })
    expect(protocolTriggerState('inactivity', [{ type: 'verified_death', status: 'active' }])).toEqual({ active: false, matching: 0 })
    // A fired one of the type is not active either.
    expect(protocolTriggerState('verified_death', [{ type: 'verified_death', status: 'triggered' }])).toEqual({ active: false, matching: 1 })
  })

  it('a release by hand needs any trigger not yet fired, paused or not', () => {
    expect(protocolTriggerState('manual', [{ type: 'inactivity', status: 'paused' }])).toEqual({ active: true, matching: 1 })
    expect(protocolTriggerState('manual', [{ type: 'scheduled', status: 'active' }])).toEqual({ active: true, matching: 1 })
    expect(protocolTriggerState('manual', [{ type: 'inactivity', status: 'triggered' }])).toEqual({ active: false, matching: 0 })
    expect(protocolTriggerState('manual', [])).toEqual({ active: false, matching: 0 })
  })
})
