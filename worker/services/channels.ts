import { mirrorAccount } from '../owner/account'
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import { CHANNEL_MESSAGES, type ChannelsView } from '../../contract/channels'
import { HOUR_MS } from '../../contract/constants'
import { GENERIC_ERRORS } from '../../contract/messages'
import type { Db } from '../db/client'
import { emailOutbox, mailBounces, users, type UserRow } from '../db/schema'
import { badRequest, conflict, notFound, tooManyRequests } from '../lib/errors'
import { sendEmail } from '../mail'
import { backupEmailVerifyEmail } from '../mail/channel-templates'
import type { Account } from '../owner/account'
import { addressNonce, signLinkToken, verifyLinkToken } from '../lib/link-tokens'

// The owner's backup address and emergency contact (contract/channels.ts). Who hears what is
// worker/mail/channels.ts; the account (worker/owner/account.ts) hands the engine a backup address
// only once verified and a contact only once opted in.

const VERIFY_KIND = 'backup_email_verify'

/** Which of these addresses (any case) the mail provider reported bouncing, lower case. */
export async function bouncingOf(db: Db, addresses: Array<string | null>): Promise<Set<string>> {
  const wanted = [...new Set(addresses.filter((a): a is string => !!a).map((a) => a.toLowerCase()))]
  if (wanted.length === 0) return new Set()
  const rows = await db.select({ address: mailBounces.address }).from(mailBounces).where(inArray(mailBounces.address, wanted))
  return new Set(rows.map((r) => r.address))
}

export async function channelsOf(db: Db, user: UserRow): Promise<ChannelsView> {
  const bouncing = await bouncingOf(db, [user.email, user.backupEmail, user.emergencyContact])
  const is = (a: string) => bouncing.has(a.toLowerCase())
  return {
    primary: { address: user.email, bouncing: is(user.email) },
    backup: user.backupEmail ? { address: user.backupEmail, verified: user.backupEmailVerifiedAt !== null, bouncing: is(user.backupEmail) } : null,
    contact: user.emergencyContact ? { address: user.emergencyContact, alerts: user.emergencyContactAlerts, bouncing: is(user.emergencyContact) } : null,
  }
}

/**
 * Sends the link that verifies the backup address: at most CHANNEL_MESSAGES.backupPerHour an hour,
 * counted from the outbox (which keeps every message at least an hour, mail/retention.ts).
 */
export async function sendBackupLink(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, db: Db, user: UserRow, now = Date.now()): Promise<void> {
  const address = user.backupEmail
  if (!address) throw notFound(CHANNEL_MESSAGES.backupNone)
  if (user.backupEmailVerifiedAt !== null) throw conflict(CHANNEL_MESSAGES.backupAlreadyVerified)
  const recent = await db
    .select({ n: sql<number>`count(*)` })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.kind, VERIFY_KIND), eq(emailOutbox.toAddress, address), gt(emailOutbox.createdAt, now - HOUR_MS)))
    .get()
  if ((recent?.n ?? 0) >= CHANNEL_MESSAGES.backupPerHour) throw tooManyRequests(CHANNEL_MESSAGES.backupLimit)
  // A link confirms only the address it was sent to (never naming it), while it is the backup.
  const token = signLinkToken(env, 'backupEmailVerify', user.id, { owner: user.id, nonce: addressNonce(env, address) }, now)
  const verifyUrl = `${env.APP_ORIGIN}/verify-backup-email?${new URLSearchParams({ token }).toString()}`
  await sendEmail(env, ctx, db, { to: address, kind: VERIFY_KIND, ...backupEmailVerifyEmail({ displayName: user.displayName, verifyUrl }) })
}

/** Names a new (unverified) backup address; the caller has checked fresh proof. */
export async function setBackup(db: Db, user: UserRow, address: string, now = Date.now()): Promise<UserRow> {
  if (address === user.email.toLowerCase()) {
    throw badRequest(`email: ${CHANNEL_MESSAGES.backupSameAsPrimary}`, { errors: [{ field: 'email', message: CHANNEL_MESSAGES.backupSameAsPrimary }] })
  }
  const [row] = await db.update(users).set({ backupEmail: address, backupEmailVerifiedAt: null, updatedAt: now }).where(eq(users.id, user.id)).returning()
  await mirrorAccount(user.id, row)
  return row!
}

/**
 * The signed-in owner follows the link sent to their backup address. A link of another account is
 * not found; one for an address that is no longer the backup no longer works. Following it proves
 * the mailbox takes mail, so a bounce reported for it earlier is cleared.
 */
export async function verifyBackup(env: Env, db: Db, user: UserRow, token: string, now = Date.now()): Promise<{ message: string; already: boolean }> {
  const link = await verifyLinkToken(env, 'backupEmailVerify', token, now)
  if (!link.ok) throw badRequest(link.reason === 'expired' ? CHANNEL_MESSAGES.linkExpired : CHANNEL_MESSAGES.linkInvalid)
  if (link.owner !== user.id || link.subject !== user.id) throw notFound(GENERIC_ERRORS.notFound)
  if (!user.backupEmail || link.nonce !== addressNonce(env, user.backupEmail)) throw badRequest(CHANNEL_MESSAGES.linkInvalid)
  if (user.backupEmailVerifiedAt !== null) return { message: CHANNEL_MESSAGES.backupAlreadyVerified, already: true }
  const [done] = await db.batch([
    db
      .update(users)
      .set({ backupEmailVerifiedAt: now, updatedAt: now })
      .where(and(eq(users.id, user.id), eq(users.backupEmail, user.backupEmail)))
      .returning({ id: users.id }),
    db.delete(mailBounces).where(eq(mailBounces.address, user.backupEmail)),
  ])
  if (done.length === 0) throw badRequest(CHANNEL_MESSAGES.linkInvalid)
  await mirrorAccount(user.id)
  return { message: CHANNEL_MESSAGES.backupVerified, already: false }
}

export async function removeBackup(db: Db, user: UserRow, now = Date.now()): Promise<void> {
  if (!user.backupEmail) throw notFound(CHANNEL_MESSAGES.backupNone)
  await db.update(users).set({ backupEmail: null, backupEmailVerifiedAt: null, updatedAt: now }).where(eq(users.id, user.id))
  await mirrorAccount(user.id)
}

export async function setEmergencyContact(db: Db, user: UserRow, contact: { email: string | null; alerts: boolean }, now = Date.now()): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ emergencyContact: contact.email, emergencyContactAlerts: contact.alerts, updatedAt: now })
    .where(eq(users.id, user.id))
    .returning()
  await mirrorAccount(user.id, row)
  return row!
}

/** Marks addresses as bouncing, as the mail provider reported them (the newest report wins). */
export async function recordBounces(db: Db, addresses: string[], reason: string | null, now = Date.now()): Promise<number> {
  const unique = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))]
  for (const address of unique) {
    await db
      .insert(mailBounces)
      .values({ address, bouncedAt: now, reason: reason?.slice(0, 200) ?? null })
      .onConflictDoUpdate({ target: mailBounces.address, set: { bouncedAt: now, reason: reason?.slice(0, 200) ?? null } })
  }
  return unique.length
}

/** The channels the engine writes to (Account: primary, verified backup, opted-in contact) now bouncing. */
export async function bouncingChannelsOf(db: Db, account: Pick<Account, 'email' | 'backupEmail' | 'alertContact'>): Promise<Array<'primary' | 'backup' | 'contact'>> {
  const bouncing = await bouncingOf(db, [account.email, account.backupEmail, account.alertContact])
  const channels = [
    ['primary', account.email],
    ['backup', account.backupEmail],
    ['contact', account.alertContact],
  ] as const
  return channels.filter(([, address]) => address && bouncing.has(address.toLowerCase())).map(([channel]) => channel)
}
