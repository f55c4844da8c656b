import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { authResponseSchema, publicUserSchema, type AuthResponse } from '../../contract/auth'
import { AUTH_COOKIE, SESSION_TTL_SECONDS } from '../../contract/constants'
import { AUTH_ERRORS, GENERIC_ERRORS, VALIDATION } from '../../contract/messages'
import { call, env, freshIp, login, me, messageOf, register, uniqueEmail, ownerSessions } from './helpers'

const PASSWORD = 'correct horse battery'

function registerBody(overrides: Record<string, unknown> = {}) {
  return { email: uniqueEmail(), password: PASSWORD, displayName: 'Ada Owner', ...overrides }
}

/** Asserts the Set-Cookie header carries the session token with the hardened attributes. */
function expectSessionCookie(res: Response, token: string) {
  const cookie = res.headers.get('set-cookie') ?? ''
  expect(cookie).toMatch(new RegExp(`^${AUTH_COOKIE}=`))
  expect(cookie.split(';')[0]).toBe(`${AUTH_COOKIE}=${token}`)
  const attributes = cookie.split(';').map((part) => part.trim().toLowerCase())
  expect(attributes).toContain('httponly')
  expect(attributes).toContain('secure')
  expect(attributes).toContain('samesite=strict')
  expect(attributes).toContain('path=/')
  expect(attributes).toContain(`max-age=${SESSION_TTL_SECONDS}`)
}

describe('POST /api/auth/register', () => {
  it('creates an account and answers 201 with a token and the public user', async () => {
    const body = registerBody({ displayName: 'Ada Lovelace' })
    const res = await call('/api/auth/register', { body })
    expect(res.status).toBe(201)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const raw = await res.text()
    const data = JSON.parse(raw) as AuthResponse

    expect(typeof data.token).toBe('string')
    expect(data.token.split('.')).toHaveLength(3)
    const { user } = data
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(user).toMatchObject({
      email: body.email,
      displayName: 'Ada Lovelace',
      planTier: 'basic',
      hasActiveSubscription: true,
      subscriptionStatus: 'active',
      billingProvider: 'none',
      vaultSetup: false,
      vaultSalt: null,
      gracePeriod: 3,
      stripeCustomerId: null,
      stripeSubscriptionId: null,
      storageUsed: 0,
      vaultItemCount: 0,
      securityKeyCount: 0,
      profile: { displayName: 'Ada Lovelace' },
      subscription: { status: 'active' },
    })
    expect(Number.isNaN(Date.parse(user.createdAt))).toBe(false)
    // Exactly the contract's shape: no extra keys (a password hash would be one).
    expect(() => authResponseSchema.extend({ user: publicUserSchema.strict() }).strict().parse(data)).not.toThrow()
    expect(raw).not.toMatch(/passwordHash|password_hash|pbkdf2/i)
    expect(raw).not.toContain(body.password)
  })

  it('sets the session cookie: HttpOnly, Secure, SameSite=Strict', async () => {
    const res = await call('/api/auth/register', { body: registerBody() })
    expect(res.status).toBe(201)
    const { token } = (await res.json()) as AuthResponse
    expectSessionCookie(res, token)
  })

  it('the returned token is a working session', async () => {
    const { token, user } = await register()
    const res = await me(token)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: unknown }).user).toEqual(user)
  })

  it('trims and lowercases the e-mail, and trims the display name', async () => {
    const local = `Mixed.Case-${crypto.randomUUID().slice(0, 8)}`
    const res = await call('/api/auth/register', {
      body: registerBody({ email: `  ${local}@Example.COM  `, displayName: '  Grace Hopper  ' }),
    })
    expect(res.status).toBe(201)
    const { user } = (await res.json()) as AuthResponse
    expect(user.email).toBe(`${local.toLowerCase()}@example.com`)
    expect(user.displayName).toBe('Grace Hopper')
    expect(user.profile.displayName).toBe('Grace Hopper')

    const row = await env.DB.prepare('SELECT email FROM users WHERE id = ?').bind(user.id).first<{ email: string }>()
    expect(row?.email).toBe(`${local.toLowerCase()}@example.com`)
  })

  it('ignores plan and billing fields sent by the client', async () => {
    const res = await call('/api/auth/register', {
      body: registerBody({ planTier: 'enterprise', stripeCustomerId: 'cus_forged', subscriptionId: 'sub_forged' }),
    })
    expect(res.status).toBe(201)
    const { user } = (await res.json()) as AuthResponse
    expect(user.planTier).toBe('basic')
    expect(user.stripeCustomerId).toBeNull()
    expect(user.stripeSubscriptionId).toBeNull()
    expect(user.billingProvider).toBe('none')
  })

  it('stores a PBKDF2 hash, never the password itself', async () => {
    const { user, password } = await register()
    const row = await env.DB.prepare('SELECT password_hash FROM users WHERE id = ?')
      .bind(user.id)
      .first<{ password_hash: string }>()
    expect(row?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/)
    expect(row?.password_hash).not.toContain(password)
  })

  it('answers 409 for an address that is already registered', async () => {
    const { email } = await register()
    const res = await call('/api/auth/register', { body: registerBody({ email }) })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ message: AUTH_ERRORS.emailTaken })
  })

  it('answers 409 for the same address in different case', async () => {
    const { email } = await register()
    const res = await call('/api/auth/register', { body: registerBody({ email: ` ${email.toUpperCase()} ` }) })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.emailTaken)
    const count = await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?').bind(email).first<{ n: number }>()
    expect(count?.n).toBe(1)
  })

  it('lets exactly one of two concurrent registrations of one address win', async () => {
    const email = uniqueEmail('race')
    const results = await Promise.all([
      call('/api/auth/register', { body: registerBody({ email, displayName: 'First' }) }),
      call('/api/auth/register', { body: registerBody({ email: email.toUpperCase(), displayName: 'Second' }) }),
    ])
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([201, 409])
    const loser = results.find((r) => r.status === 409)!
    expect(await messageOf(loser)).toBe(AUTH_ERRORS.emailTaken)
    const count = await env.DB.prepare('SELECT count(*) AS n FROM users WHERE email = ?').bind(email).first<{ n: number }>()
    expect(count?.n).toBe(1)
  })

  describe('validation', () => {
    it.each([
      ['an invalid e-mail', { email: 'not-an-email' }, `email: ${VALIDATION.invalidEmail}`],
      ['a missing e-mail', { email: undefined }, `email: ${VALIDATION.invalidEmail}`],
      ['a non-string e-mail', { email: 42 }, `email: ${VALIDATION.invalidEmail}`],
      ['an over-long e-mail', { email: `${'a'.repeat(250)}@example.com` }, `email: ${VALIDATION.invalidEmail}`],
      ['a short password', { password: 'short12' }, `password: ${VALIDATION.registerPasswordMin}`],
      ['a missing password', { password: undefined }, `password: ${VALIDATION.registerPasswordMin}`],
      ['an over-long password', { password: 'x'.repeat(257) }, `password: ${VALIDATION.passwordTooLong}`],
      ['a one-letter display name', { displayName: 'A' }, `displayName: ${VALIDATION.displayNameMin}`],
      ['a display name that is short once trimmed', { displayName: '   A   ' }, `displayName: ${VALIDATION.displayNameMin}`],
      ['a missing display name', { displayName: undefined }, `displayName: ${VALIDATION.displayNameMin}`],
    ])('answers 400 for %s and names the field', async (_label, overrides, message) => {
      const res = await call('/api/auth/register', { body: registerBody(overrides) })
      expect(res.status).toBe(400)
      const body = (await res.json()) as { message: string; errors: { field: string; message: string }[] }
      expect(body.message).toBe(message)
      expect(body.errors[0]).toEqual({ field: message.split(':')[0], message: message.split(': ')[1] })
    })

    it('lists every field at fault in `errors`', async () => {
      const res = await call('/api/auth/register', { body: { email: 'nope', password: 'x', displayName: 'A' } })
      expect(res.status).toBe(400)
      const body = (await res.json()) as { message: string; errors: { field: string; message: string }[] }
      expect(body.message).toBe(`email: ${VALIDATION.invalidEmail}`)
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { field: 'email', message: VALIDATION.invalidEmail },
          { field: 'password', message: VALIDATION.registerPasswordMin },
          { field: 'displayName', message: VALIDATION.displayNameMin },
        ]),
      )
    })

    it('does not create an account when validation fails', async () => {
      const email = uniqueEmail()
      const res = await call('/api/auth/register', { body: registerBody({ email, password: 'short' }) })
      expect(res.status).toBe(400)
      const row = await env.DB.prepare('SELECT id FROM users WHERE email = ?').bind(email).first()
      expect(row).toBeNull()
    })

    it('answers 400, never 500, to a POST without a body', async () => {
      const res = await call('/api/auth/register', { method: 'POST' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(`email: ${VALIDATION.invalidEmail}`)
    })

    it('answers 400 with the JSON message to an empty JSON body', async () => {
      const res = await call('/api/auth/register', { method: 'POST', rawBody: '' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(GENERIC_ERRORS.invalidJson)
    })

    it('answers 400 with the JSON message to malformed JSON', async () => {
      const res = await call('/api/auth/register', { rawBody: '{nope' })
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(await res.json()).toEqual({ message: GENERIC_ERRORS.invalidJson })
    })

    it.each([['null'], ['[]'], ['"text"'], ['42']])('answers 400 to the JSON value %s', async (rawBody) => {
      const res = await call('/api/auth/register', { rawBody })
      expect(res.status).toBe(400)
      expect(typeof (await messageOf(res))).toBe('string')
    })
  })

  it('answers 413 to a body over 16 KiB', async () => {
    const res = await call('/api/auth/register', { body: registerBody({ displayName: 'x'.repeat(17 * 1024) }) })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ message: 'The request body is too large.' })
  })

  it('answers 413 to a streamed body over 16 KiB that declares no length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024))
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const req = new Request('http://localhost/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
      body,
    })
    expect(req.headers.get('content-length')).toBeNull()
    const res = await exports.default.fetch(req)
    expect(res.status).toBe(413)
    expect(await messageOf(res)).toBe('The request body is too large.')
  })

  it('lets a body just under 16 KiB through to validation', async () => {
    const filler = 'x'.repeat(15 * 1024)
    const res = await call('/api/auth/register', { body: registerBody({ displayName: filler }) })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe('displayName: Display name must be at most 100 characters')
  })
})

describe('POST /api/auth/login', () => {
  it('answers 200 with a token and the user', async () => {
    const account = await register()
    const res = await login(account.email, account.password)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const data = (await res.json()) as AuthResponse
    expect(data.user).toMatchObject({ id: account.user.id, email: account.email, planTier: 'basic' })
    expect(data.token).not.toBe(account.token)
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|password_hash|pbkdf2/i)
    expect((await me(data.token)).status).toBe(200)
  })

  it('sets the session cookie: HttpOnly, Secure, SameSite=Strict', async () => {
    const account = await register()
    const res = await login(account.email, account.password)
    expect(res.status).toBe(200)
    const { token } = (await res.json()) as AuthResponse
    expectSessionCookie(res, token)
  })

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const account = await register()
    const res = await login(`  ${account.email.toUpperCase()} `, account.password)
    expect(res.status).toBe(200)
    expect(((await res.json()) as AuthResponse).user.id).toBe(account.user.id)
  })

  it('opens a new, independent session at every login', async () => {
    const account = await register()
    const first = (await (await login(account.email, account.password)).json()) as AuthResponse
    const second = (await (await login(account.email, account.password)).json()) as AuthResponse
    expect(first.token).not.toBe(second.token)
    const { n } = (await ownerSessions(account.user.id, 'SELECT count(*) AS n FROM sessions')
      .first<{ n: number }>())!
    expect(n).toBe(3)
  })

  it('answers 401 with one message for a wrong password and for an unknown address', async () => {
    const account = await register()
    const wrongPassword = await login(account.email, 'not the password')
    const unknownEmail = await login(uniqueEmail('nobody'), account.password)
    expect(wrongPassword.status).toBe(401)
    expect(unknownEmail.status).toBe(401)
    const a = await wrongPassword.json()
    const b = await unknownEmail.json()
    expect(a).toEqual({ message: AUTH_ERRORS.invalidCredentials })
    expect(b).toEqual(a)
    expect(wrongPassword.headers.get('set-cookie')).toBeNull()
  })

  it('does not accept the password in a different case', async () => {
    const account = await register({ password: 'Correct Horse Battery' })
    expect((await login(account.email, 'correct horse battery')).status).toBe(401)
  })

  it('checks only the 6-character minimum at login (not the 8 of registration)', async () => {
    const account = await register()
    const res = await login(account.email, 'sixsix')
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.invalidCredentials)
  })

  it('answers 400 to a password shorter than 6 characters', async () => {
    const res = await login(uniqueEmail(), 'five5')
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(`password: ${VALIDATION.loginPasswordMin}`)
  })

  it('answers 400 to an invalid e-mail', async () => {
    const res = await login('not-an-email', 'whatever123')
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(`email: ${VALIDATION.invalidEmail}`)
  })

  it('answers 400 to malformed JSON and 413 to an oversized body', async () => {
    const malformed = await call('/api/auth/login', { rawBody: '{nope' })
    expect(malformed.status).toBe(400)
    expect(await messageOf(malformed)).toBe(GENERIC_ERRORS.invalidJson)

    const oversized = await call('/api/auth/login', { body: { email: uniqueEmail(), password: 'p'.repeat(17 * 1024) } })
    expect(oversized.status).toBe(413)
  })

  it('reports an admin as plan "admin" with an active subscription', async () => {
    const account = await register()
    await env.DB.prepare("UPDATE users SET role = 'admin', subscription_status = NULL WHERE id = ?").bind(account.user.id).run()
    const res = await login(account.email, account.password)
    expect(res.status).toBe(200)
    const { user } = (await res.json()) as AuthResponse
    expect(user.planTier).toBe('admin')
    expect(user.hasActiveSubscription).toBe(true)
  })

  it('answers 403 for a paused account with the right password, 401 with a wrong one', async () => {
    const account = await register()
    await env.DB.prepare('UPDATE users SET paused_at = ? WHERE id = ?').bind(Date.now(), account.user.id).run()
    const right = await login(account.email, account.password)
    expect(right.status).toBe(403)
    expect(await messageOf(right)).toBe(AUTH_ERRORS.accountPaused)
    expect(right.headers.get('set-cookie')).toBeNull()
    // A wrong password must not reveal that the account exists and is paused.
    const wrong = await login(account.email, 'not the password')
    expect(wrong.status).toBe(401)
    expect(await messageOf(wrong)).toBe(AUTH_ERRORS.invalidCredentials)
  })
})
