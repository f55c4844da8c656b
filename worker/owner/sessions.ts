import { and, eq, lte, ne } from 'drizzle-orm'
import type { Account } from './account'
import type { OwnerDb } from './db'
import { sessions, type OwnerSessionRow } from './schema'

// The owner's sessions and the account state their requests are judged by, in the owner's object:
// a request's session check is a read in the object it was going to anyway, not a D1 query.

/** The owner's account as the request path needs it, mirrored from D1 (worker/owner/account.ts, mirrorAccount). */
export const ACCOUNT_KEY = 'account'

/** How often a session's "last seen" is written: at most once in this long, not on every request. */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000

export interface NewSession {
  id: number
  createdAt: number
  expiresAt: number
  userAgent: string | null
  place: string | null
  browserId: string | null
  browserTrusted: boolean
}

export interface SessionCheck {
  account: Account
  sessionId: number
  provedAt: number | null
  browserId: string | null
  trustedBrowser: boolean
  /** The session's "last seen" was just written (a trusted browser's use is recorded with it). */
  touched: boolean
}

/** Opens a session; the owner's expired ones go with it. */
export function openSession(db: OwnerDb, session: NewSession): void {
  db.delete(sessions).where(lte(sessions.expiresAt, session.createdAt)).run()
  db.insert(sessions)
    .values({ ...session, provedAt: session.createdAt, lastSeenAt: session.createdAt })
    .run()
}

/** The live session `id` with the account, or null (revoked, expired, or the account is gone). */
export function checkSession(db: OwnerDb, account: Account | undefined, id: number, now: number): SessionCheck | null {
  if (!account) return null
  const row = sessionRow(db, id, now)
  if (!row) return null
  const touched = (row.lastSeenAt ?? 0) + LAST_SEEN_EVERY_MS <= now
  if (touched) db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)).run()
  return { account, sessionId: id, provedAt: row.provedAt, browserId: row.browserId, trustedBrowser: row.browserTrusted, touched }
}

/** The live session `id`, or null (revoked or expired). */
export function sessionRow(db: OwnerDb, id: number, now: number): OwnerSessionRow | null {
  const row = db.select().from(sessions).where(eq(sessions.id, id)).get()
  return row && row.expiresAt > now ? row : null
}

/** The owner's live sessions, most recently used first. */
export function listSessions(db: OwnerDb, now: number): OwnerSessionRow[] {
  const rows = db.select().from(sessions).all().filter((s) => s.expiresAt > now)
  return rows.sort((a, b) => (b.lastSeenAt ?? b.createdAt) - (a.lastSeenAt ?? a.createdAt))
}

/** Ends one session: its token names nothing any more. False if there was none. */
export function revokeSession(db: OwnerDb, id: number): boolean {
  return db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id }).all().length > 0
}

/** Ends every session but `keep` (if given), or only those opened before `openedBefore`; how many went. */
export function revokeSessions(db: OwnerDb, keep?: number, openedBefore?: number): number {
  const where = and(keep === undefined ? undefined : ne(sessions.id, keep), openedBefore === undefined ? undefined : lte(sessions.createdAt, openedBefore))
  return db.delete(sessions).where(where).returning({ id: sessions.id }).all().length
}

/** The person at this session has just proved who they are again (fresh proof). */
export function markProved(db: OwnerDb, id: number, now: number): void {
  db.update(sessions).set({ provedAt: now, lastSeenAt: now }).where(eq(sessions.id, id)).run()
}

/** The owner marked (or unmarked) a browser as trusted: its sessions carry the mark. */
export function markBrowser(db: OwnerDb, browserId: string, trusted: boolean): void {
  db.update(sessions).set({ browserTrusted: trusted }).where(eq(sessions.browserId, browserId)).run()
}
