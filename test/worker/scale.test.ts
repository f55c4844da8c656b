import { describe, expect, it } from 'vitest'
import { createTrigger, manualReleaseOk, ownerWithItem, policyBody, policyCovering } from './engine-helpers'
import { addBeneficiary, call } from './helpers'
import { ownerExec, ownerRow, ownerRows } from './owner-helpers'
import { publicKey } from './vault-helpers'

// Owners far past the 100 parameters SQLite binds per statement in Durable Objects and D1: a firing
// of hundreds of items to several beneficiaries (over 300 releases, 900 assets), and lists of more
// than 100 items and policies. Everything must go out in one firing.

const ITEMS = 300

/** Copies of the owner's one real item (same ciphertext object), granted to every beneficiary, seeded in SQL (not sealed: a manifest names its item). */
async function cloneItems(ownerId: string, itemId: string, beneficiaryIds: string[], count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => crypto.randomUUID())
  const statements = ids.flatMap((id, i): Array<[string, ...unknown[]]> => [
    [
      `insert into vault_items select ?, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, upload_id,
        encrypted_metadata, wrapped_key, ?, requires_approver, approver_contact, scheduled_at, created_at, completed_at,
        content_digest, null, null
       from vault_items where id = ?`,
      id,
      i % 2 ? 'MANUAL_RELEASE' : 'VERIFIED_DEATH',
      itemId,
    ],
    ...beneficiaryIds.map((b): [string, ...unknown[]] => [
      `insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, 'd3JhcHBlZA', 1, 1, ?)`,
      id,
      b,
      Date.now(),
    ]),
  ])
  await ownerExec(ownerId, ...statements)
  return ids
}

describe('a firing at scale', () => {
  it(`releases ${ITEMS} items to 3 beneficiaries in one manual release, written in bulk and audited one entry per release`, async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const others = [await addBeneficiary(s.token, await publicKey()), await addBeneficiary(s.token, await publicKey())]
    const people = [s.beneficiary.id, ...others.map((b) => b.id)]
    const copyGrant = `insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at)
      select item_id, ?, wrapped_key, key_version, direct, created_at from item_grants where item_id = ? and beneficiary_id = ?`
    await ownerExec(s.ownerId, [copyGrant, others[0]!.id, s.item.id, s.beneficiary.id], [copyGrant, others[1]!.id, s.item.id, s.beneficiary.id])
    const itemIds = [s.item.id, ...(await cloneItems(s.ownerId, s.item.id, people, ITEMS - 1))]
    await policyCovering(s.token, s.beneficiary.id, itemIds, {
      ruleJson: { assign: people.map((beneficiaryId) => ({ beneficiaryId, access: 'read' })), release: { on: ['verified_death'], delayHours: 0, requiresApprover: false } },
    })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })

    const result = await manualReleaseOk(s.token, trigger.id)

    // The policy's release and one per item (each item's own protocol also rides on a verified-death
    // or manual firing); every item–beneficiary pair is delivered once.
    expect(result).toMatchObject({ transferredItems: ITEMS * people.length, pendingReleases: 0 })
    expect(await ownerRows(s.ownerId, `select status, count(*) as n from releases group by status`)).toEqual([{ status: 'released', n: 1 + ITEMS }])
    const assets = await ownerRow(s.ownerId, `select count(*) as n, count(distinct item_id || beneficiary_id) as pairs from released_assets`)
    expect(assets).toEqual({ n: ITEMS * people.length, pairs: ITEMS * people.length })
    // Written in bulk, audited one entry per release, in a chain that still verifies.
    const completed = await ownerRows<{ details: string }>(s.ownerId, `select details from audit where action = 'release.completed' order by seq`)
    expect(completed).toHaveLength(1 + ITEMS)
    const counted = completed.map((e) => JSON.parse(e.details) as { releaseId: string; assets: number })
    expect(new Set(counted.map((d) => d.releaseId)).size).toBe(1 + ITEMS)
    expect(counted.reduce((sum, d) => sum + d.assets, 0)).toBe(ITEMS * people.length)
    const perRelease = await ownerRows<{ id: string; n: number }>(s.ownerId, `select release_id as id, count(*) as n from released_assets group by release_id`)
    for (const { id, n } of perRelease) expect(counted.find((d) => d.releaseId === id)?.assets).toBe(n)
    expect(await (await call('/api/audit/verify', { token: s.token })).json()).toMatchObject({ valid: true, headMatches: true })
    // Hundreds of releases each append an audit entry: give a loaded machine time.
  }, 60_000)
})

describe('lists at scale', () => {
  it('lists 150 vault items with their grants, and 110 policies with their beneficiaries', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await cloneItems(s.ownerId, s.item.id, [s.beneficiary.id], 149)
    const items = await call('/api/vault/items', { token: s.token })
    expect(items.status).toBe(200)
    const list = (await items.json()) as Array<{ id: string; beneficiaryIds: string[] }>
    expect(list).toHaveLength(150)
    expect(list.every((i) => i.beneficiaryIds.length === 1 && i.beneficiaryIds[0] === s.beneficiary.id)).toBe(true)

    for (let i = 0; i < 110; i++) {
      const res = await call('/api/policies', { token: s.token, body: policyBody(s.beneficiary.id, { name: `Policy ${i}` }) })
      expect(res.status).toBe(201)
    }
    const policies = await call('/api/policies', { token: s.token })
    expect(policies.status).toBe(200)
    const listed = (await policies.json()) as Array<{ ruleJson: { assign: Array<{ beneficiaryId: string }> } }>
    expect(listed).toHaveLength(110)
    expect(listed.every((p) => p.ruleJson.assign[0]?.beneficiaryId === s.beneficiary.id)).toBe(true)
  }, 60_000)
})
