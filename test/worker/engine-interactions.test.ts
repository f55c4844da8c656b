import { describe, expect, it } from 'vitest'
import { HOUR_MS } from '../../contract/constants'
import { SAFETY_WINDOW } from '../../contract/settings'
import { UNLOCK_FORGIVE_MS, type EngineStatus } from '../../contract/triggers'
import { assetRows, clockOf, createTrigger, DAY_MS, firingCount, guard, mailedDeadline, manualReleaseOk, ownerWithItem, policyCovering } from './engine-helpers'
import { call, env, outboxFor, waitFor } from './helpers'
import { ownerExec, ownerRows } from './owner-helpers'

// How the engine's causes meet (worker/engine/tick.ts, fire.ts, cancel.ts). Time moves by running
// the owner's engine at a later moment (guard(id).tick(at)).

async function releasesOf(token: string) {
  return ((await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus).releases
}

const checkIn = async (token: string) => {
  const res = await call('/api/inactivity/ping', { method: 'POST', token })
  expect(res.status).toBe(200)
  return (await res.json()) as { cancelledReleases: number }
}

/** The item handed over only by a policy on `on`, after `delayHours`. */
async function policyOnly(s: Awaited<ReturnType<typeof ownerWithItem>>, on: string, delayHours: number) {
  await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
  await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
    ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: [on], delayHours, requiresApprover: false } },
  })
}

// README: "during a payment issue's grace nothing fires automatically, and firing resumes after
// it"; the triggers still monitor. For inactivity that means the check-in e-mail still goes out,
// the trigger does not fire when its own grace runs out inside the payment grace, and it fires
// once the payment grace has ended (without a new check-in e-mail).
describe('inactivity during a payment grace', () => {
  it('does not fire while the payment grace runs, though the check-in e-mail goes; it fires when the payment grace ends', { timeout: 20_000 }, async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    const start = (await clockOf(s.ownerId)).lastCheckInAt!
    const graceUntil = start + 10 * DAY_MS
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(graceUntil, s.ownerId).run()

    // Day 1: the check-in e-mail goes out, payment grace or not.
    await guard(s.ownerId).tick(start + DAY_MS + 60_000)
    const mail = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.text.includes('If we hear nothing by')))
    const firesAt = mailedDeadline(mail.text)
    expect(firesAt).toBeLessThan(graceUntil)

    // Past the e-mailed deadline, inside the payment grace: held, and the engine wakes at its end.
    const view = await guard(s.ownerId).tick(firesAt + DAY_MS)
    expect(await firingCount(s.ownerId)).toBe(0)
    expect(view.nextAlarmAt).toBe(graceUntil)
    await guard(s.ownerId).tick(graceUntil - 60_000)
    expect(await firingCount(s.ownerId)).toBe(0)

    await guard(s.ownerId).tick(graceUntil + 1000)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect((await releasesOf(s.token))[0]).toMatchObject({ kind: 'inactivity' })
  })
})

describe('a check-in never cancels a release the owner scheduled', () => {
  it('a scheduled date: what it released stays available after a check-in', { timeout: 20_000 }, async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const date = Date.now() + DAY_MS
    await createTrigger(s.token, { type: 'scheduled', config: { releaseDate: new Date(date).toISOString(), beneficiaries: [s.beneficiary.id], description: 'Birthday' } })
    await guard(s.ownerId).tick(date + 60_000)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])

    expect(await checkIn(s.token)).toEqual(expect.objectContaining({ cancelledReleases: 0 }))
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    expect((await releasesOf(s.token))[0]).toMatchObject({ kind: 'scheduled', status: 'released' })
  })

  it("a manual release waiting on a policy's delay: a check-in leaves it waiting, and it goes", { timeout: 20_000 }, async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await policyOnly(s, 'verified_death', 24)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const started = Date.now()
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1 })

    expect(await checkIn(s.token)).toEqual(expect.objectContaining({ cancelledReleases: 0 }))
    expect((await releasesOf(s.token))[0]).toMatchObject({ kind: 'manual', status: 'waiting' })
    await guard(s.ownerId).tick(started + 25 * HOUR_MS)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })
})

describe('a failed-unlock firing', () => {
  it("waits the safety window, even under a policy with no delay", { timeout: 20_000 }, async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await policyOnly(s, 'biometric_failure', 0)
    await createTrigger(s.token, { type: 'biometric_failure', config: { failureThreshold: 2, timeWindow: 1 } })
    for (let i = 0; i < 2; i++) expect((await call('/api/trigger-engine/biometric-failure', { token: s.token, body: { kind: 'vault_unlock' } })).status).toBe(200)
    const last = (await ownerRows<{ at: number }>(s.ownerId, 'select max(at) as at from unlock_failures'))[0]!.at
    const firedAt = last + UNLOCK_FORGIVE_MS
    await guard(s.ownerId).tick(firedAt)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect((await releasesOf(s.token))[0]).toMatchObject({ kind: 'biometric_failure', status: 'waiting' })

    const windowMs = SAFETY_WINDOW.defaultHours * HOUR_MS
    await guard(s.ownerId).tick(firedAt + windowMs - 60_000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(firedAt + windowMs)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })
})
