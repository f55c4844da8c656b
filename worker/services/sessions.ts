import { and, eq, gt, isNull } from 'drizzle-orm'
import { jwtVerify, SignJWT } from 'jose'
import { SESSION_TTL_SECONDS } from '../../contract/constants'
import type { Db } from '../db/client'
import { sessions, users, type UserRow } from '../db/schema'

// Session tokens are HS256 JWTs whose `sid` names a row in `sessions`: the signature makes them
// cheap to reject, the row makes them revocable (log out, password reset, pause, deletion).
const ISSUER = 'legacy-vault'
const AUDIENCE = 'legacy-vault:session'

function secretKey(env: Pick<Env, 'JWT_SECRET'>): Uint8Array {
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) {
    throw new Error('JWT_SECRET is missing or shorter than 32 characters')
  }
  return new TextEncoder().encode(env.JWT_SECRET)
}

export async function createSession(
  db: Db,
  env: Pick<Env, 'JWT_SECRET'>,
  userId: string,
  now = Date.now(),
): Promise<string> {
  const id = crypto.randomUUID()
  const expiresAt = now + SESSION_TTL_SECONDS * 1000
  await db.insert(sessions).values({ id, userId, createdAt: now, expiresAt })
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
  sessionId: string
}

/** The live session and its user for a token, or null when the token is bad, expired or revoked. */
export async function authenticate(
  db: Db,
  env: Pick<Env, 'JWT_SECRET'>,
  token: string,
  now = Date.now(),
): Promise<AuthenticatedSession | null> {
  // Outside the try: a missing secret is our misconfiguration (a 500, logged), not a bad token.
  const key = secretKey(env)
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
  if (typeof sid !== 'string' || !sub) return null
  const rows = await db
    .select({ user: users, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sid), eq(sessions.userId, sub), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1)
  return rows[0] ?? null
}

export async function revokeSession(db: Db, sessionId: string, now = Date.now()): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
}

