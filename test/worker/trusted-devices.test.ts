import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { HOUR_MS } from '../../contract/constants'
import type { SignedInSession } from '../../contract/sessions'
import { SAFETY_WINDOW } from '../../contract/settings'
import { TRUSTED_DEVICE_MESSAGES } from '../../contract/trusted-devices'
import { DRY_RUN_CAUSE_LABELS, TRIGGER_MESSAGES, type DryRunResult, type EngineStatus, type Trigger } from '../../contract/triggers'
import { assetRows, createTrigger, DAY_MS, firingCount, guard, ownerWithItem, policyCovering } from './engine-helpers'
import { call, callSettled, login, messageOf, outboxFor, register, waitFor, ownerSessions } from './helpers'
import { ownerExec, ownerRow, ownerState } from './owner-helpers'

// Trusted devices and the Loss of trusted devices trigger ('device_loss'): the owner marks
// browsers (and keys) as trusted with fresh proof and is e-mailed; only a trusted device's use
// moves the one "last trusted use" value the owner's object keeps; the trigger fires when it is
// `days` old (or the trigger's arming is), its release waits for the safety window, and only a
// trusted device can stop what it started. Time moves by running the engine later (guard().tick).

const LAST_TRUSTED_USE = 'lastTrustedUseAt'

async function sessionsOf(token: string): Promise<SignedInSession[]> {
  const res = await call('/api/auth/sessions', { token })
  expect(res.status).toBe(200)
  return ((await res.json()) as { sessions: SignedInSession[] }).sessions
}

const currentSession = async (token: string) => (await sessionsOf(token)).find((s) => s.current)!

function markBrowser(token: string, sessionId: string, trusted = true) {
  return call(`/api/auth/sessions/${sessionId}/trust`, { method: trusted ? 'PUT' : 'DELETE', token })
}

/** A second sign-in of the owner's, from the browser whose device cookie is `cookie` (none: a new browser). */
async function signIn(email: string, password: string, cookie?: string): Promise<{ token: string; cookie: string }> {
  const res = await login(email, password, cookie ? { cookie } : {})
  expect(res.status).toBe(200)
  const device = res.headers.getSetCookie().find((c) => c.startsWith('known_device='))!.split(';')[0]!
  return { token: ((await res.json()) as { token: string }).token, cookie: device }
}

/** An owner with an item, a policy releasing it on device_loss at once, and a trusted browser (its session's token). */
async function ownerWithTrustedBrowser(days = 7) {
  const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
  await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
  await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
    ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['device_loss'], delayHours: 0, requiresApprover: false } },
  })
  const trustedBrowser = await signIn(s.owner.email, s.owner.password)
  expect((await markBrowser(trustedBrowser.token, (await currentSession(trustedBrowser.token)).id)).status).toBe(200)
  const trigger = await createTrigger(s.token, { type: 'device_loss', config: { days } })
  return { ...s, trustedBrowser, trigger }
}

/** A security key of `userId`'s, seeded in D1 (trusted from now when `trusted`); its id. */
async function seedKey(userId: string, trusted = false): Promise<string> {
  const keyId = `key${crypto.randomUUID().replaceAll('-', '')}`
  await env.DB.prepare(
    `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at, trusted_at) values (?, ?, 'Key', 'pQECAyYgASFYIA', 0, '["usb"]', 'singleDevice', 0, ?, ?)`,
  )
    .bind(keyId, userId, Date.now(), trusted ? Date.now() : null)
    .run()
  return keyId
}

async function releasesOf(token: string) {
  return ((await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus).releases
}

/** Makes the session's last use old, so that its next request is written down (and, if trusted, told). */
async function staleSession(userId: string) {
  await ownerSessions(userId, 'update sessions set last_seen_at = 0').run()
}

describe('marking devices as trusted', () => {
  it('marks the browser of a session, shows it in the list, e-mails the owner, and needs fresh proof', async () => {
    const owner = await register()
    const session = await currentSession(owner.token)
    expect(session).toMatchObject({ trusted: false, canTrust: true })

    // Without fresh proof: refused, nothing changed.
    await ownerSessions(owner.user.id, 'update sessions set proved_at = 0').run()
    const stale = await markBrowser(owner.token, session.id)
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ requiresFreshProof: true })
    expect((await currentSession(owner.token)).trusted).toBe(false)

    const fresh = await signIn(owner.email, owner.password)
    const res = await markBrowser(fresh.token, (await currentSession(fresh.token)).id)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ trusted: true, message: TRUSTED_DEVICE_MESSAGES.marked })
    expect((await currentSession(fresh.token)).trusted).toBe(true)
    expect((await outboxFor(owner.email)).map((m) => m.subject)).toContain('A device was marked as trusted')

    // The same browser signing in again is the same trusted browser; a new one is not.
    const again = await signIn(owner.email, owner.password, fresh.cookie)
    expect((await currentSession(again.token)).trusted).toBe(true)
    const elsewhere = await signIn(owner.email, owner.password)
    expect((await currentSession(elsewhere.token)).trusted).toBe(false)

    // Unmarking: told too.
    expect((await markBrowser(again.token, (await currentSession(again.token)).id, false)).status).toBe(200)
    expect((await currentSession(again.token)).trusted).toBe(false)
    expect((await outboxFor(owner.email)).map((m) => m.subject)).toContain('A device is no longer trusted')
  })

  it('marking a browser already trusted again changes nothing: no second e-mail to the owner', async () => {
    const owner = await register()
    const session = await currentSession(owner.token)
    expect((await markBrowser(owner.token, session.id)).status).toBe(200)
    const marked = async () => (await outboxFor(owner.email)).filter((m) => m.subject === 'A device was marked as trusted').length
    expect(await marked()).toBe(1)
    const again = await markBrowser(owner.token, session.id)
    expect(again.status).toBe(200)
    expect(await marked()).toBe(1)
    expect((await currentSession(owner.token)).trusted).toBe(true)
  })

  it('marking a security key already trusted again changes nothing: no second e-mail to the owner', async () => {
    const owner = await register()
    const keyId = await seedKey(owner.user.id)
    const mark = () => call(`/api/auth/security-keys/${keyId}/trust`, { method: 'PUT', token: owner.token })
    expect((await mark()).status).toBe(200)
    const marked = async () => (await outboxFor(owner.email)).filter((m) => m.subject === 'A device was marked as trusted').length
    expect(await marked()).toBe(1)
    expect((await mark()).status).toBe(200)
    expect(await marked()).toBe(1)
  })

  it('untrusting a browser needs fresh proof too: a stale session is refused and the browser stays trusted', async () => {
    const owner = await register()
    const session = await currentSession(owner.token)
    expect((await markBrowser(owner.token, session.id)).status).toBe(200)
    await ownerSessions(owner.user.id, 'update sessions set proved_at = 0').run()
    const stale = await markBrowser(owner.token, session.id, false)
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ requiresFreshProof: true })
    expect((await currentSession(owner.token)).trusted).toBe(true)
  })

  it('untrusting a security key needs fresh proof: a stale session is refused and the key stays trusted', async () => {
    const owner = await register()
    const keyId = await seedKey(owner.user.id, true)
    await ownerSessions(owner.user.id, 'update sessions set proved_at = 0').run()
    const stale = await call(`/api/auth/security-keys/${keyId}/trust`, { method: 'DELETE', token: owner.token })
    expect(stale.status).toBe(403)
    expect(await stale.json()).toMatchObject({ requiresFreshProof: true })
    expect(await env.DB.prepare('select trusted_at is not null as t from webauthn_credentials where id = ?').bind(keyId).first()).toEqual({ t: 1 })
  })

  it("another owner's session or key is not found", async () => {
    const a = await register()
    const b = await register()
    const aSession = await currentSession(a.token)
    const res = await markBrowser(b.token, aSession.id)
    expect(res.status).toBe(404)
    expect((await currentSession(a.token)).trusted).toBe(false)
    expect((await markBrowser(b.token, aSession.id, false)).status).toBe(404)
    const key = await call('/api/auth/security-keys/not-a-key-of-theirs/trust', { method: 'PUT', token: b.token })
    expect(key.status).toBe(404)
  })
})

describe('the Loss of trusted devices trigger', () => {
  it('cannot be created or activated without a trusted device (409, in plain words)', async () => {
    const owner = await register()
    const res = await call('/api/triggers', { token: owner.token, body: { type: 'device_loss', config: { days: 30 } } })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.noTrustedDevice)
    // Paused it may wait for one; activating it is refused until there is one.
    const paused = await createTrigger(owner.token, { type: 'device_loss', status: 'paused' })
    const arm = await call(`/api/triggers/${paused.id}`, { method: 'PUT', token: owner.token, body: { status: 'active' } })
    expect(arm.status).toBe(409)
    expect(await messageOf(arm)).toBe(TRIGGER_MESSAGES.noTrustedDevice)
    expect((await markBrowser(owner.token, (await currentSession(owner.token)).id)).status).toBe(200)
    const armed = await call(`/api/triggers/${paused.id}`, { method: 'PUT', token: owner.token, body: { status: 'active' } })
    expect(armed.status).toBe(200)
    expect(((await armed.json()) as Trigger).status).toBe('active')
  })

  it('will not take away the last trusted device while the trigger watches it: untrusting it is a 409 until another is trusted or the trigger paused', async () => {
    const s = await ownerWithTrustedBrowser()
    const watched = (await currentSession(s.trustedBrowser.token)).id
    const refused = await markBrowser(s.trustedBrowser.token, watched, false)
    expect(refused.status).toBe(409)
    expect(await messageOf(refused)).toBe(TRUSTED_DEVICE_MESSAGES.lastWatched)
    expect((await currentSession(s.trustedBrowser.token)).trusted).toBe(true)
    // With another trusted device, this one may go.
    const other = await signIn(s.owner.email, s.owner.password)
    expect((await markBrowser(other.token, (await currentSession(other.token)).id)).status).toBe(200)
    expect((await markBrowser(s.trustedBrowser.token, watched, false)).status).toBe(200)
    // The trigger paused, the last one may go too.
    const pause = await call(`/api/triggers/${s.trigger.id}`, { method: 'PUT', token: other.token, body: { status: 'paused' } })
    expect(pause.status).toBe(200)
    expect((await markBrowser(other.token, (await currentSession(other.token)).id, false)).status).toBe(200)
  })

  it("another owner's trusted security key is no trusted device of this owner's: the trigger still cannot be created", async () => {
    const other = await register()
    await seedKey(other.user.id, true)
    const owner = await register()
    const res = await call('/api/triggers', { token: owner.token, body: { type: 'device_loss', config: { days: 30 } } })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.noTrustedDevice)
  })

  it('untrusting a browser that is not trusted is no taking away of the last trusted device: it is not refused while the trigger watches the one trusted', async () => {
    const s = await ownerWithTrustedBrowser()
    const untrusted = await signIn(s.owner.email, s.owner.password)
    const res = await markBrowser(untrusted.token, (await currentSession(untrusted.token)).id, false)
    expect(res.status).toBe(200)
    expect((await currentSession(s.trustedBrowser.token)).trusted).toBe(true)
  })

  it('will not take away the last trusted device when it is a security key either: untrusting it is a 409 while the trigger watches it', async () => {
    const owner = await register()
    const keyId = await seedKey(owner.user.id, true)
    await createTrigger(owner.token, { type: 'device_loss', config: { days: 30 } })
    const refused = await call(`/api/auth/security-keys/${keyId}/trust`, { method: 'DELETE', token: owner.token })
    expect(refused.status).toBe(409)
    expect(await messageOf(refused)).toBe(TRUSTED_DEVICE_MESSAGES.lastWatched)
  })

  it('needs a trusted device only to be activated from paused: one already active, its trusted key gone meanwhile, is set active again without a 409', async () => {
    const owner = await register()
    const keyId = await seedKey(owner.user.id, true)
    const trigger = await createTrigger(owner.token, { type: 'device_loss', config: { days: 30 } })
    // The key lost its trust by other means ("This wasn't me" withdraws trust marked since a change).
    await env.DB.prepare('update webauthn_credentials set trusted_at = null where id = ?').bind(keyId).run()
    const res = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: owner.token, body: { status: 'active' } })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { status: string }).status).toBe('active')
  })

  it('watches 30 days without a trusted device unless the owner sets other days', async () => {
    const owner = await register()
    await seedKey(owner.user.id, true)
    const trigger = await createTrigger(owner.token, { type: 'device_loss' })
    expect(trigger.config).toEqual({ days: 30 })
  })

  it('refuses days outside 7–365', async () => {
    const owner = await register()
    for (const days of [6, 366, 7.5]) {
      const res = await call('/api/triggers', { token: owner.token, body: { type: 'device_loss', config: { days } } })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toContain(TRIGGER_MESSAGES.deviceDaysRange)
    }
  })

  it('unused: fires when its days have passed since arming, and nothing is available before the safety window', async () => {
    const s = await ownerWithTrustedBrowser(7)
    const armedAt = Date.parse(s.trigger.createdAt)
    expect(Date.parse(s.trigger.nextFireAt!)).toBeGreaterThanOrEqual(armedAt + 7 * DAY_MS)
    // The engine wakes for that moment.
    expect((await guard(s.ownerId).clockView()).nextAlarmAt).toBeLessThanOrEqual(Date.parse(s.trigger.nextFireAt!))

    await guard(s.ownerId).tick(Date.parse(s.trigger.nextFireAt!) - 1)
    expect(await firingCount(s.ownerId)).toBe(0)
    const firesAt = Date.parse(s.trigger.nextFireAt!)
    await guard(s.ownerId).tick(firesAt)
    expect(await ownerRow(s.ownerId, 'select kind, trigger_type from firings')).toEqual({ kind: 'device_loss', trigger_type: 'device_loss' })
    const [release] = await releasesOf(s.token)
    expect(Date.parse(release!.releaseAt)).toBeGreaterThanOrEqual(firesAt + SAFETY_WINDOW.defaultHours * HOUR_MS)
    await guard(s.ownerId).tick(firesAt + SAFETY_WINDOW.defaultHours * HOUR_MS - 1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it("moves the last use of a trusted device only forward: a delayed report of an older use does not rewind it", async () => {
    const owner = await register()
    const at = Date.now()
    expect(await guard(owner.user.id).recordTrustedUse(at)).toEqual({ lastTrustedUseAt: at })
    expect(await guard(owner.user.id).recordTrustedUse(at - 10 * DAY_MS)).toEqual({ lastTrustedUseAt: at })
  })

  it('armed long after a trusted device was last used: it still gives its full days from arming', async () => {
    const s = await ownerWithTrustedBrowser(7)
    const armedAt = Date.parse(s.trigger.createdAt)
    await guard(s.ownerId).recordTrustedUse(armedAt - 30 * DAY_MS)
    expect(await ownerState<number>(s.ownerId, LAST_TRUSTED_USE)).toBe(armedAt - 30 * DAY_MS)
    await guard(s.ownerId).tick(armedAt + DAY_MS)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(Date.parse(s.trigger.nextFireAt!))
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('the dry run names the cause and holds it to the safety window', async () => {
    const s = await ownerWithTrustedBrowser(7)
    const before = Date.now()
    const res = await call(`/api/trigger-engine/dry-run/${s.trigger.id}`, { token: s.token, method: 'POST' })
    expect(res.status).toBe(200)
    const run = (await res.json()) as DryRunResult
    const fires = run.causes.find((c) => c.cause === 'fires')!
    expect(fires).toMatchObject({ label: DRY_RUN_CAUSE_LABELS.device_loss, itemCount: 1, beneficiaryCount: 1 })
    expect(Date.parse(fires.earliestAt!)).toBeGreaterThanOrEqual(before + SAFETY_WINDOW.defaultHours * HOUR_MS)
    expect(run.safetyWindowHours).toBe(SAFETY_WINDOW.defaultHours)
    expect(await firingCount(s.ownerId)).toBe(0)
  })

  it("used: a trusted browser's requests move its clock; an untrusted browser's do not", async () => {
    const s = await ownerWithTrustedBrowser(7)
    const before = Date.parse(s.trigger.nextFireAt!)
    // Requests from an untrusted browser (the owner's first session): nothing is told.
    await staleSession(s.ownerId)
    expect((await callSettled('/api/auth/sessions', { token: s.token })).status).toBe(200)
    expect(await ownerState(s.ownerId, LAST_TRUSTED_USE)).toBeUndefined()
    // A sign-in from another, untrusted browser: nothing either.
    await signIn(s.owner.email, s.owner.password)
    expect(await ownerState(s.ownerId, LAST_TRUSTED_USE)).toBeUndefined()

    // The trusted browser's request (its last use written down some minutes ago) is told.
    await staleSession(s.ownerId)
    const at = Date.now()
    expect((await callSettled('/api/auth/sessions', { token: s.trustedBrowser.token })).status).toBe(200)
    const used = (await ownerState<number>(s.ownerId, LAST_TRUSTED_USE))!
    expect(used).toBeGreaterThanOrEqual(at)
    const trigger = ((await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]).find((t) => t.id === s.trigger.id)!
    expect(Date.parse(trigger.nextFireAt!)).toBe(used + 7 * DAY_MS)
    expect(Date.parse(trigger.nextFireAt!)).toBeGreaterThan(before)
    // At the old moment nothing fires.
    await guard(s.ownerId).tick(before + 1)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(used + 7 * DAY_MS)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('a use from elsewhere cannot stop the release it started; a trusted device can', async () => {
    const s = await ownerWithTrustedBrowser(7)
    await guard(s.ownerId).tick(Date.parse(s.trigger.nextFireAt!))
    const [release] = await releasesOf(s.token)
    expect(release).toMatchObject({ status: 'waiting' })

    // A sign-in and a check-in from an untrusted browser: the release still waits.
    const elsewhere = await signIn(s.owner.email, s.owner.password)
    expect((await call('/api/inactivity/ping', { token: elsewhere.token, method: 'POST' })).status).toBe(200)
    expect((await releasesOf(s.token))[0]).toMatchObject({ status: 'waiting' })
    // The monitor's cancel from an untrusted session: refused in plain words.
    const refused = await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { token: elsewhere.token, method: 'POST' })
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(TRIGGER_MESSAGES.cancelNeedsTrustedDevice)
    expect((await releasesOf(s.token))[0]).toMatchObject({ status: 'waiting' })

    // From the trusted browser it is cancelled.
    const done = await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { token: s.trustedBrowser.token, method: 'POST' })
    expect(done.status).toBe(200)
    expect((await releasesOf(s.token))[0]).toMatchObject({ status: 'cancelled' })
  })

  it('a sign-in from the trusted browser stops the release and re-arms the trigger', async () => {
    const s = await ownerWithTrustedBrowser(7)
    await guard(s.ownerId).tick(Date.parse(s.trigger.nextFireAt!))
    expect((await releasesOf(s.token))[0]).toMatchObject({ status: 'waiting' })
    const res = await login(s.owner.email, s.owner.password, { cookie: s.trustedBrowser.cookie })
    expect(res.status).toBe(200)
    await waitFor(async () => (await releasesOf(s.token))[0]?.status === 'cancelled', 3000)
    expect(await ownerRow(s.ownerId, 'select status from triggers where id = ?', s.trigger.id)).toEqual({ status: 'active' })
  })
})

