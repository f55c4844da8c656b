import { describe, expect, it } from 'vitest'
import { PAID_PLANS } from '../../contract/plans'
import { TRIGGER_TYPES } from '../../contract/trigger-types'
import { beneficiaryLinkSearch, optionalOneOf, optionalString, tokenSearch } from '@/lib/search-params'

// The routes' search validators (plain functions, so the route tree in the entry chunk needs no
// zod): a value of the wrong kind or out of bounds is dropped, never an error page.

describe('route search validators', () => {
  it('keep a string token and drop one the router parsed as something else', () => {
    expect(tokenSearch({ token: 'abc.def' })).toEqual({ token: 'abc.def' })
    // The router reads ?token=123 as a number and ?token={"a":1} as an object.
    expect(tokenSearch({ token: 123 })).toEqual({ token: undefined })
    expect(tokenSearch({ token: { a: 1 } })).toEqual({ token: undefined })
    expect(tokenSearch({})).toEqual({ token: undefined })
  })

  it('drop a string longer than its bound (a beneficiary id over 64, a payment intent over 255)', () => {
    expect(optionalString('b'.repeat(64), 64)).toBe('b'.repeat(64))
    expect(optionalString('b'.repeat(65), 64)).toBeUndefined()
  })

  it('keep only a listed value: a trigger type, a paid plan, view=assets', () => {
    expect(optionalOneOf('inactivity', TRIGGER_TYPES)).toBe('inactivity')
    expect(optionalOneOf('sometime', TRIGGER_TYPES)).toBeUndefined()
    expect(optionalOneOf('premium', PAID_PLANS)).toBe('premium')
    expect(optionalOneOf('free', PAID_PLANS)).toBeUndefined()
    expect(beneficiaryLinkSearch({ token: 't', id: 'b1', view: 'assets' })).toEqual({ token: 't', id: 'b1', view: 'assets' })
    expect(beneficiaryLinkSearch({ token: 't', id: 7, view: 'everything' })).toEqual({ token: 't', id: undefined, view: undefined })
  })
})
