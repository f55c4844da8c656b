import { describe, expect, it } from 'vitest'
import { mirrorAccount } from '../../worker/owner/account'
import { BILLING_MESSAGES } from '../../contract/billing'
import { TRIGGER_MESSAGES, type EngineStatus, type Trigger } from '../../contract/triggers'
import { addApprover, call, env, messageOf, outboxFor, register, waitFor } from './helpers'
import { createTrigger, DAY_MS, guard, verifiedApprover } from './engine-helpers'
import { ownerExec } from './owner-helpers'
import { ownerWithBeneficiary } from './vault-helpers'

describe('triggers API', () => {
  it('creates each type with the spec defaults and lists them oldest first', async () => {
    const { token } = await ownerWithBeneficiary()
    const inactivity = await createTrigger(token, { type: 'inactivity' })
    expect(inactivity).toMatchObject({ type: 'inactivity', status: 'active', config: { pingFrequency: 'weekly', gracePeriod: 14 }, firedAt: null })
    expect(inactivity.nextFireAt).not.toBeNull()
    const biometric = await createTrigger(token, { type: 'biometric_failure' })
    expect(biometric.config).toEqual({ failureThreshold: 5, timeWindow: 30 })
    const death = await createTrigger(token, { type: 'verified_death', config: {} })
    expect(death.config).toEqual({})
    const list = (await (await call('/api/triggers', { token })).json()) as Trigger[]
    expect(list.map((t) => t.id)).toEqual([inactivity.id, biometric.id, death.id])
  })

  it('answers each invalid field with the spec message', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, TRIGGER_MESSAGES.typeRequired],
      [{ type: 'sometimes' }, TRIGGER_MESSAGES.typeRequired],
      [{ type: 'inactivity', config: { gracePeriod: 0 } }, TRIGGER_MESSAGES.gracePeriodMin],
      [{ type: 'biometric_failure', config: { failureThreshold: 0 } }, TRIGGER_MESSAGES.failureThresholdMin],
      [{ type: 'biometric_failure', config: { timeWindow: 0 } }, TRIGGER_MESSAGES.timeWindowMin],
      [{ type: 'scheduled', config: { releaseDate: new Date(Date.now() - DAY_MS).toISOString(), beneficiaries: [beneficiary.id] } }, TRIGGER_MESSAGES.releaseDateFuture],
      [{ type: 'scheduled', config: { releaseDate: new Date(Date.now() + DAY_MS).toISOString(), beneficiaries: [] } }, TRIGGER_MESSAGES.beneficiariesRequired],
      [{ type: 'inactivity', status: 'triggered' }, TRIGGER_MESSAGES.statusNotSettable],
    ]
    for (const [body, message] of cases) {
      const res = await call('/api/triggers', { token, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await messageOf(res)).toContain(message)
    }
  })

  it("refuses a scheduled trigger naming another owner's beneficiary", async () => {
    const { token } = await ownerWithBeneficiary()
    const other = await ownerWithBeneficiary()
    const res = await call('/api/triggers', {
      token,
      body: { type: 'scheduled', config: { releaseDate: new Date(Date.now() + DAY_MS).toISOString(), beneficiaries: [other.beneficiary.id] } },
    })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.unknownBeneficiary)
  })

  it('pauses and activates, and keeps another owner out with 404', async () => {
    const { token } = await ownerWithBeneficiary()
    const trigger = await createTrigger(token, { type: 'inactivity' })
    const paused = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: { status: 'paused' } })
    expect(((await paused.json()) as Trigger).status).toBe('paused')
    const active = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: { status: 'active' } })
    expect(((await active.json()) as Trigger).status).toBe('active')
    expect((await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: { status: 'triggered' } })).status).toBe(400)

    const stranger = await register()
    const res = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: stranger.token, body: { status: 'paused' } })
    expect(res.status).toBe(404)
    expect((await (await call('/api/triggers', { token: stranger.token })).json()) as Trigger[]).toEqual([])
    for (const path of [`/api/trigger-engine/dry-run/${trigger.id}`, `/api/trigger-engine/manual/${trigger.id}`]) {
      const r = await call(path, { method: 'POST', token: stranger.token, body: { reason: 'x', confirm: 'RELEASE' } })
      expect(r.status, path).toBe(404)
    }
  })

  it('without a plan a trigger can be paused, but not rescheduled: a pause that carries a new schedule asks for a plan and changes nothing', async () => {
    const { token, owner } = await ownerWithBeneficiary()
    const trigger = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })
    await env.DB.prepare("update users set subscription_status = 'canceled' where id = ?").bind(owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const rescheduled = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: { status: 'paused', config: { pingFrequency: 'monthly', gracePeriod: 7 } } })
    expect(rescheduled.status).toBe(402)
    expect(await messageOf(rescheduled)).toBe(BILLING_MESSAGES.subscriptionRequired)
    const listed = async () => ((await (await call('/api/triggers', { token })).json()) as Trigger[]).find((t) => t.id === trigger.id)!
    expect(await listed()).toMatchObject({ status: 'active', config: { pingFrequency: 'weekly' } })
    // The pause alone is always allowed.
    const paused = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: { status: 'paused' } })
    expect(paused.status).toBe(200)
    expect(await listed()).toMatchObject({ status: 'paused', config: { pingFrequency: 'weekly' } })
  })

  it('needs a session', async () => {
    expect((await call('/api/triggers')).status).toBe(401)
    expect((await call('/api/trigger-engine/status')).status).toBe(401)
    expect((await call('/api/audit')).status).toBe(401)
  })

  it('allows one inactivity trigger: a second is a 409 saying to edit or pause the first, whatever its status', async () => {
    const { token } = await ownerWithBeneficiary()
    const first = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    const second = () => call('/api/triggers', { token, body: { type: 'inactivity', config: { pingFrequency: 'monthly', gracePeriod: 30 } } })
    let res = await second()
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.inactivityExists)
    expect(TRIGGER_MESSAGES.inactivityExists).toMatch(/edit its schedule or pause it/i)
    await call(`/api/triggers/${first.id}`, { method: 'PUT', token, body: { status: 'paused' } })
    expect((await second()).status).toBe(409)
    // Fired, it is still the owner's inactivity trigger (a check-in arms it again).
    await call(`/api/trigger-engine/manual/${first.id}`, { token, body: { reason: 'test', confirm: 'RELEASE' } })
    res = await second()
    expect(res.status).toBe(409)
    const list = (await (await call('/api/triggers', { token })).json()) as Trigger[]
    expect(list.filter((t) => t.type === 'inactivity').map((t) => t.id)).toEqual([first.id])
    // Other kinds are not limited.
    await createTrigger(token, { type: 'verified_death', config: {} })
    await createTrigger(token, { type: 'verified_death', config: {} })
  })

  it("takes a check-in frequency as a name or a number of days, and the engine status shows the trigger's own schedule", async () => {
    const { token } = await ownerWithBeneficiary()
    const trigger = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 14, gracePeriod: 3 } })
    expect(trigger.config).toEqual({ pingFrequency: 14, gracePeriod: 3 })
    const status = (await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus
    expect(status).toMatchObject({ inactivityTriggerId: trigger.id, pingFrequencyDays: 14, graceDays: 3 })
    expect(status.firesAt).toBe(trigger.nextFireAt)
    for (const pingFrequency of ['hourly', 0, 366, 7.5]) {
      const res = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: { config: { pingFrequency, gracePeriod: 3 } } })
      expect(res.status, String(pingFrequency)).toBe(400)
      expect(await messageOf(res)).toContain(TRIGGER_MESSAGES.pingFrequencyInvalid)
    }
    const empty = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token, body: {} })
    expect(empty.status).toBe(400)
    expect(await messageOf(empty)).toContain(TRIGGER_MESSAGES.updateRequired)
  })

  it('arms the owner alarm when an inactivity trigger is created', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await createTrigger(token, { type: 'inactivity' })
    const view = await guard(ownerId).clockView()
    expect(view.nextAlarmAt).toBe(view.nextCheckInAt)
  })
})

describe('death-report links', () => {
  it('go only to approvers who have confirmed their address, at creation and on "Resend report links"', { timeout: 20_000 }, async () => {
    const owner = await register()
    const confirmed = await verifiedApprover(owner.token)
    const unconfirmed = await addApprover(owner.token)
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    const links = async (email: string) => (await outboxFor(email)).filter((m) => m.text.includes('/confirm-death'))
    await waitFor(async () => (await links(confirmed.email)).length === 1)
    const resent = await call(`/api/triggers/${trigger.id}/resend-report-links`, { method: 'POST', token: owner.token })
    expect(resent.status).toBe(200)
    expect(await resent.json()).toMatchObject({ sent: 1 })
    expect(await links(confirmed.email)).toHaveLength(2)
    expect(await links(unconfirmed.email)).toEqual([])
  })
})

describe('death-report links when the trigger is armed', () => {
  const links = async (email: string) => (await outboxFor(email)).filter((m) => m.text.includes('/confirm-death'))

  it('none goes out for a Verified death trigger created paused; activating it sends them', { timeout: 20_000 }, async () => {
    const owner = await register()
    const approver = await verifiedApprover(owner.token)
    const trigger = await createTrigger(owner.token, { type: 'verified_death', status: 'paused', config: {} })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await links(approver.email)).toEqual([])
    expect((await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: owner.token, body: { status: 'active' } })).status).toBe(200)
    await waitFor(async () => (await links(approver.email)).length === 1)
  })

  it('activating it again sends a link only to approvers without a working one, and setting it active while active sends nothing and records nothing', { timeout: 20_000 }, async () => {
    const owner = await register()
    const approver = await verifiedApprover(owner.token)
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    await waitFor(async () => (await links(approver.email)).length === 1)
    const set = (status: string) => call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: owner.token, body: { status } })
    expect((await set('paused')).status).toBe(200)
    expect((await set('active')).status).toBe(200)
    expect((await set('active')).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await links(approver.email)).toHaveLength(1)
    const audit = (await (await call('/api/audit', { token: owner.token })).json()) as Array<{ action: string }>
    expect(audit.filter((e) => e.action === 'trigger.activated')).toHaveLength(1)
  })
})

describe('a trigger that has fired', () => {
  it('takes no new check-in schedule (409): what it started stands as it is', async () => {
    const { owner, token } = await ownerWithBeneficiary()
    const inactivity = await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 30, gracePeriod: 7 } })
    await ownerExec(owner.user.id, ["update triggers set status = 'triggered' where id = ?", inactivity.id])
    const res = await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token, body: { config: { pingFrequency: 60, gracePeriod: 7 } } })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.alreadyTriggered)
  })
})

describe('"Resend report links"', () => {
  it('is only for a Verified death trigger: on another kind it is a 400 and nobody is mailed', { timeout: 20_000 }, async () => {
    const owner = await register()
    const approver = await verifiedApprover(owner.token)
    const manual = await createTrigger(owner.token, { type: 'manual_release', config: {} })
    const res = await call(`/api/triggers/${manual.id}/resend-report-links`, { method: 'POST', token: owner.token })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.reportLinksOnlyDeath)
    expect((await outboxFor(approver.email)).filter((m) => m.text.includes('/confirm-death'))).toEqual([])
  })
})

describe('"Resend report links" with nobody to send to', () => {
  it('answers 409 in plain words when no approver has confirmed their address', async () => {
    const owner = await register()
    await addApprover(owner.token)
    const death = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    const res = await call(`/api/triggers/${death.id}/resend-report-links`, { method: 'POST', token: owner.token })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.noVerifiedApprovers)
  })
})

describe('a scheduled trigger', () => {
  it("naming one of the owner's beneficiaries and one unknown id is refused whole (400)", async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const releaseDate = new Date(Date.now() + 30 * DAY_MS).toISOString()
    const res = await call('/api/triggers', { token, body: { type: 'scheduled', config: { releaseDate, beneficiaries: [beneficiary.id, crypto.randomUUID()] } } })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(TRIGGER_MESSAGES.unknownBeneficiary)
    expect(((await (await call('/api/triggers', { token })).json()) as Trigger[]).filter((t) => t.type === 'scheduled')).toEqual([])
  })
})

describe('the next firing a trigger shows', () => {
  it('is there only while the trigger is active: a paused scheduled trigger shows none', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const releaseDate = new Date(Date.now() + 30 * DAY_MS).toISOString()
    const paused = await createTrigger(token, { type: 'scheduled', status: 'paused', config: { releaseDate, beneficiaries: [beneficiary.id] } })
    expect(paused.nextFireAt).toBeNull()
    const res = await call(`/api/triggers/${paused.id}`, { method: 'PUT', token, body: { status: 'active' } })
    expect(((await res.json()) as Trigger).nextFireAt).toBe(releaseDate)
  })

  it('of a monthly check-in schedule is 30 days after the last check-in and its grace after that: 31 days with a day of grace', async () => {
    const before = Date.now()
    const owner = await register()
    const trigger = await createTrigger(owner.token, { type: 'inactivity', config: { pingFrequency: 'monthly', gracePeriod: 1 } })
    const after = Date.now()
    const firesAt = Date.parse(trigger.nextFireAt!)
    // (Shown to the second.)
    expect(firesAt).toBeGreaterThanOrEqual(before - 1000 + 31 * DAY_MS)
    expect(firesAt).toBeLessThanOrEqual(after + 1000 + 31 * DAY_MS)
  })

  it('keeps a grace of up to ten years: 400 days of grace after a daily check-in fire 401 days on, and 3651 days are refused', async () => {
    const before = Date.now()
    const owner = await register()
    const trigger = await createTrigger(owner.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 400 } })
    const after = Date.now()
    const firesAt = Date.parse(trigger.nextFireAt!)
    // (Shown to the second.)
    expect(firesAt).toBeGreaterThanOrEqual(before - 1000 + 401 * DAY_MS)
    expect(firesAt).toBeLessThanOrEqual(after + 1000 + 401 * DAY_MS)
    const other = await register()
    const tooLong = await call('/api/triggers', { token: other.token, body: { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 3651 } } })
    expect(tooLong.status).toBe(400)
  })
})

describe('an approver who confirms their address', () => {
  it('is sent a death-report link only while a Verified death trigger is active: none while it is paused', { timeout: 20_000 }, async () => {
    const owner = await register()
    await createTrigger(owner.token, { type: 'verified_death', status: 'paused', config: {} })
    const approver = await verifiedApprover(owner.token)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await outboxFor(approver.email)).filter((m) => m.text.includes('/confirm-death'))).toEqual([])
  })
})
