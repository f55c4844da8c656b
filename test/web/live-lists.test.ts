import { describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import type { Approver } from '../../contract/circle'
import { approversQuery, beneficiariesQuery, PENDING_APPROVER_REFETCH_MS } from '@/features/circle/api'
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

describe('an approver who has not verified yet', () => {
  it('is read again on a timer until every approver has verified, so "Pending" turns without a reload', () => {
    const client = new QueryClient()
    const interval = (approvers: Array<Pick<Approver, 'verified'>>) => {
      client.setQueryData(approversQuery.queryKey, approvers as Approver[])
      const query = client.getQueryCache().find({ queryKey: approversQuery.queryKey })!
      const option = approversQuery.refetchInterval as unknown as (q: typeof query) => number | false
      return option(query)
    }
    expect(interval([{ verified: true }, { verified: false }])).toBe(PENDING_APPROVER_REFETCH_MS)
    expect(interval([{ verified: true }, { verified: true }])).toBe(false)
    expect(interval([])).toBe(false)
  })
})
