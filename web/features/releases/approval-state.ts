import type { ReleaseApprovalView } from '../../../contract/releases'
import type { RenewalDecisionView } from '../../../contract/renewals'

/** Where a release an approver is asked about stands: `agreed` once enough approved while it still waits. */
export function approvalStanding(view: ReleaseApprovalView): ReleaseApprovalView['status'] | 'agreed' {
  return view.status === 'waiting' && view.approvals >= view.requiredApprovals ? 'agreed' : view.status
}

/** Approve and Reject are offered only while the release waits and this approver has not decided. */
export function canDecide(view: ReleaseApprovalView): boolean {
  return view.status === 'waiting' && view.yourDecision === null
}

/**
 * What the one asked about more time for an heir sees under "Your answer": their own answer once
 * given (`answered`), that it was decided by someone else (`decided`), or Allow / Refuse (`open`)
 * only while the request waits and they have not answered.
 */
export function renewalAnswer(view: Pick<RenewalDecisionView, 'status' | 'yourDecision'>): 'answered' | 'decided' | 'open' {
  if (view.yourDecision) return 'answered'
  return view.status !== 'waiting' ? 'decided' : 'open'
}
