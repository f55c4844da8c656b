import type { Approver, Beneficiary } from '../../../contract/circle'
import type { IdentityDocument, IdentityReviewView } from '../../../contract/identity'
import type { Policy } from '../../../contract/policies'

// Who is asked to review a beneficiary's documents, by the server's rule (worker/services/identity.ts
// `reviewersFor`): the approvers named by the active policies that require identity verification
// for this beneficiary, or all the owner's approvers when those policies name none. The API does
// not return who was asked for each document, so this is worked out from today's approvers and
// policies; an approver removed since the upload simply no longer appears.

/** The policies that ask for identity verification (active or not). */
export function identityPolicies(policies: Policy[]): Policy[] {
  return policies.filter((p) => p.requiresIdentityVerification)
}

/** Active identity policies that cover this beneficiary. */
export function policiesFor(beneficiaryId: string, policies: Policy[]): Policy[] {
  return identityPolicies(policies).filter(
    (p) => p.status === 'active' && p.ruleJson.assign.some((a) => a.beneficiaryId === beneficiaryId),
  )
}

export function reviewersFor(beneficiaryId: string, policies: Policy[], approvers: Approver[]): Approver[] {
  const named = new Set(policiesFor(beneficiaryId, policies).flatMap((p) => p.identityVerificationApprovers))
  return named.size ? approvers.filter((a) => named.has(a.id)) : approvers
}

export interface ReviewProgress {
  reviewed: IdentityDocument['reviews']
  /** Names of the approvers asked who have not reviewed yet. */
  waitingFor: string[]
  approvals: number
  required: number
}

export function reviewProgress(document: IdentityDocument, reviewers: Approver[]): ReviewProgress {
  // Reviews carry the approver's name only; names are how the two lists are matched.
  const reviewedNames = new Set(document.reviews.map((r) => r.approverName))
  return {
    reviewed: document.reviews,
    waitingFor: reviewers.map((a) => a.fullName).filter((name) => !reviewedNames.has(name)),
    approvals: document.reviews.filter((r) => r.status === 'approved').length,
    required: document.requiredApprovals,
  }
}

/** The review link's page offers the form only to an approver who has not reviewed a document still pending. */
export function reviewOpen(view: Pick<IdentityReviewView, 'alreadyReviewed' | 'status'>): boolean {
  return !view.alreadyReviewed && view.status === 'pending'
}

/**
 * An approver may have decided since the beneficiaries were loaded: when the newest document says
 * otherwise than the beneficiary's badge, the beneficiaries are fetched again. No document: nothing to compare.
 */
export function identityBadgeStale(newest: Pick<IdentityDocument, 'status'> | undefined, beneficiary: Pick<Beneficiary, 'identityStatus'>): boolean {
  return !!newest && newest.status !== beneficiary.identityStatus
}

/** The review overview: every document still pending, with its beneficiary, the oldest first. */
export function pendingReviews<B>(documentsByBeneficiary: ReadonlyArray<readonly IdentityDocument[] | undefined>, beneficiaries: readonly B[]): Array<{ document: IdentityDocument; beneficiary: B }> {
  const pending = documentsByBeneficiary.flatMap((documents, i) =>
    (documents ?? []).filter((d) => d.status === 'pending').map((document) => ({ document, beneficiary: beneficiaries[i]! })),
  )
  return pending.sort((a, b) => a.document.submittedAt.localeCompare(b.document.submittedAt))
}
