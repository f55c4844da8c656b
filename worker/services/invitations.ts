import { approverInvitationEmail, beneficiaryInvitationEmail } from '../mail/templates'
import type { ApproverRow, BeneficiaryRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

/**
 * Mails the beneficiary their invitation with the verification link their row's nonce allows, and
 * their notification-choice links. Honours an unsubscribe: nobody who asked for no mail gets any
 * (returns false then).
 */
export function sendBeneficiaryInvitation(u: Unit, row: BeneficiaryRow): boolean {
  if (row.notificationStatus === 'unsubscribed' || !row.verificationNonce) return false
  u.mail(row.email, 'beneficiary_invitation', beneficiaryInvitationEmail({
    fullName: row.fullName,
    email: row.email,
    relationship: row.relationship,
    ownerName: u.account.displayName,
    secrecyMode: row.delayNotifications,
    verifyUrl: u.signedLink('/verify-beneficiary', 'beneficiaryVerify', row.id, { id: row.id }, row.verificationNonce),
    optInUrl: u.signedLink('/beneficiary-opt-in', 'beneficiaryNotifications', row.id),
    unsubscribeUrl: u.signedLink('/unsubscribe', 'beneficiaryNotifications', row.id),
  }))
  return true
}

export function sendApproverInvitation(u: Unit, row: ApproverRow): boolean {
  if (!row.verificationNonce) return false
  u.mail(row.email, 'approver_invitation', approverInvitationEmail({
    fullName: row.fullName,
    role: row.role,
    ownerName: u.account.displayName,
    verifyUrl: u.signedLink('/verify-approver', 'approverVerify', row.id, {}, row.verificationNonce),
  }))
  return true
}
