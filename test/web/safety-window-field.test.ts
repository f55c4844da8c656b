import { describe, expect, it } from 'vitest'
import { SAFETY_WINDOW_MESSAGES } from '../../contract/settings'
import { readSafetyWindow } from '@/features/settings/safety-window-rules'

describe('the safety window field', () => {
  it('an empty field is refused as not a whole number of hours, never saved as 0', () => {
    expect(readSafetyWindow('')).toEqual({ error: SAFETY_WINDOW_MESSAGES.whole })
    expect(readSafetyWindow('   ')).toEqual({ error: SAFETY_WINDOW_MESSAGES.whole })
    expect(readSafetyWindow('0')).toEqual({ error: SAFETY_WINDOW_MESSAGES.min })
  })

  it('takes a whole number of hours within its bounds, spaces around it allowed', () => {
    expect(readSafetyWindow(' 48 ')).toEqual({ body: { hours: 48 } })
    expect(readSafetyWindow('24.5')).toEqual({ error: SAFETY_WINDOW_MESSAGES.whole })
    expect(readSafetyWindow('721')).toEqual({ error: SAFETY_WINDOW_MESSAGES.max })
  })
})
