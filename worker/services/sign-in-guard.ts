import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { jwtVerify, SignJWT } from 'jose'
import { DEVICE_COOKIE, DEVICE_COOKIE_TTL_SECONDS, SIGN_IN_GUARD } from '../../contract/constants'
import type { Db } from '../db/client'
import { signInFailures, type UserRow } from '../db/schema'
import type { AppEnv } from '../types'

// No lock-out by strangers: the per-account limit on password sign-ins counts failures only and
// backs off, and never holds a browser that has signed in to the account before. The per-address
// limits (the rate-limiting bindings) stay as they are.

const DEVICE_AUDIENCE = 'legacy-vault:device'
const ISSUER = 'legacy-vault'
const secret = (env: Pick<Env, 'JWT_SECRET'>) => new TextEncoder().encode(env.JWT_SECRET)

/** When the address's hold ends, if it is held now. */
export async function heldUntil(db: Db, email: string, now = Date.now()): Promise<number | null> {
  const row = await db.query.signInFailures.findFirst({ where: eq(signInFailures.email, email) })
  return row?.heldUntil && row.heldUntil > now ? row.heldUntil : null
}

/** Counts a failure; past the free ones the address is held, twice as long as the hold before. */
export async function recordFailure(db: Db, email: string, now = Date.now()): Promise<void> {
  const { freeFailures, firstHoldMs, maxHoldMs, forgetAfterMs } = SIGN_IN_GUARD
  // One statement: concurrent failures each count.
  const failures = sql`case when ${signInFailures.lastFailureAt} < ${now - forgetAfterMs} then 1 else ${signInFailures.failures} + 1 end`
  const hold = (n: typeof failures | number) =>
    sql`case when ${n} >= ${freeFailures} then ${now} + min(${maxHoldMs}, ${firstHoldMs} * (1 << min(20, ${n} - ${freeFailures}))) else null end`
  await db
    .insert(signInFailures)
    .values({ email, failures: 1, lastFailureAt: now, heldUntil: hold(1) })
    .onConflictDoUpdate({ target: signInFailures.email, set: { failures, lastFailureAt: now, heldUntil: hold(failures) } })
}

/** The cron sweep: failures a quiet day old, with no hold running, are forgotten. */
export async function pruneSignInFailures(db: Db, now = Date.now()): Promise<number> {
  const gone = await db
    .delete(signInFailures)
    .where(and(lt(signInFailures.lastFailureAt, now - SIGN_IN_GUARD.forgetAfterMs), or(isNull(signInFailures.heldUntil), lt(signInFailures.heldUntil, now))))
    .returning({ email: signInFailures.email })
  return gone.length
}

export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.email, email))
}

/** Marks this browser as one that has signed in to `userId`'s account; `browserId` names it (worker/services/trusted-devices.ts). */
export async function rememberDevice(c: Context<AppEnv>, userId: string, browserId: string, now = Date.now()): Promise<void> {
  const token = await new SignJWT({ did: browserId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(DEVICE_AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + DEVICE_COOKIE_TTL_SECONDS)
    .sign(secret(c.env))
  setCookie(c, DEVICE_COOKIE, token, { httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth', maxAge: DEVICE_COOKIE_TTL_SECONDS })
}

/** Whether the request comes from a browser that has signed in to `userId`'s account before. */
export async function isKnownDevice(c: Context<AppEnv>, user: Pick<UserRow, 'id' | 'devicesTrustedFrom'>): Promise<boolean> {
  return (await knownBrowserId(c, user)) !== null
}

/**
 * The id of this browser when it has signed in to `user`'s account before (a cookie from before
 * browsers had ids is known but named by a new id), or null.
 */
export async function knownBrowserId(c: Context<AppEnv>, user: Pick<UserRow, 'id' | 'devicesTrustedFrom'>): Promise<string | null> {
  const token = getCookie(c, DEVICE_COOKIE)
  if (!token) return null
  try {
    const { payload } = await jwtVerify(token, secret(c.env), { issuer: ISSUER, audience: DEVICE_AUDIENCE, algorithms: ['HS256'] })
    const known = payload.sub === user.id && (user.devicesTrustedFrom === null || (payload.iat ?? 0) * 1000 >= user.devicesTrustedFrom)
    if (!known) return null
    return typeof payload.did === 'string' && /^[0-9a-f-]{36}$/.test(payload.did) ? payload.did : crypto.randomUUID()
  } catch {
    return null
  }
}
