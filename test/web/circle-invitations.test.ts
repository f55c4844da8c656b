import { describe, expect, it } from 'vitest'
import { approversQuery, beneficiariesQuery } from '@/features/circle/api'
import { emailSentText, invitationHeldText, invitationOutcomeText } from '@/features/circle/copy'

// Invitations held until the owner confirms their own address: what the owner is told, and the
// lists that must not stay stale while some wait (the confirmation happens in the mailbox).

describe('what the owner is told about an invitation', () => {
  const person = { email: 'ivy@example.com', verificationEmailSent: false, invitationHeld: false }
  it('says it was sent, that it waits for their confirmation, or the caller’s words when neither', () => {
    expect(invitationOutcomeText({ ...person, verificationEmailSent: true }, 'none')).toBe(emailSentText(person.email))
    expect(invitationOutcomeText({ ...person, invitationHeld: true }, 'none')).toBe(invitationHeldText(person.email))
    expect(invitationHeldText(person.email)).toContain('confirm your own e-mail address')
    expect(invitationOutcomeText(person, 'none')).toBe('none')
  })
})

describe('circle lists while invitations are held', () => {
  const staleTimeOf = (options: { staleTime?: unknown }, rows: Array<{ invitationHeld: boolean }>) => {
    const staleTime = options.staleTime as (query: { state: { data?: typeof rows } }) => number
    return staleTime({ state: { data: rows } })
  }
  it('are stale (checked again on entry and focus) while anyone’s invitation waits, and fresh otherwise', () => {
    for (const query of [beneficiariesQuery, approversQuery]) {
      expect(staleTimeOf(query, [{ invitationHeld: false }, { invitationHeld: true }])).toBe(0)
      expect(staleTimeOf(query, [{ invitationHeld: false }])).toBe(Infinity)
      expect(staleTimeOf(query, [])).toBe(Infinity)
      expect(query.refetchOnWindowFocus).toBe(true)
    }
  })
})
