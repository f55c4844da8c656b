import { describe, expect, it } from 'vitest'
import { SAFETY_WINDOW_MESSAGES } from '../../contract/settings'
import type { DryRunResult, EngineStatus } from '../../contract/triggers'
import { assetRows, createTrigger, guard, manualReleaseOk, ownerWithItem, policyCovering, verifiedApprover } from './engine-helpers'
import { call, linkTokenIn, login, messageOf, outboxFor, register, waitFor } from './helpers'
import { ownerExec } from './owner-helpers'

// The safety window (issue 0.2 · 2 of 7, point 4): what anyone or anything but the signed-in owner
// starts (a death report, silence, failed unlocks) makes nothing available before the window has
// passed; the owner is e-mailed at once, and a check-in, a sign-in or the cancel link stops it.

const HOUR = 3_600_000

async function releasesOf(token: string) {
  return ((await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus).releases
}

/** An owner whose item (own protocol Verified Death) is granted to a beneficiary, a trigger, and an approver's report link. */
async function deathSetup() {
  const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
  const approver = await verifiedApprover(s.token)
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  const mail = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/confirm-death')))
  return { ...s, approver, trigger, reportToken: linkTokenIn(mail, '/confirm-death') }
}

async function reportDeath(token: string) {
  const res = await call('/api/death-reports', { body: { token, certificateNumber: 'DC-1', dateOfDeath: '2026-11-20', attest: true } })
  expect(res.status).toBe(200)
}

const startedMail = (email: string) => waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/cancel-release')))

describe('the safety window setting', () => {
  it('is 72 hours unless the owner chooses at least 24; only theirs changes', async () => {
    const owner = await register()
    const other = await register()
    expect(await (await call('/api/user/safety-window', { token: owner.token })).json()).toEqual({ hours: 72 })
    for (const [hours, message] of [
      [23, SAFETY_WINDOW_MESSAGES.min],
      [721, SAFETY_WINDOW_MESSAGES.max],
      [36.5, SAFETY_WINDOW_MESSAGES.whole],
      ['48', SAFETY_WINDOW_MESSAGES.whole],
    ] as const) {
      const res = await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours } })
      expect(res.status, String(hours)).toBe(400)
      expect(await messageOf(res)).toBe(`hours: ${message}`)
    }
    const saved = await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 48 } })
    expect(await saved.json()).toEqual({ hours: 48, message: SAFETY_WINDOW_MESSAGES.saved })
    expect(await (await call('/api/user/safety-window', { token: owner.token })).json()).toEqual({ hours: 48 })
    expect(await (await call('/api/user/safety-window', { token: other.token })).json()).toEqual({ hours: 72 })
    expect((await call('/api/user/safety-window')).status).toBe(401)
    const audit = (await (await call('/api/audit', { token: owner.token })).json()) as Array<{ action: string; details: unknown }>
    expect(audit[0]).toMatchObject({ action: 'account.safety_window_set', details: { hours: 48 } })
  })
})

describe('changing the safety window', () => {
  it('warns the owner only when it gets shorter: 72 to 96 hours sends no warning, 96 to 48 sends one naming both', async () => {
    const owner = await register()
    const shortened = async () => (await outboxFor(owner.email)).filter((m) => m.text.includes('The safety window went from'))
    expect((await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 96 } })).status).toBe(200)
    expect((await call('/api/user/safety-window', { method: 'PUT', token: owner.token, body: { hours: 48 } })).status).toBe(200)
    await waitFor(async () => (await shortened()).find((m) => m.text.includes('from 96 to 48 hours')))
    const warnings = await shortened()
    expect(warnings.map((m) => m.text.match(/The safety window went from \d+ to \d+ hours/)?.[0])).toEqual(['The safety window went from 96 to 48 hours'])
  })
})

describe('a release nobody on the owner’s side started', () => {
  it('a death report: nothing available, the owner e-mailed at once, and the cancel link stops it', async () => {
    const s = await deathSetup()
    await call('/api/user/safety-window', { method: 'PUT', token: s.token, body: { hours: 48 } })
    const before = Date.now()
    await reportDeath(s.reportToken)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    const [release] = await releasesOf(s.token)
    expect(release).toMatchObject({ status: 'waiting', kind: 'verified_death' })
    expect(Date.parse(release!.releaseAt) - before).toBeGreaterThanOrEqual(48 * HOUR)
    expect(Date.parse(release!.releaseAt) - before).toBeLessThan(49 * HOUR)
    // Just before the window ends, still nothing.
    await guard(s.ownerId).tick(before + 47 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])

    const mail = await startedMail(s.owner.email)
    expect(mail.text).toContain('at the earliest')
    const cancel = await call('/api/releases/cancel', { body: { token: linkTokenIn(mail, '/cancel-release') } })
    expect(await cancel.json()).toMatchObject({ cancelledReleases: 1 })
    await guard(s.ownerId).tick(before + 49 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    expect((await releasesOf(s.token))[0]!.status).toBe('cancelled')
  })

  it('goes out once the window has passed, if nobody stopped it', async () => {
    const s = await deathSetup()
    const before = Date.now()
    await reportDeath(s.reportToken)
    await guard(s.ownerId).tick(before + 71 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(before + 72 * HOUR + 60_000)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it("a release due later sets the owner's object's alarm for its time, so it goes out when due without anyone asking", async () => {
    const s = await deathSetup()
    await reportDeath(s.reportToken)
    const [release] = await releasesOf(s.token)
    const { nextAlarmAt } = await guard(s.ownerId).clockView()
    expect(nextAlarmAt).not.toBeNull()
    expect(nextAlarmAt!).toBeGreaterThan(Date.now())
    expect(nextAlarmAt!).toBeLessThanOrEqual(Date.parse(release!.releaseAt))
  })

  it('a sign-in during the window cancels it, as a check-in does', async () => {
    const s = await deathSetup()
    await reportDeath(s.reportToken)
    expect((await releasesOf(s.token))[0]!.status).toBe('waiting')
    expect((await login(s.owner.email, s.owner.password)).status).toBe(200)
    const [release] = await releasesOf(s.token)
    expect(release!.status).toBe('cancelled')
    const audit = (await (await call('/api/audit', { token: s.token })).json()) as Array<{ action: string; details: Record<string, unknown> }>
    expect(audit.find((e) => e.action === 'release.cancelled')?.details).toMatchObject({ by: 'sign-in' })
    await guard(s.ownerId).tick(Date.now() + 100 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it("a policy's delay lengthens the window, never shortens it: a 1-hour policy waits the 72 hours", async () => {
    const s = await deathSetup()
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 1, requiresApprover: false } },
    })
    const before = Date.now()
    await reportDeath(s.reportToken)
    const [release] = await releasesOf(s.token)
    expect(Date.parse(release!.releaseAt) - before).toBeGreaterThanOrEqual(72 * HOUR)
    expect(Date.parse(release!.releaseAt) - before).toBeLessThan(73 * HOUR)
    await guard(s.ownerId).tick(before + HOUR + 60_000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(before + 72 * HOUR + 60_000)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })
})

describe('what the owner does now', () => {
  it('a manual release stays immediate, and the owner is still e-mailed', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ transferredItems: 1, pendingReleases: 0 })
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    const mail = await startedMail(s.owner.email)
    expect(mail.text).toContain('released to your beneficiaries at once')
  })

  it('the dry run shows the window a firing by itself would wait', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await call('/api/user/safety-window', { method: 'PUT', token: s.token, body: { hours: 96 } })
    const plan = (await (await call(`/api/trigger-engine/dry-run/${trigger.id}`, { method: 'POST', token: s.token })).json()) as DryRunResult
    expect(plan.safetyWindowHours).toBe(96)
    // A death report now: the item after the window; released by hand now: the same item, at once.
    const [fires, now] = plan.causes
    expect(fires).toMatchObject({ cause: 'fires', label: 'If a death report came now', itemCount: 1 })
    expect(fires!.entries[0]!.conditions.delayHours).toBe(96)
    expect(Date.parse(fires!.earliestAt!) - Date.now()).toBeGreaterThan(95 * HOUR)
    expect(now).toMatchObject({ cause: 'release_now', itemCount: 1 })
    expect(now!.entries[0]!.conditions.delayHours).toBe(0)
    expect(Date.parse(now!.earliestAt!) - Date.now()).toBeLessThan(60_000)
  })
})

describe('the Manual Release trigger', () => {
  it('is created like any other, never fires by itself, releases what names it, and leaves other triggers armed', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const death = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const manual = await createTrigger(s.token, { type: 'manual_release', config: {} })
    expect(manual).toMatchObject({ type: 'manual_release', status: 'active', nextFireAt: null })
    // Nothing fires it: a long silence and the engine's tick leave it alone.
    await guard(s.ownerId).tick(Date.now() + 400 * 24 * HOUR)
    const listed = (await (await call('/api/triggers', { token: s.token })).json()) as Array<{ id: string; status: string }>
    expect(listed.find((t) => t.id === manual.id)?.status).toBe('active')
    // A policy may name it.
    const plan = (await (await call(`/api/trigger-engine/dry-run/${manual.id}`, { method: 'POST', token: s.token })).json()) as DryRunResult
    // It never fires by itself: the dry run has one cause, releasing it now.
    expect(plan.causes.map((c) => c.cause)).toEqual(['release_now'])
    expect(plan.causes[0]).toMatchObject({ itemCount: 1, beneficiaryCount: 1, deliveryCount: 1 })

    expect(await manualReleaseOk(s.token, manual.id)).toEqual({
      releases: 1,
      transferredItems: 1,
      releasedItems: 1,
      beneficiariesNotified: 1,
      pendingReleases: 0,
      waitingUntil: null,
      nothingBecause: null,
    })
    const after = (await (await call('/api/triggers', { token: s.token })).json()) as Array<{ id: string; status: string }>
    expect(after.find((t) => t.id === manual.id)?.status).toBe('triggered')
    expect(after.find((t) => t.id === death.id)?.status).toBe('active')
  })

  it('can be named by a policy', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['manual_release'], delayHours: 0, requiresApprover: false } },
    })
    const manual = await createTrigger(s.token, { type: 'manual_release', config: {} })
    expect(await manualReleaseOk(s.token, manual.id)).toMatchObject({ releasedItems: 1 })
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })
})
