import { describe, expect, it } from 'vitest'
import type { DownloadedCopy } from '../../contract/releases'
import type { EngineStatus, Trigger } from '../../contract/triggers'
import { releaseCancelledOwnerEmail } from '../../worker/mail/release-templates'
import { assetRows, createTrigger, DAY_MS, guard, manualReleaseOk, policyCovering, setClock } from './engine-helpers'
import { call, linkTokenIn, outboxFor, waitFor } from './helpers'
import { ownerExec } from './owner-helpers'
import { ownerWithBeneficiary, uploadItem } from './vault-helpers'

// What one cancel takes back (worker/engine/cancel.ts): the monitor's cancel of a release, that
// release; an e-mailed cancel link, its own firing; and a trigger is re-armed only when nothing of
// its firing is left.

const HOUR = 3_600_000

async function releasesOf(token: string) {
  return ((await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus).releases
}

async function triggerOf(token: string, id: string): Promise<Trigger> {
  return ((await (await call('/api/triggers', { token })).json()) as Trigger[]).find((t) => t.id === id)!
}

/** An owner, one heir, and two items each handed over only by its own policy (on `on`, after `delayHours`). */
async function twoPolicies(a: { on: string; delayHours: number }, b: { on: string; delayHours: number }) {
  const s = await ownerWithBeneficiary()
  const items = [(await uploadItem(s.token, [s.beneficiary.id])).item, (await uploadItem(s.token, [s.beneficiary.id])).item]
  await ownerExec(s.ownerId, ['update item_grants set direct = 0'])
  for (const [i, p] of [a, b].entries()) {
    await policyCovering(s.token, s.beneficiary.id, [items[i]!.id], {
      name: `Policy ${i + 1}`,
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: [p.on], delayHours: p.delayHours, requiresApprover: false } },
    })
  }
  /** The items the heir has been handed, by item id. */
  const handed = async () => (await assetRows(s.ownerId, s.beneficiary.id)).map((r) => ({ item: (r as unknown as { item_id: string }).item_id, status: r.status }))
  return { ...s, items, handed }
}

const releaseOfItem = async (token: string, itemId: string) => (await releasesOf(token)).find((r) => r.itemIds.includes(itemId))!

describe("the monitor's cancel of one release", () => {
  it('cancels only that release: of two waiting, the other still releases', { timeout: 20_000 }, async () => {
    const s = await twoPolicies({ on: 'verified_death', delayHours: 24 }, { on: 'verified_death', delayHours: 24 })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const started = Date.now()
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 2 })
    const first = await releaseOfItem(s.token, s.items[0]!.id)
    const res = await call(`/api/trigger-engine/releases/${first.id}/cancel`, { method: 'POST', token: s.token })
    expect(res.status).toBe(200)
    expect(await releaseOfItem(s.token, s.items[0]!.id)).toMatchObject({ status: 'cancelled' })
    expect(await releaseOfItem(s.token, s.items[1]!.id)).toMatchObject({ status: 'waiting' })

    await guard(s.ownerId).tick(started + 25 * HOUR)
    expect(await releaseOfItem(s.token, s.items[1]!.id)).toMatchObject({ status: 'released' })
    expect(await s.handed()).toEqual([{ item: s.items[1]!.id, status: 'available' }])
  })
})

describe('an e-mailed cancel link', () => {
  it('cancels only its own firing: the release of another firing still goes', { timeout: 20_000 }, async () => {
    const s = await twoPolicies({ on: 'verified_death', delayHours: 24 }, { on: 'biometric_failure', delayHours: 24 })
    const death = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const unlocks = await createTrigger(s.token, { type: 'biometric_failure', config: { failureThreshold: 2, timeWindow: 1 } })
    const cancelLinks = async () => (await outboxFor(s.owner.email)).filter((m) => m.text.includes('/cancel-release')).map((m) => linkTokenIn(m, '/cancel-release'))
    const started = Date.now()
    await manualReleaseOk(s.token, death.id)
    const [deathLink] = await waitFor(async () => ((await cancelLinks()).length === 1 ? cancelLinks() : undefined))
    await manualReleaseOk(s.token, unlocks.id)
    await waitFor(async () => (await cancelLinks()).length === 2)

    const res = await call('/api/releases/cancel', { body: { token: deathLink } })
    expect(await res.json()).toMatchObject({ cancelledReleases: 1 })
    expect(await releaseOfItem(s.token, s.items[0]!.id)).toMatchObject({ status: 'cancelled', triggerId: death.id })
    expect(await releaseOfItem(s.token, s.items[1]!.id)).toMatchObject({ status: 'waiting', triggerId: unlocks.id })
    expect((await triggerOf(s.token, unlocks.id)).status).toBe('triggered')

    await guard(s.ownerId).tick(started + 25 * HOUR)
    expect(await s.handed()).toEqual([{ item: s.items[1]!.id, status: 'available' }])
  })
})

describe('a firing that already released something', () => {
  it('is not re-armed by cancelling the rest: its trigger stays triggered, and what went stays', { timeout: 20_000 }, async () => {
    const s = await twoPolicies({ on: 'verified_death', delayHours: 0 }, { on: 'verified_death', delayHours: 24 })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    expect(await releaseOfItem(s.token, s.items[0]!.id)).toMatchObject({ status: 'released' })
    const waiting = await releaseOfItem(s.token, s.items[1]!.id)
    expect(waiting.status).toBe('waiting')

    const res = await call(`/api/trigger-engine/releases/${waiting.id}/cancel`, { method: 'POST', token: s.token })
    expect(res.status).toBe(200)
    expect((await triggerOf(s.token, trigger.id)).status).toBe('triggered')
    expect(await releaseOfItem(s.token, s.items[0]!.id)).toMatchObject({ status: 'released' })
    expect(await s.handed()).toEqual([{ item: s.items[0]!.id, status: 'available' }])
  })
})

describe("cancelling a scheduled trigger's release", () => {
  it('once its date has passed leaves the trigger paused: it does not fire again at once', { timeout: 20_000 }, async () => {
    const s = await ownerWithBeneficiary()
    await uploadItem(s.token, [s.beneficiary.id])
    const trigger = await createTrigger(s.token, {
      type: 'scheduled',
      config: { releaseDate: new Date(Date.now() + 24 * HOUR).toISOString(), beneficiaries: [s.beneficiary.id], description: 'A date' },
    })
    // Its date comes (and goes): the tick fires it and the heir is handed the item.
    await ownerExec(s.ownerId, ['update triggers set fire_at = ? where id = ?', Date.now() - HOUR, trigger.id])
    await guard(s.ownerId).tick(Date.now())
    const [release] = await releasesOf(s.token)
    expect(release).toMatchObject({ status: 'released', triggerId: trigger.id })

    const res = await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { method: 'POST', token: s.token })
    expect(res.status).toBe(200)
    expect((await triggerOf(s.token, trigger.id)).status).toBe('paused')
    await guard(s.ownerId).tick(Date.now() + HOUR)
    expect((await releasesOf(s.token)).map((r) => r.status)).toEqual(['cancelled'])
  })
})

describe('an heir told that a release started', () => {
  it('is told when it is withdrawn, though nothing of it was available yet', { timeout: 20_000 }, async () => {
    const s = await twoPolicies({ on: 'verified_death', delayHours: 24 }, { on: 'verified_death', delayHours: 24 })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 2 })
    const subjects = async () => (await outboxFor(s.beneficiary.email)).map((m) => m.subject)
    await waitFor(async () => (await subjects()).some((t) => t.includes('has started a release to you')))
    const first = await releaseOfItem(s.token, s.items[0]!.id)
    expect((await call(`/api/trigger-engine/releases/${first.id}/cancel`, { method: 'POST', token: s.token })).status).toBe(200)
    await waitFor(async () => (await subjects()).some((t) => t.includes('has withdrawn a release to you')))
  })
})

describe('a check-in does not rewrite a release long since in the heir’s hands', () => {
  /** An inactivity firing whose item reached the heir after the safety window. */
  async function silenceReleased() {
    const s = await ownerWithBeneficiary()
    await uploadItem(s.token, [s.beneficiary.id], 100, { policy: { protocol: 'INACTIVITY_30_DAYS' } })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 60 * DAY_MS, phase: 'expired', checkInSentAt: Date.now() - 50 * DAY_MS })
    await guard(s.ownerId).tick()
    await guard(s.ownerId).tick(Date.now() + 73 * HOUR)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    const checkIn = async () => {
      expect((await call('/api/inactivity/ping', { method: 'POST', token: s.token })).status).toBe(200)
      expect((await releasesOf(s.token)).map((r) => r.status)).toEqual(['released'])
      expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
      expect((await outboxFor(s.beneficiary.email)).filter((m) => m.subject.includes('has withdrawn'))).toEqual([])
    }
    return { ...s, checkIn }
  }

  it('one whose every download was used: the check-in leaves it released, nothing withdrawn', { timeout: 20_000 }, async () => {
    const s = await silenceReleased()
    await ownerExec(s.ownerId, ['update released_assets set download_count = max_downloads'])
    await s.checkIn()
  })

  it('one whose items expired: the check-in leaves it released, nothing withdrawn', { timeout: 20_000 }, async () => {
    const s = await silenceReleased()
    await ownerExec(s.ownerId, ['update released_assets set expires_at = ?', Date.now() - 1000])
    await s.checkIn()
  })
})

describe("the owner's e-mail about a cancel", () => {
  it('lists up to 20 downloads and counts the rest: 20 are all listed, with no "more"; 21 list 20 and one more', () => {
    const copies = (n: number): DownloadedCopy[] =>
      Array.from({ length: n }, (_, i) => ({ itemType: 'doc', plainSize: 100 + i, itemAddedAt: '2026-01-01T00:00:00.000Z', beneficiaryName: `Heir ${i + 1}`, downloadedAt: '2026-02-01T00:00:00.000Z' }))
    const mail = (n: number) => releaseCancelledOwnerEmail({ timeZone: 'UTC', displayName: 'Owner', releases: 1, withdrawnItems: 1, heirsTold: 1, downloaded: copies(n) }).text
    const twenty = mail(20)
    expect(twenty).toContain('Heir 20')
    expect(twenty).not.toContain('more downloads')
    const twentyOne = mail(21)
    expect(twentyOne).not.toContain('Heir 21')
    expect(twentyOne).toContain('And 1 more downloads, listed in your audit log.')
  })
})
