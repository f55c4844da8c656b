import type { LinkPurpose } from '../../worker/lib/link-tokens'

/**
 * How long each signed link lives, written out from the spec rather than read from the code: a
 * lifetime changed in `LINK_PURPOSES` fails the tests that build tokens from this table.
 */
const DAY_S = 86_400
export const LINK_LIFETIME_SECONDS: Record<LinkPurpose, number> = {
  beneficiaryVerify: 7 * DAY_S,
  approverVerify: 7 * DAY_S,
  beneficiaryNotifications: 365 * DAY_S,
  identityReview: 30 * DAY_S,
  checkIn: 30 * DAY_S,
  releaseCancel: 60 * DAY_S,
  releaseApproval: 60 * DAY_S,
  deathReport: 5 * 365 * DAY_S,
  // Not in the spec (which never confirms the owner's address): a week, like the circle's invitations.
  ownerEmailConfirm: 7 * DAY_S,
  // Not in the spec: "This wasn't me" in the e-mail about a change of trust, a month.
  notMe: 30 * DAY_S,
  // Not in the spec (issue 0.3 · 5 of 7): the backup address's confirmation, a week like the owner's own.
  backupEmailVerify: 7 * DAY_S,
  // Not in the spec (issue 0.3 · 5 of 7, access on request): the owner's Refuse link, as long as a
  // release-cancel link; an approver's link to ask, a month.
  accessRefuse: 60 * DAY_S,
  accessRequest: 30 * DAY_S,
  // Not in the spec (issue 0.3 · 5 of 7): an heir's request for more time is answered within a month.
  renewalDecision: 30 * DAY_S,
  beneficiaryAccess: 365 * DAY_S,
  assetContent: 30 * 60,
}
