import { mirrorAccount } from '../../worker/owner/account'
import { Secret, TOTP } from 'otpauth'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { AuthResponse, PublicUser } from '../../contract/auth'
import {
  AUTHENTICATOR,
  AUTHENTICATOR_MESSAGES,
  AUTHENTICATOR_PATHS,
  type AuthenticatorSetup,
  type AuthenticatorSignInResponse,
  type AuthenticatorStatus,
  type RecoveryCodes,
} from '../../contract/authenticator'
import { AUTH_COOKIE, DEVICE_COOKIE, PRODUCT_NAME, SIGN_IN_GUARD } from '../../contract/constants'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { AUTH_ERRORS } from '../../contract/messages'
import { WEBAUTHN_MESSAGES, type SecondFactorResponse } from '../../contract/webauthn'
import { newRecoveryCode, proveWithAuthenticator, hasAuthenticator, recoveryHash } from '../../worker/services/authenticator'
import { issueSignInTicket } from '../../worker/services/sign-in-ticket'
import { signLinkToken } from '../../worker/lib/link-tokens'
import { getDb } from '../../worker/db/client'
import { call, env, freshIp, login, me, messageOf, register, ownerSessions } from './helpers'

// The authenticator app as a second factor (TOTP, RFC 6238) and its recovery codes, through the
// API: codes are computed here with otpauth from the secret the setup answers, as an app would.

const PERIOD_MS = AUTHENTICATOR.periodSeconds * 1000

const totp = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: AUTHENTICATOR.periodSeconds, secret: Secret.fromBase32(secret) })

/** The app's code `steps` time steps from now (-1: the one before, +1: the next). */
const codeAt = (secret: string, steps = 0) => totp(secret).generate({ timestamp: Date.now() + steps * PERIOD_MS })

/**
 * Waits until the current time step has at least a few seconds to run either side, so that a code
 * computed here for a step is the same step when the server checks it (one window away at most).
 */
async function midStep(): Promise<void> {
  const into = Date.now() % PERIOD_MS
  if (into < 2000) await new Promise((r) => setTimeout(r, 2000 - into))
  else if (into > PERIOD_MS - 4000) await new Promise((r) => setTimeout(r, PERIOD_MS - into + 2000))
}

const status = async (token: string) => {
  const res = await call(AUTHENTICATOR_PATHS.status, { token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuthenticatorStatus
}
const setup = async (token: string) => {
  const res = await call(AUTHENTICATOR_PATHS.setup, { method: 'POST', token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuthenticatorSetup
}
const confirm = (token: string, code: unknown) => call(AUTHENTICATOR_PATHS.confirm, { token, body: { code } })
const signInWithCode = (ticket: unknown, code: unknown, options: { cookie?: string } = {}) => call(AUTHENTICATOR_PATHS.signIn, { body: { ticket, code }, ...options })

async function auditOf(token: string): Promise<AuditEntry[]> {
  const res = await call('/api/audit', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as AuditEntry[]
}

/** An owner with the app on: its secret, and the recovery codes confirmation answered. */
async function ownerWithApp() {
  const owner = await register()
  const { secret } = await setup(owner.token)
  await midStep()
  // The code of the step before: the sign-in tests that follow use the current one.
  const res = await confirm(owner.token, codeAt(secret, -1))
  expect(res.status).toBe(200)
  const { recoveryCodes } = (await res.json()) as RecoveryCodes
  return { ...owner, secret, recoveryCodes }
}

/** The password step: for an owner with the app on, the second step and its ticket. */
async function passwordStep(owner: { email: string; password: string }, options: { cookie?: string } = {}): Promise<SecondFactorResponse> {
  const res = await login(owner.email, owner.password, options)
  expect(res.status).toBe(200)
  const body = (await res.json()) as SecondFactorResponse & { token?: string }
  expect(body.token).toBeUndefined()
  expect(body.twoFactorRequired).toBe(true)
  return body
}

const failuresOf = async (email: string) =>
  (await env.DB.prepare('select failures from sign_in_failures where email = ?').bind(email.toLowerCase()).first<{ failures: number }>())?.failures ?? 0

describe('setting up the authenticator app', () => {
  it('gives a 20-byte base32 secret and its otpauth URI, turns on with a first code, and answers ten recovery codes once', async () => {
    const owner = await register()
    expect(await status(owner.token)).toEqual({ enabled: false, confirmedAt: null, recoveryCodesLeft: 0, pending: false })
    expect(owner.user.authenticatorEnabled).toBe(false)

    const answer = await setup(owner.token)
    expect(answer.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(answer).toMatchObject({ issuer: PRODUCT_NAME, accountName: owner.email, algorithm: 'SHA1', digits: 6, period: 30 })
    const uri = new URL(answer.uri)
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.host).toBe('totp')
    expect(decodeURIComponent(uri.pathname)).toBe(`/${PRODUCT_NAME}:${owner.email}`)
    expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: PRODUCT_NAME, secret: answer.secret, algorithm: 'SHA1', digits: '6', period: '30' })
    expect(await status(owner.token)).toMatchObject({ enabled: false, pending: true })

    // A pending secret signs nobody in: the password alone still does.
    const before = await login(owner.email, owner.password)
    expect(((await before.json()) as { token?: string }).token).toBeTruthy()

    // A wrong first code: 400 naming the field, and nothing turned on.
    const wrong = await confirm(owner.token, codeAt(answer.secret, 5))
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({ message: `code: ${AUTHENTICATOR_MESSAGES.wrongConfirmCode}`, errors: [{ field: 'code', message: AUTHENTICATOR_MESSAGES.wrongConfirmCode }] })
    expect((await status(owner.token)).enabled).toBe(false)

    await midStep()
    // Spaces as apps show codes are fine.
    const code = codeAt(answer.secret)
    const res = await confirm(owner.token, `${code.slice(0, 3)} ${code.slice(3)}`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as RecoveryCodes
    expect(body.message).toBe(AUTHENTICATOR_MESSAGES.enabledBody)
    expect(body.recoveryCodes).toHaveLength(AUTHENTICATOR.recoveryCodeCount)
    expect(new Set(body.recoveryCodes).size).toBe(AUTHENTICATOR.recoveryCodeCount)
    for (const c of body.recoveryCodes) expect(c).toMatch(/^[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}-[2-9a-hjkmnp-z]{4}$/)
    expect(body.status).toMatchObject({ enabled: true, recoveryCodesLeft: 10, pending: false })
    expect(Date.parse(body.status.confirmedAt!)).toBeGreaterThan(Date.now() - 60_000)

    // Stored: the secret (needed to check codes) and only hashes of the recovery codes.
    const rows = await env.DB.prepare('select hash, used_at from recovery_codes where user_id = ?').bind(owner.user.id).all<{ hash: string; used_at: number | null }>()
    expect(rows.results).toHaveLength(10)
    const stored = JSON.stringify(rows.results)
    for (const c of body.recoveryCodes) {
      expect(stored).not.toContain(c)
      expect(stored).not.toContain(c.replace(/-/g, ''))
    }
    expect(rows.results.map((r) => r.hash).sort()).toEqual((await Promise.all(body.recoveryCodes.map((c) => recoveryHash(owner.user.id, c)))).sort())

    // The same code again cannot confirm anything (nothing waits), and the public user says it is on.
    expect((await confirm(owner.token, code)).status).toBe(409)
    const user = ((await (await me(owner.token)).json()) as { user: PublicUser }).user
    expect(user.authenticatorEnabled).toBe(true)
    const actions = (await auditOf(owner.token)).map((e) => e.action)
    expect(actions).toContain('account.authenticator_added')
    expect(actions).toContain('account.recovery_codes_created')
    // No audit entry holds a secret or a code.
    const trail = JSON.stringify(await auditOf(owner.token))
    expect(trail).not.toContain(answer.secret)
    for (const c of body.recoveryCodes) expect(trail).not.toContain(c)
  })

  it('replaces a setup still waiting, and refuses one that has expired', async () => {
    const owner = await register()
    const first = await setup(owner.token)
    const second = await setup(owner.token)
    expect(second.secret).not.toBe(first.secret)
    await midStep()
    // The first secret's code no longer confirms anything.
    expect((await confirm(owner.token, codeAt(first.secret))).status).toBe(400)
    await env.DB.prepare('update authenticators set pending_at = ? where user_id = ?').bind(Date.now() - AUTHENTICATOR.pendingTtlMs - 1, owner.user.id).run()
    expect(await status(owner.token)).toMatchObject({ pending: false })
    const expired = await confirm(owner.token, codeAt(second.secret))
    expect(expired.status).toBe(409)
    expect(await messageOf(expired)).toBe(AUTHENTICATOR_MESSAGES.noPendingSetup)
  })

  it('moves to a new phone: the old app works until the new one is confirmed, then only the new one and its new codes', async () => {
    const owner = await ownerWithApp()
    const next = await setup(owner.token)
    expect(await status(owner.token)).toMatchObject({ enabled: true, pending: true })
    await midStep()
    // The old app still signs in while the new one waits.
    expect((await signInWithCode((await passwordStep(owner)).ticket, codeAt(owner.secret))).status).toBe(200)
    const res = await confirm(owner.token, codeAt(next.secret))
    expect(res.status).toBe(200)
    const { recoveryCodes } = (await res.json()) as RecoveryCodes
    expect((await auditOf(owner.token)).find((e) => e.action === 'account.authenticator_added')?.details).toMatchObject({ replaced: true })
    const ticket = (await passwordStep(owner)).ticket
    expect((await signInWithCode(ticket, codeAt(owner.secret, 1))).status).toBe(401)
    expect((await signInWithCode(ticket, owner.recoveryCodes[0])).status).toBe(401)
    expect((await signInWithCode(ticket, codeAt(next.secret, 1))).status).toBe(200)
    expect((await signInWithCode(ticket, recoveryCodes[0])).status).toBe(200)
  })

  it('refuses bad bodies with 400 and the contract’s words', async () => {
    const owner = await register()
    await setup(owner.token)
    for (const code of ['12345', '1234567', 'abcdef', '', 123456, null, 'abcd-efgh-jkmn']) {
      const res = await confirm(owner.token, code)
      expect(res.status, String(code)).toBe(400)
      expect(await messageOf(res)).toBe(`code: ${AUTHENTICATOR_MESSAGES.codeInvalid}`)
    }
    expect((await call(AUTHENTICATOR_PATHS.confirm, { token: owner.token, body: {} })).status).toBe(400)
    const ticket = await issueSignInTicket(env, owner.user.id)
    for (const code of ['12345', 'abcd-efgh-jkm', 'abcd-efgh-jkm0', 'x'.repeat(65), 42]) {
      const res = await signInWithCode(ticket, code)
      expect(res.status, String(code)).toBe(400)
      expect(await messageOf(res)).toBe(`code: ${AUTHENTICATOR_MESSAGES.codeOrRecoveryInvalid}`)
    }
    for (const bad of [undefined, '', 'x'.repeat(2049)]) {
      const res = await signInWithCode(bad, '123456')
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toMatch(/^ticket: /)
    }
    const form = await call(AUTHENTICATOR_PATHS.signIn, { rawBody: 'ticket=x&code=123456', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(form.status).toBe(415)
  })

  it('needs a session for everything but the sign-in step', async () => {
    for (const [path, method] of [
      [AUTHENTICATOR_PATHS.status, 'GET'],
      [AUTHENTICATOR_PATHS.setup, 'POST'],
      [AUTHENTICATOR_PATHS.status, 'DELETE'],
      [AUTHENTICATOR_PATHS.recoveryCodes, 'POST'],
    ] as const) {
      expect((await call(path, { method })).status, `${method} ${path}`).toBe(401)
    }
    expect((await call(AUTHENTICATOR_PATHS.confirm, { body: { code: '123456' } })).status).toBe(401)
  })
})

describe('signing in with the authenticator app', () => {
  it('asks for a code after the right password, and a current code signs in', async () => {
    const owner = await ownerWithApp()
    const step = await passwordStep(owner)
    expect(step).toMatchObject({ twoFactorRequired: true, methods: ['authenticator'], message: AUTHENTICATOR_MESSAGES.secondFactorPrompt })
    expect(step.options).toBeUndefined()
    expect(step.ticket).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    // The ticket alone is no session.
    expect((await me(step.ticket!)).status).toBe(401)

    const res = await signInWithCode(step.ticket, codeAt(owner.secret))
    expect(res.status).toBe(200)
    const body = (await res.json()) as AuthenticatorSignInResponse
    expect(body.method).toBe('authenticator')
    expect(body.recoveryCodesLeft).toBeUndefined()
    expect(body.user).toMatchObject({ id: owner.user.id, authenticatorEnabled: true })
    expect((await me(body.token)).status).toBe(200)
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${AUTH_COOKIE}=${body.token}`))).toBe(true)
    const signedIn = (await auditOf(body.token)).find((e) => e.action === 'account.signed_in')
    expect(signedIn?.details).toMatchObject({ method: 'authenticator' })
  })

  it("a stranger's wrong codes never hold the owner at the code step in their usual browser", async () => {
    const owner = await ownerWithApp()
    await midStep()
    const first = await signInWithCode((await passwordStep(owner)).ticket, codeAt(owner.secret))
    expect(first.status).toBe(200)
    const usual = first.headers.getSetCookie().find((c) => c.startsWith('known_device='))!.split(';')[0]!
    // Someone else, with the password, guesses codes until the account is held.
    const theirs = await passwordStep(owner)
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) await signInWithCode(theirs.ticket, codeAt(owner.secret, 3))
    expect((await signInWithCode(theirs.ticket, codeAt(owner.secret, 1))).status).toBe(429)
    // The owner's usual browser still gets through both steps.
    const mine = await passwordStep(owner, { cookie: usual })
    expect((await signInWithCode(mine.ticket, codeAt(owner.secret, 1), { cookie: usual })).status).toBe(200)
  }, 20_000)

  it('refuses a wrong code with 401, counts it like a wrong password, and holds the account after a few', async () => {
    const owner = await ownerWithApp()
    const { ticket } = await passwordStep(owner)
    const wrong = codeAt(owner.secret, 3)
    const res = await signInWithCode(ticket, wrong)
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(AUTHENTICATOR_MESSAGES.wrongCode)
    expect(await failuresOf(owner.email)).toBe(1)
    expect((await auditOf(owner.token)).find((e) => e.action === 'account.authenticator_failed')?.details).toMatchObject({ reason: 'invalid' })

    // A right password does not forgive wrong codes: a new ticket carries on counting.
    const again = await passwordStep(owner)
    expect(await failuresOf(owner.email)).toBe(1)
    for (let i = 1; i < SIGN_IN_GUARD.freeFailures; i++) expect((await signInWithCode(again.ticket, codeAt(owner.secret, 3))).status).toBe(401)
    expect(await failuresOf(owner.email)).toBe(SIGN_IN_GUARD.freeFailures)
    // Held: even the right code waits, and so does the password.
    const held = await signInWithCode(again.ticket, codeAt(owner.secret))
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(AUTH_ERRORS.rateLimited)
    expect((await login(owner.email, owner.password)).status).toBe(429)

    // Once the hold is over, the right code signs in and the count is forgotten.
    await env.DB.prepare('update sign_in_failures set held_until = ? where email = ?').bind(Date.now() - 1, owner.email.toLowerCase()).run()
    await midStep()
    expect((await signInWithCode(again.ticket, codeAt(owner.secret))).status).toBe(200)
    expect(await failuresOf(owner.email)).toBe(0)
  })

  it("a hold on the account never stops the code step in a browser that has signed in to it before: a stranger's wrong passwords cannot lock the owner out", async () => {
    const owner = await ownerWithApp()
    await midStep()
    const first = await signInWithCode((await passwordStep(owner)).ticket, codeAt(owner.secret))
    expect(first.status).toBe(200)
    const mark = first.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))
    expect(mark).toBeTruthy()
    const usual = mark!.split(';')[0]!
    // A stranger elsewhere guesses the password until the account is held.
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) expect((await login(owner.email, 'a stranger guessing', { ip: freshIp() })).status).toBe(401)
    expect((await login(owner.email, owner.password)).status).toBe(429)
    // In the usual browser the password step goes through; its ticket's code step, sent from
    // another browser, waits out the hold, and from the usual browser signs in.
    const { ticket } = await passwordStep(owner, { cookie: usual })
    expect((await signInWithCode(ticket, codeAt(owner.secret, 1))).status).toBe(429)
    expect((await signInWithCode(ticket, codeAt(owner.secret, 1), { cookie: usual })).status).toBe(200)
  })

  it('accepts each code once: the same code, or an older one, is refused after it', async () => {
    const owner = await ownerWithApp()
    await midStep()
    const { ticket } = await passwordStep(owner)
    const now = codeAt(owner.secret)
    expect((await signInWithCode(ticket, now)).status).toBe(200)
    const replay = await signInWithCode(ticket, now)
    expect(replay.status).toBe(401)
    expect(await messageOf(replay)).toBe(AUTHENTICATOR_MESSAGES.codeAlreadyUsed)
    // The next step's code (a phone a little ahead) is fine, and then the current one is too old.
    expect((await signInWithCode(ticket, codeAt(owner.secret, 1))).status).toBe(200)
    expect((await signInWithCode(ticket, now)).status).toBe(401)
    // Two requests with one fresh code at once: one session, not two.
    const secret = owner.secret
    await env.DB.prepare('update authenticators set last_step = last_step - 3 where user_id = ?').bind(owner.user.id).run()
    const racing = await Promise.all([signInWithCode(ticket, codeAt(secret)), signInWithCode(ticket, codeAt(secret))])
    expect(racing.map((r) => r.status).sort()).toEqual([200, 401])
    // Codes outside the window of one step either side are refused.
    expect((await signInWithCode(ticket, codeAt(secret, 2))).status).toBe(401)
    expect((await signInWithCode(ticket, codeAt(secret, -2))).status).toBe(401)
  })

  it('takes each recovery code once, in any case and with or without dashes, and says how many are left', async () => {
    const owner = await ownerWithApp()
    const { ticket } = await passwordStep(owner)
    const [first, second] = owner.recoveryCodes as [string, string]
    const res = await signInWithCode(ticket, ` ${first.toUpperCase()} `)
    expect(res.status).toBe(200)
    const body = (await res.json()) as AuthenticatorSignInResponse
    expect(body).toMatchObject({ method: 'recovery_code', recoveryCodesLeft: 9 })
    expect((await me(body.token)).status).toBe(200)
    const used = await signInWithCode(ticket, first)
    expect(used.status).toBe(401)
    expect(await messageOf(used)).toBe(AUTHENTICATOR_MESSAGES.wrongCode)
    expect((await signInWithCode(ticket, second.replace(/-/g, ''))).status).toBe(200)
    expect(await status(owner.token)).toMatchObject({ recoveryCodesLeft: 8 })
    // A well-formed code the owner was never given.
    expect((await signInWithCode(ticket, newRecoveryCode())).status).toBe(401)
    const entries = await auditOf(owner.token)
    expect(entries.filter((e) => e.action === 'account.recovery_code_used').map((e) => e.details.left).sort()).toEqual([8, 9])
    expect(entries.filter((e) => e.action === 'account.signed_in').some((e) => e.details.method === 'recovery_code')).toBe(true)
  })

  it('refuses forged, expired and foreign tickets, and tickets of an owner whose app was turned off', async () => {
    const owner = await ownerWithApp()
    const code = codeAt(owner.secret)
    const { SignJWT } = await import('jose')
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(owner.user.id)
      .setIssuer('legacy-vault')
      .setAudience('legacy-vault:second-factor')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('not the secret'))
    const device = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(owner.user.id)
      .setIssuer('legacy-vault')
      .setAudience('legacy-vault:device')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(env.JWT_SECRET))
    const expired = await issueSignInTicket(env, owner.user.id, Date.now() - AUTHENTICATOR.ticketTtlSeconds * 1000 - 1000)
    const nobody = await issueSignInTicket(env, crypto.randomUUID())
    for (const [label, ticket] of [
      ['forged', forged],
      ['another purpose', device],
      ['expired', expired],
      ['nobody', nobody],
      ['garbage', 'a.b.c'],
    ] as const) {
      const res = await signInWithCode(ticket, code)
      expect(res.status, label).toBe(401)
      expect(await messageOf(res)).toBe(AUTHENTICATOR_MESSAGES.ticketInvalid)
    }
    // None of those counted against the owner, and the code is still unused.
    expect(await failuresOf(owner.email)).toBe(0)
    const { ticket } = await passwordStep(owner)
    expect((await call(AUTHENTICATOR_PATHS.status, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const off = await signInWithCode(ticket, code)
    expect(off.status).toBe(401)
    expect(await messageOf(off)).toBe(AUTHENTICATOR_MESSAGES.ticketInvalid)
  })

  it('offers both second factors to an owner with the app and security keys, and the key step still takes its options', async () => {
    const owner = await ownerWithApp()
    await env.DB.prepare(
      `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at) values (?, ?, 'Key', 'pQECAyYgASFYIA', 0, '["usb"]', 'singleDevice', 0, ?)`,
    )
      .bind(crypto.randomUUID().replace(/-/g, ''), owner.user.id, Date.now())
      .run()
    const step = await passwordStep(owner)
    expect(step).toMatchObject({ methods: ['authenticator', 'security_key'], message: AUTHENTICATOR_MESSAGES.secondFactorPromptWithKey })
    expect(step.options?.allowCredentials).toHaveLength(1)
    expect(step.ticket).toBeTruthy()
    // Security keys alone (two-factor switch on, no app) answer as before: options, no ticket.
    const keysOnly = await register()
    await env.DB.prepare(
      `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at) values (?, ?, 'Key', 'pQECAyYgASFYIA', 0, '["usb"]', 'singleDevice', 0, ?)`,
    )
      .bind(crypto.randomUUID().replace(/-/g, ''), keysOnly.user.id, Date.now())
      .run()
    await env.DB.prepare('update users set two_factor_enabled = 1 where id = ?').bind(keysOnly.user.id).run()
    await mirrorAccount(keysOnly.user.id)
    const keyStep = await passwordStep(keysOnly)
    expect(keyStep).toMatchObject({ methods: ['security_key'], message: WEBAUTHN_MESSAGES.secondFactorPrompt })
    expect(keyStep.options).toBeTruthy()
    expect(keyStep.ticket).toBeUndefined()
    // A ticket is no use to an owner without the app.
    expect((await signInWithCode(await issueSignInTicket(env, keysOnly.user.id), '123456')).status).toBe(401)
  })

  it('refuses a paused account at the code step', { timeout: 20_000 }, async () => {
    const owner = await ownerWithApp()
    const { ticket } = await passwordStep(owner)
    await env.DB.prepare('update users set paused_at = ? where id = ?').bind(Date.now(), owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const res = await signInWithCode(ticket, codeAt(owner.secret))
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.accountPaused)
  })
})

describe('recovery codes, turning off, and other owners', () => {
  it('makes a new set that replaces every earlier code', async () => {
    const owner = await ownerWithApp()
    const res = await call(AUTHENTICATOR_PATHS.recoveryCodes, { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    const body = (await res.json()) as RecoveryCodes
    expect(body.recoveryCodes).toHaveLength(10)
    expect(body.recoveryCodes.some((c) => owner.recoveryCodes.includes(c))).toBe(false)
    expect(body.status).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
    const { ticket } = await passwordStep(owner)
    expect((await signInWithCode(ticket, owner.recoveryCodes[1])).status).toBe(401)
    expect((await signInWithCode(ticket, body.recoveryCodes[1])).status).toBe(200)
    expect((await auditOf(owner.token)).filter((e) => e.action === 'account.recovery_codes_created')).toHaveLength(2)
  })

  it('turns off: the password alone signs in again, and nothing of the app is kept', async () => {
    const owner = await ownerWithApp()
    const res = await call(AUTHENTICATOR_PATHS.status, { method: 'DELETE', token: owner.token })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ message: AUTHENTICATOR_MESSAGES.disabledBody, status: { enabled: false, recoveryCodesLeft: 0 } })
    const again = await login(owner.email, owner.password)
    expect(((await again.json()) as AuthResponse).token).toBeTruthy()
    for (const table of ['authenticators', 'recovery_codes']) {
      const row = await env.DB.prepare(`select count(*) as n from ${table} where user_id = ?`).bind(owner.user.id).first<{ n: number }>()
      expect(row?.n, table).toBe(0)
    }
    expect((await auditOf(owner.token)).some((e) => e.action === 'account.authenticator_removed')).toBe(true)
    // Nothing left to turn off, and no codes to make.
    expect((await call(AUTHENTICATOR_PATHS.status, { method: 'DELETE', token: owner.token })).status).toBe(404)
    expect((await call(AUTHENTICATOR_PATHS.recoveryCodes, { method: 'POST', token: owner.token })).status).toBe(404)
  })

  it('keeps owners apart: another owner sees nothing, changes nothing, and cannot use the codes', async () => {
    const a = await ownerWithApp()
    const b = await register()
    expect(await status(b.token)).toMatchObject({ enabled: false, recoveryCodesLeft: 0 })
    expect((await call(AUTHENTICATOR_PATHS.status, { method: 'DELETE', token: b.token })).status).toBe(404)
    expect((await call(AUTHENTICATOR_PATHS.recoveryCodes, { method: 'POST', token: b.token })).status).toBe(404)
    expect((await confirm(b.token, codeAt(a.secret))).status).toBe(409)
    expect(await status(a.token)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
    // B turns on an app of their own: A's codes are no use on B's ticket, and the other way round.
    const bApp = await setup(b.token)
    await midStep()
    expect((await confirm(b.token, codeAt(bApp.secret))).status).toBe(200)
    const bTicket = (await passwordStep(b)).ticket
    expect((await signInWithCode(bTicket, a.recoveryCodes[0])).status).toBe(401)
    expect((await signInWithCode(bTicket, codeAt(a.secret, 1))).status).toBe(401)
    expect(await status(a.token)).toMatchObject({ recoveryCodesLeft: 10 })
  })
})

describe('fresh proof', () => {
  const staleProof = (userId: string) =>
    ownerSessions(userId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
  const expectProofRequired = async (res: Response) => {
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ message: FRESH_PROOF_MESSAGES.required, requiresFreshProof: true, methods: expect.arrayContaining(['password']) })
  }

  it('a stale session cannot start a setup, turn the app off or make recovery codes; confirming a setup needs none', async () => {
    const owner = await register()
    // A setup started while the proof was fresh is confirmed after it went stale: only its starter has the secret.
    const { secret } = await setup(owner.token)
    await staleProof(owner.user.id)
    await expectProofRequired(await call(AUTHENTICATOR_PATHS.setup, { method: 'POST', token: owner.token }))
    await midStep()
    const res = await confirm(owner.token, codeAt(secret, -1))
    expect(res.status).toBe(200)
    const { recoveryCodes } = (await res.json()) as RecoveryCodes

    await expectProofRequired(await call(AUTHENTICATOR_PATHS.recoveryCodes, { method: 'POST', token: owner.token }))
    await expectProofRequired(await call(AUTHENTICATOR_PATHS.status, { method: 'DELETE', token: owner.token }))
    await expectProofRequired(await call(AUTHENTICATOR_PATHS.setup, { method: 'POST', token: owner.token }))
    // Nothing changed: the app is on, its codes still work, no setup waits.
    expect(await status(owner.token)).toMatchObject({ enabled: true, recoveryCodesLeft: 10, pending: false })
    const { ticket } = await passwordStep(owner)
    expect((await signInWithCode(ticket, recoveryCodes[0])).status).toBe(200)

    // The password given again lets the same session do them.
    expect((await call('/api/auth/fresh-proof', { token: owner.token, body: { method: 'password', password: owner.password } })).status).toBe(200)
    expect((await call(AUTHENTICATOR_PATHS.recoveryCodes, { method: 'POST', token: owner.token })).status).toBe(200)
    expect((await call(AUTHENTICATOR_PATHS.status, { method: 'DELETE', token: owner.token })).status).toBe(200)
  })
})

describe('proveWithAuthenticator (for fresh proof)', () => {
  it('takes a current code or an unused recovery code, once each', async () => {
    const owner = await ownerWithApp()
    const db = getDb(env)
    expect(await hasAuthenticator(db, owner.user.id)).toBe(true)
    expect(await hasAuthenticator(db, (await register()).user.id)).toBe(false)
    const now = Date.now()
    const code = totp(owner.secret).generate({ timestamp: now })
    expect(await proveWithAuthenticator(db, owner.user.id, code, now)).toBe('ok')
    expect(await proveWithAuthenticator(db, owner.user.id, code, now)).toBe('invalid')
    expect(await proveWithAuthenticator(db, owner.user.id, totp(owner.secret).generate({ timestamp: now + PERIOD_MS }), now + PERIOD_MS)).toBe('ok')
    expect(await proveWithAuthenticator(db, owner.user.id, owner.recoveryCodes[2]!, now)).toBe('ok')
    expect(await proveWithAuthenticator(db, owner.user.id, owner.recoveryCodes[2]!, now)).toBe('invalid')
    expect(await proveWithAuthenticator(db, owner.user.id, 'not a code', now)).toBe('invalid')
    // Checked against the time given: a code of an hour ago is no proof now.
    const old = totp(owner.secret).generate({ timestamp: now - 3600_000 })
    expect(await proveWithAuthenticator(db, owner.user.id, old, now + 2 * PERIOD_MS)).toBe('invalid')
  })
})

describe('the authenticator app as fresh proof, and "This wasn’t me"', () => {
  const stale = (userId: string) => ownerSessions(userId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
  const prove = (token: string, code: string) => call('/api/auth/fresh-proof', { token, body: { method: 'authenticator', code } })

  it('a code or a recovery code proves it; a wrong or replayed one does not and is counted', async () => {
    const owner = await register()
    await midStep()
    const { secret } = await setup(owner.token)
    const { recoveryCodes } = (await (await confirm(owner.token, codeAt(secret))).json()) as { recoveryCodes: string[] }
    await stale(owner.user.id)
    const refused = await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 24 } })
    expect(((await refused.json()) as { methods: string[] }).methods).toEqual(['password', 'authenticator'])

    const wrong = await prove(owner.token, '000000')
    expect(wrong.status).toBe(401)
    expect(await messageOf(wrong)).toBe(FRESH_PROOF_MESSAGES.codeWrong)
    // The confirming code's step was used: the same code is a replay.
    expect((await prove(owner.token, codeAt(secret))).status).toBe(401)
    expect((await prove(owner.token, recoveryCodes[0]!)).status).toBe(200)
    expect((await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 24 } })).status).toBe(200)
    await stale(owner.user.id)
    expect((await prove(owner.token, recoveryCodes[0]!)).status).toBe(401)
    const failures = await env.DB.prepare('select failures from sign_in_failures where email = ?').bind(owner.email.toLowerCase()).first<{ failures: number }>()
    expect(failures?.failures).toBeGreaterThan(0)
  }, 20_000)

  it('while the account is held after failed attempts, fresh proof by authenticator code is refused too: a stolen session cannot guess codes past the hold', async () => {
    const owner = await register()
    await midStep()
    const { secret } = await setup(owner.token)
    const { recoveryCodes } = (await (await confirm(owner.token, codeAt(secret))).json()) as { recoveryCodes: string[] }
    await stale(owner.user.id)
    let last = await prove(owner.token, '000000')
    for (let i = 0; i < 8 && last.status !== 429; i++) last = await prove(owner.token, String(100000 + i))
    expect(last.status).toBe(429)
    // Held: an unused recovery code, which would prove it otherwise, waits too, and is not used up.
    expect((await prove(owner.token, recoveryCodes[1]!)).status).toBe(429)
    const still = await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 24 } })
    expect(still.status).toBe(403)
    expect(await still.json()).toMatchObject({ requiresFreshProof: true })
    await env.DB.prepare('delete from sign_in_failures where email = ?').bind(owner.email.toLowerCase()).run()
    expect((await prove(owner.token, recoveryCodes[1]!)).status).toBe(200)
  }, 20_000)

  it('an app set up after the sign-in that "This wasn’t me" names is removed with its recovery codes; one set up before stays', async () => {
    const owner = await register()
    await midStep()
    const { secret } = await setup(owner.token)
    expect((await confirm(owner.token, codeAt(secret))).status).toBe(200)
    const since = Date.now() + 1
    const keep = await call('/api/auth/not-me', { body: { token: signLinkToken(env, 'notMe', owner.user.id, { owner: owner.user.id, nonce: String(since) }) } })
    expect(await keep.json()).toMatchObject({ authenticatorRemoved: false })
    expect(await hasAuthenticator(getDb(env), owner.user.id)).toBe(true)

    const earlier = await call('/api/auth/not-me', { body: { token: signLinkToken(env, 'notMe', owner.user.id, { owner: owner.user.id, nonce: String(since - 60_000) }) } })
    expect(await earlier.json()).toMatchObject({ authenticatorRemoved: true, message: expect.stringContaining('the authenticator app') })
    expect(await hasAuthenticator(getDb(env), owner.user.id)).toBe(false)
    expect((await env.DB.prepare('select count(*) as n from recovery_codes where user_id = ?').bind(owner.user.id).first<{ n: number }>())!.n).toBe(0)
  }, 20_000)
})
