import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { browsers, webauthnCredentials } from '../db/schema'
import type { SessionDevice } from './sessions'
import type { Context } from 'hono'
import { TRUSTED_DEVICE_MESSAGES } from '../../contract/trusted-devices'
import { conflict } from '../lib/errors'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ownerVault } from '../owner/client'
import { ask } from '../owner/outcome'
import type { AppEnv } from '../types'

// Trusted devices (the Loss of trusted devices trigger, worker/engine/device-loss.ts): the
// security keys and browsers the owner marked as trusted. A browser is known by the random id its
// signed device cookie carries (worker/services/sign-in-guard.ts) and kept in `browsers`, so it is
// the same browser across sign-ins; a session remembers the browser it was opened in. Marking is
// kept here in D1; the owner's object keeps only when a trusted device was last used.

/** A browser has signed in: its row is made or brought up to date. Answers whether it is trusted. */
export async function noteBrowser(db: Db, userId: string, browserId: string, device: SessionDevice, now = Date.now()): Promise<boolean> {
  const [row] = await db
    .insert(browsers)
    .values({ userId, id: browserId, userAgent: device.userAgent?.slice(0, 512) ?? null, place: device.place?.slice(0, 128) ?? null, firstUsedAt: now, lastUsedAt: now })
    .onConflictDoUpdate({
      target: [browsers.userId, browsers.id],
      set: { userAgent: device.userAgent?.slice(0, 512) ?? null, place: device.place?.slice(0, 128) ?? null, lastUsedAt: now },
    })
    .returning({ trustedAt: browsers.trustedAt })
  return row?.trustedAt != null
}

/** A trusted browser's requests (throttled like a session's lastSeenAt). */
export async function touchBrowser(db: Db, userId: string, browserId: string, now = Date.now()): Promise<void> {
  await db.update(browsers).set({ lastUsedAt: now }).where(and(eq(browsers.userId, userId), eq(browsers.id, browserId)))
}

/** How many devices the owner has marked as trusted (keys and browsers). */
export async function countTrusted(db: Db, userId: string): Promise<number> {
  const row = await db.get<{ n: number }>(sql`select
    (select count(*) from ${webauthnCredentials} where ${webauthnCredentials.userId} = ${userId} and ${webauthnCredentials.trustedAt} is not null) +
    (select count(*) from ${browsers} where ${browsers.userId} = ${userId} and ${browsers.trustedAt} is not null) as n`)
  return row?.n ?? 0
}

/**
 * Refuses to take away the owner's last trusted device (untrusting it, or removing a trusted key)
 * while an active Loss of trusted devices trigger watches them: the trigger would fire once its
 * days pass, watching nothing. `targetTrusted` says whether the device the act takes is a trusted
 * one; the owner's object is asked only when it is the last.
 */
export async function assertNotLastWatched(c: Context<AppEnv>, targetTrusted: () => Promise<boolean>): Promise<void> {
  if ((await countTrusted(c.var.db, c.var.account.id)) !== 1 || !(await targetTrusted())) return
  const triggers = (await ask(vaultOf(c).engine().listTriggers(accountIn(c)))) as ReadonlyArray<{ type: string; status: string }>
  if (triggers.some((t) => t.type === 'device_loss' && t.status === 'active')) throw conflict(TRUSTED_DEVICE_MESSAGES.lastWatched)
}

/** Whether one of the owner's security keys is marked as trusted (false for none such). */
export async function isKeyTrusted(db: Db, userId: string, keyId: string): Promise<boolean> {
  const key = await db.query.webauthnCredentials.findFirst({ where: and(eq(webauthnCredentials.id, keyId), eq(webauthnCredentials.userId, userId)) })
  return key?.trustedAt != null
}

/** Whether the browser one of the owner's sessions was opened in is marked as trusted. */
export async function isSessionBrowserTrusted(env: Pick<Env, 'OWNER_VAULT'>, db: Db, userId: string, sessionId: number): Promise<boolean> {
  const session = await ownerVault(env, userId).session(sessionId)
  if (!session?.browserId) return false
  return (await trustedBrowserIds(db, userId)).has(session.browserId)
}

export type TrustOutcome = 'changed' | 'unchanged' | 'not_found' | 'no_browser'

/** Marks or unmarks the browser a session of the owner's was opened in. */
export async function setSessionBrowserTrust(env: Pick<Env, 'OWNER_VAULT'>, db: Db, userId: string, sessionId: number, trusted: boolean, now = Date.now()): Promise<TrustOutcome> {
  const vault = ownerVault(env, userId)
  const session = await vault.session(sessionId, now)
  if (!session) return 'not_found'
  if (!session.browserId) return 'no_browser'
  const updated = await db
    .update(browsers)
    .set({ trustedAt: trusted ? now : null })
    .where(and(eq(browsers.userId, userId), eq(browsers.id, session.browserId), trusted ? sql`${browsers.trustedAt} is null` : isNotNull(browsers.trustedAt)))
    .returning({ id: browsers.id })
  // Its sessions carry the mark, in the owner's object, for the requests they make.
  await vault.markBrowser(session.browserId, trusted)
  return updated.length > 0 ? 'changed' : 'unchanged'
}

/** Marks or unmarks one of the owner's security keys. */
export async function setKeyTrust(db: Db, userId: string, keyId: string, trusted: boolean, now = Date.now()): Promise<TrustOutcome> {
  const key = await db.query.webauthnCredentials.findFirst({ where: and(eq(webauthnCredentials.id, keyId), eq(webauthnCredentials.userId, userId)) })
  if (!key) return 'not_found'
  if ((key.trustedAt !== null) === trusted) return 'unchanged'
  await db.update(webauthnCredentials).set({ trustedAt: trusted ? now : null }).where(eq(webauthnCredentials.id, keyId))
  return 'changed'
}

/** The trust of the browsers the owner's sessions were opened in, by browser id. */
export async function trustedBrowserIds(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db.select({ id: browsers.id }).from(browsers).where(and(eq(browsers.userId, userId), isNotNull(browsers.trustedAt)))
  return new Set(rows.map((r) => r.id))
}
