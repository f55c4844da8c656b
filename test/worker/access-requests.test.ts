import { describe, expect, it } from 'vitest'
import { ACCESS_REQUEST, ACCESS_REQUEST_MESSAGES, type OwnerAccessRequests, type RequesterView } from '../../contract/access-requests'
import type { OutboxMessage } from '../../contract/auth'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import type { ReleaseReadiness } from '../../contract/readiness'
import { signLinkToken } from '../../worker/lib/link-tokens'
import { assetRows, createTrigger, DAY_MS, guard, policyCovering, verifiedApprover } from './engine-helpers'
import { addApprover, addBeneficiary, call, callSettled, env, linksIn, linkTokenIn, login, messageOf, outboxFor, uniqueEmail, waitFor, ownerSessions } from './helpers'
import { ownerExec, ownerRow, ownerRows } from './owner-helpers'
import { ownerWithBeneficiary, publicKey, uploadItem } from './vault-helpers'

// Access on request (issue 0.3 · 5 of 7, item 1): a policy may let its beneficiaries (or approvers)
// ask for its items. The owner is told at their own addresses with Approve now and Refuse; unless
// refused, the items go to the requester once max(waiting time, safety window, delay) has passed.

const HOUR_MS = 3_600_000
const SAFETY_WINDOW_MS = 72 * HOUR_MS
const stale = (userId: string) => ownerSessions(userId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()

/** An owner, two beneficiaries, one item granted to both, a policy covering it that lets beneficiaries ask. */
async function requestableSetup(accessRequest: Record<string, unknown> | null = { days: 1, by: ['beneficiaries'] }) {
  const s = await ownerWithBeneficiary()
  const other = await addBeneficiary(s.token, await publicKey(), { fullName: 'Other Heir' })
  const { item } = await uploadItem(s.token, [s.beneficiary.id, other.id], 100, { policy: { protocol: 'MANUAL_RELEASE' } })
  const policy = await policyCovering(s.token, s.beneficiary.id, [item.id], {
    name: 'On request',
    ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }, { beneficiaryId: other.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
    ...(accessRequest ? { accessRequest } : {}),
  })
  return { ...s, other, item, policy }
}

const portalToken = (ownerId: string, beneficiaryId: string) => signLinkToken(env, 'beneficiaryAccess', beneficiaryId, { owner: ownerId })

function ask(ownerId: string, beneficiaryId: string, policyId: string) {
  return call(`/api/beneficiaries/${beneficiaryId}/access-requests?token=${encodeURIComponent(portalToken(ownerId, beneficiaryId))}`, { body: { policyId } })
}

async function portalView(ownerId: string, beneficiaryId: string): Promise<RequesterView> {
  const res = await call(`/api/beneficiaries/${beneficiaryId}/access-requests?token=${encodeURIComponent(portalToken(ownerId, beneficiaryId))}`)
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as RequesterView
}

async function askOk(ownerId: string, beneficiaryId: string, policyId: string) {
  const res = await ask(ownerId, beneficiaryId, policyId)
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { message: string; request: RequesterView['policies'][number] }
}

async function requestRow(ownerId: string) {
  return (await ownerRow<{ id: string; status: string; decide_by: number; requested_at: number; firing_id: string }>(ownerId, 'select * from access_requests order by requested_at desc'))!
}

const ownerMail = (address: string) => waitFor(async () => (await outboxFor(address)).find((m) => m.subject.includes('asked for access')))
const auditActions = async (ownerId: string) => (await ownerRows<{ action: string }>(ownerId, 'select action from audit order by seq')).map((r) => r.action)

function expectNoLink(m: OutboxMessage) {
  expect(m.text).not.toMatch(/https?:\/\//)
  expect(m.html).not.toMatch(/<a\s|href=/i)
}

describe('asking for access', () => {
  it('a request waits; the owner is mailed at both own addresses with Approve now and Refuse; the contact only that the owner has not answered', async () => {
    const s = await requestableSetup()
    const backup = uniqueEmail('backup')
    const contact = uniqueEmail('contact')
    expect((await call('/api/channels/backup', { method: 'PUT', token: s.token, body: { email: backup } })).status).toBe(200)
    const verify = await waitFor(async () => (await outboxFor(backup)).find((m) => m.text.includes('/verify-backup-email')))
    expect((await call('/api/channels/backup/verify', { token: s.token, body: { token: linkTokenIn(verify, '/verify-backup-email') } })).status).toBe(200)
    expect((await call('/api/channels/contact', { method: 'PUT', token: s.token, body: { email: contact, alerts: true } })).status).toBe(200)

    const before = await portalView(s.ownerId, s.beneficiary.id)
    expect(before.policies).toEqual([expect.objectContaining({ policyId: s.policy.id, state: 'can_ask', waitDays: 3, ownerName: s.owner.user.displayName })])
    const asked = await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(asked.request.state).toBe('waiting')
    const row = await requestRow(s.ownerId)
    expect(row.status).toBe('waiting')
    // The wait is the longest of the policy's day and the owner's 72-hour safety window.
    expect(row.decide_by - row.requested_at).toBe(SAFETY_WINDOW_MS)
    expect(asked.message).toBe(ACCESS_REQUEST_MESSAGES.requested(row.decide_by))

    for (const address of [s.owner.email, backup]) {
      const m = await ownerMail(address)
      expect(linkTokenIn(m, '/access-refuse'), address).toBeTruthy()
      expect(linksIn(m, '/trigger-monitor')[0]?.searchParams.get('request'), address).toBe(row.id)
      expect(m.text).toContain(s.beneficiary.fullName)
    }
    const told = await waitFor(async () => (await outboxFor(contact)).find((m) => m.subject.includes('has not answered')))
    expectNoLink(told)
    expect((await outboxFor(contact)).some((m) => m.text.includes('/access-refuse'))).toBe(false)
    const confirm = await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.subject.includes('Your request')))
    expect(confirm.text).toContain('Unless they refuse')
    expect(await auditActions(s.ownerId)).toContain('access.requested')

    // The owner's list shows it waiting, for this requester and only them.
    const list = (await (await call('/api/access-requests', { token: s.token })).json()) as OwnerAccessRequests
    expect(list.requests).toEqual([expect.objectContaining({ id: row.id, status: 'waiting', requesterName: s.beneficiary.fullName, recipientNames: [s.beneficiary.fullName], itemCount: 1 })])

    // One waiting request per person and policy.
    const again = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(ACCESS_REQUEST_MESSAGES.alreadyWaiting)
  })

  it('at the end of the wait releases exactly the policy’s items to the requester alone, never before max(wait, safety window)', async () => {
    const s = await requestableSetup({ days: 5, by: ['beneficiaries'] })
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    expect(row.decide_by - row.requested_at).toBe(5 * DAY_MS)
    await guard(s.ownerId).tick(row.requested_at + 5 * DAY_MS - 60_000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(row.requested_at + 5 * DAY_MS + 1000)
    const assets = await assetRows(s.ownerId, s.beneficiary.id)
    expect(assets.map((a) => a.status)).toEqual(['available'])
    expect(await assetRows(s.ownerId, s.other.id)).toEqual([])
    expect((await requestRow(s.ownerId)).status).toBe('released')
    await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.text.includes('view=assets')))
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies[0]!.state).toBe('released')
  })

  it('the safety window sets the wait when it is longer than the policy’s days', async () => {
    const s = await requestableSetup({ days: 1, by: ['beneficiaries'] })
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    await guard(s.ownerId).tick(row.requested_at + DAY_MS + 1000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(row.requested_at + SAFETY_WINDOW_MS - 1000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(row.requested_at + SAFETY_WINDOW_MS + 1000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })

  it('the policy’s delay sets the wait when it is longer than its days and the safety window', async () => {
    const s = await requestableSetup()
    const delayed = await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      name: 'Delayed on request',
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 120, requiresApprover: false } },
      accessRequest: { days: 1, by: ['beneficiaries'] },
    })
    const before = Date.now()
    await askOk(s.ownerId, s.beneficiary.id, delayed.id)
    const row = await requestRow(s.ownerId)
    expect(row.decide_by - before).toBeGreaterThanOrEqual(120 * HOUR_MS)
    expect(row.decide_by - Date.now()).toBeLessThanOrEqual(120 * HOUR_MS)
  })

  it('a request that would release nothing to the heir (no item of the policy is granted to them) is refused: 409, nothing written', async () => {
    const s = await requestableSetup()
    await ownerExec(s.ownerId, ['delete from item_grants where beneficiary_id = ?', s.beneficiary.id])
    const res = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(ACCESS_REQUEST_MESSAGES.nothingToRelease)
    expect(await ownerRow(s.ownerId, 'select count(*) as n from access_requests')).toEqual({ n: 0 })
  })

  it('a check-in or a sign-in does not cancel a request', async () => {
    const s = await requestableSetup()
    await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 7 } })
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    expect((await call('/api/inactivity/ping', { method: 'POST', token: s.token })).status).toBe(200)
    expect((await login(s.owner.email, s.owner.password)).status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 50))
    const row = await requestRow(s.ownerId)
    expect(row.status).toBe('waiting')
    expect(await ownerRow(s.ownerId, "select status from releases where firing_id = ?", row.firing_id)).toEqual({ status: 'waiting' })
    await guard(s.ownerId).tick(row.decide_by + 1000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })

  it('a policy without the setting cannot be asked for, nor one the person is not named in', async () => {
    const s = await requestableSetup(null)
    const res = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe(ACCESS_REQUEST_MESSAGES.notRequestable)
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies).toEqual([])
    const t = await requestableSetup()
    const stranger = await addBeneficiary(t.token, await publicKey(), { fullName: 'Not Named' })
    expect((await ask(t.ownerId, stranger.id, t.policy.id)).status).toBe(404)
    expect(await ownerRow(t.ownerId, 'select count(*) as n from access_requests')).toEqual({ n: 0 })
  })
})

describe('a policy that is no longer active', () => {
  it('cannot be asked for, though it still has the setting: 404, and the portal lists nothing to ask', async () => {
    const s = await requestableSetup()
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies.map((p) => p.policyId)).toEqual([s.policy.id])
    await ownerExec(s.ownerId, ["update policies set status = 'inactive' where id = ?", s.policy.id])
    const res = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe(ACCESS_REQUEST_MESSAGES.notRequestable)
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies).toEqual([])
    expect(await ownerRow(s.ownerId, 'select count(*) as n from access_requests')).toEqual({ n: 0 })
  })
})

describe('one request per person and policy, not per person', () => {
  it('a request waiting on one policy does not stop the same heir asking for another', async () => {
    const s = await requestableSetup()
    const second = await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      name: 'Also on request',
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
      accessRequest: { days: 2, by: ['beneficiaries'] },
    })
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    await askOk(s.ownerId, s.beneficiary.id, second.id)
    expect((await ask(s.ownerId, s.beneficiary.id, s.policy.id)).status).toBe(409)
  })
})

describe('the owner’s decision', () => {
  it('Refuse from the e-mail ends it without signing in: nothing is ever released, the requester is told, asking again waits a week', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const token = linkTokenIn(await ownerMail(s.owner.email), '/access-refuse')
    const view = await call(`/api/access-requests/refuse?token=${encodeURIComponent(token)}`)
    expect(await view.json()).toMatchObject({ policyName: 'On request', requesterName: s.beneficiary.fullName, status: 'waiting' })
    const refused = await call('/api/access-requests/refuse', { body: { token } })
    expect(refused.status, await refused.clone().text()).toBe(200)
    expect(await messageOf(refused)).toBe(ACCESS_REQUEST_MESSAGES.refused)
    const row = await requestRow(s.ownerId)
    expect(row.status).toBe('refused')
    expect((await call('/api/access-requests/refuse', { body: { token } })).status).toBe(409)

    await guard(s.ownerId).tick(Date.now() + 30 * DAY_MS)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((m) => m.subject.includes('refused')))
    expect(await auditActions(s.ownerId)).toEqual(expect.arrayContaining(['access.requested', 'access.refused']))

    const again = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(again.status).toBe(409)
    const decided = (await ownerRow<{ decided_at: number }>(s.ownerId, 'select decided_at from access_requests'))!.decided_at
    expect(await messageOf(again)).toBe(ACCESS_REQUEST_MESSAGES.askAgainFrom(decided + ACCESS_REQUEST.reaskAfterMs))
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies[0]).toMatchObject({ state: 'refused', askAgainFrom: new Date(decided + ACCESS_REQUEST.reaskAfterMs).toISOString() })

    // Six days on, still not; a week and a moment on, yes.
    await ownerExec(s.ownerId, ['update access_requests set decided_at = ?', Date.now() - 6 * DAY_MS])
    expect((await ask(s.ownerId, s.beneficiary.id, s.policy.id)).status).toBe(409)
    await ownerExec(s.ownerId, ['update access_requests set decided_at = ?', Date.now() - ACCESS_REQUEST.reaskAfterMs - 1000])
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
  })

  it('a week after a refusal the portal says the heir may ask again; their new request is the one that stands (a third waits on it: 409)', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const token = linkTokenIn(await ownerMail(s.owner.email), '/access-refuse')
    expect((await call('/api/access-requests/refuse', { body: { token } })).status).toBe(200)
    const weekAgo = Date.now() - ACCESS_REQUEST.reaskAfterMs - 60_000
    await ownerExec(s.ownerId, ['update access_requests set requested_at = ?, decided_at = ?', weekAgo - 60_000, weekAgo])
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies[0]).toMatchObject({ state: 'can_ask' })
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    expect((await portalView(s.ownerId, s.beneficiary.id)).policies[0]).toMatchObject({ state: 'waiting' })
    const third = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(third.status).toBe(409)
    expect(await messageOf(third)).toBe(ACCESS_REQUEST_MESSAGES.alreadyWaiting)
  })

  it('Refuse in the app ends it too; another owner gets 404 for its id', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    const other = await ownerWithBeneficiary()
    for (const act of ['refuse', 'approve']) {
      const res = await call(`/api/access-requests/${row.id}/${act}`, { method: 'POST', token: other.token })
      expect(res.status, act).toBe(404)
    }
    expect((await requestRow(s.ownerId)).status).toBe('waiting')
    const res = await call(`/api/access-requests/${row.id}/refuse`, { method: 'POST', token: s.token })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toMatchObject({ id: row.id, status: 'refused' })
    await guard(s.ownerId).tick(Date.now() + 30 * DAY_MS)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    expect((await call(`/api/access-requests/${row.id}/approve`, { method: 'POST', token: s.token })).status).toBe(409)
  })

  it('a request from someone the owner has since removed can still be refused, and is listed without their name', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    expect((await call(`/api/beneficiaries/${s.beneficiary.id}`, { method: 'DELETE', token: s.token })).status).toBe(200)
    const list = (await (await call('/api/access-requests', { token: s.token })).json()) as OwnerAccessRequests
    expect(list.requests[0]).toMatchObject({ id: row.id, requesterName: ACCESS_REQUEST_MESSAGES.someoneRemoved })
    const res = await call(`/api/access-requests/${row.id}/refuse`, { method: 'POST', token: s.token })
    expect(res.status, await res.clone().text()).toBe(200)
  })

  it('Approve now needs fresh proof, and then releases at once', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    await stale(s.ownerId)
    const refused = await call(`/api/access-requests/${row.id}/approve`, { method: 'POST', token: s.token })
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(FRESH_PROOF_MESSAGES.required)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])

    const fresh = (await (await login(s.owner.email, s.owner.password)).json()) as { token: string }
    const approved = await call(`/api/access-requests/${row.id}/approve`, { method: 'POST', token: fresh.token })
    expect(approved.status, await approved.clone().text()).toBe(200)
    expect(await approved.json()).toMatchObject({ status: 'released' })
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    expect(await assetRows(s.ownerId, s.other.id)).toEqual([])
    expect(await auditActions(s.ownerId)).toEqual(expect.arrayContaining(['access.requested', 'access.approved', 'release.completed']))
  })

  it('a request already released cannot be refused afterwards: 409, and what was released stays', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    const approved = await call(`/api/access-requests/${row.id}/approve`, { method: 'POST', token: s.token })
    expect(approved.status, await approved.clone().text()).toBe(200)
    const refused = await call(`/api/access-requests/${row.id}/refuse`, { method: 'POST', token: s.token })
    expect(refused.status).toBe(409)
    expect((await requestRow(s.ownerId)).status).toBe('released')
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
  })

  it('Approve now releases that request alone: another heir’s request keeps waiting', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const mine = await requestRow(s.ownerId)
    await askOk(s.ownerId, s.other.id, s.policy.id)
    const fresh = (await (await login(s.owner.email, s.owner.password)).json()) as { token: string }
    const approved = await call(`/api/access-requests/${mine.id}/approve`, { method: 'POST', token: fresh.token })
    expect(approved.status, await approved.clone().text()).toBe(200)
    expect((await assetRows(s.ownerId, s.beneficiary.id)).map((a) => a.status)).toEqual(['available'])
    expect(await assetRows(s.ownerId, s.other.id)).toEqual([])
    expect((await portalView(s.ownerId, s.other.id)).policies[0]).toMatchObject({ state: 'waiting' })
  }, 180_000)
})

describe('one request per person and policy', () => {
  it('while an approved request’s release is still on its way, a second request is refused (409)', async () => {
    const s = await requestableSetup()
    await askOk(s.ownerId, s.beneficiary.id, s.policy.id)
    const row = await requestRow(s.ownerId)
    // What Approve now leaves when the release still waits on something (an approver's sign-off).
    await ownerExec(s.ownerId, ["update access_requests set status = 'approved', decided_at = ? where id = ?", Date.now(), row.id])
    const again = await ask(s.ownerId, s.beneficiary.id, s.policy.id)
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(ACCESS_REQUEST_MESSAGES.alreadyWaiting)
    expect((await ownerRows(s.ownerId, 'select id from access_requests')).length).toBe(1)
  })
})

describe('turning it on', () => {
  it('needs fresh proof, and the owner is told', async () => {
    const s = await ownerWithBeneficiary()
    await stale(s.ownerId)
    const res = await call('/api/policies', {
      token: s.token,
      body: {
        name: 'Asked for',
        description: 'Everything my children need to settle the estate.',
        ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
        encryptedSelectors: btoa('sealed'),
        wrappedKey: btoa('wrapped'),
        accessRequest: { days: 7, by: ['beneficiaries'] },
      },
    })
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe(FRESH_PROOF_MESSAGES.required)
    expect(await ownerRow(s.ownerId, 'select count(*) as n from policies')).toEqual({ n: 0 })

    const t = await requestableSetup({ days: 7, by: ['beneficiaries'] })
    await waitFor(async () => (await outboxFor(t.owner.email)).find((m) => m.text.includes('lets people ask for access')))
  })

  it('setting a policy that already lets people ask to active again turns nothing on: no fresh proof asked, no e-mail', async () => {
    const t = await requestableSetup({ days: 7, by: ['beneficiaries'] })
    const told = async () => (await outboxFor(t.owner.email)).filter((m) => m.text.includes('lets people ask for access')).length
    await waitFor(async () => (await told()) === 1)
    await stale(t.ownerId)
    const res = await call(`/api/policies/${t.policy.id}`, { method: 'PUT', token: t.token, body: { status: 'active' } })
    expect(res.status).toBe(200)
    expect(await told()).toBe(1)
  })

  it('activating a policy that lets people ask needs fresh proof: refused from a stale session, taken from a fresh one, and the owner is told', async () => {
    const t = await requestableSetup({ days: 7, by: ['beneficiaries'] })
    const told = async () => (await outboxFor(t.owner.email)).filter((m) => m.text.includes('lets people ask for access')).length
    await waitFor(async () => (await told()) === 1)
    expect((await call(`/api/policies/${t.policy.id}`, { method: 'PUT', token: t.token, body: { status: 'inactive' } })).status).toBe(200)
    await stale(t.ownerId)
    const refused = await call(`/api/policies/${t.policy.id}`, { method: 'PUT', token: t.token, body: { status: 'active' } })
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(FRESH_PROOF_MESSAGES.required)
    expect(await ownerRow(t.ownerId, 'select status from policies')).toEqual({ status: 'inactive' })
    const fresh = (await (await login(t.owner.email, t.owner.password)).json()) as { token: string }
    const taken = await call(`/api/policies/${t.policy.id}`, { method: 'PUT', token: fresh.token, body: { status: 'active' } })
    expect(taken.status).toBe(200)
    expect(await ownerRow(t.ownerId, 'select status from policies')).toEqual({ status: 'active' })
    await waitFor(async () => (await told()) === 2)
  })

  it('validates the waiting time: 1 to 365 days, at least one kind of requester', async () => {
    const s = await ownerWithBeneficiary()
    for (const accessRequest of [{ days: 0 }, { days: 366 }, { days: 1.5 }, { days: 7, by: [] }]) {
      const res = await call('/api/policies', {
        token: s.token,
        body: {
          name: 'Asked for',
          description: 'Everything my children need to settle the estate.',
          ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
          encryptedSelectors: btoa('sealed'),
          wrappedKey: btoa('wrapped'),
          accessRequest,
        },
      })
      expect(res.status, JSON.stringify(accessRequest)).toBe(400)
    }
  })
})

describe('approvers', () => {
  it('get a request link by address, and their request releases to the policy’s beneficiaries', async () => {
    const s = await requestableSetup({ days: 1, by: ['approvers'] })
    const approver = await addApprover(s.token)
    const invite = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/verify-approver')))
    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    // The beneficiary may not ask for an approvers-only policy.
    expect((await ask(s.ownerId, s.beneficiary.id, s.policy.id)).status).toBe(404)

    expect((await callSettled('/api/beneficiary-portal/link', { body: { email: approver.email } })).status).toBe(200)
    const link = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/access-request')))
    const token = linkTokenIn(link, '/access-request')
    const view = (await (await call(`/api/access-requests/by-link?token=${encodeURIComponent(token)}`)).json()) as RequesterView
    expect(view.policies).toEqual([expect.objectContaining({ policyId: s.policy.id, state: 'can_ask' })])
    const asked = await call('/api/access-requests/by-link', { body: { token, policyId: s.policy.id } })
    expect(asked.status, await asked.clone().text()).toBe(201)
    const row = await requestRow(s.ownerId)
    await guard(s.ownerId).tick(row.decide_by + 1000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
    expect(await assetRows(s.ownerId, s.other.id)).toHaveLength(1)
  })

  it('an approver who has not verified their address may not ask, and does not count as someone who can', async () => {
    const s = await requestableSetup({ days: 1, by: ['approvers'] })
    const approver = await addApprover(s.token)
    const token = signLinkToken(env, 'accessRequest', approver.id, { owner: s.ownerId })
    const view = (await (await call(`/api/access-requests/by-link?token=${encodeURIComponent(token)}`)).json()) as RequesterView
    expect(view.policies).toEqual([])
    expect((await call('/api/access-requests/by-link', { body: { token, policyId: s.policy.id } })).status).toBe(404)
    const ready = (await (await call('/api/release-readiness', { token: s.token })).json()) as ReleaseReadiness
    expect(ready.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'access_request_no_requester', subject: { type: 'policy', id: s.policy.id } })]))
  })

  it('a verified approver may not ask for a policy that lets only its beneficiaries ask', async () => {
    const s = await requestableSetup({ days: 1, by: ['beneficiaries'] })
    const approver = await verifiedApprover(s.token)
    const token = signLinkToken(env, 'accessRequest', approver.id, { owner: s.ownerId })
    const view = (await (await call(`/api/access-requests/by-link?token=${encodeURIComponent(token)}`)).json()) as RequesterView
    expect(view.policies).toEqual([])
    expect((await call('/api/access-requests/by-link', { body: { token, policyId: s.policy.id } })).status).toBe(404)
    expect(await ownerRow(s.ownerId, 'select count(*) as n from access_requests')).toEqual({ n: 0 })
  })

  it('a policy that names its approvers lets those alone ask: another verified approver of the owner may not', async () => {
    const s = await requestableSetup({ days: 1, by: ['approvers'] })
    const named = await verifiedApprover(s.token)
    const other = await verifiedApprover(s.token)
    await ownerExec(s.ownerId, ['update policies set identity_verification_approvers = ? where id = ?', JSON.stringify([named.id]), s.policy.id])
    const linkOf = (id: string) => signLinkToken(env, 'accessRequest', id, { owner: s.ownerId })
    const viewOf = async (id: string) => ((await (await call(`/api/access-requests/by-link?token=${encodeURIComponent(linkOf(id))}`)).json()) as RequesterView).policies
    expect(await viewOf(named.id)).toEqual([expect.objectContaining({ policyId: s.policy.id, state: 'can_ask' })])
    expect(await viewOf(other.id)).toEqual([])
    expect((await call('/api/access-requests/by-link', { body: { token: linkOf(other.id), policyId: s.policy.id } })).status).toBe(404)
  })

  it('an approver who may not ask for anything is sent no link to ask', async () => {
    const s = await requestableSetup({ days: 1, by: ['beneficiaries'] })
    const approver = await verifiedApprover(s.token)
    expect((await callSettled('/api/beneficiary-portal/link', { body: { email: approver.email } })).status).toBe(200)
    await guard(s.ownerId).tick()
    expect((await outboxFor(approver.email)).filter((m) => m.text.includes('/access-request'))).toEqual([])
  })

  it('a beneficiary with nothing released yet gets a portal link when they may ask', async () => {
    const s = await requestableSetup()
    expect((await callSettled('/api/beneficiary-portal/link', { body: { email: s.beneficiary.email } })).status).toBe(200)
    const m = await waitFor(async () => (await outboxFor(s.beneficiary.email)).find((x) => x.subject.includes('Asking for access')))
    expect(linkTokenIn(m, '/beneficiary-portal')).toBeTruthy()
  })
})

describe('readiness and the dry run', () => {
  it('a requestable policy is a way to reach people; one nobody can ask for is flagged', async () => {
    const s = await requestableSetup()
    const ready = (await (await call('/api/release-readiness', { token: s.token })).json()) as ReleaseReadiness
    expect(ready.problems.map((p) => p.kind)).not.toContain('nothing_protected')
    expect(ready.problems.map((p) => p.kind)).not.toContain('policy_trigger_missing')
    expect(ready.problems.map((p) => p.kind)).not.toContain('access_request_no_requester')

    const t = await requestableSetup({ days: 7, by: ['approvers'] })
    const flagged = (await (await call('/api/release-readiness', { token: t.token })).json()) as ReleaseReadiness
    expect(flagged.problems).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'access_request_no_requester', subject: { type: 'policy', id: t.policy.id } })]))
  })

  it('shows what a request on each policy would release, to whom, and after how long', async () => {
    const s = await requestableSetup({ days: 5, by: ['beneficiaries'] })
    const list = (await (await call('/api/access-requests', { token: s.token })).json()) as OwnerAccessRequests
    expect(list.safetyWindowHours).toBe(72)
    expect(list.policies).toEqual([
      expect.objectContaining({ policyId: s.policy.id, days: 5, waitHours: 120, itemCount: 1, requesters: 2, recipientNames: expect.arrayContaining([s.beneficiary.fullName, 'Other Heir']) }),
    ])
    expect(await ownerRow(s.ownerId, 'select count(*) as n from firings')).toEqual({ n: 0 })
  })
})
