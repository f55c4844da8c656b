import { and, eq, gte } from 'drizzle-orm'
import type { Context } from 'hono'
import { describeUserAgent } from '../../contract/sessions'
import { authenticators, browsers, users, webauthnCredentials, type UserRow } from '../db/schema'
import { accountOf, mirrorAccount, type Account } from '../owner/account'
import { ownerVault } from '../owner/client'
import type { Db } from '../db/client'
import { sendEmail } from '../mail'
import { ownerAddresses } from '../mail/channels'
import { trustChangeEmail, type TrustChange } from '../mail/trust-templates'
import type { AppEnv } from '../types'
import { removeAuthenticator } from './authenticator'
import { signLinkToken } from '../lib/link-tokens'
import { deviceOf } from './sessions'

/**
 * When the session making a change signed in: "This wasn't me" undoes what was added since then
 * (the owner's own earlier keys stay). Now, if the session is unknown.
 */
export async function signedInAt(c: Context<AppEnv>, now = Date.now()): Promise<number> {
  const row = await ownerVault(c.env, c.var.account.id).session(c.var.sessionId, now)
  return row?.createdAt ?? now
}

/** The "This wasn't me" link for `user`, undoing what was added since `since`. */
export function notMeUrl(env: Pick<Env, 'JWT_SECRET' | 'APP_ORIGIN'>, userId: string, since: number, now = Date.now()): string {
  const token = signLinkToken(env, 'notMe', userId, { owner: userId, nonce: String(since) }, now)
  return `${env.APP_ORIGIN}/not-me?token=${encodeURIComponent(token)}`
}

/**
 * E-mails the owner at once about a change of trust made from this request, with "This wasn't me".
 * `since`: the start of what that link would undo (default: when this session signed in).
 * `ownAddresses`: to the verified backup address too (mail/channels.ts ownerAddresses), for a
 * change of who hears about the owner.
 */
export async function tellOwner(
  c: Context<AppEnv>,
  owner: UserRow | Account,
  change: TrustChange,
  options: { detail?: string; since?: number; ownAddresses?: boolean } = {},
): Promise<void> {
  const user = 'passwordHash' in owner ? accountOf(owner) : owner
  const now = Date.now()
  const since = options.since ?? (await signedInAt(c, now))
  const device = deviceOf(c)
  const mail = trustChangeEmail({
    displayName: user.displayName,
    change,
    detail: options.detail,
    device: describeUserAgent(device.userAgent),
    place: device.place ?? null,
    at: new Date(now),
    timeZone: user.timeZone,
    notMeUrl: notMeUrl(c.env, user.id, since, now),
  })
  const to = options.ownAddresses ? ownerAddresses({ email: user.email, backupEmail: user.backupEmail }) : [user.email]
  for (const address of to) await sendEmail(c.env, c.executionCtx, c.var.db, { to: address, kind: `trust_${change}`, ...mail })
}

export interface NotMeOutcome {
  sessionsSignedOut: number
  keysRemoved: number
  authenticatorRemoved: boolean
  /** Browsers and older keys marked as trusted since then, trusted no more. */
  trustWithdrawn: number
  deletionCancelled: boolean
}

/**
 * "This wasn't me": every session ends, every security key and authenticator app added since `since` goes, trust marked
 * since then is withdrawn (and two-factor
 * by key is turned off if that leaves none, so the owner is not locked out by a key they never had).
 */
export async function undoSince(env: Env, db: Db, user: UserRow, since: number): Promise<NotMeOutcome> {
  const sessionsSignedOut = await ownerVault(env, user.id).revokeSessions()
  const removed = await db
    .delete(webauthnCredentials)
    .where(and(eq(webauthnCredentials.userId, user.id), gte(webauthnCredentials.createdAt, since)))
    .returning({ id: webauthnCredentials.id })
  if (removed.length > 0 && user.twoFactorEnabled) {
    const left = await db.select({ id: webauthnCredentials.id }).from(webauthnCredentials).where(eq(webauthnCredentials.userId, user.id)).limit(1)
    if (left.length === 0) await db.update(users).set({ twoFactorEnabled: false, updatedAt: Date.now() }).where(eq(users.id, user.id))
  }
  // An authenticator app set up since then goes too (with its recovery codes).
  const app = await db.select({ confirmedAt: authenticators.confirmedAt }).from(authenticators).where(eq(authenticators.userId, user.id)).get()
  const authenticatorRemoved = app?.confirmedAt != null && app.confirmedAt >= since && (await removeAuthenticator(db, user.id))
  // A device marked as trusted since then is trusted no more: trust would let whoever it was stop
  // what a Loss of trusted devices firing started, and keep that trigger's clock from running.
  const untrustedBrowsers = await db
    .update(browsers)
    .set({ trustedAt: null })
    .where(and(eq(browsers.userId, user.id), gte(browsers.trustedAt, since)))
    .returning({ id: browsers.id })
  const untrustedKeys = await db
    .update(webauthnCredentials)
    .set({ trustedAt: null })
    .where(and(eq(webauthnCredentials.userId, user.id), gte(webauthnCredentials.trustedAt, since)))
    .returning({ id: webauthnCredentials.id })
  for (const { id } of untrustedBrowsers) await ownerVault(env, user.id).markBrowser(id, false)
  // A deletion asked for by whoever it was is taken back, and every browser the account knew is a
  // stranger again (the one that made the change among them): device cookies are dated in whole
  // seconds, so those of this very second go too.
  const now = Date.now()
  await db
    .update(users)
    .set({ deletionRequestedAt: null, devicesTrustedFrom: Math.ceil((now + 1) / 1000) * 1000, updatedAt: now })
    .where(eq(users.id, user.id))
  await mirrorAccount(user.id)
  return {
    sessionsSignedOut,
    keysRemoved: removed.length,
    authenticatorRemoved,
    trustWithdrawn: untrustedBrowsers.length + untrustedKeys.length,
    deletionCancelled: user.deletionRequestedAt !== null,
  }
}
