import { describe, expect, it } from 'vitest'
import { RELEASE_MESSAGES, type AssetDownload, type BeneficiaryPortalView, type ReleasedAsset } from '../../contract/releases'
import { RENEWAL_MESSAGES, type RenewalDecisionView, type RenewalRequested } from '../../contract/renewals'
import { signLinkToken } from '../../worker/lib/link-tokens'
import { assetRows, createTrigger, DAY_MS, guard, manualReleaseOk, ownerWithItem, portalToken, verifiedApprover } from './engine-helpers'
import { addApprover, addBeneficiary, call, env, linkTokenIn, messageOf, outboxFor, register, waitFor } from './helpers'
import { ownerExec, ownerRows } from './owner-helpers'
import { concatBytes, publicKey, sameBytes, uploadItem } from './vault-helpers'

// Heirs who run out (issue 0.3 · 5 of 7): an heir whose items ran out asks for more from the portal;
// the owner (while alive) or an approver with a confirmed address allows it through their own link.

type Setup = Awaited<ReturnType<typeof released>>

/** An owner, an heir with one item released to them (the owner's own manual release), and `approvers` verified approvers. */
async function released(approvers = 1) {
  const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
  const people = []
  for (let i = 0; i < approvers; i++) people.push(await verifiedApprover(s.token))
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  await manualReleaseOk(s.token, trigger.id)
  const heirToken = await portalToken(s.beneficiary.email)
  const [asset] = await assets(s.beneficiary.id, heirToken)
  return { ...s, approvers: people, heirToken, asset: asset! }
}

async function assets(beneficiaryId: string, token: string): Promise<ReleasedAsset[]> {
  const res = await call(`/api/beneficiaries/${beneficiaryId}/assets?token=${encodeURIComponent(token)}`)
  expect(res.status).toBe(200)
  return (await res.json()) as ReleasedAsset[]
}

async function portal(s: Setup): Promise<BeneficiaryPortalView> {
  const res = await call(`/api/beneficiaries/${s.beneficiary.id}/portal?token=${encodeURIComponent(s.heirToken)}`)
  expect(res.status).toBe(200)
  return (await res.json()) as BeneficiaryPortalView
}

const exhaust = (s: Setup) => ownerExec(s.ownerId, ['update released_assets set download_count = max_downloads where id = ?', s.asset.id])
const expire = (s: Setup) => ownerExec(s.ownerId, ['update released_assets set expires_at = ? where id = ?', Date.now() - 1000, s.asset.id])

const ask = (s: Setup, token = s.heirToken, id = s.beneficiary.id) => call(`/api/beneficiaries/${id}/renewals?token=${encodeURIComponent(token)}`, { method: 'POST' })

/** The decision link e-mailed to `address` for the newest request. */
async function decisionToken(address: string): Promise<string> {
  const mail = await waitFor(async () => (await outboxFor(address)).find((m) => m.text.includes('/approve-renewal')))
  return linkTokenIn(mail, '/approve-renewal')
}

const answer = (token: string, decision: 'approved' | 'refused') => call('/api/renewal-decisions', { body: { token, decision } })

async function downloadBytes(s: Setup): Promise<Uint8Array> {
  const res = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/download?token=${encodeURIComponent(s.heirToken)}`)
  expect(res.status).toBe(200)
  const content = await call(((await res.json()) as AssetDownload).contentUrl)
  expect(content.status).toBe(200)
  return new Uint8Array(await content.arrayBuffer())
}

async function requestRows(ownerId: string) {
  return ownerRows<{ id: string; status: string; decided_by: string | null; refused_by: string }>(ownerId, 'select * from renewal_requests order by requested_at')
}

async function auditActions(ownerId: string): Promise<string[]> {
  return (await ownerRows<{ action: string }>(ownerId, "select action from audit where action like 'release.renew%' order by seq")).map((r) => r.action)
}

/** Makes the owner's death count as confirmed: a verified-death firing that released. */
async function deathVerified(ownerId: string) {
  const now = Date.now()
  await ownerExec(
    ownerId,
    ["insert into firings (id, kind, trigger_type, actor, fired_at) values ('death-firing', 'verified_death', 'verified_death', 'system', ?)", now],
    [
      "insert into releases (id, firing_id, source_key, source_name, status, release_at, required_approvals, identity_required, created_at, released_at) values ('death-release', 'death-firing', 'item:x', 'x', 'released', ?, 0, 0, ?, ?)",
      now,
      now,
      now,
    ],
  )
}

describe('renewals', () => {
  it('an exhausted asset: the heir asks, an approver allows it through their link, and downloads work again with a new count and 90 days', async () => {
    const s = await released(1)
    const before = await portal(s)
    expect(before.renewal).toMatchObject({ needed: false, canAsk: false, waiting: null, lastOutcome: null })
    // Nothing ran out: nothing to ask for.
    const early = await ask(s)
    expect(early.status).toBe(409)
    expect(await messageOf(early)).toBe(RENEWAL_MESSAGES.nothingToRenew)

    await exhaust(s)
    // The refusal names who can help, from the facts: the owner (alive) and the verified approver.
    const refused = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/download?token=${encodeURIComponent(s.heirToken)}`)
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(`${RELEASE_MESSAGES.downloadLimit} ${RENEWAL_MESSAGES.whoCanHelp(['Ada Owner', 'Arthur Approver'])}`)
    expect((await portal(s)).renewal).toMatchObject({ needed: true, canAsk: true, helpers: ['Ada Owner', 'Arthur Approver'] })

    const res = await ask(s)
    expect(res.status).toBe(201)
    const body = (await res.json()) as RenewalRequested
    expect(body).toMatchObject({ message: RENEWAL_MESSAGES.asked, itemCount: 1, renewal: { canAsk: false, waiting: { requestedAt: expect.any(String) } } })
    // A second request while one waits: refused in plain words.
    const second = await ask(s)
    expect(second.status).toBe(409)
    expect(await messageOf(second)).toBe(RENEWAL_MESSAGES.alreadyWaiting)

    const token = await decisionToken(s.approvers[0]!.email)
    const view = await call(`/api/renewal-decisions?token=${encodeURIComponent(token)}`)
    expect(view.status).toBe(200)
    expect((await view.json()) as RenewalDecisionView).toMatchObject({
      ownerName: 'Ada Owner',
      heirName: s.beneficiary.fullName,
      yourName: 'Arthur Approver',
      asOwner: false,
      itemCount: 1,
      status: 'waiting',
      yourDecision: null,
    })
    const approved = await answer(token, 'approved')
    expect(approved.status).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'approved', yourDecision: 'approved', message: RENEWAL_MESSAGES.approvedThanks(s.beneficiary.fullName) })

    const [row] = await assetRows(s.ownerId, s.beneficiary.id)
    expect(row!.download_count).toBe(0)
    expect(row!.expires_at! - Date.now()).toBeGreaterThan(89.9 * DAY_MS)
    expect(row!.expires_at! - Date.now()).toBeLessThanOrEqual(90 * DAY_MS)
    expect(sameBytes(await downloadBytes(s), concatBytes(s.parts))).toBe(true)
    expect((await assets(s.beneficiary.id, s.heirToken))[0]).toMatchObject({ status: 'available', downloadCount: 1 })
    // The heir hears it, the chain records it, and the request is over: a second answer changes nothing.
    await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.subject.includes('download') && m.text.includes('can be downloaded again')))
    expect(await auditActions(s.ownerId)).toEqual(['release.renewal_requested', 'release.renewed'])
    const again = await answer(token, 'refused')
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(RENEWAL_MESSAGES.alreadyDecided)
    expect((await portal(s)).renewal).toMatchObject({ needed: false, canAsk: false, waiting: null, lastOutcome: { status: 'approved' } })
  })

  it('the owner, while alive, is asked at their own address and can allow an expired asset', async () => {
    const s = await released(0)
    await expire(s)
    const expired = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/download?token=${encodeURIComponent(s.heirToken)}`)
    expect(expired.status).toBe(410)
    expect(await messageOf(expired)).toBe(`${RELEASE_MESSAGES.assetExpired} ${RENEWAL_MESSAGES.whoCanHelp(['Ada Owner'])}`)
    expect((await ask(s)).status).toBe(201)
    const token = await decisionToken(s.owner.email)
    expect(await (await call(`/api/renewal-decisions?token=${encodeURIComponent(token)}`)).json()).toMatchObject({ asOwner: true, yourName: 'Ada Owner' })
    expect((await answer(token, 'approved')).status).toBe(200)
    const [row] = await assetRows(s.ownerId, s.beneficiary.id)
    expect(row!.expires_at!).toBeGreaterThan(Date.now() + 89 * DAY_MS)
    expect(sameBytes(await downloadBytes(s), concatBytes(s.parts))).toBe(true)
    const [entry] = await ownerRows<{ actor: string }>(s.ownerId, "select actor from audit where action = 'release.renewed'")
    expect(entry!.actor).toBe('user')
  })

  it("the owner's refusal ends the request; the heir is told and may ask again later", async () => {
    const s = await released(1)
    await exhaust(s)
    expect((await ask(s)).status).toBe(201)
    const owner = await decisionToken(s.owner.email)
    const approver = await decisionToken(s.approvers[0]!.email)
    const refused = await answer(owner, 'refused')
    expect(refused.status).toBe(200)
    expect(await refused.json()).toMatchObject({ status: 'refused', yourDecision: 'refused', message: RENEWAL_MESSAGES.refusedThanks })
    expect((await answer(approver, 'approved')).status).toBe(409)
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(5)
    await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.subject === 'Your request for more time was refused'))
    expect((await portal(s)).renewal).toMatchObject({ canAsk: true, waiting: null, lastOutcome: { status: 'refused' } })
    expect(await auditActions(s.ownerId)).toEqual(['release.renewal_requested', 'release.renewal_refused'])
  })

  it("one approver's refusal is recorded; the request ends refused once everyone asked refused, and an answer counts once", async () => {
    const s = await released(2)
    await deathVerified(s.ownerId)
    await exhaust(s)
    expect((await ask(s)).status).toBe(201)
    const [first, second] = [await decisionToken(s.approvers[0]!.email), await decisionToken(s.approvers[1]!.email)]
    expect(await (await answer(first, 'refused')).json()).toMatchObject({ status: 'waiting', yourDecision: 'refused' })
    const twice = await answer(first, 'approved')
    expect(twice.status).toBe(409)
    expect(await messageOf(twice)).toBe(RENEWAL_MESSAGES.alreadyAnswered)
    expect((await requestRows(s.ownerId))[0]!.status).toBe('waiting')
    expect(await (await answer(second, 'refused')).json()).toMatchObject({ status: 'refused' })
    expect((await requestRows(s.ownerId))[0]).toMatchObject({ status: 'refused', decided_by: s.approvers[1]!.email.toLowerCase() })
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(5)
  })

  it('a withdrawn asset is never renewed, even when it was covered by the request', async () => {
    const s = await released(1)
    await exhaust(s)
    expect((await ask(s)).status).toBe(201)
    await ownerExec(s.ownerId, ["update released_assets set status = 'withdrawn', withdrawn_at = ? where id = ?", Date.now(), s.asset.id])
    expect((await answer(await decisionToken(s.approvers[0]!.email), 'approved')).status).toBe(200)
    const [row] = await assetRows(s.ownerId, s.beneficiary.id)
    expect(row).toMatchObject({ status: 'withdrawn', download_count: 5 })
    // And a withdrawn asset is nothing to ask for.
    expect((await portal(s)).renewal).toMatchObject({ needed: false, canAsk: false })
    expect((await ask(s)).status).toBe(409)
  })

  it("after the owner's death is confirmed the owner is not asked, their link stops working, and the message names approvers only", async () => {
    const s = await released(1)
    await exhaust(s)
    expect((await ask(s)).status).toBe(201)
    const ownerLink = await decisionToken(s.owner.email)
    await deathVerified(s.ownerId)
    const gone = await answer(ownerLink, 'approved')
    expect(gone.status).toBe(403)
    expect(await messageOf(gone)).toBe(RENEWAL_MESSAGES.ownerGone)
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(5)
    expect((await portal(s)).renewal).toMatchObject({ helpers: ['Arthur Approver'], canAsk: false, waiting: expect.anything() })
    // The approver's refusal is everyone's that can still answer: the request ends.
    expect(await (await answer(await decisionToken(s.approvers[0]!.email), 'refused')).json()).toMatchObject({ status: 'refused' })

    // A new request goes to the approver alone.
    const ownerMailBefore = (await outboxFor(s.owner.email)).filter((m) => m.text.includes('/approve-renewal')).length
    expect((await ask(s)).status).toBe(201)
    const rows = await requestRows(s.ownerId)
    expect(JSON.parse((await ownerRows<{ asked: string }>(s.ownerId, 'select asked from renewal_requests where id = ?', rows[1]!.id))[0]!.asked)).toEqual([
      { key: s.approvers[0]!.email.toLowerCase(), name: 'Arthur Approver' },
    ])
    await guard(s.ownerId).tick()
    expect((await outboxFor(s.owner.email)).filter((m) => m.text.includes('/approve-renewal')).length).toBe(ownerMailBefore)
    const refusedDownload = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/download?token=${encodeURIComponent(s.heirToken)}`)
    expect(await messageOf(refusedDownload)).toBe(`${RELEASE_MESSAGES.downloadLimit} ${RENEWAL_MESSAGES.whoCanHelp(['Arthur Approver'])}`)
  })

  it('with no one who can help (no verified approver, the death confirmed), the heir is told so and cannot ask', async () => {
    const s = await released(0)
    await deathVerified(s.ownerId)
    await exhaust(s)
    expect((await portal(s)).renewal).toMatchObject({ needed: true, helpers: [], canAsk: false })
    const res = await ask(s)
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(RENEWAL_MESSAGES.noOneCanHelp)
    const refused = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${s.asset.id}/download?token=${encodeURIComponent(s.heirToken)}`)
    expect(await messageOf(refused)).toBe(`${RELEASE_MESSAGES.downloadLimit} ${RENEWAL_MESSAGES.whoCanHelp([])}`)
    expect(await requestRows(s.ownerId)).toEqual([])
  })

  it('an approver who has not confirmed their address is not asked, and is not named as someone who can help', async () => {
    const s = await released(1)
    const unconfirmed = await addApprover(s.token, { fullName: 'Una Unconfirmed' })
    await exhaust(s)
    expect((await portal(s)).renewal).toMatchObject({ helpers: ['Ada Owner', 'Arthur Approver'], canAsk: true })
    expect((await ask(s)).status).toBe(201)
    await decisionToken(s.approvers[0]!.email)
    expect((await outboxFor(unconfirmed.email)).filter((m) => m.text.includes('/approve-renewal'))).toEqual([])
  })

  it('a verified-death firing that was cancelled does not count as the death confirmed: the owner is still asked', async () => {
    const s = await released(0)
    await deathVerified(s.ownerId)
    await ownerExec(s.ownerId, ["update releases set status = 'cancelled', cancelled_at = ? where id = 'death-release'", Date.now()])
    await exhaust(s)
    expect((await portal(s)).renewal).toMatchObject({ helpers: ['Ada Owner'], canAsk: true })
    expect((await ask(s)).status).toBe(201)
    await decisionToken(s.owner.email)
  })

  it("another heir's run-out item is nothing this heir can ask to renew: only their own count", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const other = await addBeneficiary(s.token, await publicKey())
    await uploadItem(s.token, [other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const otherToken = await portalToken(other.email)
    // The first heir used up their downloads; the other heir did not.
    await ownerExec(s.ownerId, ['update released_assets set download_count = max_downloads where beneficiary_id = ?', s.beneficiary.id])
    const view = (await (await call(`/api/beneficiaries/${other.id}/portal?token=${encodeURIComponent(otherToken)}`)).json()) as BeneficiaryPortalView
    expect(view.renewal).toMatchObject({ needed: false, canAsk: false })
    const res = await call(`/api/beneficiaries/${other.id}/renewals?token=${encodeURIComponent(otherToken)}`, { method: 'POST' })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(RENEWAL_MESSAGES.nothingToRenew)
  })

  it("each heir's request is their own: another heir's waiting, then refused, request neither shows in this heir's portal nor stops them asking", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const other = await addBeneficiary(s.token, await publicKey())
    await uploadItem(s.token, [other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const firstToken = await portalToken(s.beneficiary.email)
    const otherToken = await portalToken(other.email)
    await ownerExec(s.ownerId, ['update released_assets set download_count = max_downloads'])
    const otherView = async () => ((await (await call(`/api/beneficiaries/${other.id}/portal?token=${encodeURIComponent(otherToken)}`)).json()) as BeneficiaryPortalView).renewal

    expect((await call(`/api/beneficiaries/${s.beneficiary.id}/renewals?token=${encodeURIComponent(firstToken)}`, { method: 'POST' })).status).toBe(201)
    expect(await otherView()).toMatchObject({ needed: true, canAsk: true, waiting: null, lastOutcome: null })
    expect((await answer(await decisionToken(s.owner.email), 'refused')).status).toBe(200)
    expect(await otherView()).toMatchObject({ needed: true, canAsk: true, waiting: null, lastOutcome: null })
    expect((await call(`/api/beneficiaries/${other.id}/renewals?token=${encodeURIComponent(otherToken)}`, { method: 'POST' })).status).toBe(201)
  })

  it("an approver's decision link stops working once their address no longer counts as confirmed: 400, nothing renewed", async () => {
    const s = await released(1)
    await exhaust(s)
    expect((await ask(s)).status).toBe(201)
    const token = await decisionToken(s.approvers[0]!.email)
    await ownerExec(s.ownerId, ['update approvers set email_verified_at = null where id = ?', s.approvers[0]!.id])
    const res = await answer(token, 'approved')
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(RENEWAL_MESSAGES.linkInvalid)
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(5)
  })

  it("refuses another heir's and another owner's ids, and wrong or foreign tokens", async () => {
    const s = await released(1)
    await exhaust(s)
    // Another beneficiary's id on this heir's token: 403; a forged token: 400.
    expect((await ask(s, s.heirToken, crypto.randomUUID())).status).toBe(403)
    expect((await ask(s, `${s.heirToken}x`)).status).toBe(400)
    // Another owner's object does not know this heir.
    const other = await register()
    const foreign = signLinkToken(env, 'beneficiaryAccess', s.beneficiary.id, { owner: other.user.id })
    expect((await ask(s, foreign)).status).toBe(400)
    expect(await requestRows(s.ownerId)).toEqual([])

    expect((await ask(s)).status).toBe(201)
    const token = await decisionToken(s.approvers[0]!.email)
    const { id } = (await requestRows(s.ownerId))[0]!
    // The same request and person, but signed for another owner's object, or for another purpose; someone never asked; the owner key of another object.
    const cases: Array<[string, string, number]> = [
      ['another owner', signLinkToken(env, 'renewalDecision', `${id}:${s.approvers[0]!.email}`, { owner: other.user.id }), 400],
      ['another purpose', signLinkToken(env, 'releaseApproval', `${id}:${s.approvers[0]!.email}`, { owner: s.ownerId }), 400],
      ['never asked', signLinkToken(env, 'renewalDecision', `${id}:stranger@example.com`, { owner: s.ownerId }), 400],
      ['no such request', signLinkToken(env, 'renewalDecision', `${crypto.randomUUID()}:owner`, { owner: s.ownerId }), 400],
      ['tampered', `${token.slice(0, -2)}xx`, 400],
    ]
    for (const [, bad, status] of cases) {
      expect((await call(`/api/renewal-decisions?token=${encodeURIComponent(bad)}`)).status).toBe(status)
      expect((await answer(bad, 'approved')).status).toBe(status)
    }
    // An approver named after the request was made was not asked: their link for it does not work.
    const later = await verifiedApprover(s.token)
    const notAsked = signLinkToken(env, 'renewalDecision', `${id}:${later.email}`, { owner: s.ownerId })
    expect((await call(`/api/renewal-decisions?token=${encodeURIComponent(notAsked)}`)).status).toBe(400)
    expect((await answer(notAsked, 'approved')).status).toBe(400)
    // A bad decision is a 400, not a 500.
    expect((await call('/api/renewal-decisions', { body: { token, decision: 'maybe' } })).status).toBe(400)
    expect((await requestRows(s.ownerId))[0]!.status).toBe('waiting')
    expect((await assetRows(s.ownerId, s.beneficiary.id))[0]!.download_count).toBe(5)
    // An approver removed since can no longer answer.
    await ownerExec(s.ownerId, ['delete from approvers where email = ?', s.approvers[0]!.email.toLowerCase()])
    expect((await answer(token, 'approved')).status).toBe(400)
  })
})
