import { describe, expect, it } from 'vitest'
import { emailDate } from '../../worker/mail/dates'
import { RELEASE_MESSAGES, type AssetDownload, type CancelLinkResult, type CancelView, type ReleasedAsset } from '../../contract/releases'
import type { DryRunResult, EngineStatus, Trigger } from '../../contract/triggers'
import { assetRows, clockOf, createTrigger, guard, manualReleaseOk, ownerWithItem, policyCovering, portalToken, setClock, verifiedApprover } from './engine-helpers'
import { uploadItem } from './vault-helpers'
import { call, linkTokenIn, messageOf, outboxFor, waitFor } from './helpers'
import { ownerExec, ownerRows } from './owner-helpers'

// One release model (0.3 · 1 of 7), as docs/release-engine.md's table states it:
//   cause                       → earliest availability      → cancelled by
//   the owner's manual release  → now (a policy's delay)     → the monitor, the e-mailed link
//   the owner's scheduled date  → the date                   → the monitor, the e-mailed link
//   a death report, inactivity, → firing + the safety window → the e-mailed link, a check-in, a
//   failed unlocks                (a policy may add to it)     sign-in, the monitor
// A cancel takes back everything of the firing not yet in an heir's hands; a report link reports
// once, and a cancel voids every report link.

const HOUR = 3_600_000
const DAY = 24 * HOUR

async function releasesOf(token: string) {
  return ((await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus).releases
}

async function triggerOf(token: string, id: string): Promise<Trigger> {
  const list = (await (await call('/api/triggers', { token })).json()) as Trigger[]
  return list.find((t) => t.id === id)!
}

async function deathSetup(protocol = 'VERIFIED_DEATH') {
  const s = await ownerWithItem({ protocol })
  const approver = await verifiedApprover(s.token)
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  const mail = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/confirm-death')))
  return { ...s, approver, trigger, reportToken: linkTokenIn(mail, '/confirm-death') }
}

function report(token: string) {
  return call('/api/death-reports', { body: { token, certificateNumber: 'DC-1', dateOfDeath: '2026-11-20', attest: true } })
}

/** A policy with no delay over the item, on `on`; the item's own grant made indirect so only the policy hands it over. */
async function zeroHourPolicy(s: Awaited<ReturnType<typeof ownerWithItem>>, on: string[]) {
  await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
  await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
    ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on, delayHours: 0, requiresApprover: false } },
  })
}

const startedMail = (email: string) => waitFor(async () => (await outboxFor(email)).find((m) => m.text.includes('/cancel-release')))

async function heirAssets(s: { beneficiary: { id: string; email: string } }): Promise<{ token: string; assets: ReleasedAsset[] }> {
  const token = await portalToken(s.beneficiary.email)
  const res = await call(`/api/beneficiaries/${s.beneficiary.id}/assets?token=${encodeURIComponent(token)}`)
  expect(res.status).toBe(200)
  return { token, assets: (await res.json()) as ReleasedAsset[] }
}

function download(beneficiaryId: string, assetId: string, token: string) {
  return call(`/api/beneficiaries/${beneficiaryId}/assets/${assetId}/download?token=${encodeURIComponent(token)}`)
}

describe('the safety window holds for every cause that is not the owner acting now', () => {
  it('a 0-hour policy with one death report: nothing available before the window; the owner told the real time', async () => {
    const s = await deathSetup()
    await zeroHourPolicy(s, ['verified_death'])
    const before = Date.now()
    expect((await report(s.reportToken)).status).toBe(200)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    const [release] = await releasesOf(s.token)
    expect(release).toMatchObject({ source: 'policy', status: 'waiting' })
    expect(Date.parse(release!.releaseAt) - before).toBeGreaterThanOrEqual(72 * HOUR)
    // The owner's e-mail names the engine's own time, not "now".
    const mail = await startedMail(s.owner.email)
    expect(mail.text).toContain(emailDate(Date.parse(release!.releaseAt), 'America/New_York'))
    await guard(s.ownerId).tick(before + 71 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(before + 72 * HOUR + 60_000)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it('inactivity with a 0-hour policy waits the window too', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await zeroHourPolicy(s, ['inactivity'])
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    const long = Date.now() - 40 * DAY
    await setClock(s.ownerId, { lastCheckInAt: long, phase: 'expired', checkInSentAt: long + DAY })
    const firedAt = Date.now() + 60_000
    await guard(s.ownerId).tick(firedAt)
    const [release] = await releasesOf(s.token)
    expect(release).toMatchObject({ kind: 'inactivity', source: 'policy', status: 'waiting' })
    expect(Date.parse(release!.releaseAt) - firedAt).toBe(72 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it('failed unlocks with a 0-hour policy wait the window too', async () => {
    const s = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await zeroHourPolicy(s, ['biometric_failure'])
    await createTrigger(s.token, { type: 'biometric_failure', config: { failureThreshold: 2, timeWindow: 1 } })
    for (let i = 0; i < 2; i++) await call('/api/trigger-engine/biometric-failure', { token: s.token, body: { kind: 'vault_unlock' } })
    // Whenever the engine counts them (at once, or once nobody opened the vault meanwhile), the window runs from the firing.
    const at = Date.now() + HOUR
    await guard(s.ownerId).tick(at)
    const [release] = await releasesOf(s.token)
    expect(release).toMatchObject({ kind: 'biometric_failure', status: 'waiting' })
    expect(Date.parse(release!.releaseAt) - Date.parse(release!.createdAt)).toBe(72 * HOUR)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
  })

  it("a policy's delay lengthens the wait, never shortens it; the owner's own release keeps the policy's delay alone", async () => {
    const s = await deathSetup()
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 100, requiresApprover: false } },
    })
    const before = Date.now()
    await report(s.reportToken)
    const [release] = await releasesOf(s.token)
    expect(Date.parse(release!.releaseAt) - before).toBeGreaterThanOrEqual(100 * HOUR)
    expect(Date.parse(release!.releaseAt) - before).toBeLessThan(101 * HOUR)

    const o = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    await zeroHourPolicy(o, ['verified_death'])
    const trigger = await createTrigger(o.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(o.token, trigger.id)).toMatchObject({ transferredItems: 1, pendingReleases: 0 })
    expect((await assetRows(o.ownerId, o.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it('the dry run shows the window a death report would wait, with a 0-hour policy', async () => {
    const s = await deathSetup()
    await zeroHourPolicy(s, ['verified_death'])
    const before = Date.now()
    const plan = (await (await call(`/api/trigger-engine/dry-run/${s.trigger.id}`, { method: 'POST', token: s.token })).json()) as DryRunResult
    expect(plan.safetyWindowHours).toBe(72)
    const fires = plan.causes.find((c) => c.cause === 'fires')!
    expect(fires.entries.map((e) => [e.source.kind, e.conditions.delayHours])).toEqual([['policy', 72]])
    expect(Date.parse(fires.earliestAt!) - before).toBeGreaterThanOrEqual(72 * HOUR)
  })
})

/** A death report's release, available (the window passed), one download made by the heir. */
async function availableAndDownloaded() {
  const s = await deathSetup()
  const before = Date.now()
  await report(s.reportToken)
  await guard(s.ownerId).tick(before + 73 * HOUR)
  const { token, assets } = await heirAssets(s)
  expect(assets.map((a) => a.status)).toEqual(['available'])
  const ticket = (await (await download(s.beneficiary.id, assets[0]!.id, token)).json()) as AssetDownload
  expect((await call(ticket.contentUrl)).status).toBe(200)
  return { ...s, portal: token, asset: assets[0]!, ticket }
}

describe('a cancel takes back everything not yet in the heir’s hands', () => {
  it('the cancel link after availability: the page says what is available and what was downloaded; then nothing more is served', async () => {
    const s = await availableAndDownloaded()
    // The owner was last heard from days ago.
    await setClock(s.ownerId, { lastCheckInAt: Date.now() - 5 * DAY })
    const link = linkTokenIn(await startedMail(s.owner.email), '/cancel-release')
    const view = (await (await call(`/api/releases/cancel?token=${encodeURIComponent(link)}`)).json()) as CancelView
    expect(view).toMatchObject({ state: 'available', availableItems: 1, waitingReleases: 0 })
    expect(view.downloaded).toEqual([expect.objectContaining({ itemType: 'doc', beneficiaryName: s.beneficiary.fullName })])

    const res = await call('/api/releases/cancel', { body: { token: link } })
    expect(res.status).toBe(200)
    const done = (await res.json()) as CancelLinkResult
    expect(done).toMatchObject({ cancelledReleases: 1, withdrawnItems: 1, heirsTold: 1 })
    // No inactivity trigger runs a clock here: the page does not say one was reset.
    expect(done).toMatchObject({ clockReset: false, message: RELEASE_MESSAGES.releaseCancelledNoClock })
    expect(done.downloaded).toHaveLength(1)

    // No new ticket, and the ticket already used once is refused too.
    const again = await download(s.beneficiary.id, s.asset.id, s.portal)
    expect(again.status).toBe(410)
    expect(await messageOf(again)).toBe(RELEASE_MESSAGES.assetWithdrawn(s.owner.user.displayName))
    expect((await call(s.ticket.contentUrl)).status).toBe(410)
    const { assets } = await heirAssets(s)
    expect(assets.map((a) => a.status)).toEqual(['withdrawn'])
    // The heir is told, in words; the owner is told what was downloaded.
    const heirMail = await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.subject.includes('withdrawn')))
    expect(heirMail.text).toContain('can no longer be downloaded')
    const ownerMail = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.subject === 'You cancelled a release of your vault'))
    expect(ownerMail.text).toContain(`downloaded by ${s.beneficiary.fullName}`)
    expect(ownerMail.text).toContain('cannot be taken back')
    expect(ownerMail.text).not.toContain('Nothing had been made available')
    // Nothing downloaded after the cancel; the page now says it was cancelled.
    const audit = (await (await call('/api/audit', { token: s.token })).json()) as Array<{ action: string; seq: number }>
    const cancelledAt = audit.find((e) => e.action === 'release.cancelled')!.seq
    expect(audit.filter((e) => e.action === 'release.downloaded' && e.seq > cancelledAt)).toEqual([])
    expect(((await (await call(`/api/releases/cancel?token=${encodeURIComponent(link)}`)).json()) as CancelView).state).toBe('cancelled')
    expect((await call('/api/releases/cancel', { body: { token: link } })).status).toBe(409)
    // The link restarted the clock (a page says so only when it did), and the trigger is armed again.
    expect((await clockOf(s.ownerId)).lastCheckInAt).toBeGreaterThan(Date.now() - 60_000)
    expect((await triggerOf(s.token, s.trigger.id)).status).toBe('active')
  })

  it('the cancel link says "already cancelled" only when every release of the firing was cancelled: one cancelled beside one spent is "nothing left to cancel"', async () => {
    const s = await availableAndDownloaded()
    const link = linkTokenIn(await startedMail(s.owner.email), '/cancel-release')
    expect((await call('/api/releases/cancel', { body: { token: link } })).status).toBe(200)
    const viewState = async () => ((await (await call(`/api/releases/cancel?token=${encodeURIComponent(link)}`)).json()) as CancelView).state
    expect(await viewState()).toBe('cancelled')
    // A second release of the same firing, released long ago and nothing of it left to download.
    const cancelled = (await ownerRows<Record<string, unknown>>(s.ownerId, "select * from releases where status = 'cancelled'"))[0]!
    const spent = { ...cancelled, id: `${String(cancelled.id)}-spent`, source_key: `${String(cancelled.source_key)}:other`, status: 'released' }
    const columns = Object.keys(spent)
    await ownerExec(s.ownerId, [`insert into releases (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`, ...columns.map((c) => spent[c as keyof typeof spent])])
    expect(await viewState()).toBe('over')
  })

  it('a check-in after availability withdraws it too; a release the owner made stays', async () => {
    const s = await availableAndDownloaded()
    const manual = await createTrigger(s.token, { type: 'manual_release', config: {} })
    await ownerExec(s.ownerId, ["update vault_items set release_protocol = 'MANUAL_RELEASE'"])
    // The same item to the same heir by the owner's own hand: the asset moves to that release and stays.
    await manualReleaseOk(s.token, manual.id)
    const ping = await call('/api/inactivity/ping', { method: 'POST', token: s.token })
    expect(ping.status).toBe(200)
    const rows = await assetRows(s.ownerId, s.beneficiary.id)
    expect(rows.map((a) => a.status)).toEqual(['available'])
    const releases = await releasesOf(s.token)
    expect(releases.find((r) => r.kind === 'verified_death')?.status).toBe('cancelled')
    expect(releases.find((r) => r.kind === 'manual')?.status).toBe('released')
    expect((await triggerOf(s.token, manual.id)).status).toBe('triggered')
    expect((await triggerOf(s.token, s.trigger.id)).status).toBe('active')
  })

  it('the monitor withdraws one release, which ends its downloads; the cancel of a waiting one says nothing was available', async () => {
    const s = await availableAndDownloaded()
    const [release] = await releasesOf(s.token)
    const res = await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { method: 'POST', token: s.token })
    expect(res.status).toBe(200)
    expect((await download(s.beneficiary.id, s.asset.id, s.portal)).status).toBe(410)
    expect((await releasesOf(s.token))[0]).toMatchObject({ status: 'cancelled', releasedAt: expect.any(String) })
    expect((await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { method: 'POST', token: s.token })).status).toBe(409)

    const w = await deathSetup()
    await report(w.reportToken)
    const link = linkTokenIn(await startedMail(w.owner.email), '/cancel-release')
    expect(((await (await call(`/api/releases/cancel?token=${encodeURIComponent(link)}`)).json()) as CancelView).state).toBe('waiting')
    const done = (await (await call('/api/releases/cancel', { body: { token: link } })).json()) as CancelLinkResult
    expect(done).toMatchObject({ cancelledReleases: 1, withdrawnItems: 0, downloaded: [] })
    const ownerMail = await waitFor(async () => (await outboxFor(w.owner.email)).find((m) => m.subject === 'You cancelled a release of your vault'))
    expect(ownerMail.text).toContain('Nothing had been made available to anyone.')
  })

  it('a cancelled manual release of a paused trigger leaves it paused; a cancelled scheduled date waits paused', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {}, status: 'paused' })
    await manualReleaseOk(s.token, trigger.id)
    const link = linkTokenIn(await startedMail(s.owner.email), '/cancel-release')
    expect((await call('/api/releases/cancel', { body: { token: link } })).status).toBe(200)
    expect((await triggerOf(s.token, trigger.id)).status).toBe('paused')

    const d = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const date = new Date(Date.now() + DAY).toISOString()
    const scheduled = await createTrigger(d.token, { type: 'scheduled', config: { releaseDate: date, beneficiaries: [d.beneficiary.id], description: 'Birthday' } })
    // Its date comes (moved to a minute ago rather than waiting a day).
    await ownerExec(d.ownerId, ['update triggers set fire_at = ? where id = ?', Date.now() - 60_000, scheduled.id])
    await guard(d.ownerId).tick()
    expect((await assetRows(d.ownerId, d.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    const [release] = await releasesOf(d.token)
    await call(`/api/trigger-engine/releases/${release!.id}/cancel`, { method: 'POST', token: d.token })
    // Its date has passed: armed again it would fire at once, so it waits for the owner.
    expect((await triggerOf(d.token, scheduled.id)).status).toBe('paused')
    await guard(d.ownerId).tick(Date.now() + 120_000)
    expect((await releasesOf(d.token)).length).toBe(1)
  })
})

describe('a cancel takes back only what it names', () => {
  it("the e-mailed link cancels its own firing, not another cause's", async () => {
    const s = await deathSetup()
    await uploadItem(s.token, [s.beneficiary.id], 100, { policy: { protocol: 'INACTIVITY_30_DAYS' } })
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await report(s.reportToken)
    const long = Date.now() - 40 * DAY
    await setClock(s.ownerId, { lastCheckInAt: long, phase: 'expired', checkInSentAt: long + DAY })
    await guard(s.ownerId).tick(Date.now() + 60_000)
    const kinds = (await releasesOf(s.token)).map((r) => [r.kind, r.status]).sort()
    expect(kinds).toEqual([
      ['inactivity', 'waiting'],
      ['verified_death', 'waiting'],
    ])
    const deathMail = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.text.includes('/cancel-release') && m.text.includes('Verified Death')))
    expect((await call('/api/releases/cancel', { body: { token: linkTokenIn(deathMail, '/cancel-release') } })).status).toBe(200)
    const after = Object.fromEntries((await releasesOf(s.token)).map((r) => [r.kind, r.status]))
    expect(after).toEqual({ verified_death: 'cancelled', inactivity: 'waiting' })
  })

  it("the monitor cancels one release of a firing; the trigger is armed again only once none is left", async () => {
    const s = await deathSetup()
    // The item by its own protocol and by a policy: one firing, two releases.
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
    })
    await report(s.reportToken)
    const [first, second] = await releasesOf(s.token)
    expect([first!.status, second!.status]).toEqual(['waiting', 'waiting'])
    expect((await call(`/api/trigger-engine/releases/${first!.id}/cancel`, { method: 'POST', token: s.token })).status).toBe(200)
    expect((await releasesOf(s.token)).find((r) => r.id === second!.id)?.status).toBe('waiting')
    expect((await triggerOf(s.token, s.trigger.id)).status).toBe('triggered')
    expect((await call(`/api/trigger-engine/releases/${second!.id}/cancel`, { method: 'POST', token: s.token })).status).toBe(200)
    expect((await triggerOf(s.token, s.trigger.id)).status).toBe('active')
  })
})

describe('a firing is decided once', () => {
  it('a report link reports once; after a cancel every report link is void, and a resend makes a new one', async () => {
    const s = await deathSetup()
    expect((await report(s.reportToken)).status).toBe(200)
    const twice = await report(s.reportToken)
    expect(twice.status).toBe(409)
    expect(await messageOf(twice)).toBe(RELEASE_MESSAGES.alreadyReported)
    expect(await (await call(`/api/death-reports?token=${encodeURIComponent(s.reportToken)}`)).json()).toMatchObject({ alreadyConfirmed: true })

    // The owner is alive: a check-in cancels, re-arms, and voids the links.
    expect((await call('/api/inactivity/ping', { method: 'POST', token: s.token })).status).toBe(200)
    expect((await triggerOf(s.token, s.trigger.id)).status).toBe('active')
    const replay = await report(s.reportToken)
    expect(replay.status).toBe(400)
    expect(await messageOf(replay)).toBe(RELEASE_MESSAGES.reportLinkVoid)
    expect((await call(`/api/death-reports?token=${encodeURIComponent(s.reportToken)}`)).status).toBe(400)
    expect((await releasesOf(s.token)).filter((r) => r.status !== 'cancelled')).toEqual([])
    // Readiness says nobody can report now; the owner resends, and only the new link works.
    const readiness = (await (await call('/api/release-readiness', { token: s.token })).json()) as { problems: Array<{ kind: string }> }
    expect(readiness.problems.map((p) => p.kind)).toContain('death_link_unsent')
    const sent = await call(`/api/triggers/${s.trigger.id}/resend-report-links`, { method: 'POST', token: s.token })
    expect(sent.status).toBe(200)
    const fresh = await waitFor(async () => {
      const token = linkTokenIn((await outboxFor(s.approver.email)).find((m) => m.text.includes('/confirm-death'))!, '/confirm-death')
      return token !== s.reportToken && token
    })
    expect((await report(s.reportToken)).status).toBe(400)
    expect((await report(fresh)).status).toBe(200)
    expect((await releasesOf(s.token)).filter((r) => r.status === 'waiting')).toHaveLength(1)
  })

  it('a resend repeats a link that still works: the first e-mail an approver kept still reports', async () => {
    const s = await deathSetup()
    expect((await call(`/api/triggers/${s.trigger.id}/resend-report-links`, { method: 'POST', token: s.token })).status).toBe(200)
    await createTrigger(s.token, { type: 'verified_death', config: {} })
    await waitFor(async () => (await outboxFor(s.approver.email)).filter((m) => m.text.includes('/confirm-death')).length >= 3)
    expect((await report(s.reportToken)).status).toBe(200)
  })

  it('an unused link is void after a cancel too; pausing and activating the trigger sends a fresh one', async () => {
    const s = await deathSetup()
    const second = await verifiedApprover(s.token)
    const secondLink = linkTokenIn(await waitFor(async () => (await outboxFor(second.email)).find((m) => m.text.includes('/confirm-death'))), '/confirm-death')
    await report(s.reportToken)
    const link = linkTokenIn(await startedMail(s.owner.email), '/cancel-release')
    expect((await call('/api/releases/cancel', { body: { token: link } })).status).toBe(200)
    expect((await report(secondLink)).status).toBe(400)
    await call(`/api/triggers/${s.trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })
    await call(`/api/triggers/${s.trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'active' } })
    const fresh = await waitFor(async () => {
      const mails = (await outboxFor(second.email)).filter((m) => m.text.includes('/confirm-death'))
      return mails.length === 2 && linkTokenIn(mails.find((m) => linkTokenIn(m, '/confirm-death') !== secondLink)!, '/confirm-death')
    })
    expect((await report(fresh)).status).toBe(200)
  })

  it('a death report made while the trigger was paused does not fire it when the owner activates it again', async () => {
    const s = await deathSetup()
    expect((await call(`/api/triggers/${s.trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })).status).toBe(200)
    expect((await report(s.reportToken)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await call(`/api/triggers/${s.trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'active' } })).status).toBe(200)
    await guard(s.ownerId).tick(Date.now() + HOUR)
    expect((await triggerOf(s.token, s.trigger.id)).status).toBe('active')
    expect(await releasesOf(s.token)).toEqual([])
  })
})

describe('the numbers agree', () => {
  it("Release Now's answer counts what the release list, the audit and the heir's e-mail count; nothing handed over says why", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    // A policy naming the same item for the same person: two releases, one delivery.
    await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['manual_release'], delayHours: 0, requiresApprover: false } },
    })
    const result = await manualReleaseOk(s.token, trigger.id)
    expect(result).toEqual({ releases: 2, transferredItems: 1, releasedItems: 1, beneficiariesNotified: 1, pendingReleases: 0, waitingUntil: null, nothingBecause: null })
    expect(await releasesOf(s.token)).toHaveLength(result.releases)
    const audit = (await (await call('/api/audit', { token: s.token })).json()) as Array<{ action: string; details: Record<string, unknown> }>
    expect(audit.find((e) => e.action === 'trigger.manual_release')?.details).toMatchObject({ releases: 2, items: 1 })
    const completed = audit.filter((e) => e.action === 'release.completed').map((e) => e.details.assets as number)
    expect(completed.reduce((a, b) => a + b, 0)).toBe(result.transferredItems)
    const heirMail = await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.subject.includes('has left something for you')))
    expect(heirMail.text).toContain('One item')

    // Released again by another trigger: nothing new goes, and the answer says so.
    const again = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, again.id)).toMatchObject({ releases: 1, transferredItems: 0, pendingReleases: 0, nothingBecause: 'already_released' })
    const empty = await ownerWithItem({ protocol: 'VERIFIED_DEATH' })
    const nothing = await createTrigger(empty.token, { type: 'manual_release', config: {} })
    expect(await manualReleaseOk(empty.token, nothing.id)).toMatchObject({ releases: 0, transferredItems: 0, nothingBecause: 'nothing_named' })
    expect(await releasesOf(empty.token)).toEqual([])
  })
})
