import { describe, expect, it } from 'vitest'
import type { ReleaseApprovalView } from '../../contract/releases'
import { approvalStanding, canDecide, renewalAnswer } from '@/features/releases/approval-state'

const view = (over: Partial<ReleaseApprovalView>): ReleaseApprovalView => ({
  ownerName: 'Ada',
  approverName: 'Clara',
  policyName: 'Family',
  triggerType: 'manual',
  reason: null,
  itemCount: 1,
  beneficiaryNames: ['Ben'],
  approvals: 0,
  requiredApprovals: 2,
  status: 'waiting',
  yourDecision: null,
  ...over,
})

describe('the approver page', () => {
  it('an approver sees Approve and Reject only while the release waits and they have not yet decided', () => {
    expect(canDecide(view({}))).toBe(true)
    // Another approver's "yes" does not close it for this one while it still waits.
    expect(canDecide(view({ approvals: 1 }))).toBe(true)
    // Decided: their own decision is shown instead.
    expect(canDecide(view({ yourDecision: 'approved', approvals: 1 }))).toBe(false)
    expect(canDecide(view({ yourDecision: 'rejected' }))).toBe(false)
    // Undecided, but the release went out or was cancelled meanwhile: nothing left to decide.
    expect(canDecide(view({ status: 'released', approvals: 2 }))).toBe(false)
    expect(canDecide(view({ status: 'cancelled' }))).toBe(false)
  })

  it('a release with enough approvals that still waits reads as agreed, not yet released', () => {
    expect(approvalStanding(view({ approvals: 1 }))).toBe('waiting')
    expect(approvalStanding(view({ approvals: 2 }))).toBe('agreed')
    expect(approvalStanding(view({ approvals: 2, status: 'released' }))).toBe('released')
    expect(approvalStanding(view({ approvals: 0, status: 'cancelled' }))).toBe('cancelled')
  })
})

describe('the page asking for more time for a beneficiary', () => {
  it('Allow more time and Refuse are offered only while the request waits and this person has not answered', () => {
    expect(renewalAnswer({ status: 'waiting', yourDecision: null })).toBe('open')
    // Decided by someone else: no buttons, it says so.
    expect(renewalAnswer({ status: 'approved', yourDecision: null })).toBe('decided')
    expect(renewalAnswer({ status: 'refused', yourDecision: null })).toBe('decided')
    // Their own answer is shown, whatever the request's status.
    expect(renewalAnswer({ status: 'approved', yourDecision: 'approved' })).toBe('answered')
    expect(renewalAnswer({ status: 'refused', yourDecision: 'refused' })).toBe('answered')
    expect(renewalAnswer({ status: 'waiting', yourDecision: 'refused' })).toBe('answered')
  })
})
