import type { ReleaseApprovalView } from '../../../contract/releases'

/** Where a release an approver is asked about stands: `agreed` once enough approved while it still waits. */
export function approvalStanding(view: ReleaseApprovalView): ReleaseApprovalView['status'] | 'agreed' {
  return view.status === 'waiting' && view.approvals >= view.requiredApprovals ? 'agreed' : view.status
}

/** Approve and Reject are offered only while the release waits and this approver has not decided. */
export function canDecide(view: ReleaseApprovalView): boolean {
  return view.status === 'waiting' && view.yourDecision === null
}
