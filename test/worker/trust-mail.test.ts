import { describe, expect, it } from 'vitest'
import type { OutboxMessage } from '../../contract/auth'
import { DEVICE_COOKIE } from '../../contract/constants'
import { NOT_ME_MESSAGES } from '../../contract/fresh-proof'
import { WEBAUTHN_PATHS } from '../../contract/webauthn'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import { signLinkToken, verifyLinkToken } from '../../worker/lib/link-tokens'
import { createTrigger, manualRelease, ownerWithItem } from './engine-helpers'
import { call, env, linkTokenIn, login, me, outboxFor, register, waitFor } from './helpers'
import { SoftAuthenticator } from './soft-authenticator'

// Every change of trust is e-mailed to the owner at once, and its "This wasn't me" undoes what the
// change let in: every session ends, the keys added since the sign-in that made it go, and the
// owner is handed a password reset.

async function trustMail(address: string, subject: string): Promise<OutboxMessage> {
  return waitFor(async () => (await outboxFor(address)).find((m) => m.subject === subject))
}

async function countOf(address: string, subject: string): Promise<number> {
  return (await outboxFor(address)).filter((m) => m.subject === subject).length
}

async function addKey(token: string, auth: SoftAuthenticator): Promise<string> {
  const options = await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token })
  const res = await call(WEBAUTHN_PATHS.registerVerify, { token, body: { response: await auth.register(await options.json()), name: 'Hall key' } })
  if (res.status !== 201) throw new Error(`add key: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { key: { id: string } }).key.id
}

async function keyIds(userId: string): Promise<string[]> {
  return (await env.DB.prepare('select id from webauthn_credentials where user_id = ? order by created_at').bind(userId).all<{ id: string }>()).results.map((r) => r.id)
}

function notMe(token: string) {
  return call('/api/auth/not-me', { body: { token } })
}

describe('the owner is told of every change of trust', () => {
  it('a new security key: the owner is e-mailed, and "This wasn’t me" signs out everywhere, removes that key (not an older one) and hands over a reset', async () => {
    const owner = await register()
    const mine = await addKey(owner.token, await SoftAuthenticator.create())
    // Later, someone signs in from another browser (the owner is told of that too) and adds a key.
    await new Promise((resolve) => setTimeout(resolve, 5))
    const stolen = (await (await login(owner.email, owner.password)).json()) as { token: string }
    const newDevice = await trustMail(owner.email, TRUST_CHANGES.new_device.subject)
    expect(newDevice.text).toContain('This wasn’t me')
    const theirs = await addKey(stolen.token, await SoftAuthenticator.create())
    expect(await keyIds(owner.user.id)).toEqual([mine, theirs])

    const mails = (await outboxFor(owner.email)).filter((m) => m.subject === TRUST_CHANGES.key_added.subject)
    expect(mails).toHaveLength(2)
    const [latest] = mails
    expect(latest!.text).toContain('It is named “Hall key”')
    const link = linkTokenIn(latest!, '/not-me')

    const res = await notMe(link)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { sessionsSignedOut: number; keysRemoved: number; resetToken: string; message: string }
    expect(body).toMatchObject({ sessionsSignedOut: 2, keysRemoved: 1, message: NOT_ME_MESSAGES.done(2, 1) })
    expect(await keyIds(owner.user.id)).toEqual([mine])
    expect((await me(owner.token)).status).toBe(401)
    expect((await me(stolen.token)).status).toBe(401)
    // The reset it hands over works, once.
    const reset = await call('/api/auth/reset-password', { body: { token: body.resetToken, password: 'a brand new passphrase' } })
    expect(reset.status).toBe(200)
    expect((await login(owner.email, 'a brand new passphrase')).status).toBe(200)
  })

  it('"This wasn’t me" from the new-device e-mail removes nothing the owner had before that sign-in', async () => {
    const owner = await register()
    const mine = await addKey(owner.token, await SoftAuthenticator.create())
    await new Promise((resolve) => setTimeout(resolve, 5))
    await login(owner.email, owner.password)
    const link = linkTokenIn(await trustMail(owner.email, TRUST_CHANGES.new_device.subject), '/not-me')
    expect(await (await notMe(link)).json()).toMatchObject({ keysRemoved: 0 })
    expect(await keyIds(owner.user.id)).toEqual([mine])
  })

  it('"This wasn’t me" removes keys of its own account only: another owner’s key added since stays', async () => {
    const owner = await register()
    await login(owner.email, owner.password)
    const link = linkTokenIn(await trustMail(owner.email, TRUST_CHANGES.new_device.subject), '/not-me')
    await new Promise((resolve) => setTimeout(resolve, 5))
    const other = await register()
    const theirs = await addKey(other.token, await SoftAuthenticator.create())
    expect(await (await notMe(link)).json()).toMatchObject({ keysRemoved: 0 })
    expect(await keyIds(other.user.id)).toEqual([theirs])
    expect((await me(other.token)).status).toBe(200)
  })

  it('"This wasn’t me" keeps two-factor on while one of the owner\'s own keys is left', async () => {
    const owner = await register()
    await addKey(owner.token, await SoftAuthenticator.create())
    const profile = { displayName: 'Ada Owner', phoneNumber: null, country: 'US', timezone: 'America/New_York', emergencyContact: null, emailNotifications: true }
    expect((await call('/api/profile', { method: 'PUT', token: owner.token, body: { ...profile, twoFactorEnabled: true } })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 5))
    // Someone else signs in (from a trusted device, past the key step) and adds their own key.
    await env.DB.prepare('update users set two_factor_enabled = 0 where id = ?').bind(owner.user.id).run()
    const stolen = (await (await login(owner.email, owner.password)).json()) as { token: string }
    await env.DB.prepare('update users set two_factor_enabled = 1 where id = ?').bind(owner.user.id).run()
    await addKey(stolen.token, await SoftAuthenticator.create())
    const link = linkTokenIn(await trustMail(owner.email, TRUST_CHANGES.new_device.subject), '/not-me')
    expect(await (await notMe(link)).json()).toMatchObject({ keysRemoved: 1 })
    expect(await keyIds(owner.user.id)).toHaveLength(1)
    const row = await env.DB.prepare('select two_factor_enabled as on_ from users where id = ?').bind(owner.user.id).first<{ on_: number }>()
    expect(row).toEqual({ on_: 1 })
  })

  it('a browser that has signed in before is not a new device', async () => {
    const owner = await register()
    const first = await login(owner.email, owner.password)
    const device = first.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(';')[0]
    expect(device).toBeDefined()
    await trustMail(owner.email, TRUST_CHANGES.new_device.subject)
    expect((await login(owner.email, owner.password, { cookie: device })).status).toBe(200)
    expect(await countOf(owner.email, TRUST_CHANGES.new_device.subject)).toBe(1)
  })

  it('"This wasn’t me" makes every browser the account knew a new device again', async () => {
    const owner = await register()
    const first = await login(owner.email, owner.password)
    const device = first.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))?.split(';')[0]
    const mail = await trustMail(owner.email, TRUST_CHANGES.new_device.subject)
    // A second past the cookie's own second, so the test tells "before" from "after" by its date.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await notMe(linkTokenIn(mail, '/not-me'))).status).toBe(200)
    expect((await login(owner.email, owner.password, { cookie: device })).status).toBe(200)
    await waitFor(async () => (await countOf(owner.email, TRUST_CHANGES.new_device.subject)) === 2)
  })

  it('removing a key, two-factor off, a release now, a trigger armed, a shorter window, schedule or frequency: each is e-mailed, saying what', async () => {
    const setup = await ownerWithItem()
    const address = setup.owner.email
    const auth = await SoftAuthenticator.create()
    const keyId = await addKey(setup.token, auth)
    const profile = { displayName: 'Ada Owner', phoneNumber: null, country: 'US', timezone: 'America/New_York', emergencyContact: null, emailNotifications: true }
    await call('/api/profile', { method: 'PUT', token: setup.token, body: { ...profile, twoFactorEnabled: true } })
    await call('/api/profile', { method: 'PUT', token: setup.token, body: { ...profile, twoFactorEnabled: false } })
    await trustMail(address, TRUST_CHANGES.two_factor_off.subject)
    await call(`/api/auth/security-keys/${encodeURIComponent(keyId)}`, { method: 'DELETE', token: setup.token })
    await trustMail(address, TRUST_CHANGES.key_removed.subject)

    await call('/api/user/safety-window', { method: 'PUT', token: setup.token, body: { hours: 24 } })
    expect((await trustMail(address, TRUST_CHANGES.release_sooner.subject)).text).toContain('The safety window went from 72 to 24 hours.')
    // Longer is not a change of trust: no mail.
    await call('/api/user/safety-window', { method: 'PUT', token: setup.token, body: { hours: 48 } })
    const inactivity = await createTrigger(setup.token, { type: 'inactivity', config: { pingFrequency: 30, gracePeriod: 7 } })
    await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token: setup.token, body: { config: { pingFrequency: 7, gracePeriod: 3 } } })
    await call('/api/user/ping-settings', { method: 'PUT', token: setup.token, body: { pingFrequency: 30, gracePeriod: 3 } })
    await call('/api/user/ping-settings', { method: 'PUT', token: setup.token, body: { pingFrequency: 14, gracePeriod: 3 } })
    const sooner = await waitFor(async () => {
      const texts = (await outboxFor(address)).filter((m) => m.subject === TRUST_CHANGES.release_sooner.subject).map((m) => m.text)
      return texts.length >= 4 ? texts : undefined
    })
    expect(sooner).toHaveLength(4)
    expect(sooner.some((t) => t.includes('“Inactivity'))).toBe(true)
    expect(sooner.some((t) => t.includes('check-in schedule was shortened'))).toBe(true)
    expect(sooner.some((t) => t.includes('went from 30 to 14 days'))).toBe(true)

    const manual = await createTrigger(setup.token, { type: 'manual_release', config: {} })
    expect((await manualRelease(setup.token, manual.id)).status).toBe(200)
    await trustMail(address, TRUST_CHANGES.manual_release.subject)
  })

  it('arming a trigger is e-mailed, whether it is created active or a paused one is activated', async () => {
    const owner = await register()
    const sooner = () => countOf(owner.email, TRUST_CHANGES.release_sooner.subject)
    expect((await call('/api/triggers', { token: owner.token, body: { type: 'verified_death', status: 'active', config: {} } })).status).toBe(201)
    await waitFor(async () => (await sooner()) === 1)
    const paused = await call('/api/triggers', { token: owner.token, body: { type: 'manual_release', status: 'paused', config: {} } })
    expect(paused.status).toBe(201)
    const inactivity = await call('/api/triggers', { token: owner.token, body: { type: 'inactivity', status: 'paused', config: { pingFrequency: 30, gracePeriod: 7 } } })
    expect(inactivity.status).toBe(201)
    expect(await sooner()).toBe(1)
    const id = ((await inactivity.json()) as { id: string }).id
    expect((await call(`/api/triggers/${id}`, { method: 'PUT', token: owner.token, body: { status: 'active' } })).status).toBe(200)
    await waitFor(async () => (await sooner()) === 2)
  })

  it('the password-changed e-mail, from the profile or a reset, has "This wasn’t me" too', async () => {
    const owner = await register()
    const res = await call('/api/profile/password', { token: owner.token, body: { currentPassword: owner.password, newPassword: 'another good password 2', confirmPassword: 'another good password 2' } })
    expect(res.status).toBe(200)
    const mail = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject.endsWith('password was changed')))
    expect(await (await notMe(linkTokenIn(mail, '/not-me'))).json()).toMatchObject({ sessionsSignedOut: 1, keysRemoved: 0 })
    expect((await me(owner.token)).status).toBe(401)
  })

  it('"This wasn’t me" withdraws the trust marked on a browser since the change, not the trust the owner marked before', async () => {
    const owner = await register()
    const trustedBrowsers = async () =>
      (await env.DB.prepare('select id from browsers where user_id = ? and trusted_at is not null').bind(owner.user.id).all<{ id: string }>()).results.length
    async function signInAndTrust(): Promise<void> {
      const res = await login(owner.email, owner.password)
      const { token } = (await res.json()) as { token: string }
      const current = ((await (await call('/api/auth/sessions', { token })).json()) as { sessions: Array<{ id: string; current: boolean }> }).sessions.find((x) => x.current)!
      expect((await call(`/api/auth/sessions/${current.id}/trust`, { method: 'PUT', token })).status).toBe(200)
    }
    await signInAndTrust()
    await waitFor(async () => (await countOf(owner.email, TRUST_CHANGES.device_trusted.subject)) === 1)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await signInAndTrust()
    const mails = await waitFor(async () => {
      const found = (await outboxFor(owner.email)).filter((m) => m.subject === TRUST_CHANGES.device_trusted.subject)
      return found.length === 2 ? found : undefined
    })
    expect(await trustedBrowsers()).toBe(2)
    const links = mails.map((m) => linkTokenIn(m, '/not-me'))
    // Each link names the sign-in that made its change: the later one undoes the second browser's trust.
    const since = await Promise.all(
      links.map(async (token) => {
        const link = await verifyLinkToken(env, 'notMe', token)
        if (!link.ok) throw new Error('not a "This wasn’t me" link')
        return Number(link.nonce)
      }),
    )
    const latest = links[since.indexOf(Math.max(...since))]!
    const res = await notMe(latest)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { trustWithdrawn: number }).trustWithdrawn).toBe(1)
    expect(await trustedBrowsers()).toBe(1)
  })

  it('"This wasn’t me" withdraws the trust marked on a security key since the change, not the trust the owner marked before', async () => {
    const owner = await register()
    const keyId = await addKey(owner.token, await SoftAuthenticator.create())
    expect((await call(`/api/auth/security-keys/${encodeURIComponent(keyId)}/trust`, { method: 'PUT', token: owner.token })).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const since = Date.now()
    const res = await notMe(signLinkToken(env, 'notMe', owner.user.id, { owner: owner.user.id, nonce: String(since) }))
    expect(res.status).toBe(200)
    expect(((await res.json()) as { trustWithdrawn: number }).trustWithdrawn).toBe(0)
    const row = await env.DB.prepare('select trusted_at from webauthn_credentials where id = ?').bind(keyId).first<{ trusted_at: number | null }>()
    expect(row?.trusted_at).not.toBeNull()
  })

  it('a "This wasn’t me" link that is tampered with, expired, for another owner or without its time is refused and changes nothing', async () => {
    const owner = await register()
    const other = await register()
    const now = Date.now()
    const bad = [
      'garbage',
      signLinkToken(env, 'notMe', owner.user.id, { owner: other.user.id, nonce: String(now) }),
      signLinkToken(env, 'notMe', owner.user.id, { owner: owner.user.id }),
      signLinkToken(env, 'checkIn', owner.user.id, { owner: owner.user.id, nonce: String(now) }),
    ]
    for (const token of bad) {
      const res = await notMe(token)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toBe(NOT_ME_MESSAGES.invalid)
    }
    const expired = await notMe(signLinkToken(env, 'notMe', owner.user.id, { owner: owner.user.id, nonce: String(now) }, now - 31 * 86_400_000))
    expect(((await expired.json()) as { message: string }).message).toBe(NOT_ME_MESSAGES.expired)
    expect((await me(owner.token)).status).toBe(200)
    expect((await notMe('')).status).toBe(400)
  })
})
