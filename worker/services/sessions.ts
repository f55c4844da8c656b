import type { Context } from 'hono'
import { jwtVerify, SignJWT } from 'jose'
import { SESSION_TTL_SECONDS } from '../../contract/constants'
import type { UserRow } from '../db/schema'
import { accountOf } from '../owner/account'
import { ownerVault } from '../owner/client'
import type { SessionCheck } from '../owner/sessions'
import type { AppEnv } from '../types'

// Session tokens are HS256 JWTs whose `sub` names the owner and `sid` a row in that owner's object
// (worker/owner/sessions.ts): the signature makes them cheap to reject and says which object to
// ask, the row makes them revocable (log out, password change or reset, pause, deletion).
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
 * proof is fresh from the start. The owner's object gets the account as `user` has it.
 */
export async function createSession(
  env: Pick<Env, 'JWT_SECRET' | 'OWNER_VAULT'>,
  user: UserRow,
  now = Date.now(),
  device: SessionDevice = {},
  browserId: string | null = null,
  browserTrusted = false,
): Promise<string> {
  const id = newSessionId()
  const expiresAt = now + SESSION_TTL_SECONDS * 1000
  await ownerVault(env, user.id).openSession(accountOf(user), {
    id,
    createdAt: now,
    expiresAt,
    userAgent: device.userAgent?.slice(0, 512) ?? null,
    place: device.place?.slice(0, 128) ?? null,
    browserId,
    browserTrusted,
  })
  return new SignJWT({ sid: id })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(secretKey(env))
}

/** The owner and session a token names, if its signature holds and it has not expired (not yet whether it was revoked). */
export async function readSessionToken(env: Pick<Env, 'JWT_SECRET'>, token: string): Promise<{ ownerId: string; sessionId: number } | null> {
  // Outside the try: a missing secret is our misconfiguration (a 500, logged), not a bad token.
  const key = await verifyKey(env)
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] })
    const { sid, sub } = payload
    if (typeof sid !== 'number' || !Number.isSafeInteger(sid) || !sub) return null
    return { ownerId: sub, sessionId: sid }
  } catch {
    return null
  }
}

/** The live session and its account for a token, or null when the token is bad, expired or revoked: one call to the owner's object. */
export async function authenticate(env: Pick<Env, 'JWT_SECRET' | 'OWNER_VAULT'>, token: string, now = Date.now()): Promise<SessionCheck | null> {
  const named = await readSessionToken(env, token)
  if (!named) return null
  return ownerVault(env, named.ownerId).authenticate(named.sessionId, now)
}
