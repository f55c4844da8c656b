import { and, eq } from 'drizzle-orm'
import { CIRCLE_MESSAGES, type NotificationPreferences } from '../../contract/circle'
import { badRequest, conflict } from '../lib/errors'
import type { OwnerDb } from '../owner/db'
import { approvers, beneficiaries } from '../owner/schema'

// The links an invitation e-mail carries, run inside the owner's object the link names. The
// token (checked by the route) names the person and, for one-off acts, a nonce their row must hold.

/** Marks a beneficiary's or approver's address verified if the link's nonce is still the row's (one link, once). */
function verifyAddress(db: OwnerDb, table: typeof beneficiaries | typeof approvers, id: string, nonce: string | undefined, now: number): { fullName: string } {
  const verified = nonce
    ? db
        .update(table)
        .set({ emailVerifiedAt: now, verificationNonce: null, updatedAt: now })
        .where(and(eq(table.id, id), eq(table.verificationNonce, nonce)))
        .returning({ fullName: table.fullName })
        .get()
    : undefined
  if (verified) return verified
  if (db.select({ at: table.emailVerifiedAt }).from(table).where(eq(table.id, id)).get()?.at) throw conflict(CIRCLE_MESSAGES.alreadyVerified)
  throw badRequest(CIRCLE_MESSAGES.linkInvalid)
}

export const verifyBeneficiary = (db: OwnerDb, id: string, nonce: string | undefined, now: number) => verifyAddress(db, beneficiaries, id, nonce, now)

export const verifyApprover = (db: OwnerDb, id: string, nonce: string | undefined, now: number) => verifyAddress(db, approvers, id, nonce, now)

export function preferencesOf(db: OwnerDb, ownerName: string, beneficiaryId: string): NotificationPreferences {
  const b = db.select().from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!b) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
  const secrecyMode = b.delayNotifications
  return {
    fullName: b.fullName,
    // Secrecy Mode: no details until the owner's conditions are met (seeds 001 §2, opt-in page).
    relationship: secrecyMode ? null : b.relationship,
    ownerName,
    status: b.notificationStatus,
    secrecyMode,
  }
}

/** Opt in or unsubscribe; returns the status before. */
export function setNotificationStatus(db: OwnerDb, beneficiaryId: string, status: 'opted_in' | 'unsubscribed', now: number): NotificationPreferences['status'] {
  const b = db.select({ status: beneficiaries.notificationStatus }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!b) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
  if (b.status !== status) db.update(beneficiaries).set({ notificationStatus: status, updatedAt: now }).where(eq(beneficiaries.id, beneficiaryId)).run()
  return b.status
}
