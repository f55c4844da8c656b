import { describe, expect, it } from 'vitest'
import type { DryRunResult, EngineStatus } from '../../contract/triggers'
import { assetRows, clockOf, createTrigger, firingCount, guard, manualReleaseOk, ownerWithItem, policyCovering, verifiedApprover } from './engine-helpers'
import { LINK_PURPOSES, signLinkToken, verifyLinkToken, type LinkPurpose } from '../../worker/services/link-tokens'
import { addBeneficiary, call, env, linkTokenIn, outboxFor, register, waitFor } from './helpers'
import { ownerExec } from './owner-helpers'
import { publicKey, uploadItem } from './vault-helpers'

// Rules a mutation pass of 0.1 found unguarded (issue 0.2 · 3 of 7): each test
// here fails when its rule is broken, whatever else still works.

const settle = () => new Promise((resolve) => setTimeout(resolve, 150))

async function releasesOf(token: string) {
  return ((await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus).releases
}

describe('a policy asking for two approvals', () => {
  it('waits after one sign-off and releases after the second', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    const { item } = await uploadItem(owner.token, [heir.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    const first = await verifiedApprover(owner.token)
    const second = await verifiedApprover(owner.token)
    await policyCovering(owner.token, heir.id, [item.id], {
      ruleJson: { assign: [{ beneficiaryId: heir.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: true } },
      requiresApprover: true,
      approverContact: first.email,
      minimumApprovals: 2,
    })
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ transferredItems: 0, pendingReleases: 1 })
    expect((await releasesOf(owner.token))[0]).toMatchObject({ status: 'waiting', requiredApprovals: 2, approvals: 0 })

    const approvalToken = async (email: string) =>
      linkTokenIn(await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/approve-release'))), '/approve-release')
    const one = await call('/api/release-approvals', { body: { token: await approvalToken(first.email), decision: 'approved' } })
    expect(await one.json()).toMatchObject({ status: 'waiting', approvals: 1, requiredApprovals: 2 })
    expect(await assetRows(owner.user.id, heir.id)).toEqual([])

    const two = await call('/api/release-approvals', { body: { token: await approvalToken(second.email), decision: 'approved' } })
    expect(await two.json()).toMatchObject({ status: 'released', approvals: 2 })
    expect((await assetRows(owner.user.id, heir.id)).map((a) => a.status)).toEqual(['available'])
  })
})

describe('the "a release has started" notice at firing', () => {
  it('goes to a beneficiary who wants notices, not to one in Secrecy Mode, nor to one who unsubscribed', async () => {
    const owner = await register()
    const key = await publicKey()
    const told = await addBeneficiary(owner.token, key, { fullName: 'Told Heir' })
    const secret = await addBeneficiary(owner.token, key, { fullName: 'Secret Heir', delayNotifications: true })
    const gone = await addBeneficiary(owner.token, key, { fullName: 'Gone Heir' })
    await ownerExec(owner.user.id, [`update beneficiaries set notification_status = 'unsubscribed' where id = ?`, gone.id])
    const heirs = [told, secret, gone]
    const { item } = await uploadItem(owner.token, heirs.map((h) => h.id))
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(owner.token, told.id, [item.id], {
      ruleJson: { assign: heirs.map((h) => ({ beneficiaryId: h.id, access: 'read' })), release: { on: ['verified_death'], delayHours: 72, requiresApprover: false } },
    })
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ pendingReleases: 1 })

    const notices = async (email: string) => (await outboxFor(email)).filter((m) => m.subject.endsWith('has started a release to you'))
    await waitFor(async () => (await notices(told.email)).length === 1)
    await settle()
    expect(await notices(told.email)).toHaveLength(1)
    expect(await notices(secret.email)).toEqual([])
    expect(await notices(gone.email)).toEqual([])
    // Nothing is available to anyone yet: the policy's 72 hours run.
    for (const h of heirs) expect(await assetRows(owner.user.id, h.id)).toEqual([])
  })
})

describe('every link purpose lives exactly as long as documented (point 5)', () => {
  // Written out here, not read from LINK_PURPOSES: a lifetime changed in the code fails this table.
  const DAY_S = 86_400
  const LIFETIMES: Record<LinkPurpose, number> = {
    beneficiaryVerify: 7 * DAY_S,
    approverVerify: 7 * DAY_S,
    beneficiaryNotifications: 365 * DAY_S,
    identityReview: 30 * DAY_S,
    checkIn: 30 * DAY_S,
    releaseCancel: 60 * DAY_S,
    releaseApproval: 60 * DAY_S,
    deathReport: 5 * 365 * DAY_S,
    beneficiaryAccess: 365 * DAY_S,
    assetContent: 30 * 60,
  }

  it('covers every purpose the code knows', () => {
    expect(Object.keys(LIFETIMES).sort()).toEqual(Object.keys(LINK_PURPOSES).sort())
  })

  it.each(Object.entries(LIFETIMES) as Array<[LinkPurpose, number]>)('%s: valid until its lifetime ends, expired one second after', async (purpose, seconds) => {
    const issued = Date.UTC(2026, 0, 1)
    const token = signLinkToken(env, purpose, 'subject-1', { owner: 'owner-1' }, issued)
    expect(await verifyLinkToken(env, purpose, token, issued + (seconds - 1) * 1000)).toMatchObject({ ok: true, subject: 'subject-1', owner: 'owner-1' })
    expect(await verifyLinkToken(env, purpose, token, issued + (seconds + 1) * 1000)).toEqual({ ok: false, reason: 'expired' })
  })
})

describe('boundaries, deterministically (point 6)', () => {
  const MINUTE = 60_000

  it('a scheduled trigger does not fire a minute before its date, and fires at it', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const at = Date.now() + 2 * 86_400_000
    await createTrigger(s.token, { type: 'scheduled', config: { releaseDate: new Date(at).toISOString(), beneficiaries: [s.beneficiary.id], description: 'A date' } })
    await guard(s.ownerId).tick(at - MINUTE)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(at)
    expect(await firingCount(s.ownerId)).toBe(1)
    // The owner's own date: no safety window.
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it('an INACTIVITY_N_DAYS item is not released a minute before N days of silence, and is at them', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_90_DAYS' })
    const trigger = await createTrigger(s.token, { type: 'inactivity' })
    const { lastCheckInAt } = await clockOf(s.ownerId)
    // A manual release of the inactivity trigger fires at once; the item still waits for 90 days
    // from the last check-in.
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1, transferredItems: 0 })
    const silentUntil = lastCheckInAt + 90 * 86_400_000
    await guard(s.ownerId).tick(silentUntil - MINUTE)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(silentUntil)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it("one owner's firing plans nothing of another's", async () => {
    const a = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const b = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(a.token, { type: 'manual_release', config: {} })
    const plan = (await (await call(`/api/trigger-engine/dry-run/${trigger.id}`, { method: 'POST', token: a.token })).json()) as DryRunResult
    expect(plan.entries.flatMap((e) => e.itemIds)).toEqual([a.item.id])
    await manualReleaseOk(a.token, trigger.id)
    expect(await assetRows(a.ownerId, a.beneficiary.id)).toHaveLength(1)
    expect(await assetRows(b.ownerId, b.beneficiary.id)).toEqual([])
    expect(await firingCount(b.ownerId)).toBe(0)
  })
})
