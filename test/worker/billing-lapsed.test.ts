import { mirrorAccount } from '../../worker/owner/account'
import { describe, expect, it } from 'vitest'
import { BILLING_MESSAGES } from '../../contract/billing'
import type { EngineStatus, Trigger } from '../../contract/triggers'
import { createTrigger, ownerWithItem, verifiedApprover } from './engine-helpers'
import { call, env, linkTokenIn, messageOf, outboxFor, waitFor } from './helpers'

// After a plan ends (worker/middleware/subscription.ts): the promise to the heirs is kept, and the
// owner can always pause, cancel and check in, paid or not; what adds or arms still answers 402.

// As the sweep or a webhook ends a plan: in D1, and mirrored into the owner's object.
const lapse = async (ownerId: string) => {
  await env.DB.prepare("update users set subscription_status = 'canceled' where id = ?").bind(ownerId).run()
  await mirrorAccount(ownerId)
}

async function expectPaymentRequired(res: Response) {
  expect(res.status).toBe(402)
  const body = (await res.clone().json()) as { requiresPayment?: boolean }
  expect(body.requiresPayment).toBe(true)
  expect(await messageOf(res)).toBe(BILLING_MESSAGES.subscriptionRequired)
}

/** An owner with an armed death trigger whose release is waiting (an approver reported the death). */
async function waitingRelease() {
  const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
  const approver = await verifiedApprover(s.token)
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  const mail = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/confirm-death')))
  const reported = await call('/api/death-reports', {
    body: { token: linkTokenIn(mail, '/confirm-death'), certificateNumber: 'DC-1', dateOfDeath: '2026-11-20', attest: true },
  })
  expect(reported.status).toBeLessThan(300)
  return { ...s, trigger }
}

describe('after the plan ends: the owner can always stop a release', () => {
  it('lists the triggers and the engine state, and pauses a trigger', async () => {
    const s = await waitingRelease()
    const inactivity = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })
    await lapse(s.ownerId)
    const list = await call('/api/triggers', { token: s.token })
    expect(list.status).toBe(200)
    expect(((await list.json()) as Trigger[]).map((t) => t.id)).toContain(s.trigger.id)
    const status = await call('/api/trigger-engine/status', { token: s.token })
    expect(status.status).toBe(200)
    expect(((await status.json()) as EngineStatus).releases.length).toBeGreaterThan(0)
    const paused = await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })
    expect(paused.status).toBe(200)
    expect(((await paused.json()) as Trigger).status).toBe('paused')
  })

  it('cancels a waiting release', async () => {
    const s = await waitingRelease()
    await lapse(s.ownerId)
    const { releases } = (await (await call('/api/trigger-engine/status', { token: s.token })).json()) as EngineStatus
    const res = await call(`/api/trigger-engine/releases/${releases[0]!.id}/cancel`, { method: 'POST', token: s.token })
    expect(res.status).toBe(200)
  })

  it('checks in', async () => {
    const s = await ownerWithItem()
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })
    await lapse(s.ownerId)
    const res = await call('/api/inactivity/ping', { method: 'POST', token: s.token })
    expect(res.status, await res.clone().text()).toBe(200)
  })

  it('still needs a plan to create, arm or reschedule a trigger, or to release by hand', async () => {
    const s = await ownerWithItem()
    const inactivity = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })
    const manual = await createTrigger(s.token, { type: 'manual_release', config: {} })
    await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })
    await lapse(s.ownerId)
    await expectPaymentRequired(await call('/api/triggers', { token: s.token, body: { type: 'manual_release', status: 'active', config: {} } }))
    await expectPaymentRequired(await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token: s.token, body: { status: 'active' } }))
    await expectPaymentRequired(
      await call(`/api/triggers/${inactivity.id}`, { method: 'PUT', token: s.token, body: { status: 'paused', config: { pingFrequency: 'monthly', gracePeriod: 7 } } }),
    )
    await expectPaymentRequired(await call(`/api/trigger-engine/manual/${manual.id}`, { token: s.token, body: { reason: 'x', confirm: 'RELEASE' } }))
    await expectPaymentRequired(await call(`/api/trigger-engine/dry-run/${manual.id}`, { method: 'POST', token: s.token }))
  })

  it('still needs a plan to send the death-report links again', async () => {
    const s = await ownerWithItem()
    const death = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await lapse(s.ownerId)
    await expectPaymentRequired(await call(`/api/triggers/${death.id}/resend-report-links`, { method: 'POST', token: s.token }))
  })
})
