import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import { AUTH_COOKIE } from '../../contract/constants'
import { SESSION_MESSAGES, SESSIONS_PATHS, type SessionList, type SignedInSession } from '../../contract/sessions'
import { call, login, me, messageOf, register, ownerSessions } from './helpers'

// The owner's signed-in devices (issue "A stolen session is not the owner"): GET /api/auth/sessions,
// DELETE /api/auth/sessions/:id and POST /api/auth/sessions/sign-out-others.

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

const sidOf = (token: string) => String(decodeJwt(token).sid)

/** A second sign-in of the owner, from a browser that names itself with `userAgent`. */
async function signInAgain(owner: { email: string; password: string }, userAgent?: string): Promise<string> {
  const res = await login(owner.email, owner.password, { headers: userAgent ? { 'user-agent': userAgent } : {} })
  expect(res.status).toBe(200)
  return ((await res.json()) as { token: string }).token
}

async function listOf(token: string): Promise<SignedInSession[]> {
  const res = await call(SESSIONS_PATHS.list, { token })
  expect(res.status).toBe(200)
  return ((await res.json()) as SessionList).sessions
}

function signOut(token: string | undefined, id: string) {
  return call(`/api/auth/sessions/${id}`, { method: 'DELETE', token })
}

function signOutOthers(token: string | undefined) {
  return call(SESSIONS_PATHS.signOutOthers, { method: 'POST', token })
}

async function auditOf(token: string): Promise<AuditEntry[]> {
  const res = await call('/api/audit', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuditEntry[]
}

describe('GET /api/auth/sessions', () => {
  it('lists two sign-ins with the current one marked, the browser in words, and never a token', async () => {
    const owner = await register()
    const chrome = await signInAgain(owner, CHROME_ON_WINDOWS)
    // Cloudflare's place of the first sign-in, as the session row keeps it.
    await ownerSessions(owner.user.id, 'update sessions set place = ? where id = ?', 'Lisbon, PT', Number(sidOf(owner.token))).run()

    const sessions = await listOf(chrome)
    expect(sessions).toHaveLength(2)
    // This device first.
    expect(sessions[0]).toEqual({
      id: sidOf(chrome),
      device: 'Chrome on Windows',
      place: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      lastSeenAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      current: true,
      trusted: false,
      canTrust: true,
    })
    expect(sessions[1]).toMatchObject({ id: sidOf(owner.token), device: SESSION_MESSAGES.unknownDevice, place: 'Lisbon, PT', current: false })
    expect(Date.parse(sessions[1]!.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(sessions[1]!.createdAt))

    // Seen from the other device, that one is current.
    const fromFirst = await listOf(owner.token)
    expect(fromFirst.map((s) => [s.id, s.current])).toEqual([
      [sidOf(owner.token), true],
      [sidOf(chrome), false],
    ])
    const text = JSON.stringify(fromFirst)
    expect(text).not.toContain(owner.token)
    expect(text).not.toContain(chrome)
    expect(text).not.toContain(owner.user.id)
  })

  it('leaves out sessions that are over, and shows nobody else’s', async () => {
    const owner = await register()
    const other = await register()
    const expired = await signInAgain(owner, SAFARI_ON_IPHONE)
    await ownerSessions(owner.user.id, 'update sessions set expires_at = ? where id = ?', Date.now() - 1000, Number(sidOf(expired))).run()
    expect((await listOf(owner.token)).map((s) => s.id)).toEqual([sidOf(owner.token)])
    expect((await listOf(other.token)).map((s) => s.id)).toEqual([sidOf(other.token)])
  })

  it('needs a session', async () => {
    const res = await call(SESSIONS_PATHS.list)
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toEqual(expect.any(String))
  })
})

describe('DELETE /api/auth/sessions/:id', () => {
  it('signs out the other device: its token answers 401, this one goes on, and it is audited', async () => {
    const owner = await register()
    const phone = await signInAgain(owner, SAFARI_ON_IPHONE)

    const res = await signOut(owner.token, sidOf(phone))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: SESSION_MESSAGES.revoked, current: false })
    expect((await me(phone)).status).toBe(401)
    expect((await me(owner.token)).status).toBe(200)
    expect((await listOf(owner.token)).map((s) => s.id)).toEqual([sidOf(owner.token)])

    // Gone is gone: a second time it is not found.
    expect((await signOut(owner.token, sidOf(phone))).status).toBe(404)
    const entries = (await auditOf(owner.token)).filter((e) => e.action === 'account.session_revoked')
    expect(entries.map((e) => e.details)).toEqual([{ session: sidOf(phone), current: false }])
  })

  it('answers 404 for another owner’s session id, which stays signed in', async () => {
    const owner = await register()
    const stranger = await register()
    const res = await signOut(stranger.token, sidOf(owner.token))
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe(SESSION_MESSAGES.notFound)
    expect((await me(owner.token)).status).toBe(200)
    expect((await listOf(owner.token)).map((s) => s.id)).toEqual([sidOf(owner.token)])
    expect((await auditOf(owner.token)).some((e) => e.action === 'account.session_revoked')).toBe(false)
  })

  it('signs out the session asking, like logging out (the cookie goes too)', async () => {
    const owner = await register()
    const other = await signInAgain(owner)
    const res = await signOut(owner.token, sidOf(owner.token))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: SESSION_MESSAGES.revokedCurrent, current: true })
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${AUTH_COOKIE}=;.*Max-Age=0`))
    expect((await me(owner.token)).status).toBe(401)
    expect((await me(other)).status).toBe(200)
  })

  it('answers 400 for an id that is not a session number, 404 for an unknown one, 401 without a session', async () => {
    const owner = await register()
    for (const bad of ['abc', '-1', '1.5', '007', '1e3', '0x1', '%20', '9'.repeat(17), '9999999999999999']) {
      const res = await signOut(owner.token, bad)
      expect(res.status, bad).toBe(400)
      expect(await messageOf(res), bad).toBe(`id: ${SESSION_MESSAGES.idInvalid}`)
    }
    const unknown = await signOut(owner.token, '123456789')
    expect(unknown.status).toBe(404)
    expect(await messageOf(unknown)).toBe(SESSION_MESSAGES.notFound)
    expect((await signOut(undefined, sidOf(owner.token))).status).toBe(401)
    expect((await me(owner.token)).status).toBe(200)
  })
})

describe('POST /api/auth/sessions/sign-out-others', () => {
  it('signs out every other device and leaves the caller signed in', async () => {
    const owner = await register()
    const bystander = await register()
    const laptop = await signInAgain(owner, CHROME_ON_WINDOWS)
    const phone = await signInAgain(owner, SAFARI_ON_IPHONE)

    const res = await signOutOthers(laptop)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: SESSION_MESSAGES.othersRevoked(2), signedOut: 2 })
    expect((await me(laptop)).status).toBe(200)
    expect((await me(owner.token)).status).toBe(401)
    expect((await me(phone)).status).toBe(401)
    expect((await me(bystander.token)).status).toBe(200)
    expect((await listOf(laptop)).map((s) => [s.id, s.current])).toEqual([[sidOf(laptop), true]])

    // Nothing left to sign out.
    expect(await (await signOutOthers(laptop)).json()).toEqual({ message: SESSION_MESSAGES.othersRevoked(0), signedOut: 0 })
    const entries = (await auditOf(laptop)).filter((e) => e.action === 'account.sessions_revoked')
    expect(entries.map((e) => e.details)).toEqual(expect.arrayContaining([{ count: 2 }, { count: 0 }]))
    expect(entries).toHaveLength(2)
  })

  it('needs no fresh proof: signing out is a safety act, not a trust grant', async () => {
    const owner = await register()
    const other = await signInAgain(owner)
    const longAgo = Date.now() - 60 * 60 * 1000
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', longAgo).run()
    expect((await signOut(owner.token, sidOf(other))).status).toBe(200)
    const third = await signInAgain(owner)
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', longAgo).run()
    expect((await signOutOthers(owner.token)).status).toBe(200)
    expect((await me(third)).status).toBe(401)
    expect((await signOutOthers(undefined)).status).toBe(401)
  })
})
