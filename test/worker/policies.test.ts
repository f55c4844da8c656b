import { describe, expect, it } from 'vitest'
import { POLICY_MESSAGES, policySchema, type Policy } from '../../contract/policies'
import { partSize, type UploadSession } from '../../contract/vault-items'
import { assetRows, b64, createTrigger, manualReleaseOk, ownerWithItem, policyBody, policyCovering } from './engine-helpers'
import { ownerExec } from './owner-helpers'
import { addApprover, addBeneficiary, call, messageOf, register, rsaOaepPublicKey } from './helpers'
import { completeRaw, signedGrantsBody, startUpload } from './vault-helpers'

async function uploadedItem(token: string, beneficiaryId: string): Promise<string> {
  const session = (await (await call('/api/vault/uploads', { token, body: { type: 'doc', plainSize: 10 } })).json()) as UploadSession
  await call(`/api/vault/uploads/${session.itemId}/parts/1`, {
    method: 'PUT',
    token,
    headers: { 'content-type': 'application/octet-stream' },
    rawBody: new Uint8Array(partSize(1, 10)) as unknown as string,
  })
  const res = await completeRaw(token, session.itemId, { encryptedMetadata: b64('m'), wrappedKey: b64('k'), policy: {}, grants: [{ beneficiaryId, wrappedKey: b64('g') }] })
  expect(res.status).toBe(201)
  return session.itemId
}

describe('access policies', () => {
  it('creates, lists, toggles and deletes a policy, scoped to its owner', async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const beneficiary = await addBeneficiary(owner.token, key)
    const approver = await addApprover(owner.token)
    const res = await call('/api/policies', {
      token: owner.token,
      body: policyBody(beneficiary.id, {
        requiresIdentityVerification: true,
        identityVerificationApprovers: [approver.id],
        requiredDocumentTypes: ['passport'],
        minimumApprovals: 2,
      }),
    })
    expect(res.status).toBe(201)
    const policy = policySchema.strict().parse(await res.json()) as Policy
    expect(policy).toMatchObject({
      status: 'active',
      ruleJson: { assign: [{ beneficiaryId: beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 72 } },
      identityVerificationApprovers: [approver.id],
      minimumApprovals: 2,
    })

    const list = (await (await call('/api/policies', { token: owner.token })).json()) as Policy[]
    expect(list.map((p) => p.id)).toEqual([policy.id])

    const other = await register()
    expect(((await (await call('/api/policies', { token: other.token })).json()) as Policy[]).length).toBe(0)
    expect((await call(`/api/policies/${policy.id}`, { method: 'PUT', token: other.token, body: { status: 'inactive' } })).status).toBe(404)
    expect((await call(`/api/policies/${policy.id}`, { method: 'DELETE', token: other.token })).status).toBe(404)

    const toggled = await call(`/api/policies/${policy.id}`, { method: 'PUT', token: owner.token, body: { status: 'inactive' } })
    expect(((await toggled.json()) as Policy).status).toBe('inactive')
    expect((await call(`/api/policies/${policy.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    expect((await call(`/api/policies/${policy.id}`, { method: 'DELETE', token: owner.token })).status).toBe(404)
  })

  it('gives the spec messages and refuses selectors in clear and foreign people', async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const beneficiary = await addBeneficiary(owner.token, key)
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x' }, `name: ${POLICY_MESSAGES.nameMin}`],
      [{ description: 'too short' }, `description: ${POLICY_MESSAGES.descriptionMin}`],
      [{ ruleJson: { assign: [], release: { on: ['inactivity'] } } }, `ruleJson.assign: ${POLICY_MESSAGES.beneficiariesRequired}`],
      [{ ruleJson: { assign: [{ beneficiaryId: beneficiary.id }], release: { on: [] } } }, `ruleJson.release.on: ${POLICY_MESSAGES.triggersRequired}`],
      [{ ruleJson: { assign: [{ beneficiaryId: beneficiary.id }], release: { on: ['inactivity'], delayHours: -1 } } }, `ruleJson.release.delayHours: ${POLICY_MESSAGES.delayMin}`],
      [{ requiresApprover: true }, `approverContact: ${POLICY_MESSAGES.approverContactRequired}`],
      [
        { ruleJson: { selectors: [{ tag: 'taxes' }], assign: [{ beneficiaryId: beneficiary.id }], release: { on: ['inactivity'] } } },
        POLICY_MESSAGES.selectorsInClear,
      ],
    ]
    for (const [override, message] of cases) {
      const res = await call('/api/policies', { token: owner.token, body: policyBody(beneficiary.id, override) })
      expect(res.status, message).toBe(400)
      expect(await messageOf(res)).toContain(message)
    }
    const stranger = await register()
    const theirs = await addBeneficiary(stranger.token, key)
    const foreign = await call('/api/policies', { token: owner.token, body: policyBody(theirs.id) })
    expect(foreign.status).toBe(400)
    expect(await messageOf(foreign)).toBe(POLICY_MESSAGES.unknownBeneficiary)
    expect(((await (await call('/api/policies', { token: owner.token })).json()) as Policy[]).length).toBe(0)
  })

  it("a policy naming one of the owner's beneficiaries and one unknown id is refused whole: nothing is created", async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const mine = await addBeneficiary(owner.token, key)
    const stranger = await register()
    const theirs = await addBeneficiary(stranger.token, key)
    for (const other of [theirs.id, crypto.randomUUID()]) {
      const body = policyBody(mine.id, { ruleJson: { assign: [{ beneficiaryId: mine.id }, { beneficiaryId: other }], release: { on: ['verified_death'] } } })
      const res = await call('/api/policies', { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(POLICY_MESSAGES.unknownBeneficiary)
    }
    expect(((await (await call('/api/policies', { token: owner.token })).json()) as Policy[]).length).toBe(0)
  })
})

describe('the approvers a policy names', () => {
  it("a policy naming one of the owner's approvers and one unknown id is refused whole: nothing is created", async () => {
    const owner = await register()
    const mine = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const approver = await addApprover(owner.token)
    const stranger = await register()
    const theirs = await addApprover(stranger.token)
    for (const other of [theirs.id, crypto.randomUUID()]) {
      const body = policyBody(mine.id, { requiresIdentityVerification: true, identityVerificationApprovers: [approver.id, other], minimumApprovals: 1 })
      const res = await call('/api/policies', { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(POLICY_MESSAGES.unknownApprover)
    }
    expect(((await (await call('/api/policies', { token: owner.token })).json()) as Policy[]).length).toBe(0)
  })
})

describe('the items a policy covers', () => {
  it('records only finished items: an upload still in progress is not counted as covered', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const created = await call('/api/policies', { token: s.token, body: policyBody(s.beneficiary.id) })
    expect(created.status).toBe(201)
    const policy = (await created.json()) as Policy
    const upload = await startUpload(s.token, 100)
    const res = await call(`/api/policies/${policy.id}/items`, { method: 'PUT', token: s.token, body: { itemIds: [upload.itemId, s.item.id] } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ itemCount: 1 })
  })
})

describe('a policy that is not active (inactive or draft)', () => {
  it('releases nothing when the trigger it names fires; active again, it does', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await ownerExec(s.ownerId, ['update item_grants set direct = 0 where item_id = ?', s.item.id])
    const policy = await policyCovering(s.token, s.beneficiary.id, [s.item.id], {
      status: 'inactive',
      ruleJson: { assign: [{ beneficiaryId: s.beneficiary.id, access: 'read' }], release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
    })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ releasedItems: 0, pendingReleases: 0 })
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    // The control: the same policy, active, on the next firing.
    await ownerExec(s.ownerId, ["update policies set status = 'active' where id = ?", policy.id], ["update triggers set status = 'active', generation = generation + 1, fired_at = null where id = ?", trigger.id])
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ releasedItems: 1 })
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })
})

describe('item grants', () => {
  it("adds and replaces grants for the owner's beneficiaries only", async () => {
    const owner = await register()
    const key = await rsaOaepPublicKey()
    const first = await addBeneficiary(owner.token, key)
    const second = await addBeneficiary(owner.token, key)
    const itemId = await uploadedItem(owner.token, first.id)

    const res = await call(`/api/vault/items/${itemId}/grants`, {
      method: 'PUT',
      token: owner.token,
      body: await signedGrantsBody(owner.token, itemId, [{ beneficiaryId: second.id, wrappedKey: b64('g2') }, { beneficiaryId: first.id, wrappedKey: b64('g1b') }]),
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { beneficiaryIds: string[] }).beneficiaryIds.sort()).toEqual([first.id, second.id].sort())

    const stranger = await register()
    const theirs = await addBeneficiary(stranger.token, key)
    const foreign = await call(`/api/vault/items/${itemId}/grants`, {
      method: 'PUT',
      token: owner.token,
      body: await signedGrantsBody(owner.token, itemId, [{ beneficiaryId: theirs.id, wrappedKey: b64('x') }]),
    })
    expect(foreign.status).toBe(400)
    const notTheirs = await call(`/api/vault/items/${itemId}/grants`, {
      method: 'PUT',
      token: stranger.token,
      body: await signedGrantsBody(stranger.token, itemId, [{ beneficiaryId: theirs.id, wrappedKey: b64('x') }]),
    })
    expect(notTheirs.status).toBe(404)
  })
})
