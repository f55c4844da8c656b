import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { DEVICE_COOKIE, SIGN_IN_GUARD } from '../../contract/constants'
import { runSweeps } from '../../worker/cron'
import { addressNonce, signLinkToken } from '../../worker/lib/link-tokens'
import { AUTH_ERRORS } from '../../contract/messages'
import { call, callSettled, freshIp, login, messageOf, outboxFor, register, uniqueEmail, type CallOptions } from './helpers'

// The limiters (wrangler.toml) count in fixed windows aligned to the wall clock, so a burst may
// straddle a window boundary. 2 × limit + 5 attempts are then still enough to meet a 429.
const LOGIN_LIMIT = 10
const SIGNUP_LIMIT = 20
const RESET_LIMIT = 5

interface Burst {
  statuses: number[]
  firstLimited: number
  limited: Response
}

/** The "known device" cookie a sign-in sets, as a Cookie header. */
function deviceCookie(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))
  if (!set) throw new Error(`no ${DEVICE_COOKIE} cookie (status ${res.status})`)
  return set.split(';')[0]!
}

/** Sends `attempts` requests one after another; returns every status and the first 429. */
async function burst(attempts: number, send: (i: number) => Promise<Response>): Promise<Burst> {
  const statuses: number[] = []
  let limited: Response | undefined
  for (let i = 0; i < attempts; i++) {
    const res = await send(i)
    statuses.push(res.status)
    if (res.status === 429 && !limited) limited = res
    else await res.body?.cancel()
  }
  const firstLimited = statuses.indexOf(429)
  if (!limited) throw new Error(`no 429 in ${attempts} attempts: ${statuses.join(',')}`)
  return { statuses, firstLimited, limited }
}

async function expectRateLimited(b: Burst, allowedStatus: number) {
  expect(b.limited.status).toBe(429)
  expect(await b.limited.json()).toEqual({ message: AUTH_ERRORS.rateLimited })
  const before = b.statuses.slice(0, b.firstLimited)
  expect(before.length).toBeGreaterThanOrEqual(5)
  expect(before.every((s) => s === allowedStatus)).toBe(true)
}

describe('rate limits', () => {
  it('limits login attempts per client address', async () => {
    const ip = freshIp()
    const b = await burst(2 * LOGIN_LIMIT + 5, () => login(uniqueEmail('guess'), 'wrong password', { ip }))
    await expectRateLimited(b, 401)
    // Another address is not blocked by the first one's burst.
    const other = await login(uniqueEmail('guess'), 'wrong password', { ip: freshIp() })
    expect(other.status).toBe(401)
  })

  it('limits login attempts per account, whatever the address', async () => {
    const account = await register()
    const b = await burst(2 * LOGIN_LIMIT + 5, () => login(account.email, 'wrong password'))
    await expectRateLimited(b, 401)
    // While limited, even the right password is turned away, and in any case of the address.
    const right = await login(account.email.toUpperCase(), account.password)
    expect(right.status).toBe(429)
    expect(await messageOf(right)).toBe(AUTH_ERRORS.rateLimited)
    // Another account is unaffected.
    const other = await register()
    expect((await login(other.email, other.password)).status).toBe(200)
  })

  it("a stranger's 12 wrong tries from 12 addresses cannot stop the owner signing in from their usual browser", async () => {
    const owner = await register()
    const usual = deviceCookie(await login(owner.email, owner.password))
    const tries = []
    for (let i = 0; i < 12; i++) tries.push((await login(owner.email, 'a stranger guessing', { ip: freshIp() })).status)
    expect(tries.slice(0, SIGN_IN_GUARD.freeFailures)).toEqual(Array(SIGN_IN_GUARD.freeFailures).fill(401))
    expect(tries.slice(SIGN_IN_GUARD.freeFailures).every((s) => s === 429)).toBe(true)
    // Elsewhere the right password waits out the hold; in the usual browser it signs in.
    expect((await login(owner.email, owner.password)).status).toBe(429)
    expect((await login(owner.email, owner.password, { cookie: usual })).status).toBe(200)
    // Another account's browser, or a forged mark, is no usual browser.
    const other = await register()
    const theirs = deviceCookie(await login(other.email, other.password))
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) await login(owner.email, 'a stranger guessing')
    expect((await login(owner.email, owner.password, { cookie: theirs })).status).toBe(429)
    expect((await login(owner.email, owner.password, { cookie: `${usual}x` })).status).toBe(429)
  })

  it("the known-device cookie accepts only a token made for that purpose: the same owner's check-in or confirmation token is no usual browser", async () => {
    const owner = await register()
    const usual = deviceCookie(await login(owner.email, owner.password))
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) await login(owner.email, 'a stranger guessing', { ip: freshIp() })
    // Tokens the app signs with the same key, for the same owner, for other purposes.
    const otherPurposes = [
      signLinkToken(env, 'checkIn', owner.user.id, { owner: owner.user.id }),
      signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: owner.user.id, nonce: addressNonce(env, owner.email) }),
      signLinkToken(env, 'notMe', owner.user.id, { owner: owner.user.id, nonce: String(Date.now()) }),
    ]
    for (const token of otherPurposes) {
      expect((await login(owner.email, owner.password, { cookie: `${DEVICE_COOKIE}=${token}` })).status).toBe(429)
    }
    expect((await login(owner.email, owner.password, { cookie: usual })).status).toBe(200)
  })

  it('a browser that signed in during the very second its account trusts browsers from is still a usual browser; one from the second before is not', async () => {
    const owner = await register()
    const usual = deviceCookie(await login(owner.email, owner.password))
    // Device cookies are dated in whole seconds: "This wasn't me" trusts browsers from a whole second on.
    const issuedAt = decodeJwt(usual.slice(usual.indexOf('=') + 1)).iat! * 1000
    const trustFrom = (at: number) => env.DB.prepare('update users set devices_trusted_from = ? where id = ?').bind(at, owner.user.id).run()
    await trustFrom(issuedAt)
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) await login(owner.email, 'a stranger guessing', { ip: freshIp() })
    expect((await login(owner.email, owner.password)).status).toBe(429)
    expect((await login(owner.email, owner.password, { cookie: usual })).status).toBe(200)
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) await login(owner.email, 'a stranger guessing', { ip: freshIp() })
    await trustFrom(issuedAt + 1000)
    expect((await login(owner.email, owner.password, { cookie: usual })).status).toBe(429)
  })

  it('counts failed sign-ins only: the right password, many times over, is never held', async () => {
    const owner = await register()
    for (let i = 0; i < 3 * SIGN_IN_GUARD.freeFailures; i++) expect((await login(owner.email, owner.password)).status).toBe(200)
    // A success forgets the failures before it.
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures - 1; i++) expect((await login(owner.email, 'wrong password')).status).toBe(401)
    expect((await login(owner.email, owner.password)).status).toBe(200)
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures - 1; i++) expect((await login(owner.email, 'wrong password')).status).toBe(401)
    expect((await login(owner.email, owner.password)).status).toBe(200)
  })

  it('backs off: each failure after a hold ends holds the account twice as long', async () => {
    const owner = await register()
    const row = () => env.DB.prepare('select failures, last_failure_at as at, held_until as until from sign_in_failures where email = ?').bind(owner.email).first<{ failures: number; at: number; until: number | null }>()
    for (let i = 0; i < SIGN_IN_GUARD.freeFailures; i++) await login(owner.email, 'wrong password')
    const first = (await row())!
    expect(first.failures).toBe(SIGN_IN_GUARD.freeFailures)
    expect(first.until! - first.at).toBe(SIGN_IN_GUARD.firstHoldMs)
    for (const factor of [2, 4]) {
      // The hold has run out: one more failure holds it again, for longer.
      await env.DB.prepare('update sign_in_failures set held_until = ? where email = ?').bind(Date.now() - 1, owner.email).run()
      expect((await login(owner.email, 'wrong password')).status).toBe(401)
      const next = (await row())!
      expect(next.until! - next.at).toBe(factor * SIGN_IN_GUARD.firstHoldMs)
      expect((await login(owner.email, owner.password)).status).toBe(429)
    }
    // The sweep forgets failures a quiet day old once no hold runs, and no sooner.
    await runSweeps(env, Date.now() + SIGN_IN_GUARD.forgetAfterMs / 2)
    expect(await row()).not.toBeNull()
    await runSweeps(env, Date.now() + SIGN_IN_GUARD.forgetAfterMs + SIGN_IN_GUARD.maxHoldMs)
    expect(await row()).toBeNull()
  })

  it('limits registrations per client address', async () => {
    const ip = freshIp()
    const b = await burst(2 * SIGNUP_LIMIT + 5, () =>
      call('/api/auth/register', { ip, body: { email: uniqueEmail('burst'), password: 'correct horse battery', displayName: 'Burst' } }),
    )
    await expectRateLimited(b, 201)
    const other = await call('/api/auth/register', {
      ip: freshIp(),
      body: { email: uniqueEmail('calm'), password: 'correct horse battery', displayName: 'Calm' },
    })
    expect(other.status).toBe(201)
  })

  it('limits password-reset requests per client address', async () => {
    const ip = freshIp()
    const b = await burst(2 * RESET_LIMIT + 5, () =>
      call('/api/auth/forgot-password', { ip, body: { email: uniqueEmail('forgot') } }),
    )
    await expectRateLimited(b, 200)
    const other = await call('/api/auth/forgot-password', { ip: freshIp(), body: { email: uniqueEmail('forgot') } })
    expect(other.status).toBe(200)
  })

  it('limits reset e-mails per account, whatever the address, without an answer that tells the account exists; never in the owner\'s usual browser', async () => {
    const account = await register()
    const resetMails = async () => (await outboxFor(account.email)).filter((m) => m.subject.startsWith('Reset your')).length
    // Each from its own address (the per-address limit stays out of it), each waited for to the end.
    const answers: string[] = []
    for (let i = 0; i < 2 * RESET_LIMIT + 5; i++) {
      const res = await callSettled('/api/auth/forgot-password', { body: { email: account.email } })
      expect(res.status).toBe(200)
      answers.push(await res.text())
    }
    // One answer for all (a 429 here would say the address has an account), and the mail bounded:
    // one window's worth, or two if the burst straddled a window boundary.
    expect(new Set(answers).size).toBe(1)
    const sent = await resetMails()
    expect(sent).toBeGreaterThanOrEqual(RESET_LIMIT)
    expect(sent).toBeLessThanOrEqual(2 * RESET_LIMIT)
    // The owner's own browser is not held by a stranger's flood.
    const usual = deviceCookie(await login(account.email, account.password))
    expect((await callSettled('/api/auth/forgot-password', { cookie: usual, body: { email: account.email } })).status).toBe(200)
    expect(await resetMails()).toBe(sent + 1)
  })

  it('limits reset attempts per client address', async () => {
    const ip = freshIp()
    const options = (): CallOptions => ({ ip, body: { token: crypto.randomUUID(), password: 'a brand new passphrase' } })
    const b = await burst(2 * RESET_LIMIT + 5, () => call('/api/auth/reset-password', options()))
    await expectRateLimited(b, 400)
  })

  it('limits security-key sign-in per client address, its options and its answers counted as one', async () => {
    const b64 = (text: string) => btoa(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
    const answer = { id: b64('no such key'), rawId: b64('no such key'), type: 'public-key', response: { clientDataJSON: b64('{}'), authenticatorData: b64('data'), signature: b64('sig') } }
    const options = (ip: string) => call('/api/auth/webauthn/login/options', { ip, method: 'POST' })
    const verify = (ip: string) => call('/api/auth/webauthn/login/verify', { ip, body: { response: answer } })

    const ip = freshIp()
    await expectRateLimited(await burst(2 * LOGIN_LIMIT + 5, () => options(ip)), 200)
    // The answers share the limit the options just used up.
    const shared = await verify(ip)
    expect(shared.status).toBe(429)
    expect(await messageOf(shared)).toBe(AUTH_ERRORS.rateLimited)

    const other = freshIp()
    const answers = await burst(2 * LOGIN_LIMIT + 5, () => verify(other))
    expect(answers.limited.status).toBe(429)
    expect(answers.statuses.slice(0, answers.firstLimited).every((s) => s === 400 || s === 401)).toBe(true)
    expect((await options(freshIp())).status).toBe(200)
  })

  it('does not limit signed-in requests such as /me', async () => {
    const account = await register()
    const ip = freshIp()
    for (let i = 0; i < 2 * LOGIN_LIMIT + 5; i++) {
      const res = await call('/api/auth/me', { ip, token: account.token })
      expect(res.status).toBe(200)
      await res.body?.cancel()
    }
  })
})
