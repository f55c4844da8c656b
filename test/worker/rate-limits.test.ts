import { describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from '../../contract/messages'
import { call, freshIp, login, messageOf, register, uniqueEmail, type CallOptions } from './helpers'

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

  it('limits password-reset requests per account, whatever the address', async () => {
    const account = await register()
    const b = await burst(2 * RESET_LIMIT + 5, () => call('/api/auth/forgot-password', { body: { email: account.email } }))
    await expectRateLimited(b, 200)
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
