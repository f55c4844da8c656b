import type { Db } from '../db/client'
import type { ApproverRow, BeneficiaryRow, UserRow } from '../db/schema'
import { sendEmail } from '../mail'
import { approverInvitationEmail, beneficiaryInvitationEmail } from '../mail/templates'
import { signLinkToken } from './link-tokens'

type Ctx = Pick<ExecutionContext, 'waitUntil'>

/** The links a beneficiary's e-mails carry: verification (single-use) and notification choices. */
export async function beneficiaryLinks(env: Env, row: BeneficiaryRow) {
  const preferences = await signLinkToken(env, 'beneficiaryNotifications', row.id)
  const verify = row.verificationNonce ? await signLinkToken(env, 'beneficiaryVerify', row.id, row.verificationNonce) : null
  const origin = env.APP_ORIGIN
  return {
    verifyUrl: verify ? `${origin}/verify-beneficiary?token=${encodeURIComponent(verify)}&id=${encodeURIComponent(row.id)}` : null,
    optInUrl: `${origin}/beneficiary-opt-in?token=${encodeURIComponent(preferences)}`,
    unsubscribeUrl: `${origin}/unsubscribe?token=${encodeURIComponent(preferences)}`,
  }
}

/**
 * Mails the beneficiary their invitation with a fresh verification link. Honours an unsubscribe:
 * nobody who asked for no mail gets any (returns false then).
 */
export async function sendBeneficiaryInvitation(env: Env, ctx: Ctx, db: Db, owner: UserRow, row: BeneficiaryRow): Promise<boolean> {
  if (row.notificationStatus === 'unsubscribed') return false
  const links = await beneficiaryLinks(env, row)
  if (!links.verifyUrl) return false
  await sendEmail(env, ctx, db, {
    to: row.email,
    kind: 'beneficiary_invitation',
    ...beneficiaryInvitationEmail({
      fullName: row.fullName,
      email: row.email,
      relationship: row.relationship,
      ownerName: owner.displayName,
      secrecyMode: row.delayNotifications,
      verifyUrl: links.verifyUrl,
      optInUrl: links.optInUrl,
      unsubscribeUrl: links.unsubscribeUrl,
    }),
  })
  return true
}

export async function sendApproverInvitation(env: Env, ctx: Ctx, db: Db, owner: UserRow, row: ApproverRow): Promise<boolean> {
  if (!row.verificationNonce) return false
  const token = await signLinkToken(env, 'approverVerify', row.id, row.verificationNonce)
  await sendEmail(env, ctx, db, {
    to: row.email,
    kind: 'approver_invitation',
    ...approverInvitationEmail({
      fullName: row.fullName,
      role: row.role,
      ownerName: owner.displayName,
      verifyUrl: `${env.APP_ORIGIN}/verify-approver?token=${encodeURIComponent(token)}`,
    }),
  })
  return true
}
