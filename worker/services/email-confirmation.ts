import { mirrorAccount } from '../owner/account'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { EMAIL_CONFIRMATION } from '../../contract/messages'
import { HOUR_MS } from '../../contract/constants'
import type { EmailConfirmed } from '../../contract/auth'
import type { Db } from '../db/client'
import { emailOutbox, users, type UserRow } from '../db/schema'
import { badRequest, conflict, tooManyRequests } from '../lib/errors'
import { sendEmail } from '../mail'
import { emailConfirmationEmail } from '../mail/templates'
import { accountOf } from '../owner/account'
import { ownerVault } from '../owner/client'
import { ask } from '../owner/outcome'
import { addressNonce, signLinkToken, verifyLinkToken } from '../lib/link-tokens'

// The owner's own address, confirmed by the link sent to it at registration. Until it is, the
// owner's object holds every invitation (worker/services/invitations.ts); confirming sends them.

const KIND = 'email_confirmation'

/**
 * Sends the owner a link that confirms their address: at most EMAIL_CONFIRMATION.perHour an hour,
 * counted from the outbox (which keeps every message at least an hour, mail/retention.ts).
 */
export async function sendConfirmationLink(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, db: Db, user: UserRow, now = Date.now()): Promise<void> {
  if (user.emailVerifiedAt !== null) throw conflict(EMAIL_CONFIRMATION.alreadyConfirmed)
  const recent = await db
    .select({ n: sql<number>`count(*)` })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.kind, KIND), eq(emailOutbox.toAddress, user.email), gt(emailOutbox.createdAt, now - HOUR_MS)))
    .get()
  if ((recent?.n ?? 0) >= EMAIL_CONFIRMATION.perHour) throw tooManyRequests(EMAIL_CONFIRMATION.limit)
  // The link stands for the address it was sent to (never naming it), and confirms only that one.
  const token = signLinkToken(env, 'ownerEmailConfirm', user.id, { owner: user.id, nonce: addressNonce(env, user.email) }, now)
  const confirmUrl = `${env.APP_ORIGIN}/confirm-email?${new URLSearchParams({ token }).toString()}`
  await sendEmail(env, ctx, db, { to: user.email, kind: KIND, ...emailConfirmationEmail({ displayName: user.displayName, confirmUrl }) })
}

/**
 * Confirms the address a link names, then tells the owner's object, which sends the invitations
 * that were waiting. Following the link again is harmless (and sends anything still held).
 */
export async function confirmOwnerEmail(env: Env, db: Db, token: string, now = Date.now()): Promise<EmailConfirmed> {
  const link = await verifyLinkToken(env, 'ownerEmailConfirm', token, now)
  if (!link.ok) throw badRequest(link.reason === 'expired' ? EMAIL_CONFIRMATION.linkExpired : EMAIL_CONFIRMATION.linkInvalid)
  const user = await db.query.users.findFirst({ where: eq(users.id, link.subject) })
  if (!user || user.id !== link.owner || addressNonce(env, user.email) !== link.nonce) throw badRequest(EMAIL_CONFIRMATION.linkInvalid)
  const already = user.emailVerifiedAt !== null
  const confirmed = already
    ? user
    : ((await db.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt))).returning().get()) ??
      { ...user, emailVerifiedAt: now })
  if (!already) await mirrorAccount(user.id, confirmed)
  const invitationsSent = await ask(ownerVault(env, user.id).circle().ownerEmailConfirmed(accountOf(confirmed)))
  return { message: already ? EMAIL_CONFIRMATION.alreadyConfirmed : EMAIL_CONFIRMATION.confirmed, invitationsSent }
}
