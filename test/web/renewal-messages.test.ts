import { describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { namesOr, RENEWAL_MESSAGES } from '../../contract/renewals'

// The heir's page names who can allow more from the facts, never people with no such power.

describe('who can help an heir who ran out', () => {
  it('names the people who can allow more, in plain words', () => {
    expect(namesOr([])).toBe('')
    expect(namesOr(['Grace'])).toBe('Grace')
    expect(namesOr(['Grace', 'Arthur'])).toBe('Grace or Arthur')
    expect(namesOr(['Grace', 'Arthur', 'Bea'])).toBe('Grace, Arthur or Bea')
    expect(RENEWAL_MESSAGES.whoCanHelp(['Grace Owner', 'Arthur Approver'])).toBe(
      'Grace Owner or Arthur Approver can allow more downloads and more time: ask from your page of released items.',
    )
  })

  it('says plainly when no one can, and no longer points at an executor or approvers by default', () => {
    expect(RENEWAL_MESSAGES.whoCanHelp([])).toMatch(/^No one can allow more/)
    expect(RELEASE_MESSAGES.downloadLimit).not.toMatch(/executor|approver/i)
  })

  it('tells the heir what the request asks for', () => {
    expect(RENEWAL_MESSAGES.askBody(['Grace Owner'], 2)).toBe(
      'We will e-mail Grace Owner and ask them to allow these 2 items again: each can be downloaded 5 more times over the next 90 days. We will e-mail you their answer.',
    )
  })
})
