import { accountOf } from '../../worker/owner/account'
import { ownerVault } from '../../worker/owner/client'
import { mirrorAccount } from '../../worker/owner/account'
import { decodeJwt, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import type { AuthResponse } from '../../contract/auth'
import { AUTH_COOKIE } from '../../contract/constants'
import { AUTH_ERRORS } from '../../contract/messages'
import { call, env, login, me, messageOf, register, ownerSessions } from './helpers'
import { eq } from 'drizzle-orm'
import { getDb } from '../../worker/db/client'
import { users } from '../../worker/db/schema'
import { authenticate } from '../../worker/services/sessions'

const ISSUER = 'legacy-vault'
const AUDIENCE = 'legacy-vault:session'

interface Claims {
  sid: number | string
  sub: string
}

function claimsOf(token: string): Claims {
  const payload = decodeJwt(token)
  return { sid: payload.sid as number, sub: payload.sub as string }
}

/** A session-shaped JWT; by default signed with the worker's own secret and valid for an hour. */
async function signToken(
  claims: Claims,
  options: { secret?: string; issuer?: string; audience?: string; expiresAt?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt(now - 60)
    .setExpirationTime(options.expiresAt ?? now + 3600)
    .sign(new TextEncoder().encode(options.secret ?? env.JWT_SECRET))
}

async function expectRejected(token: string) {
  const res = await me(token)
  expect(res.status).toBe(401)
  expect(await res.json()).toEqual({ message: AUTH_ERRORS.sessionExpired })
}

describe("GET /api/auth/session (the web app's session check)", () => {
  it('answers a visitor, an unknown token and a signed-out session with 200 and no user', async () => {
    const headerSets: Array<Record<string, string>> = [{}, { authorization: 'Bearer   ' }, { authorization: 'Bearer not-a-session-token' }]
    for (const headers of headerSets) {
      const res = await call('/api/auth/session', { headers })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ user: null })
    }
    const account = await register()
    expect((await call('/api/auth/logout', { method: 'POST', token: account.token })).status).toBe(200)
    expect(await (await call('/api/auth/session', { token: account.token })).json()).toEqual({ user: null })
  })

  it('answers the signed-in user exactly as /api/auth/me does', async () => {
    const account = await register({ displayName: 'Session Owner' })
    const session = (await (await call('/api/auth/session', { token: account.token })).json()) as { user: { id: string } }
    const viaMe = await (await me(account.token)).json()
    expect(session).toEqual(viaMe)
    expect(session.user.id).toBe(account.user.id)
  })
})

describe('GET /api/auth/me', () => {
  it('answers 401 with a message without a token', async () => {
    const res = await call('/api/auth/me')
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(await res.json()).toEqual({ message: AUTH_ERRORS.notSignedIn })
  })

  it('answers 401 to an empty bearer token', async () => {
    const res = await call('/api/auth/me', { headers: { authorization: 'Bearer   ' } })
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.notSignedIn)
  })

  it('answers with the user for a bearer token', async () => {
    const account = await register({ displayName: 'Bearer Owner' })
    const res = await me(account.token)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = (await res.json()) as { user: AuthResponse['user'] }
    expect(Object.keys(body)).toEqual(['user'])
    expect(body.user).toEqual(account.user)
    expect(body.user.displayName).toBe('Bearer Owner')
  })

  it('answers with the user for the session cookie alone', async () => {
    const account = await register()
    const res = await call('/api/auth/me', { cookie: `${AUTH_COOKIE}=${account.token}` })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(account.user.id)
  })

  it('finds the session cookie among other cookies', async () => {
    const account = await register()
    const res = await call('/api/auth/me', { cookie: `theme=dark; ${AUTH_COOKIE}=${account.token}; lang=en` })
    expect(res.status).toBe(200)
  })

  it('rejects a token whose signature was tampered with', async () => {
    const { token } = await register()
    const [header, payload, signature] = token.split('.') as [string, string, string]
    // A character in the middle: the last one of a base64url signature carries padding bits.
    const i = 10
    const swapped = signature[i] === 'A' ? 'B' : 'A'
    const tampered = `${header}.${payload}.${signature.slice(0, i)}${swapped}${signature.slice(i + 1)}`
    expect(tampered).not.toBe(token)
    await expectRejected(tampered)
  })

  it('rejects a token whose payload was changed', async () => {
    const victim = await register()
    const attacker = await register()
    const [header, , signature] = attacker.token.split('.') as [string, string, string]
    const forgedPayload = btoa(JSON.stringify({ ...decodeJwt(attacker.token), sub: victim.user.id }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    await expectRejected(`${header}.${forgedPayload}.${signature}`)
  })

  it('rejects a token signed with another secret', async () => {
    const { token } = await register()
    const forged = await signToken(claimsOf(token), { secret: 'some-other-secret-that-is-also-long-enough-0123456789' })
    await expectRejected(forged)
  })

  it('accepts a token from the same builder with the real secret (control for the forgeries)', async () => {
    // Without this, the rejections around it could pass because signToken builds broken tokens.
    const { token } = await register()
    const res = await me(await signToken(claimsOf(token)))
    expect(res.status).toBe(200)
  })

  it('rejects a token with the wrong issuer or audience', async () => {
    const { token } = await register()
    await expectRejected(await signToken(claimsOf(token), { issuer: 'someone-else' }))
    await expectRejected(await signToken(claimsOf(token), { audience: 'legacy-vault:reset' }))
  })

  it('rejects an unsigned (alg "none") token', async () => {
    const { token } = await register()
    const encode = (value: object) =>
      btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode(decodeJwt(token))}.`
    await expectRejected(unsigned)
  })

  it('rejects an expired token even though its session row is live', async () => {
    const { token } = await register()
    const expired = await signToken(claimsOf(token), { expiresAt: Math.floor(Date.now() / 1000) - 60 })
    await expectRejected(expired)
  })

  it('rejects a token whose session row has expired', async () => {
    const { token } = await register()
    const { sid, sub } = claimsOf(token)
    await ownerSessions(sub, 'UPDATE sessions SET expires_at = ? WHERE id = ?', Date.now() - 1000, sid).run()
    await expectRejected(token)
  })

  it("rejects a real session id presented with another user's subject", async () => {
    const alice = await register()
    const bob = await register()
    const mixed = await signToken({ sid: claimsOf(alice.token).sid, sub: bob.user.id })
    await expectRejected(mixed)
  })

  it('rejects a well-signed token whose session does not exist', async () => {
    const { token } = await register()
    await expectRejected(await signToken({ sid: Number(claimsOf(token).sid) + 1, sub: claimsOf(token).sub }))
  })

  it('rejects a session id that is not a number (a token from before sessions were numbered)', async () => {
    const { token } = await register()
    await expectRejected(await signToken({ sid: String(claimsOf(token).sid), sub: claimsOf(token).sub }))
    await expectRejected(await signToken({ sid: crypto.randomUUID(), sub: claimsOf(token).sub }))
  })

  it('rejects garbage', async () => {
    await expectRejected('not-a-jwt')
  })
})

describe('POST /api/auth/logout', () => {
  it('ends the session on the server: its row goes, and the same token stops working', async () => {
    const account = await register()
    expect((await me(account.token)).status).toBe(200)

    const res = await call('/api/auth/logout', { method: 'POST', token: account.token })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Signed out.' })

    await expectRejected(account.token)
    const { sid, sub } = claimsOf(account.token)
    expect(await ownerSessions(sub, 'SELECT id FROM sessions WHERE id = ?', sid).first()).toBeNull()
  })

  it('clears the session cookie', async () => {
    const account = await register()
    const res = await call('/api/auth/logout', { method: 'POST', token: account.token })
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(new RegExp(`^${AUTH_COOKIE}=;`))
    expect(cookie.toLowerCase()).toContain('max-age=0')
  })

  it("leaves the user's other sessions working", async () => {
    const account = await register()
    const second = (await (await login(account.email, account.password)).json()) as AuthResponse
    await call('/api/auth/logout', { method: 'POST', token: account.token })
    expect((await me(account.token)).status).toBe(401)
    const res = await me(second.token)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(account.user.id)
  })

  it('revokes a session identified by the cookie alone', async () => {
    const account = await register()
    const res = await call('/api/auth/logout', { method: 'POST', cookie: `${AUTH_COOKIE}=${account.token}` })
    expect(res.status).toBe(200)
    await expectRejected(account.token)
  })

  it('answers 200 without a token', async () => {
    const res = await call('/api/auth/logout', { method: 'POST' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Signed out.' })
  })

  it('answers 200 to an invalid or already revoked token', async () => {
    const account = await register()
    expect((await call('/api/auth/logout', { method: 'POST', token: 'not-a-jwt' })).status).toBe(200)
    expect((await call('/api/auth/logout', { method: 'POST', token: account.token })).status).toBe(200)
    expect((await call('/api/auth/logout', { method: 'POST', token: account.token })).status).toBe(200)
  })

  it('cannot be used with a forged token to sign someone else out', async () => {
    const victim = await register()
    const forged = await signToken(claimsOf(victim.token), { secret: 'some-other-secret-that-is-also-long-enough-0123456789' })
    await call('/api/auth/logout', { method: 'POST', token: forged })
    expect((await me(victim.token)).status).toBe(200)
  })
})

describe("the session check in the owner's object", () => {
  it('answers the account as D1 has it (mirrored), and refuses a revoked session at the next request', async () => {
    const owner = await register()
    await env.DB.prepare('update users set cancel_at_period_end = 1, ping_frequency = 14, paused_at = null, phone_number = ? where id = ?').bind('+15551234567', owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const db = getDb(env)
    const session = await authenticate(env, owner.token)
    const row = await db.select().from(users).where(eq(users.id, owner.user.id)).get()
    expect(session?.account).toStrictEqual(accountOf(row!))
    expect(session?.account.pingFrequency).toBe(14)
    expect(session?.sessionId).toBe(claimsOf(owner.token).sid)
    await ownerVault(env, owner.user.id).revokeSessions()
    expect(await authenticate(env, owner.token)).toBeNull()
  })
})
