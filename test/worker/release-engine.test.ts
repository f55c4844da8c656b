import { mirrorAccount } from '../../worker/owner/account'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { AssetDownload, ReleasedAsset } from '../../contract/releases'
import { RELEASE_MESSAGES } from '../../contract/releases'
import type { DryRunResult, EngineStatus, Trigger } from '../../contract/triggers'
import { CLOCK_MESSAGES, TRIGGER_MESSAGES, UNLOCK_FORGIVE_MS } from '../../contract/triggers'
import { runSweeps } from '../../worker/cron'
import { signLinkToken } from '../../worker/lib/link-tokens'
import type { OwnerVault } from '../../worker/host/vault-object'
import { exports } from 'cloudflare:workers'
import { addApprover, addBeneficiary, call, env, freshIp, linkTokenIn, messageOf, outbox, outboxFor, waitFor } from './helpers'
import {
  assetRows,
  clockOf,
  createTrigger,
  DAY_MS,
  firingCount,
  guard,
  manualRelease,
  mailedDeadline,
  manualReleaseOk,
  ownerWithItem,
  policyCovering,
  portalToken,
  setClock,
  verifiedApprover,
  waitingPolicyRelease,
} from './engine-helpers'
import { concatBytes, ownerWithBeneficiary, publicKey, sameBytes, uploadItem } from './vault-helpers'
import { ownerExec, ownerRows } from './owner-helpers'

async function assets(beneficiaryId: string, token: string): Promise<ReleasedAsset[]> {
  const res = await call(`/api/beneficiaries/${beneficiaryId}/assets?token=${encodeURIComponent(token)}`)
  expect(res.status).toBe(200)
  return (await res.json()) as ReleasedAsset[]
}

function download(beneficiaryId: string, assetId: string, token: string) {
  return call(`/api/beneficiaries/${beneficiaryId}/assets/${assetId}/download?token=${encodeURIComponent(token)}`)
}

/**
 * A policy handing the owner's item to their beneficiary on a verified death, once
 * `minimumApprovals` approvers (`contact` named on it) have signed off; the item's direct grant
 * becomes the policy's, so only the policy can release it.
 */
async function signedOffPolicy(s: Awaited<ReturnType<typeof ownerWithItem>>, contact: string, minimumApprovals: number) {
  await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
  await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
    ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: true } },
    requiresApprover: true,
    approverContact: contact,
    minimumApprovals,
  })
}

async function status(token: string): Promise<EngineStatus> {
  return (await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus
}

describe('a deleted item', () => {
  it('is never released, not even by its own scheduled date', async () => {
    const s = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(Date.now() + DAY_MS).toISOString() })
    expect((await call(`/api/vault/items/${s.item.id}`, { method: 'DELETE', token: s.token })).status).toBe(200)
    await guard(s.ownerId).tick(Date.now() + 2 * DAY_MS)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })
})

describe('manual release', () => {
  it("says when a release waiting on its policy's delay will go: 100 hours from the release, not now", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 100, requiresApprover: false } },
    })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const before = Date.now()
    const result = await manualReleaseOk(s.token, trigger.id)
    const after = Date.now()
    expect(result).toMatchObject({ pendingReleases: 1, transferredItems: 0, nothingBecause: null })
    const waitingUntil = Date.parse(result.waitingUntil!)
    expect(waitingUntil).toBeGreaterThanOrEqual(before + 100 * 3_600_000)
    expect(waitingUntil).toBeLessThanOrEqual(after + 100 * 3_600_000)
  })

  it('releases a manual-release item at once, tells the beneficiary, and serves it to them only', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const result = await manualReleaseOk(s.token, trigger.id)
    expect(result).toEqual({ releases: 1, transferredItems: 1, releasedItems: 1, beneficiariesNotified: 1, pendingReleases: 0, waitingUntil: null, nothingBecause: null })

    const token = await portalToken(s.beneficiary.email)
    const [asset] = await assets(s.beneficiary.id, token)
    expect(asset).toMatchObject({ status: 'available', downloadCount: 0, maxDownloads: 5, vaultItem: { id: s.item.id, type: 'doc' } })
    expect(Date.parse(asset!.expiresAt!)).toBeGreaterThan(Date.now() + 80 * DAY_MS)

    const res = await download(s.beneficiary.id, asset!.id, token)
    expect(res.status).toBe(200)
    const body = (await res.json()) as AssetDownload
    expect(body).toMatchObject({ encryptedMasterKey: btoa('grant-0'), downloadCount: 1, maxDownloads: 5 })
    const content = await call(body.contentUrl)
    expect(content.status).toBe(200)
    expect(sameBytes(new Uint8Array(await content.arrayBuffer()), concatBytes(s.parts))).toBe(true)

    // The token names one beneficiary: another id, or a forged token, is refused.
    expect((await call(`/api/beneficiaries/${crypto.randomUUID()}/assets?token=${encodeURIComponent(token)}`)).status).toBe(403)
    expect((await call(`/api/beneficiaries/${s.beneficiary.id}/assets?token=${encodeURIComponent(token + 'x')}`)).status).toBe(400)
    // The trigger is spent: a second release is refused.
    const again = await manualRelease(s.token, trigger.id)
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(TRIGGER_MESSAGES.alreadyTriggered)
    expect(((await (await call('/api/triggers', { token: s.token })).json()) as Trigger[])[0]!.status).toBe('triggered')
  })

  it('needs a reason and an explicit confirmation', async () => {
    const s = await ownerWithItem()
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const noReason = await call(`/api/trigger-engine/manual/${trigger.id}`, { token: s.token, body: { reason: ' ', confirm: 'RELEASE' } })
    expect(noReason.status).toBe(400)
    expect(await messageOf(noReason)).toContain(TRIGGER_MESSAGES.reasonRequired)
    const unconfirmed = await call(`/api/trigger-engine/manual/${trigger.id}`, { token: s.token, body: { reason: 'Test' } })
    expect(unconfirmed.status).toBe(400)
    expect(await messageOf(unconfirmed)).toContain(TRIGGER_MESSAGES.confirmationRequired)
    expect(await firingCount(s.ownerId)).toBe(0)
  })

  it('dry run shows, per cause, what would go to whom and releases nothing', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'inactivity' })
    const res = await call(`/api/trigger-engine/dry-run/${trigger.id}`, { method: 'POST', token: s.token })
    const plan = (await res.json()) as DryRunResult
    expect(plan.paymentHold).toBe(false)
    // A manual-release item goes only when the owner releases by hand, not when the trigger fires by itself.
    const [fires, now] = plan.causes
    expect(fires).toMatchObject({ cause: 'fires', label: 'If your check-in grace ran out now', itemCount: 0, entries: [], earliestAt: null })
    expect(now).toMatchObject({ cause: 'release_now', label: 'If you release now', itemCount: 1, beneficiaryCount: 1 })
    expect(now!.entries[0]).toMatchObject({
      source: { kind: 'item', itemId: s.item.id, protocol: 'MANUAL_RELEASE' },
      itemIds: [s.item.id],
      beneficiaries: [{ id: s.beneficiary.id, fullName: s.beneficiary.fullName }],
      conditions: { delayHours: 0, minimumApprovals: 0 },
    })
    expect(await firingCount(s.ownerId)).toBe(0)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it('waits for the approver named on the item, who signs off through their own link', async () => {
    const approverEmail = `signer-${crypto.randomUUID().slice(0, 8)}@example.com`
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE', requiresApprover: true, approverContact: approverEmail })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ releases: 1, transferredItems: 0, releasedItems: 0, beneficiariesNotified: 0, pendingReleases: 1, nothingBecause: null })
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])

    const request = await waitFor(async () => (await outboxFor(approverEmail))[0])
    const token = linkTokenIn(request, '/approve-release')
    const view = await (await call(`/api/release-approvals?token=${encodeURIComponent(token)}`)).json()
    expect(view).toMatchObject({ itemCount: 1, beneficiaryNames: [s.beneficiary.fullName], approvals: 0, requiredApprovals: 1, status: 'waiting', yourDecision: null })
    const approved = await call('/api/release-approvals', { body: { token, decision: 'approved', notes: 'Confirmed with the family.' } })
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ approvals: 1, status: 'released', yourDecision: 'approved' })
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    // One answer per person.
    const twice = await call('/api/release-approvals', { body: { token, decision: 'rejected' } })
    expect(twice.status).toBe(409)
  })
})

describe('approvals of a policy (rules pinned first in promise-pins)', () => {
  it('a policy asking for two approvals waits for two: one sign-off leaves it waiting, the second releases it', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const approvers = [await verifiedApprover(s.token), await verifiedApprover(s.token), await verifiedApprover(s.token)]
    await signedOffPolicy(s, approvers[0]!.email, 2)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1, transferredItems: 0 })
    expect((await status(s.token)).releases[0]).toMatchObject({ status: 'waiting', requiredApprovals: 2, approvals: 0 })
    const sign = async (email: string) => {
      const mail = await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/approve-release')))
      return (await call('/api/release-approvals', { body: { token: linkTokenIn(mail, '/approve-release'), decision: 'approved' } })).json()
    }
    expect(await sign(approvers[1]!.email)).toMatchObject({ status: 'waiting', approvals: 1, requiredApprovals: 2 })
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    expect(await sign(approvers[2]!.email)).toMatchObject({ status: 'released', approvals: 2 })
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  }, 60_000)
})

describe('the "a release has started" notice at firing (rule pinned first in promise-pins)', () => {
  it('Secrecy Mode and an unsubscribed beneficiary get no "release started" notice at firing; one who wants notices gets one', async () => {
    const s = await ownerWithBeneficiary()
    const key = await publicKey()
    const secret = await addBeneficiary(s.token, key, { fullName: 'Secret Heir', delayNotifications: true })
    const gone = await addBeneficiary(s.token, key, { fullName: 'Gone Heir' })
    await ownerExec(s.ownerId, [`update beneficiaries set notification_status = 'unsubscribed' where id = ?`, gone.id])
    const heirs = [s.beneficiary, secret, gone]
    const { item } = await uploadItem(s.token, heirs.map((h) => h.id))
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(s.token, s.beneficiary.id, [item.id], {
      ruleJson: { assign: heirs.map((h) => ({ beneficiaryId: h.id, access: 'read' })), release: { on: ['verified_death'], delayHours: 72, requiresApprover: false } },
    })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    const notices = async (email: string) => (await outboxFor(email)).filter((m) => m.subject.endsWith('has started a release to you'))
    await waitFor(async () => (await notices(s.beneficiary.email)).length === 1)
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(await notices(secret.email)).toEqual([])
    expect(await notices(gone.email)).toEqual([])
  }, 60_000)
})

describe('an approver removed mid-release', () => {
  it("their approval links stop working (400); the release asks only the people left and goes on", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const kept = await verifiedApprover(s.token)
    const removed = await verifiedApprover(s.token)
    await signedOffPolicy(s, kept.email, 2)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    const tokenOf = async (email: string) =>
      linkTokenIn(await waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/approve-release'))), '/approve-release')
    const keptToken = await tokenOf(kept.email)
    const removedToken = await tokenOf(removed.email)
    expect(await (await call(`/api/release-approvals?token=${encodeURIComponent(removedToken)}`)).json()).toMatchObject({ requiredApprovals: 2 })

    expect((await call(`/api/approvers/${removed.id}`, { method: 'DELETE', token: s.token })).status).toBe(200)
    for (const res of [
      await call(`/api/release-approvals?token=${encodeURIComponent(removedToken)}`),
      await call('/api/release-approvals', { body: { token: removedToken, decision: 'approved' } }),
    ]) {
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(RELEASE_MESSAGES.linkInvalid)
    }
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    // The one approver left is enough now, as it would have been had the policy been planned with one.
    expect(await (await call(`/api/release-approvals?token=${encodeURIComponent(keptToken)}`)).json()).toMatchObject({ approvals: 0, requiredApprovals: 1 })
    const approved = await call('/api/release-approvals', { body: { token: keptToken, decision: 'approved' } })
    expect(await approved.json()).toMatchObject({ status: 'released', approvals: 1 })
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    const actions = ((await (await call('/api/audit', { token: s.token })).json()) as Array<{ action: string }>).map((e) => e.action)
    expect(actions).toContain('release.signer_withdrawn')
  })

  it('removing an approver never lets a waiting release that needs sign-off go without any: with its only approver removed it goes to no one', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const only = await verifiedApprover(s.token)
    await signedOffPolicy(s, only.email, 1)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    await waitFor(async () => (await outboxFor(only.email)).find((m) => m.text.includes('/approve-release')))
    expect((await call(`/api/approvers/${only.id}`, { method: 'DELETE', token: s.token })).status).toBe(200)
    await guard(s.ownerId).tick(Date.now() + DAY_MS)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    expect((await status(s.token)).releases.map((r) => r.status)).toEqual(['cancelled'])
  })
})

describe('an item set to Emergency', () => {
  it("is released by the owner's manual release, whichever trigger it names", async () => {
    const s = await ownerWithItem({ protocol: 'EMERGENCY' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })
})

describe("who signs a policy's release off", () => {
  it("only approvers who verified their address are asked to sign off a policy's release", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const verified = await verifiedApprover(s.token)
    const unverified = await addApprover(s.token)
    await signedOffPolicy(s, verified.email, 1)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    const asked = await ownerRows<{ email: string }>(s.ownerId, 'select email from release_signoffs')
    expect(asked.map((r) => r.email)).toEqual([verified.email.toLowerCase()])
    await waitFor(async () => (await outboxFor(verified.email)).find((m) => m.text.includes('/approve-release')))
    expect((await outboxFor(unverified.email)).filter((m) => m.text.includes('/approve-release'))).toEqual([])
  })
})

describe('the inactivity clock (alarm-driven)', () => {
  const checkInMails = async (email: string) => (await outboxFor(email)).filter((m) => m.text.includes('/check-in'))

  it('sends the check-in e-mail, then fires after the grace period, releasing an inactivity item', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    // Silent for 31 days: the alarm sends the check-in e-mail first, and fires nothing yet.
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 31 * DAY_MS })
    expect(await runDurableObjectAlarm(guard(s.ownerId))).toBe(true)
    expect((await clockOf(s.ownerId)).phase).toBe('checkin_sent')
    const checkIn = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.subject.includes('check in')))
    expect(linkTokenIn(checkIn, '/check-in')).toBeTruthy()
    expect(await firingCount(s.ownerId)).toBe(0)

    // The trigger's grace period (1 day) runs out unanswered: the alarm fires the trigger.
    await setClock(s.ownerId, { checkInSentAt: Date.now() - DAY_MS - 1000 })
    expect(await runDurableObjectAlarm(guard(s.ownerId))).toBe(true)
    expect(await firingCount(s.ownerId)).toBe(1)
    // Silence is not the owner acting: nothing is available before the 72-hour safety window ends,
    // and the owner is e-mailed at once with the way to stop it.
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    const started = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.text.includes('/cancel-release')))
    expect(started.subject).toBe('A release of your vault has started')
    await guard(s.ownerId).tick(Date.now() + 71 * 3_600_000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(Date.now() + 72 * 3_600_000 + 60_000)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    // Running it again releases nothing more.
    await guard(s.ownerId).tick(Date.now() + 73 * 3_600_000)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })

  it('a grace of two days has its reminder, a day before it ends: not a minute early, and the trigger fires at its end', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 2 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - DAY_MS - 1000 })
    await guard(s.ownerId).tick()
    const sentAt = (await clockOf(s.ownerId)).checkInSentAt!
    expect(sentAt).not.toBeNull()
    const reminders = async () => (await checkInMails(s.owner.email)).filter((m) => m.subject.startsWith('Reminder')).length
    await guard(s.ownerId).tick(sentAt + DAY_MS - 60_000)
    expect(await reminders()).toBe(0)
    await guard(s.ownerId).tick(sentAt + DAY_MS + 60_000)
    expect(await reminders()).toBe(1)
    expect((await clockOf(s.ownerId)).phase).toBe('reminder_sent')
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(sentAt + 2 * DAY_MS + 1000)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('a check-in from the e-mailed link resets the clock', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity' })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 8 * DAY_MS })
    await runDurableObjectAlarm(guard(s.ownerId))
    const mail = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.subject.includes('check in')))
    const res = await call('/api/inactivity/check-in', { body: { token: linkTokenIn(mail, '/check-in') } })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { message: string }).message).toBe(RELEASE_MESSAGES.checkedIn)
    const clock = await clockOf(s.ownerId)
    expect(clock.phase).toBe('ok')
    expect(Date.now() - clock.lastCheckInAt).toBeLessThan(60_000)
  })

  it('a paused trigger never fires', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const trigger = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 60 * DAY_MS, phase: 'expired', checkInSentAt: Date.now() - 50 * DAY_MS })
    await guard(s.ownerId).tick()
    await runSweeps(env)
    expect(await firingCount(s.ownerId)).toBe(0)
  })

  it("a payment issue's grace holds firing, which resumes after it", async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    const holdUntil = Date.now() + 7 * DAY_MS
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(holdUntil, s.ownerId).run()
    await mirrorAccount(s.ownerId)
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 60 * DAY_MS, phase: 'expired', checkInSentAt: Date.now() - 50 * DAY_MS })
    const view = await guard(s.ownerId).tick()
    expect(await firingCount(s.ownerId)).toBe(0)
    expect(view.nextAlarmAt).toBe(holdUntil)
    expect((await status(s.token)).paymentHoldUntil).toBe(new Date(holdUntil).toISOString())

    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(Date.now() - 1000, s.ownerId).run()
    await mirrorAccount(s.ownerId)
    await guard(s.ownerId).tick()
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('a sign-in resets the clock', async () => {
    const s = await ownerWithItem()
    await createTrigger(s.token, { type: 'inactivity' })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 9 * DAY_MS, phase: 'checkin_sent', checkInSentAt: Date.now() - 2 * DAY_MS })
    expect((await call('/api/auth/login', { body: { email: s.owner.email, password: s.owner.password } })).status).toBe(200)
    await waitFor(async () => ((await clockOf(s.ownerId)).phase === 'ok' ? true : undefined))
    expect(Date.now() - (await clockOf(s.ownerId)).lastCheckInAt).toBeLessThan(60_000)
  })

  it("the monitor reports the engine running once the sweep has run, on the trigger's own schedule", async () => {
    const s = await ownerWithItem()
    const trigger = await createTrigger(s.token, { type: 'inactivity' })
    await runSweeps(env)
    const engine = await status(s.token)
    // The trigger's weekly check-in and 14-day grace, not the settings' 7 days and a fixed 3.
    expect(engine).toMatchObject({ isRunning: true, phase: 'ok', inactivityTriggerId: trigger.id, pingFrequencyDays: 7, graceDays: 14, paymentHoldUntil: null })
    expect(Date.now() - Date.parse(engine.lastSweepAt!)).toBeLessThan(60_000)
    expect(engine.nextAlarmAt).toBe(engine.nextCheckInAt)
    const lastCheckInAt = Date.parse(engine.lastCheckInAt!)
    expect(Date.parse(engine.nextCheckInAt!)).toBe(lastCheckInAt + 7 * DAY_MS)
    expect(Date.parse(engine.reminderAt!)).toBe(lastCheckInAt + 20 * DAY_MS)
    expect(Date.parse(engine.firesAt!)).toBe(Math.ceil((lastCheckInAt + 21 * DAY_MS) / 1000) * 1000)
    // The trigger card says the same.
    const [listed] = (await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]
    expect(listed!.nextFireAt).toBe(engine.firesAt)
  })

  it('saving the /settings frequency re-arms the alarm but does not move the clock, which runs on the trigger', async () => {
    const s = await ownerWithItem()
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'monthly', gracePeriod: 5 } })
    const before = await guard(s.ownerId).clockView()
    const res = await call('/api/user/ping-settings', { method: 'PUT', token: s.token, body: { pingFrequency: 7, gracePeriod: 3 } })
    expect(res.status).toBe(200)
    const after = await guard(s.ownerId).clockView()
    expect(after.nextCheckInAt).toBe(after.lastCheckInAt + 30 * DAY_MS)
    expect(after.nextCheckInAt).toBe(before.nextCheckInAt)
    expect(after.nextAlarmAt).toBe(after.nextCheckInAt)
    expect(await status(s.token)).toMatchObject({ pingFrequencyDays: 30, graceDays: 5 })
  })

  it('weekly with 14 days of grace: the e-mail and the reminder name the firing time to the millisecond, and it fires then, not before', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const trigger = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 14 } })
    const t0 = Date.now() - 60_000
    await setClock(s.ownerId, { lastCheckInAt: t0, phase: 'ok', checkInSentAt: null })
    await guard(s.ownerId).tick(t0 + 7 * DAY_MS - 1)
    expect(await checkInMails(s.owner.email)).toEqual([])
    // The alarm rings 5 minutes and 123 ms late: the grace runs from the e-mail actually sent.
    const sentAt = t0 + 7 * DAY_MS + 5 * 60_000 + 123
    await guard(s.ownerId).tick(sentAt)
    const mail = await waitFor(async () => (await checkInMails(s.owner.email))[0])
    const engine = await status(s.token)
    const firesAt = Date.parse(engine.firesAt!)
    expect(firesAt).toBeGreaterThanOrEqual(sentAt + 14 * DAY_MS)
    expect(firesAt).toBeLessThan(sentAt + 14 * DAY_MS + 1000)
    expect(mailedDeadline(mail.text)).toBe(firesAt)
    expect(mail.text).toContain(CLOCK_MESSAGES.emailSchedule(7, 14))
    const [listed] = (await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]
    expect(Date.parse(listed!.nextFireAt!)).toBe(firesAt)
    expect(listed!.id).toBe(trigger.id)

    // The reminder, a day before the grace ends, names the same time.
    await guard(s.ownerId).tick(sentAt + 13 * DAY_MS - 1)
    expect(await checkInMails(s.owner.email)).toHaveLength(1)
    await guard(s.ownerId).tick(sentAt + 13 * DAY_MS)
    const reminder = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.subject.startsWith('Reminder')))
    expect(mailedDeadline(reminder.text)).toBe(firesAt)
    // Once the mail is handed over, the alarm is set for the firing itself.
    expect((await guard(s.ownerId).tick(sentAt + 13 * DAY_MS)).nextAlarmAt).toBe(firesAt)

    await guard(s.ownerId).tick(firesAt - 1)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(firesAt)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('daily with 1 day of grace: no reminder, and a lost alarm still fires at the e-mailed time by the next sweep', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    const t0 = Date.now() - 60_000
    await setClock(s.ownerId, { lastCheckInAt: t0, phase: 'ok', checkInSentAt: null })
    await guard(s.ownerId).tick(t0 + DAY_MS)
    const mail = await waitFor(async () => (await checkInMails(s.owner.email))[0])
    const firesAt = Date.parse((await status(s.token)).firesAt!)
    expect(firesAt).toBe(Math.ceil((t0 + 2 * DAY_MS) / 1000) * 1000)
    expect(mailedDeadline(mail.text)).toBe(firesAt)
    // One day of grace: no reminder; the alarm is set for the firing itself.
    expect((await status(s.token)).reminderAt).toBeNull()
    expect((await guard(s.ownerId).tick(t0 + DAY_MS)).nextAlarmAt).toBe(firesAt)

    // The alarm is lost: the sweep a minute and a bit after the firing time rings the object.
    await runInDurableObject(guard(s.ownerId), async (_i: OwnerVault, state) => state.storage.deleteAlarm())
    await runSweeps(env, firesAt + 59_000)
    expect(await firingCount(s.ownerId)).toBe(0)
    await runSweeps(env, firesAt + 61_000)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect((await outboxFor(s.owner.email)).filter((m) => m.subject.startsWith('Reminder'))).toEqual([])
  })

  it('without an active inactivity trigger there is no clock: no next check-in, no check-in e-mail, no "clock reset"', async () => {
    const s = await ownerWithItem()
    await createTrigger(s.token, { type: 'verified_death', config: {} })
    const none = await status(s.token)
    expect(none).toMatchObject({ inactivityTriggerId: null, nextCheckInAt: null, reminderAt: null, firesAt: null, pingFrequencyDays: null, graceDays: null })
    const ping = await call('/api/inactivity/ping', { method: 'POST', token: s.token })
    expect(((await ping.json()) as { nextCheckInAt: string | null }).nextCheckInAt).toBeNull()
    await guard(s.ownerId).tick(Date.now() + 40 * DAY_MS)
    expect(await checkInMails(s.owner.email)).toEqual([])

    // A paused inactivity trigger runs no clock either.
    const paused = await createTrigger(s.token, { type: 'inactivity', status: 'paused' })
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: null, nextCheckInAt: null })
    expect(paused.nextFireAt).toBeNull()
    // Activated, it does, on its own schedule.
    await call(`/api/triggers/${paused.id}`, { method: 'PUT', token: s.token, body: { status: 'active' } })
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: paused.id, pingFrequencyDays: 7, graceDays: 14 })
  })

  it('a check-in after the clock expired (the trigger fired, with nothing to release) sends the next e-mail on time', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 3 * DAY_MS, phase: 'checkin_sent', checkInSentAt: Date.now() - 2 * DAY_MS })
    await guard(s.ownerId).tick()
    expect(await firingCount(s.ownerId)).toBe(1)
    expect((await clockOf(s.ownerId)).phase).toBe('expired')
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: null, nextCheckInAt: null })

    // The check-in re-arms the trigger; the clock starts again and its alarm is set for the e-mail.
    const ping = await call('/api/inactivity/ping', { method: 'POST', token: s.token })
    expect(ping.status).toBe(200)
    const answer = (await ping.json()) as { lastCheckInAt: string; nextCheckInAt: string | null }
    const dueAt = Date.parse(answer.lastCheckInAt) + DAY_MS
    expect(Date.parse(answer.nextCheckInAt!)).toBe(dueAt)
    const view = await guard(s.ownerId).clockView()
    expect(view.schedule?.triggerId).toBe(trigger.id)
    expect(view.nextAlarmAt).toBe(dueAt)
    const mailsBefore = (await checkInMails(s.owner.email)).length
    expect(await runInDurableObject(guard(s.ownerId), async (_i: OwnerVault, state) => state.storage.getAlarm())).toBe(dueAt)
    await guard(s.ownerId).tick(dueAt)
    await waitFor(async () => ((await checkInMails(s.owner.email)).length > mailsBefore ? true : undefined))
    expect((await clockOf(s.ownerId)).checkInSentAt).toBe(dueAt)
  })

  it("editing the trigger's schedule: the e-mail already sent no longer counts, and the next names the new deadline", async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const trigger = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 14 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 10 * DAY_MS, phase: 'checkin_sent', checkInSentAt: Date.now() - 3 * DAY_MS })
    const res = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { config: { pingFrequency: 'daily', gracePeriod: 2 } } })
    expect(res.status).toBe(200)
    const edited = (await res.json()) as Trigger
    expect(edited.config).toEqual({ pingFrequency: 'daily', gracePeriod: 2 })
    // Overdue under the new schedule: a new e-mail went out at once, with the full new grace.
    const mail = await waitFor(async () => (await checkInMails(s.owner.email))[0])
    const engine = await status(s.token)
    expect(engine).toMatchObject({ pingFrequencyDays: 1, graceDays: 2, phase: 'checkin_sent' })
    const sentAt = (await clockOf(s.ownerId)).checkInSentAt!
    expect(Date.now() - sentAt).toBeLessThan(60_000)
    expect(Date.parse(engine.firesAt!)).toBe(Math.ceil((sentAt + 2 * DAY_MS) / 1000) * 1000)
    expect(mailedDeadline(mail.text)).toBe(Date.parse(engine.firesAt!))
    expect(Date.parse(edited.nextFireAt!)).toBe(Date.parse(engine.firesAt!))
    expect(await firingCount(s.ownerId)).toBe(0)

    // Only an inactivity trigger has a schedule; a fired one cannot be changed.
    const death = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const wrong = await call(`/api/triggers/${death.id}`, { method: 'PUT', token: s.token, body: { config: { pingFrequency: 'daily', gracePeriod: 2 } } })
    expect(wrong.status).toBe(400)
    expect(await messageOf(wrong)).toBe(TRIGGER_MESSAGES.scheduleOnlyInactivity)
    await manualReleaseOk(s.token, trigger.id)
    const fired = await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { config: { pingFrequency: 'daily', gracePeriod: 2 } } })
    expect(fired.status).toBe(409)
  })

  it('data from before one trigger per owner: the clock runs on the one that would fire first; when it fires, the next takes over with its own e-mail', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const slow = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 14 } })
    const fastId = crypto.randomUUID()
    const now = Date.now()
    await ownerExec(s.ownerId, [
      "insert into triggers (id, type, status, config, generation, created_at, updated_at) values (?, 'inactivity', 'active', ?, 0, ?, ?)",
      fastId,
      JSON.stringify({ pingFrequency: 'daily', gracePeriod: 1 }),
      now,
      now,
    ])
    await guard(s.ownerId).tick()
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: fastId, pingFrequencyDays: 1, graceDays: 1 })
    const listed = (await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]
    expect(listed.find((t) => t.id === slow.id)!.nextFireAt).toBeNull()

    const { lastCheckInAt } = await clockOf(s.ownerId)
    await guard(s.ownerId).tick(lastCheckInAt + DAY_MS)
    const first = await waitFor(async () => (await checkInMails(s.owner.email))[0])
    const fastFires = mailedDeadline(first.text)
    await guard(s.ownerId).tick(fastFires)
    expect((await ownerRows<{ id: string; status: string }>(s.ownerId, 'select id, status from triggers order by created_at')).map((t) => t.status)).toEqual(['active', 'triggered'])
    // The weekly one takes over, as a new schedule: its own e-mail at L + 7 days, naming its own 14-day deadline.
    const slowFires = Math.ceil((lastCheckInAt + 21 * DAY_MS) / 1000) * 1000
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: slow.id, phase: 'ok', nextCheckInAt: new Date(lastCheckInAt + 7 * DAY_MS).toISOString(), firesAt: new Date(slowFires).toISOString() })
    await guard(s.ownerId).tick(lastCheckInAt + 7 * DAY_MS)
    const second = await waitFor(async () => (await checkInMails(s.owner.email)).find((m) => mailedDeadline(m.text) !== fastFires))
    expect(mailedDeadline(second.text)).toBe(slowFires)
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: slow.id, graceDays: 14 })
  })
})

describe('several inactivity triggers from before one per owner: the tie', () => {
  it('of two with the same F + G, the clock runs on the older one (by creation), whichever was written last', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const newer = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 14 } })
    const olderId = crypto.randomUUID()
    const created = Date.parse(newer.createdAt) - 60_000
    await ownerExec(s.ownerId, [
      "insert into triggers (id, type, status, config, generation, created_at, updated_at) values (?, 'inactivity', 'active', ?, 0, ?, ?)",
      olderId,
      JSON.stringify({ pingFrequency: 'weekly', gracePeriod: 14 }),
      created,
      Date.now(),
    ])
    await guard(s.ownerId).tick()
    expect(await status(s.token)).toMatchObject({ inactivityTriggerId: olderId, pingFrequencyDays: 7, graceDays: 14 })
  })
})

describe('the engine on its boundaries (rules pinned first in promise-pins)', () => {
  const MINUTE = 60_000
  const wholeSecondAgo = () => Math.floor(Date.now() / 1000) * 1000 - 1000

  it('a scheduled trigger fires at its date, not a minute before', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const at = Date.now() + 3 * DAY_MS
    await createTrigger(s.token, { type: 'scheduled', config: { releaseDate: new Date(at).toISOString(), beneficiaries: [s.beneficiary.id], description: 'A date' } })
    await guard(s.ownerId).tick(at - MINUTE)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(at)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('an INACTIVITY_N_DAYS item waits N days of silence: not a minute before, and released at them', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const trigger = await createTrigger(s.token, { type: 'inactivity' })
    const { lastCheckInAt } = await clockOf(s.ownerId)
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ pendingReleases: 1, transferredItems: 0 })
    await guard(s.ownerId).tick(lastCheckInAt + 30 * DAY_MS - MINUTE)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(lastCheckInAt + 30 * DAY_MS)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it('the check-in e-mail goes when the frequency has passed, and the grace period runs in full before anything fires', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 3 } })
    const t0 = wholeSecondAgo()
    await setClock(s.ownerId, { lastCheckInAt: t0, phase: 'ok', checkInSentAt: null })
    await guard(s.ownerId).tick(t0 + 7 * DAY_MS - MINUTE)
    expect((await clockOf(s.ownerId)).phase).toBe('ok')
    await guard(s.ownerId).tick(t0 + 7 * DAY_MS)
    expect((await clockOf(s.ownerId)).phase).toBe('checkin_sent')
    await guard(s.ownerId).tick(t0 + 10 * DAY_MS - MINUTE)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(t0 + 10 * DAY_MS)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('a paused trigger never fires, even long past its date, and a paused inactivity trigger runs no check-in clock', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const at = Date.now() + DAY_MS
    await createTrigger(s.token, { type: 'scheduled', status: 'paused', config: { releaseDate: new Date(at).toISOString(), beneficiaries: [s.beneficiary.id], description: 'A date' } })
    await createTrigger(s.token, { type: 'inactivity', status: 'paused', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await guard(s.ownerId).tick(at + 90 * DAY_MS)
    expect(await firingCount(s.ownerId)).toBe(0)
    expect((await clockOf(s.ownerId)).phase).toBe('ok')
  })

  it('after a plan ends the owner can still check in, and the check-in moves the clock', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 8 * DAY_MS })
    await env.DB.prepare("update users set subscription_status = 'canceled' where id = ?").bind(s.ownerId).run()
    await mirrorAccount(s.ownerId)
    const res = await call('/api/inactivity/ping', { method: 'POST', token: s.token })
    expect(res.status, await res.clone().text()).toBe(200)
    expect((await clockOf(s.ownerId)).lastCheckInAt).toBeGreaterThan(Date.now() - MINUTE)
  })
})

describe('verified death, delays and cancelling', () => {
  it("an approver's confirmation, attested, fires it; a check-in during the delay cancels and re-arms", async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {})
    // The item's own VERIFIED_DEATH protocol would release at once; make it policy-only.
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    const approver = await verifiedApprover(s.token)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const linkMail = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/confirm-death')))
    const reportToken = linkTokenIn(linkMail, '/confirm-death')
    expect(await (await call(`/api/death-reports?token=${encodeURIComponent(reportToken)}`)).json()).toMatchObject({ alreadyConfirmed: false })

    const missing = await call('/api/death-reports', { body: { token: reportToken, certificateNumber: '', dateOfDeath: '2026-11-20', attest: true } })
    expect(await messageOf(missing)).toContain(RELEASE_MESSAGES.certificateRequired)
    // The approver must attest that they have seen the certificate: unticked is no confirmation.
    const unattested = await call('/api/death-reports', { body: { token: reportToken, certificateNumber: 'DC-123', dateOfDeath: '2026-11-20', attest: false } })
    expect(unattested.status).toBe(400)
    expect(await messageOf(unattested)).toContain(RELEASE_MESSAGES.attestationRequired)
    expect(await firingCount(s.ownerId)).toBe(0)
    const confirmed = await call('/api/death-reports', { body: { token: reportToken, certificateNumber: 'DC-123', dateOfDeath: '2026-11-20', attest: true } })
    expect(confirmed.status).toBe(200)
    expect(await firingCount(s.ownerId)).toBe(1)
    const [release] = (await status(s.token)).releases
    expect(release).toMatchObject({ status: 'waiting', kind: 'verified_death', sourceName: 'Family documents', itemIds: [s.item.id], beneficiaryNames: [s.beneficiary.fullName] })
    expect(Date.parse(release!.releaseAt) - Date.now()).toBeGreaterThan(71 * 3_600_000)
    // The owner is told, with a one-click cancel link.
    const started = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.text.includes('/cancel-release')))
    expect(linkTokenIn(started, '/cancel-release')).toBeTruthy()

    const ping = await call('/api/inactivity/ping', { method: 'POST', token: s.token })
    expect(await ping.json()).toMatchObject({ cancelledReleases: 1 })
    expect((await status(s.token)).releases[0]!.status).toBe('cancelled')
    const [rearmed] = (await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]
    expect(rearmed).toMatchObject({ id: trigger.id, status: 'active' })
    // The old confirmation does not fire the re-armed trigger.
    await guard(s.ownerId).tick()
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it('the cancel link stops a delayed release without signing in; after the delay it would have gone', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], { ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['biometric_failure'], delayHours: 24, requiresApprover: false } } })
    const trigger = await createTrigger(s.token, { type: 'biometric_failure', config: { failureThreshold: 2, timeWindow: 1 } })
    await call('/api/trigger-engine/biometric-failure', { token: s.token, body: { kind: 'vault_unlock' } })
    const second = await call('/api/trigger-engine/biometric-failure', { token: s.token, body: { kind: 'vault_unlock' } })
    // Failed unlocks count once 15 minutes pass without a successful unlock.
    expect(await second.json()).toMatchObject({ fired: 0, attemptsLeft: 0 })
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 1000)
    expect(await firingCount(s.ownerId)).toBe(1)
    const started = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.text.includes('/cancel-release')))
    const cancel = await call('/api/releases/cancel', { body: { token: linkTokenIn(started, '/cancel-release') } })
    expect(await cancel.json()).toMatchObject({ cancelledReleases: 1 })
    const triggersNow = (await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]
    expect(triggersNow.find((t) => t.id === trigger.id)!.status).toBe('active')
    // Past the delay, the sweep finds nothing to release.
    await runSweeps(env, Date.now() + 2 * DAY_MS)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })
})

describe('idempotence and recovery', () => {
  it('three concurrent firings of the same trigger release once', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const created = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const results = await Promise.all([1, 2, 3].map(() => manualRelease(s.token, created.id, 'race')))
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409])
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
    const released = (await outboxFor(s.beneficiary.email)).filter((m) => m.text.includes('view=assets'))
    expect(released).toHaveLength(1)
  })

  it('a lost alarm is recovered by the sweep (scheduled trigger)', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const trigger = await createTrigger(s.token, {
      type: 'scheduled',
      config: { releaseDate: new Date(Date.now() + DAY_MS).toISOString(), beneficiaries: [s.beneficiary.id], description: 'Birthday' },
    })
    const releaseAt = Date.parse(trigger.config.releaseDate as string)
    expect((await guard(s.ownerId).clockView()).nextAlarmAt).toBe(releaseAt)
    // The directory holds the same time, for the sweep.
    const row = await env.DB.prepare('select next_due_at as at from users where id = ?').bind(s.ownerId).first<{ at: number }>()
    expect(row?.at).toBe(releaseAt)
    // The alarm is lost; the date passes (the sweep runs ten minutes after it).
    await runInDurableObject(guard(s.ownerId), async (_i: OwnerVault, state) => state.storage.deleteAlarm())
    expect(await firingCount(s.ownerId)).toBe(0)
    await runSweeps(env, releaseAt - 10 * 60_000)
    expect(await firingCount(s.ownerId)).toBe(0)
    const result = await runSweeps(env, releaseAt + 10 * 60_000)
    expect(result.ownersWoken).toBeGreaterThanOrEqual(1)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })

  it("an item's own scheduled date releases it, once", async () => {
    const scheduledAt = Date.now() + DAY_MS
    const s = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(scheduledAt).toISOString() })
    // The item's date is the object's next alarm, and the directory's next due time.
    expect((await guard(s.ownerId).clockView()).nextAlarmAt).toBe(scheduledAt)
    const later = scheduledAt + 5 * 60_000
    await Promise.all([runSweeps(env, later), guard(s.ownerId).tick(later)])
    await runSweeps(env, later)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })

  it("an item with its own scheduled date goes on that date, never before it (not when it was added)", async () => {
    const scheduledAt = Date.now() + 3 * DAY_MS
    const s = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(scheduledAt).toISOString() })
    // Ticks and sweeps at every point before the date, the item's first day among them, release nothing.
    for (const at of [Date.now() + 60_000, Date.now() + DAY_MS, scheduledAt - 60_000]) {
      await guard(s.ownerId).tick(at)
      await runSweeps(env, at)
      expect(await firingCount(s.ownerId)).toBe(0)
      expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(0)
    }
    await guard(s.ownerId).tick(scheduledAt + 60_000)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })
})

describe("an item's own date, on its boundary", () => {
  it("an item's own scheduled date releases it at that date, not a minute before", async () => {
    const scheduledAt = Date.now() + 2 * DAY_MS
    const s = await ownerWithItem({ protocol: 'SCHEDULED', scheduledAt: new Date(scheduledAt).toISOString() })
    await guard(s.ownerId).tick(scheduledAt - 30_000)
    expect(await firingCount(s.ownerId)).toBe(0)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(scheduledAt)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })
})

describe('released assets', () => {
  it('concurrent downloads at the limit allow exactly the maximum', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const token = await portalToken(s.beneficiary.email)
    const [asset] = await assets(s.beneficiary.id, token)
    // Twelve tickets while none is used: a ticket counts nothing until it fetches.
    const tickets = await Promise.all(Array.from({ length: 12 }, async () => ((await (await download(s.beneficiary.id, asset!.id, token)).json()) as AssetDownload).contentUrl))
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(0)
    const responses = await Promise.all(tickets.map((url) => call(url)))
    const codes = responses.map((r) => r.status).sort()
    expect(codes.filter((c) => c === 200)).toHaveLength(5)
    expect(codes.filter((c) => c === 403)).toHaveLength(7)
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(5)
    expect((await assets(s.beneficiary.id, token))[0]!.status).toBe('exhausted')
    // Spent: no more tickets.
    expect((await download(s.beneficiary.id, asset!.id, token)).status).toBe(403)
  })

  it('counts a download once per ticket, when its content is first served: a re-fetch is free, an unused ticket costs nothing', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const token = await portalToken(s.beneficiary.email)
    const [asset] = await assets(s.beneficiary.id, token)
    const count = async () => (await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count
    const unused = (await (await download(s.beneficiary.id, asset!.id, token)).json()) as AssetDownload
    expect(unused.downloadCount).toBe(1)
    expect(await count()).toBe(0)
    const used = (await (await download(s.beneficiary.id, asset!.id, token)).json()) as AssetDownload
    const [first, second] = await Promise.all([call(used.contentUrl), call(used.contentUrl)])
    expect([first.status, second.status]).toEqual([200, 200])
    expect((await call(used.contentUrl)).status).toBe(200)
    expect(await count()).toBe(1)
    expect((await assets(s.beneficiary.id, token))[0]!.downloadCount).toBe(1)
    // A ticket with no id (as issued before downloads were counted at the fetch) is refused.
    const bare = signLinkToken(env, 'assetContent', `${asset!.id}:${s.beneficiary.id}`, { owner: s.ownerId })
    const refused = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${asset!.id}/content?ticket=${encodeURIComponent(bare)}`)
    expect(refused.status).toBe(400)
    expect(await count()).toBe(1)
  })

  it("a download gives each beneficiary the item's data key wrapped for them, never another beneficiary's wrap of it", async () => {
    const s = await ownerWithBeneficiary()
    const other = await addBeneficiary(s.token, await publicKey(), { fullName: 'Other Heir' })
    // One item for both: the first heir's grant is "grant-0", the other's "grant-1".
    await uploadItem(s.token, [s.beneficiary.id, other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    for (const [heir, wrap] of [[s.beneficiary, btoa('grant-0')], [other, btoa('grant-1')]] as const) {
      const token = await portalToken(heir.email)
      const [asset] = await assets(heir.id, token)
      const answer = (await (await download(heir.id, asset!.id, token)).json()) as AssetDownload
      expect(answer.encryptedMasterKey, heir.fullName).toBe(wrap)
      expect(asset!.vaultItem.wrappedKey, heir.fullName).toBe(wrap)
    }
  }, 30_000)

  it("a portal link opens only its own beneficiary's assets, and a download ticket fetches only the asset it was issued for", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const other = await addBeneficiary(s.token, await publicKey(), { fullName: 'Other Heir' })
    await uploadItem(s.token, [other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    await uploadItem(s.token, [s.beneficiary.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const portal = await portalToken(s.beneficiary.email)
    const [mine, alsoMine] = await assets(s.beneficiary.id, portal)
    const [theirs] = await assetRows(s.ownerId, other.id)
    expect((await call(`/api/beneficiaries/${other.id}/assets?token=${encodeURIComponent(portal)}`)).status).toBe(403)
    expect((await download(other.id, theirs!.id, portal)).status).toBe(403)
    // A ticket for one asset, at the address of another (the heir's own, or another heir's): refused, nothing counted.
    const ticket = new URL(((await (await download(s.beneficiary.id, mine!.id, portal)).json()) as AssetDownload).contentUrl, 'http://localhost').searchParams.get('ticket')!
    for (const [heir, asset] of [[s.beneficiary.id, alsoMine!.id], [other.id, theirs!.id]] as const) {
      const res = await call(`/api/beneficiaries/${heir}/assets/${asset}/content?ticket=${encodeURIComponent(ticket)}`)
      expect(res.status, asset).toBe(403)
    }
    expect((await assetRows(s.ownerId, other.id))[0]!.download_count).toBe(0)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.download_count)).toEqual([0, 0])
  }, 60_000)

  it('a download ticket works for 30 minutes, and an asset stays downloadable for 90 days from its release', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const [asset] = await assetRows(s.ownerId, s.beneficiary.id)
    const [row] = await ownerRows<{ created_at: number; expires_at: number }>(s.ownerId, 'select created_at, expires_at from released_assets where id = ?', asset!.id)
    expect(row!.expires_at - row!.created_at).toBe(90 * DAY_MS)
    const content = (age: number) => {
      const ticket = signLinkToken(env, 'assetContent', `${asset!.id}:${s.beneficiary.id}`, { owner: s.ownerId, nonce: crypto.randomUUID() }, Date.now() - age)
      return call(`/api/beneficiaries/${s.beneficiary.id}/assets/${asset!.id}/content?ticket=${encodeURIComponent(ticket)}`)
    }
    expect((await content(29 * 60_000)).status).toBe(200)
    const stale = await content(31 * 60_000)
    expect(stale.status).toBe(400)
    expect(await messageOf(stale)).toBe(RELEASE_MESSAGES.linkExpired)
  })

  it('an asset past its 90 days is refused (410) at the download and at a ticket taken in time', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const token = await portalToken(s.beneficiary.email)
    const [asset] = await assets(s.beneficiary.id, token)
    const ticket = ((await (await download(s.beneficiary.id, asset!.id, token)).json()) as AssetDownload).contentUrl
    const releasedAt = Date.now() - 90 * DAY_MS - 60_000
    await ownerExec(s.ownerId, ['update released_assets set created_at = ?, expires_at = ? where id = ?', releasedAt, releasedAt + 90 * DAY_MS, asset!.id])
    expect((await download(s.beneficiary.id, asset!.id, token)).status).toBe(410)
    expect((await call(ticket)).status).toBe(410)
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(0)
  })

  it('an expired asset is refused', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const token = await portalToken(s.beneficiary.email)
    const [asset] = await assets(s.beneficiary.id, token)
    await ownerExec(s.ownerId, ['update released_assets set expires_at = ? where id = ?', Date.now() - 1000, asset!.id])
    const res = await download(s.beneficiary.id, asset!.id, token)
    expect(res.status).toBe(410)
    expect(await messageOf(res)).toMatch(new RegExp(`^${RELEASE_MESSAGES.assetExpired} `))
    expect((await assets(s.beneficiary.id, token))[0]!.status).toBe('expired')
  })

  it('an item whose grant to the heir is gone by the time its release is due is not handed to them (nothing was wrapped for them)', async () => {
    const s = await waitingPolicyRelease(24)
    // The owner's grant of the item to this heir goes while the release waits.
    await ownerExec(s.ownerId, ['delete from item_grants where item_id = ? and beneficiary_id = ?', s.item.id, s.beneficiary.id])
    await guard(s.ownerId).tick(Date.now() + 25 * 3_600_000)
    expect(await ownerRows<{ status: string }>(s.ownerId, 'select status from releases')).toEqual([{ status: 'released' }])
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it("asks for identity on an heir's portal only for that heir's own held assets: another heir, released to without a check, is not asked", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await verifiedApprover(s.token)
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
      requiresIdentityVerification: true,
    })
    const other = await addBeneficiary(s.token, await publicKey())
    await uploadItem(s.token, [other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ transferredItems: 2 })
    const portalOf = async (id: string, email: string) => {
      const token = await portalToken(email)
      return (await call(`/api/beneficiaries/${id}/portal?token=${encodeURIComponent(token)}`)).json()
    }
    expect(await portalOf(s.beneficiary.id, s.beneficiary.email)).toMatchObject({ identityRequired: true })
    expect(await portalOf(other.id, other.email)).toMatchObject({ identityRequired: false })
  })

  it('a policy requiring identity holds assets until the beneficiary is verified, then opens them and e-mails the beneficiary that they can download them', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await verifiedApprover(s.token)
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
      requiresIdentityVerification: true,
    })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ transferredItems: 1, pendingReleases: 0 })
    const token = await portalToken(s.beneficiary.email)
    const portal = await (await call(`/api/beneficiaries/${s.beneficiary.id}/portal?token=${encodeURIComponent(token)}`)).json()
    expect(portal).toMatchObject({ identityRequired: true, identityStatus: 'unverified', reviewerReady: true })
    const [asset] = await assets(s.beneficiary.id, token)
    expect(asset!.status).toBe('pending_identity')
    const blocked = await download(s.beneficiary.id, asset!.id, token)
    expect(blocked.status).toBe(409)
    expect(await messageOf(blocked)).toBe(RELEASE_MESSAGES.assetPendingIdentity)

    // The beneficiary uploads an ID from the portal; it goes to review and shows pending.
    const form = new FormData()
    form.set('documentType', 'passport')
    form.set('documentNumber', 'P1234567')
    form.set('issuingAuthority', 'State Department')
    form.set('expirationDate', '2031-01-01')
    form.set('frontImage', new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], 'id.jpg', { type: 'image/jpeg' }))
    const url = `http://localhost/api/beneficiaries/${s.beneficiary.id}/identity-document?token=${encodeURIComponent(token)}`
    const upload = await exports.default.fetch(new Request(url, { method: 'POST', body: form, headers: { 'cf-connecting-ip': freshIp() } }))
    expect(upload.status).toBe(201)
    expect(await (await call(`/api/beneficiaries/${s.beneficiary.id}/portal?token=${encodeURIComponent(token)}`)).json()).toMatchObject({ identityStatus: 'pending' })
    const releasedMails = async () => (await outboxFor(s.beneficiary.email)).filter((m) => m.subject.includes('has left something for you'))
    const toldBefore = await releasedMails()
    expect(toldBefore).toHaveLength(1)
    expect(toldBefore[0]!.text).toContain('your identity be verified')

    // The approver approves through their review link: the asset opens, and the beneficiary is told.
    const review = await waitFor(async () => (await outbox()).find((m) => m.text.includes('/review-identity')))
    const decided = await call('/api/identity-verifications', {
      body: { token: linkTokenIn(review, '/review-identity'), status: 'approved', verificationNotes: 'Photo matches.' },
    })
    expect(decided.status).toBe(200)
    expect((await assets(s.beneficiary.id, token))[0]!.status).toBe('available')
    // Told again, now that the items can be downloaded.
    const told = await waitFor(async () => {
      const mails = await releasedMails()
      return mails.length === 2 ? mails : undefined
    })
    expect(told.filter((m) => m.text.includes('load the private key from your Beneficiary Access Kit'))).toHaveLength(1)
    expect((await download(s.beneficiary.id, asset!.id, token)).status).toBe(200)
  })
})

describe('audit chain', () => {
  it('records acts in a verifiable chain; editing or deleting a row shows it compromised', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const entries = (await (await call('/api/audit', { token: s.token })).json()) as Array<{ seq: number; action: string; details: Record<string, unknown> }>
    const actions = entries.map((e) => e.action)
    expect(actions).toEqual(expect.arrayContaining(['trigger.created', 'trigger.manual_release', 'release.completed']))
    expect(entries[0]!.seq).toBe(entries.length)
    // Nothing secret or named: no file names, keys or tokens.
    expect(JSON.stringify(entries)).not.toMatch(/grant-0|wrapped|token/i)
    expect(await (await call('/api/audit/verify', { token: s.token })).json()).toMatchObject({ valid: true, headMatches: true, brokenAt: null })

    await runInDurableObject(guard(s.ownerId), async (_i: OwnerVault, state) => {
      state.storage.sql.exec(`update audit set details = '{"triggerId":"forged"}' where seq = 2`)
    })
    expect(await (await call('/api/audit/verify', { token: s.token })).json()).toMatchObject({ valid: false, brokenAt: 2 })

    const other = await ownerWithItem()
    await createTrigger(other.token, { type: 'inactivity' })
    await createTrigger(other.token, { type: 'verified_death', config: {} })
    await runInDurableObject(guard(other.ownerId), async (_i: OwnerVault, state) => {
      state.storage.sql.exec('delete from audit where seq = (select max(seq) from audit)')
    })
    expect(await (await call('/api/audit/verify', { token: other.token })).json()).toMatchObject({ valid: false, headMatches: false })
    // And another owner's chain is theirs alone.
    const mine = (await (await call('/api/audit', { token: other.token })).json()) as Array<{ details: Record<string, unknown> }>
    expect(JSON.stringify(mine)).not.toContain(trigger.id)
  })
})
