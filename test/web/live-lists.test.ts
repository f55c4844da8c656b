import { describe, expect, it } from 'vitest'
import { approversQuery, beneficiariesQuery } from '@/features/circle/api'
import { documentsQuery } from '@/features/identity/api'
import { readinessQuery } from '@/features/readiness/api'
import { triggersQuery } from '@/features/triggers/api'
import { emailSentText, invitationHeldText, invitationOutcomeText } from '@/features/circle/copy'

// Invitations held until the owner confirms their own address: what the owner is told; and the
// lists that must not stay stale, since they change outside the tab (mailboxes, approvers, the engine).

describe('what the owner is told about an invitation', () => {
  const person = { email: 'ivy@example.com', verificationEmailSent: false, invitationHeld: false }
  it('says it was sent, that it waits for their confirmation, or the caller’s words when neither', () => {
    expect(invitationOutcomeText({ ...person, verificationEmailSent: true }, 'none')).toBe(emailSentText(person.email))
    expect(invitationOutcomeText({ ...person, invitationHeld: true }, 'none')).toBe(invitationHeldText(person.email))
    expect(invitationHeldText(person.email)).toContain('confirm your own e-mail address')
    expect(invitationOutcomeText(person, 'none')).toBe('none')
  })
})

describe('lists that change outside the tab', () => {
  it('are read again on every entry and when the owner comes back to the tab', () => {
    for (const query of [beneficiariesQuery, approversQuery, triggersQuery, readinessQuery, documentsQuery('b1')]) {
      expect(query.staleTime).toBe(0)
      expect(query.refetchOnWindowFocus).toBe(true)
    }
  })
})
