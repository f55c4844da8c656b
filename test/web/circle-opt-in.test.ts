import { describe, expect, it } from 'vitest'
import { optInStatusText } from '@/features/circle/copy'

// The heir's opt-in page (the invitation's link): what it says of an earlier answer.

describe('the opt-in page', () => {
  it('tells an heir who opted in that they may unsubscribe, one who unsubscribed that accepting turns it back on, and nothing while pending', () => {
    expect(optInStatusText('pending')).toBeNull()
    expect(optInStatusText('opted_in')).toBe('You have already opted in. You can keep it that way, or unsubscribe below.')
    expect(optInStatusText('unsubscribed')).toBe('You unsubscribed earlier. Accepting below turns notifications back on.')
  })
})
