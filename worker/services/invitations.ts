import { asc, eq, isNotNull } from 'drizzle-orm'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import { approverInvitationEmail, beneficiaryInvitationEmail } from '../mail/templates'
import { approvers, beneficiaries, type ApproverRow, type BeneficiaryRow } from '../owner/schema'
import type { Unit } from '../owner/unit'
import { mailRefusal } from '../owner/mail-limits'

// Invitations go out only once the owner has confirmed their own address: before that, whoever
// registered might have used an address that is not theirs, and the vault would be e-mailing
// strangers in their name. Until then an invitation is held (marked on the person's row), not
// refused, and goes out on confirmation (sendHeldInvitations).

type Invited = typeof beneficiaries | typeof approvers

/** Before the owner confirmed, marks the invitation held and says so; once sent, clears the mark. */
function heldUntilConfirmed(u: Unit, table: Invited, row: { id: string; invitationHeldAt: number | null }): boolean {
  const held = !u.ownerConfirmed
  if (held || row.invitationHeldAt !== null) {
    u.db.update(table).set({ invitationHeldAt: held ? u.now : null }).where(eq(table.id, row.id)).run()
  }
  return held
}

/**
 * Mails the beneficiary their invitation with the verification link their row's nonce allows, and
 * their notification-choice links. Honours an unsubscribe: nobody who asked for no mail gets any.
 * Returns whether it went out (false when held or not sendable).
 */
export function sendBeneficiaryInvitation(u: Unit, row: BeneficiaryRow): boolean {
  if (row.notificationStatus === 'unsubscribed' || !row.verificationNonce) return false
  if (heldUntilConfirmed(u, beneficiaries, row)) return false
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
  if (heldUntilConfirmed(u, approvers, row)) return false
  u.mail(row.email, 'approver_invitation', approverInvitationEmail({
    fullName: row.fullName,
    role: row.role,
    ownerName: u.account.displayName,
    verifyUrl: u.signedLink('/verify-approver', 'approverVerify', row.id, {}, row.verificationNonce),
  }))
  return true
}

/**
 * The owner just confirmed their address: every held invitation goes out, oldest first, within the
 * limits on mail to other people (any left over stay held, and the owner can send them later from
 * the list: past the daily limit none goes; an address already e-mailed its hourly share waits).
 * Returns how many went out.
 */
export function sendHeldInvitations(u: Unit): number {
  const held = [
    ...u.db.select().from(beneficiaries).where(isNotNull(beneficiaries.invitationHeldAt)).orderBy(asc(beneficiaries.invitationHeldAt)).all()
      .map((row) => ({ table: beneficiaries, row, invite: () => sendBeneficiaryInvitation(u, row) })),
    ...u.db.select().from(approvers).where(isNotNull(approvers.invitationHeldAt)).orderBy(asc(approvers.invitationHeldAt)).all()
      .map((row) => ({ table: approvers, row, invite: () => sendApproverInvitation(u, row) })),
  ]
  let sent = 0
  for (const { table, row, invite } of held) {
    const refusal = mailRefusal(u, row.email, 'invitation')
    if (refusal === CIRCLE_MESSAGES.dailyMailLimit) break
    if (refusal) continue
    if (invite()) sent++
    // Nothing left to send (unsubscribed meanwhile, say): it no longer waits.
    else u.db.update(table).set({ invitationHeldAt: null }).where(eq(table.id, row.id)).run()
  }
  return sent
}
