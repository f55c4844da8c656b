import { asc, eq } from 'drizzle-orm'
import { CIRCLE_MESSAGES, type Approver, type ApproverForm, type WithEmailSent } from '../../contract/circle'
import { conflict, notFound } from '../lib/errors'
import { randomToken } from '../lib/crypto'
import type { OwnerDb } from '../owner/db'
import { approvers, type ApproverRow } from '../owner/schema'
import type { Unit } from '../owner/unit'
import { withdrawSigner } from '../engine/signers'
import { sendApproverInvitation } from './invitations'
import { assertMayMail } from '../owner/mail-limits'

export function toApprover(row: ApproverRow): Approver {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    verified: row.emailVerifiedAt !== null,
    invitationHeld: row.invitationHeldAt !== null,
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

export function listApprovers(db: OwnerDb): ApproverRow[] {
  return db.select().from(approvers).orderBy(asc(approvers.createdAt)).all()
}

function findApprover(db: OwnerDb, id: string): ApproverRow | undefined {
  return db.select().from(approvers).where(eq(approvers.id, id)).get()
}

export function createApprover(u: Unit, body: Required<Omit<ApproverForm, 'sendVerificationEmail'>>, sendVerificationEmail: boolean): WithEmailSent<Approver> {
  if (sendVerificationEmail) assertMayMail(u, body.email, 'invitation')
  const row = u.db
    .insert(approvers)
    .values({
      id: crypto.randomUUID(),
      fullName: body.fullName,
      email: body.email,
      role: body.role,
      verificationNonce: randomToken(),
      createdAt: u.now,
      updatedAt: u.now,
    })
    .onConflictDoNothing({ target: approvers.email })
    .returning()
    .get()
  if (!row) throw conflict(CIRCLE_MESSAGES.duplicateApprover)
  const verificationEmailSent = sendVerificationEmail ? sendApproverInvitation(u, row) : false
  u.audit({ actor: 'user', action: 'circle.approver_added', details: { approverId: row.id, verificationEmailSent } })
  return { ...toApprover(findApprover(u.db, row.id)!), verificationEmailSent }
}

/** A fresh verification link (the only one that works from now on) to a not yet verified approver. */
export function resendApproverVerification(u: Unit, id: string): WithEmailSent<Approver> {
  const current = findApprover(u.db, id)
  if (!current) throw notFound(CIRCLE_MESSAGES.approverNotFound)
  if (current.emailVerifiedAt !== null) throw conflict(CIRCLE_MESSAGES.alreadyVerified)
  if (!u.ownerConfirmed) throw conflict(CIRCLE_MESSAGES.invitationHeld)
  assertMayMail(u, current.email, 'resend')
  const row = u.db
    .update(approvers)
    .set({ verificationNonce: randomToken(), updatedAt: u.now })
    .where(eq(approvers.id, id))
    .returning()
    .get()!
  const verificationEmailSent = sendApproverInvitation(u, row)
  u.audit({ actor: 'user', action: 'circle.approver_verification_resent', details: { approverId: id, verificationEmailSent } })
  return { ...toApprover(findApprover(u.db, id)!), verificationEmailSent }
}

export function deleteApprover(u: Unit, id: string): void {
  const gone = u.db.delete(approvers).where(eq(approvers.id, id)).returning({ id: approvers.id, email: approvers.email }).get()
  if (!gone) throw notFound(CIRCLE_MESSAGES.approverNotFound)
  u.audit({ actor: 'user', action: 'circle.approver_removed', details: { approverId: id } })
  withdrawSigner(u, gone.email, id)
}
