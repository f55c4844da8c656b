import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { IdentityDocument } from '../../contract/identity'
import { RELEASE_MESSAGES } from '../../contract/releases'
import type { DryRunResult, EngineStatus } from '../../contract/triggers'
import { runSweeps } from '../../worker/cron'
import { LINK_PURPOSES, signLinkToken, verifyLinkToken, type LinkPurpose } from '../../worker/lib/link-tokens'
import { LINK_LIFETIME_SECONDS } from './link-lifetimes'
import { assetRows, clockOf, createTrigger, firingCount, guard, manualRelease, manualReleaseOk, ownerWithItem, policyBody, policyCovering, portalToken, setClock, verifiedApprover } from './engine-helpers'
import { addBeneficiary, call, env, freshIp, linkTokenIn, messageOf, outboxFor, register, waitFor } from './helpers'
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

  it('a cancelled release tells only the heirs who were told it started that it was withdrawn', async () => {
    const owner = await register()
    const key = await publicKey()
    const told = await addBeneficiary(owner.token, key, { fullName: 'Told Heir' })
    const secret = await addBeneficiary(owner.token, key, { fullName: 'Secret Heir', delayNotifications: true })
    const { item } = await uploadItem(owner.token, [told.id, secret.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(owner.token, told.id, [item.id], {
      ruleJson: { assign: [told, secret].map((h) => ({ beneficiaryId: h.id, access: 'read' })), release: { on: ['verified_death'], delayHours: 72, requiresApprover: false } },
    })
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(owner.token, trigger.id)).toMatchObject({ pendingReleases: 1 })
    const [release] = await releasesOf(owner.token)
    expect((await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { method: 'POST', token: owner.token })).status).toBe(200)

    const withdrawn = async (email: string) => (await outboxFor(email)).filter((m) => m.subject.includes('withdrawn'))
    await waitFor(async () => (await withdrawn(told.email)).length === 1)
    await settle()
    expect(await withdrawn(told.email)).toHaveLength(1)
    // Secrecy Mode: never told it started, so not told it was taken back either.
    expect(await withdrawn(secret.email)).toEqual([])
  }, 180_000)
})

describe('the audit chain', () => {
  it('stays whole when one act appends several entries at once (a release of two items completes two releases)', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    await uploadItem(owner.token, [heir.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    await uploadItem(owner.token, [heir.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(owner.token, { type: 'manual_release', config: {} })
    await manualReleaseOk(owner.token, trigger.id)
    const entries = (await (await call('/api/audit', { token: owner.token })).json()) as Array<{ action: string }>
    expect(entries.filter((e) => e.action === 'release.completed')).toHaveLength(2)
    expect(await (await call('/api/audit/verify', { token: owner.token })).json()).toMatchObject({ valid: true, brokenAt: null, headMatches: true })
  }, 180_000)
})

describe('an heir’s portal', () => {
  it('prepares a download only of an asset released to that heir: another heir of the same item gets 404 for its id', async () => {
    const owner = await register()
    const key = await publicKey()
    const heir = await addBeneficiary(owner.token, key, { fullName: 'Named Heir' })
    const other = await addBeneficiary(owner.token, key, { fullName: 'Other Heir' })
    const { item } = await uploadItem(owner.token, [heir.id, other.id])
    await ownerExec(owner.user.id, ['update item_grants set direct = 0 where item_id = ?', item.id])
    await policyCovering(owner.token, heir.id, [item.id], {
      ruleJson: { assign: [{ beneficiaryId: heir.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
    })
    const trigger = await createTrigger(owner.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(owner.token, trigger.id)
    const [asset] = await assetRows(owner.user.id, heir.id)
    expect(asset?.status).toBe('available')
    const token = signLinkToken(env, 'beneficiaryAccess', other.id, { owner: owner.user.id })
    const res = await call(`/api/beneficiaries/${other.id}/assets/${asset!.id}/download?token=${encodeURIComponent(token)}`)
    expect(res.status).toBe(404)
  }, 180_000)
})

describe('every link purpose lives exactly as long as documented (point 5)', () => {
  const LIFETIMES = LINK_LIFETIME_SECONDS

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
    expect(plan.causes.flatMap((c) => c.entries.flatMap((e) => e.itemIds))).toEqual([a.item.id])
    await manualReleaseOk(a.token, trigger.id)
    expect(await assetRows(a.ownerId, a.beneficiary.id)).toHaveLength(1)
    expect(await assetRows(b.ownerId, b.beneficiary.id)).toEqual([])
    expect(await firingCount(b.ownerId)).toBe(0)
  })
})

describe('released assets and their tickets, pinned to the spec (point 5)', () => {
  const MINUTE = 60_000
  const DAY = 86_400_000

  async function released() {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const [asset] = await assetRows(s.ownerId, s.beneficiary.id)
    return { ...s, asset: asset! as typeof asset & { created_at: number }, portal: await portalToken(s.beneficiary.email) }
  }

  it('a download ticket works for 30 minutes: 29 minutes old it fetches, 31 minutes old it is refused as expired', async () => {
    const s = await released()
    const content = (age: number) => {
      const ticket = signLinkToken(env, 'assetContent', `${s.asset.id}:${s.beneficiary.id}`, { owner: s.ownerId, nonce: crypto.randomUUID() }, Date.now() - age)
      return call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/content?ticket=${encodeURIComponent(ticket)}`)
    }
    const fresh = await content(29 * MINUTE)
    expect(fresh.status).toBe(200)
    expect((await fresh.arrayBuffer()).byteLength).toBeGreaterThan(0)
    const stale = await content(31 * MINUTE)
    expect(stale.status).toBe(400)
    expect(await messageOf(stale)).toBe(RELEASE_MESSAGES.linkExpired)
  })

  it('an asset is downloadable for exactly 90 days from its release, and gone (410) just after', async () => {
    const s = await released()
    expect(s.asset.expires_at! - s.asset.created_at).toBe(90 * DAY)
    // Age the release as if the days had passed: a minute before the 90th day ends, a minute after.
    const age = async (ms: number) => {
      const releasedAt = Date.now() - ms
      await ownerExec(s.ownerId, ['update released_assets set created_at = ?, expires_at = ? where id = ?', releasedAt, releasedAt + 90 * DAY, s.asset.id])
      return call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/download?token=${encodeURIComponent(s.portal)}`)
    }
    const inTime = await age(90 * DAY - MINUTE)
    expect(inTime.status).toBe(200)
    const late = await age(90 * DAY + MINUTE)
    expect(late.status).toBe(410)
    expect(await messageOf(late)).toMatch(new RegExp(`^${RELEASE_MESSAGES.assetExpired} `))
    // A ticket taken in time and first used after the end is refused too, and counts nothing.
    const fetched = await call(((await inTime.json()) as { contentUrl: string }).contentUrl)
    expect(fetched.status).toBe(410)
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(0)
  })
})

describe('identity review takes the largest minimum across a beneficiary’s policies (point 5)', () => {
  it('asks for three approvals when one policy asks for one and another for three, whatever their order', async () => {
    const owner = await register()
    const key = await publicKey()
    const first = await addBeneficiary(owner.token, key, { fullName: 'First Heir' })
    const second = await addBeneficiary(owner.token, key, { fullName: 'Second Heir' })
    const approvers = [await verifiedApprover(owner.token), await verifiedApprover(owner.token), await verifiedApprover(owner.token)]
    const identityPolicy = async (heirs: string[], minimumApprovals: number) => {
      const body = policyBody(heirs[0]!, {
        ruleJson: { assign: heirs.map((id) => ({ beneficiaryId: id, access: 'read' })), release: { on: ['verified_death'] } },
        requiresIdentityVerification: true,
        identityVerificationApprovers: approvers.map((a) => a.id),
        minimumApprovals,
      })
      expect((await call('/api/policies', { token: owner.token, body })).status).toBe(201)
    }
    // The first heir's policies come as [1, 3], the second's as [3, 1].
    await identityPolicy([first.id], 1)
    await identityPolicy([first.id, second.id], 3)
    await identityPolicy([second.id], 1)
    for (const heir of [first, second]) {
      const form = new FormData()
      form.append('beneficiaryId', heir.id)
      form.append('documentType', 'passport')
      form.append('frontImage', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])], 'id.png', { type: 'image/png' }))
      const res = await exports.default.fetch(
        new Request('http://localhost/api/identity-documents', {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}`, 'cf-connecting-ip': freshIp() },
          body: form,
        }),
      )
      expect(res.status).toBe(201)
      expect(((await res.json()) as IdentityDocument).requiredApprovals).toBe(3)
    }
  })
})

describe('fire-once under concurrency (point 6)', () => {
  const DAY = 86_400_000

  it('an inactivity trigger fires once when the alarm, the sweep and a manual release race', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    const trigger = await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    // Silent long past the check-in and its grace: due now.
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 40 * DAY, phase: 'reminder_sent', checkInSentAt: Date.now() - 10 * DAY })
    const now = Date.now()
    const [, , , manual] = await Promise.all([guard(s.ownerId).tick(now), guard(s.ownerId).tick(now), runSweeps(env, now), manualRelease(s.token, trigger.id, 'race')])
    await guard(s.ownerId).tick(now + 4 * DAY)
    await guard(s.ownerId).tick(now + 5 * DAY)
    expect([200, 409]).toContain(manual.status)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
    expect((await outboxFor(s.beneficiary.email)).filter((m) => m.text.includes('view=assets'))).toHaveLength(1)
  })

  it('a scheduled trigger fires once when ticks, the sweep and a manual release race at its date', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const at = Date.now() + DAY
    const trigger = await createTrigger(s.token, { type: 'scheduled', config: { releaseDate: new Date(at).toISOString(), beneficiaries: [s.beneficiary.id], description: 'A date' } })
    const [, , , manual] = await Promise.all([guard(s.ownerId).tick(at), guard(s.ownerId).tick(at), runSweeps(env, at + 60_000), manualRelease(s.token, trigger.id, 'race')])
    await guard(s.ownerId).tick(at + DAY)
    expect([200, 409]).toContain(manual.status)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
    expect((await outboxFor(s.beneficiary.email)).filter((m) => m.text.includes('view=assets'))).toHaveLength(1)
  })
})

describe('each beneficiary reaches only their own assets', () => {
  it("a portal link and a download ticket are refused on another beneficiary's assets of the same owner", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const other = await addBeneficiary(s.token, await publicKey(), { fullName: 'Other Heir' })
    await uploadItem(s.token, [other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const [mine] = await assetRows(s.ownerId, s.beneficiary.id)
    const [theirs] = await assetRows(s.ownerId, other.id)
    const portal = encodeURIComponent(await portalToken(s.beneficiary.email))

    for (const path of [`/api/beneficiaries/${other.id}/assets`, `/api/beneficiaries/${other.id}/assets/${theirs!.id}/download`]) {
      const res = await call(`${path}?token=${portal}`)
      expect(res.status).toBe(403)
      expect(await messageOf(res)).toBe(RELEASE_MESSAGES.linkInvalid)
    }
    const download = (await (await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${mine!.id}/download?token=${portal}`)).json()) as { contentUrl: string }
    const ticket = new URL(download.contentUrl, 'http://localhost').searchParams.get('ticket')!
    const foreign = await call(`/api/beneficiaries/${other.id}/assets/${theirs!.id}/content?ticket=${encodeURIComponent(ticket)}`)
    expect(foreign.status).toBe(403)
    expect((await call(download.contentUrl)).status).toBe(200)
    expect((await assetRows(s.ownerId, other.id))[0]!.download_count).toBe(0)
  })
})

describe('the inactivity clock, on the spec’s days (point 6)', () => {
  const MINUTE = 60_000
  const DAY = 86_400_000

  // A whole second, so the firing time (kept to whole seconds) is exactly the days counted.
  const wholeSecondAgo = () => Math.floor(Date.now() / 1000) * 1000 - 1000

  it("daily with 1 day of grace (the trigger's own schedule): the e-mail a day after the check-in, the firing a day after the e-mail, not a minute before", async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    const t0 = wholeSecondAgo()
    await setClock(s.ownerId, { lastCheckInAt: t0, phase: 'ok', checkInSentAt: null })
    await guard(s.ownerId).tick(t0 + DAY - MINUTE)
    expect((await clockOf(s.ownerId)).phase).toBe('ok')
    await guard(s.ownerId).tick(t0 + DAY)
    expect(await clockOf(s.ownerId)).toMatchObject({ phase: 'checkin_sent', checkInSentAt: t0 + DAY })
    await guard(s.ownerId).tick(t0 + 2 * DAY - MINUTE)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(t0 + 2 * DAY)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('weekly with 14 days of grace (the spec defaults): the e-mail on day 7, the reminder on day 20, the firing on day 21', async () => {
    const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
    await createTrigger(s.token, { type: 'inactivity' })
    const t0 = wholeSecondAgo()
    await setClock(s.ownerId, { lastCheckInAt: t0, phase: 'ok', checkInSentAt: null })
    await guard(s.ownerId).tick(t0 + 7 * DAY - MINUTE)
    expect((await clockOf(s.ownerId)).phase).toBe('ok')
    await guard(s.ownerId).tick(t0 + 7 * DAY)
    expect((await clockOf(s.ownerId)).phase).toBe('checkin_sent')
    await guard(s.ownerId).tick(t0 + 20 * DAY - MINUTE)
    expect((await clockOf(s.ownerId)).phase).toBe('checkin_sent')
    await guard(s.ownerId).tick(t0 + 20 * DAY)
    expect((await clockOf(s.ownerId)).phase).toBe('reminder_sent')
    await guard(s.ownerId).tick(t0 + 21 * DAY - MINUTE)
    expect(await firingCount(s.ownerId)).toBe(0)
    await guard(s.ownerId).tick(t0 + 21 * DAY)
    expect(await firingCount(s.ownerId)).toBe(1)
  })

  it('a paused trigger never fires by itself, even past its date, and a paused inactivity trigger runs no check-in clock', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const at = Date.now() + DAY
    await createTrigger(s.token, { type: 'scheduled', status: 'paused', config: { releaseDate: new Date(at).toISOString(), beneficiaries: [s.beneficiary.id], description: 'A date' } })
    await createTrigger(s.token, { type: 'inactivity', status: 'paused', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await guard(s.ownerId).tick(at + 60 * DAY)
    expect(await firingCount(s.ownerId)).toBe(0)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    expect((await clockOf(s.ownerId)).phase).toBe('ok')
    await settle()
    expect((await outboxFor(s.owner.email)).filter((m) => m.text.includes('/check-in'))).toEqual([])
  })
})
