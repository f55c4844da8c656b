import type { Context } from 'hono'
import { and, eq, getTableColumns, gt, lte, ne, sql, type SQL } from 'drizzle-orm'
import { jwtVerify, SignJWT } from 'jose'
import { SESSION_TTL_SECONDS } from '../../contract/constants'
import type { Db } from '../db/client'
import { sessions, users, type UserRow } from '../db/schema'
import type { AppEnv } from '../types'

// Session tokens are HS256 JWTs whose `sub` and `sid` name a row in `sessions`: the signature makes
// them cheap to reject, the row makes them revocable (log out, password reset, pause, deletion).
const ISSUER = 'legacy-vault'
const AUDIENCE = 'legacy-vault:session'

function secretKey(env: Pick<Env, 'JWT_SECRET'>): Uint8Array {
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) {
    throw new Error('JWT_SECRET is missing or shorter than 32 characters')
  }
  return new TextEncoder().encode(env.JWT_SECRET)
}

// Importing the secret is most of a token check's own cost: once per secret, kept for the isolate.
const verifyKeys = new Map<string, Promise<CryptoKey>>()

function verifyKey(env: Pick<Env, 'JWT_SECRET'>): Promise<CryptoKey> {
  const bytes = secretKey(env)
  let key = verifyKeys.get(env.JWT_SECRET)
  if (!key) {
    key = crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    verifyKeys.set(env.JWT_SECRET, key)
  }
  return key
}

/** A session id: a random 48-bit number (unique within its owner, which is all the key needs). */
function newSessionId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2))
  return (high! & 0xffff) * 2 ** 32 + low!
}

/** What the owner's list of signed-in devices shows of a session: the browser and roughly where. */
export interface SessionDevice {
  userAgent?: string | null
  place?: string | null
}

/** The browser and the approximate place of a request, as the owner's list of devices shows them. */
export function deviceOf(c: Context<AppEnv>): SessionDevice {
  const cf = (c.req.raw as { cf?: { city?: unknown; country?: unknown } }).cf
  const place = [cf?.city, cf?.country].filter((part): part is string => typeof part === 'string' && part.length > 0).join(', ')
  return { userAgent: c.req.header('user-agent') ?? null, place: place || null }
}

/**
 * Opens a session for someone who has just proved who they are (every caller is a sign-in), so its
 * proof is fresh from the start.
 */
export async function createSession(
  db: Db,
  env: Pick<Env, 'JWT_SECRET'>,
  userId: string,
  now = Date.now(),
  device: SessionDevice = {},
  browserId: string | null = null,
): Promise<string> {
  const id = newSessionId()
  const expiresAt = now + SESSION_TTL_SECONDS * 1000
  // The owner's expired sessions go as a new one starts (one key range): most never wait for the sweep.
  await db.batch([
    db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, now))),
    db.insert(sessions).values({
      userId,
      id,
      createdAt: now,
      expiresAt,
      provedAt: now,
      lastSeenAt: now,
      userAgent: device.userAgent?.slice(0, 512) ?? null,
      place: device.place?.slice(0, 128) ?? null,
      browserId,
    }),
  ])
  return new SignJWT({ sid: id })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(secretKey(env))
}

export interface AuthenticatedSession {
  user: UserRow
  sessionId: number
  /** When the person at this session last proved who they are (null: never, an older session). */
  provedAt: number | null
  lastSeenAt: number | null
  /** The browser the session was opened in, and whether the owner marked it as trusted. */
  browserId: string | null
  trustedBrowser: boolean
}

/** The live session and its user for a token, or null when the token is bad, expired or revoked. */
export async function authenticate(
  db: Db,
  env: Pick<Env, 'JWT_SECRET'>,
  token: string,
  now = Date.now(),
): Promise<AuthenticatedSession | null> {
  // Outside the try: a missing secret is our misconfiguration (a 500, logged), not a bad token.
  const key = await verifyKey(env)
  let sid: unknown
  let sub: string | undefined
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    })
    sid = payload.sid
    sub = payload.sub
  } catch {
    return null
  }
  if (typeof sid !== 'number' || !Number.isSafeInteger(sid) || !sub) return null
  const row = await db.$client.prepare(SESSION_USER_SQL).bind(sub, sid, now).first<Record<string, unknown>>()
  if (!row) return null
  return {
    user: userFromRow(row),
    sessionId: sid,
    provedAt: (row.session_proved_at as number | null) ?? null,
    lastSeenAt: (row.session_last_seen_at as number | null) ?? null,
    browserId: (row.session_browser_id as string | null) ?? null,
    trustedBrowser: row.session_browser_trusted_at !== null && row.session_browser_trusted_at !== undefined,
  }
}

// Every authenticated request runs this one query, so it is written once as SQL rather than built
// by the query builder each time (which cost as much as the round trip itself), and the row is
// decoded by the schema's own columns.
const SESSION_USER_SQL =
  'select users.*, sessions.proved_at as session_proved_at, sessions.last_seen_at as session_last_seen_at, sessions.browser_id as session_browser_id, browsers.trusted_at as session_browser_trusted_at from sessions join users on users.id = sessions.user_id left join browsers on browsers.user_id = sessions.user_id and browsers.id = sessions.browser_id where sessions.user_id = ?1 and sessions.id = ?2 and sessions.expires_at > ?3 limit 1'
const USER_COLUMNS = Object.entries(getTableColumns(users))

function userFromRow(row: Record<string, unknown>): UserRow {
  const user: Record<string, unknown> = {}
  for (const [key, column] of USER_COLUMNS) {
    const value = row[column.name]
    user[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
  }
  return user as UserRow
}

/** Ends one session of the owner's: its row goes, so its token names nothing. False if there was none. */
export async function revokeSession(db: Db, userId: string, sessionId: number): Promise<boolean> {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id })
  return gone.length > 0
}

/** The person at this session has just proved who they are again (fresh proof). */
export async function markProved(db: Db, userId: string, sessionId: number, now = Date.now()): Promise<void> {
  await db.update(sessions).set({ provedAt: now, lastSeenAt: now }).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
}

/** How often a session's "last seen" is written: at most once in this long, not on every request. */
export const LAST_SEEN_EVERY_MS = 5 * 60 * 1000

export async function touchSession(db: Db, userId: string, sessionId: number, now = Date.now()): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
}

/** The owner's live sessions, most recently used first. */
export async function listSessions(db: Db, userId: string, now = Date.now()) {
  const rows = await db.select().from(sessions).where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
  return rows.sort((a, b) => (b.lastSeenAt ?? b.createdAt) - (a.lastSeenAt ?? a.createdAt))
}

/** Ends every session of the owner but `keep` (if given): their tokens name nothing any more. */
export async function revokeSessions(db: Db, userId: string, keep?: number): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keep === undefined ? undefined : ne(sessions.id, keep)))
    .returning({ id: sessions.id })
  return gone.length
}

/** Sessions the cron sweep looks at per run, from a random point of the table. */
export const SESSION_SWEEP_WINDOW = 5_000

/**
 * Deletes expired sessions in a window of the table: the SESSION_SWEEP_WINDOW sessions from a
 * random owner id on, wrapping to the start. With no index on the expiry, each run reads at
 * most the window, whatever the table's size; every row is looked at every few runs on average
 * (table size / window), and a table no larger than the window is swept whole every run.
 */
export async function sweepSessions(db: Db, now = Date.now(), windowSize = SESSION_SWEEP_WINDOW): Promise<number> {
  const from = crypto.randomUUID()
  // The window's rows are one key range: from its first owner id to the last of its first N rows.
  const sweep = async (lower: SQL, limit: number) => {
    const window = sql`select user_id from sessions where ${lower} order by user_id limit ${limit}`
    const [range] = await db.all<{ rows: number; last: string | null }>(sql`select count(*) as rows, max(user_id) as last from (${window})`)
    if (!range?.last) return { rows: 0, deleted: 0 }
    const gone = await db
      .delete(sessions)
      .where(and(lower, lte(sessions.userId, range.last), lte(sessions.expiresAt, now)))
      .returning({ id: sessions.id })
    return { rows: range.rows, deleted: gone.length }
  }
  const ahead = await sweep(sql`user_id >= ${from}`, windowSize)
  const behind = ahead.rows < windowSize ? await sweep(sql`user_id < ${from}`, windowSize - ahead.rows) : { deleted: 0 }
  return ahead.deleted + behind.deleted
}
