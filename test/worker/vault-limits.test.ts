import { mirrorAccount } from '../../worker/owner/account'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { PLANS } from '../../contract/plans'
import { cipherSize, GRANTS_BODY_MAX_BYTES, UPLOAD_CHUNK_BYTES, VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { call, messageOf } from './helpers'
import {
  blobDeletionKeys,
  blobOf,
  completeBody,
  completeRaw,
  content,
  counters,
  GB,
  grantRows,
  itemKey,
  itemRow,
  itemRowsOf,
  MB,
  ownerWithBeneficiary,
  partRows,
  publicKey,
  putAllParts,
  sameBytes,
  setAccount,
  startUpload,
  startUploadRaw,
  uploadItem,
  waitForBlobGone,
} from './vault-helpers'
import { ownerExec, ownerRows, seedVaultUsage } from './owner-helpers'

// Several tests move 8 MiB parts through workerd; on a loaded machine that takes seconds.
const MULTI_MB_TIMEOUT = 30_000
const BASIC = PLANS.basic.limits
const SMALL = 100 // one part of 129 bytes
const SMALL_CIPHER = cipherSize(SMALL)

function start(token: string, plainSize = SMALL) {
  return startUploadRaw(token, { type: 'doc', plainSize })
}

/** Everything a refused completion must leave behind: nothing for this item, counters as they were. */
async function expectNothingStored(ownerId: string, token: string, itemId: string, before: { storageUsed: number; vaultItemCount: number }) {
  expect(await counters(token)).toEqual(before)
  expect(await itemRow(ownerId, itemId)).toBeNull()
  expect(await grantRows(ownerId, itemId)).toEqual([])
  expect(await partRows(ownerId, itemId)).toEqual([])
  await waitForBlobGone(ownerId, itemId)
  expect(await blobDeletionKeys(ownerId)).not.toContain(itemKey(ownerId, itemId))
  expect((await call(`/api/vault/uploads/${itemId}`, { token })).status).toBe(404)
  expect((await content(token, itemId)).status).toBe(404)
}

describe('the plans as the server applies them', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('Basic is 20 items, 500 MB, 3 beneficiaries (the contract)', () => {
    expect(BASIC).toEqual({ maxItems: 20, maxStorageBytes: 500 * MB, maxBeneficiaries: 3 })
    expect(PLANS.premium.limits.maxStorageBytes).toBe(10 * GB)
    expect(PLANS.enterprise.limits.maxStorageBytes).toBe(50 * GB)
  })
})

describe('item-count limit', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('a Basic owner with 20 items cannot start an upload (402 with the item-limit message), and nothing is reserved', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 20, bytes: 0 })
    const res = await start(token)
    expect(res.status).toBe(402)
    expect(await messageOf(res)).toBe(VAULT_ITEM_MESSAGES.itemLimit(20))
    expect(await itemRowsOf(ownerId)).toEqual([])
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 20 })
  })

  it('uploads in progress count: with 19 items a second concurrent upload is refused', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 19, bytes: 0 })
    expect((await start(token)).status).toBe(201)
    const second = await start(token)
    expect(second.status).toBe(402)
    expect(await messageOf(second)).toBe(VAULT_ITEM_MESSAGES.itemLimit(20))
    expect(await itemRowsOf(ownerId)).toHaveLength(1)
  })

  it('other tiers: free and pro get Basic limits; Premium and Enterprise have no item limit; an admin neither', async () => {
    for (const planTier of ['free', 'pro'] as const) {
      const { token, ownerId } = await ownerWithBeneficiary()
      await setAccount(ownerId, { planTier })
      await seedVaultUsage(ownerId, { items: 20, bytes: 0 })
      expect((await start(token)).status, planTier).toBe(402)
    }
    for (const planTier of ['premium', 'enterprise'] as const) {
      const { token, ownerId } = await ownerWithBeneficiary()
      await setAccount(ownerId, { planTier })
      await seedVaultUsage(ownerId, { items: 500, bytes: 0 })
      expect((await start(token)).status, planTier).toBe(201)
    }
    const admin = await ownerWithBeneficiary()
    await setAccount(admin.ownerId, { role: 'admin' })
    await seedVaultUsage(admin.ownerId, { items: 500, bytes: 20 * GB })
    expect((await start(admin.token)).status).toBe(201)
  })

  it('a Premium owner with 25 items uploads a 26th', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await setAccount(ownerId, { planTier: 'premium' })
    await seedVaultUsage(ownerId, { items: 25, bytes: 1000 })
    const { item } = await uploadItem(token, [beneficiary.id])
    expect(await counters(token)).toEqual({ storageUsed: 1000 + SMALL_CIPHER, vaultItemCount: 26 })
    expect(await itemRow(ownerId, item.id)).toMatchObject({ status: 'active' })
  })

  it('the limit is checked again at completion: room at start, none at the end → 402, nothing counted or stored', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 19, bytes: 5000 })
    const session = await startUpload(token, SMALL)
    await putAllParts(token, session, SMALL)
    // Meanwhile (another device, say) the vault reached its limit.
    await seedVaultUsage(ownerId, { items: 20, bytes: 5000 })
    const res = await completeRaw(token, session.itemId, completeBody([beneficiary.id]))
    expect(res.status).toBe(402)
    expect(await messageOf(res)).toBe(VAULT_ITEM_MESSAGES.itemLimit(20))
    await expectNothingStored(ownerId, token, session.itemId, { storageUsed: 5000, vaultItemCount: 20 })
  })

  it('room for exactly one more item and two completions at once: one 201, one 402, counted once', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 18, bytes: 0 })
    const a = await startUpload(token, SMALL)
    const b = await startUpload(token, 2 * SMALL)
    const aParts = await putAllParts(token, a, SMALL, 10)
    const bParts = await putAllParts(token, b, 2 * SMALL, 20)
    await seedVaultUsage(ownerId, { items: 19, bytes: 0 })

    const results = await Promise.all([a, b].map((s) => completeRaw(token, s.itemId, completeBody([beneficiary.id]))))
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([201, 402])
    const winner = results[0]!.status === 201 ? a : b
    const loser = winner === a ? b : a
    const winnerParts = winner === a ? aParts : bParts
    expect(await messageOf(results[winner === a ? 1 : 0]!)).toBe(VAULT_ITEM_MESSAGES.itemLimit(20))

    expect(await counters(token)).toEqual({ storageUsed: winner.cipherSize, vaultItemCount: 20 })
    expect(await itemRow(ownerId, winner.itemId)).toMatchObject({ status: 'active' })
    expect(await grantRows(ownerId, winner.itemId)).toHaveLength(1)
    const stored = new Uint8Array(await (await content(token, winner.itemId)).arrayBuffer())
    expect(sameBytes(stored, winnerParts[0]!)).toBe(true)
    await expectNothingStored(ownerId, token, loser.itemId, { storageUsed: winner.cipherSize, vaultItemCount: 20 })
  })
})

describe('storage limit', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('refuses at start an upload that would pass 500 MB (413 with the storage message), taking one that fits exactly', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 1, bytes: BASIC.maxStorageBytes - SMALL_CIPHER + 1 })
    const over = await start(token)
    expect(over.status).toBe(413)
    expect(await messageOf(over)).toBe(VAULT_ITEM_MESSAGES.storageLimit(BASIC.maxStorageBytes))
    expect(await messageOf(await start(token))).toContain('500 MB')
    expect(await itemRowsOf(ownerId)).toEqual([])

    await seedVaultUsage(ownerId, { items: 1, bytes: BASIC.maxStorageBytes - SMALL_CIPHER })
    expect((await start(token)).status).toBe(201)
    expect(await counters(token)).toEqual({ storageUsed: BASIC.maxStorageBytes - SMALL_CIPHER, vaultItemCount: 1 })
  })

  it('counts the bytes of uploads in progress', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 1, bytes: BASIC.maxStorageBytes - 2 * SMALL_CIPHER })
    expect((await start(token)).status).toBe(201)
    expect((await start(token)).status).toBe(201)
    const third = await start(token, 0)
    expect(third.status).toBe(413)
    expect(await itemRowsOf(ownerId)).toHaveLength(2)
  })

  it('a big file against a nearly full vault: 100 MB with 450 MB used is refused', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 1, bytes: 450 * MB })
    const res = await start(token, 100 * MB)
    expect(res.status).toBe(413)
    expect(await messageOf(res)).toBe(VAULT_ITEM_MESSAGES.storageLimit(500 * MB))
    expect((await start(token, 40 * MB)).status).toBe(201)
  })

  it('Premium says 10 GB; Enterprise and admins allow 50 GB', async () => {
    const premium = await ownerWithBeneficiary()
    await setAccount(premium.ownerId, { planTier: 'premium' })
    await seedVaultUsage(premium.ownerId, { items: 1, bytes: 10 * GB - 100 })
    const res = await start(premium.token)
    expect(res.status).toBe(413)
    expect(await messageOf(res)).toBe(VAULT_ITEM_MESSAGES.storageLimit(10 * GB))
    expect(VAULT_ITEM_MESSAGES.storageLimit(10 * GB)).toContain('10 GB')

    const enterprise = await ownerWithBeneficiary()
    await setAccount(enterprise.ownerId, { planTier: 'enterprise' })
    await seedVaultUsage(enterprise.ownerId, { items: 1, bytes: 10 * GB })
    expect((await start(enterprise.token)).status).toBe(201)
    await seedVaultUsage(enterprise.ownerId, { items: 1, bytes: 50 * GB })
    const full = await start(enterprise.token)
    expect(full.status).toBe(413)
    expect(await messageOf(full)).toBe(VAULT_ITEM_MESSAGES.storageLimit(50 * GB))
  })

  it('the limit is checked again at completion: room at start, none at the end → 413, nothing counted or stored', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const plainSize = UPLOAD_CHUNK_BYTES + 10 // two parts, so R2 assembles a real multipart object
    const session = await startUpload(token, plainSize)
    await putAllParts(token, session, plainSize)
    const used = BASIC.maxStorageBytes - session.cipherSize + 1
    await seedVaultUsage(ownerId, { items: 3, bytes: used })
    const res = await completeRaw(token, session.itemId, completeBody([beneficiary.id]))
    expect(res.status).toBe(413)
    expect(await messageOf(res)).toBe(VAULT_ITEM_MESSAGES.storageLimit(BASIC.maxStorageBytes))
    await expectNothingStored(ownerId, token, session.itemId, { storageUsed: used, vaultItemCount: 3 })
    expect(await env.BLOBS.get(itemKey(ownerId, session.itemId))).toBeNull()
  })

  it('a completion that fits exactly is taken', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const session = await startUpload(token, SMALL)
    await putAllParts(token, session, SMALL)
    await seedVaultUsage(ownerId, { items: 1, bytes: BASIC.maxStorageBytes - SMALL_CIPHER })
    expect((await completeRaw(token, session.itemId, completeBody([beneficiary.id]))).status).toBe(201)
    expect(await counters(token)).toEqual({ storageUsed: BASIC.maxStorageBytes, vaultItemCount: 2 })
  })

  it('room for one more file and two completions at once: one 201, one 413, counted once', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const a = await startUpload(token, SMALL)
    const b = await startUpload(token, SMALL)
    await putAllParts(token, a, SMALL)
    await putAllParts(token, b, SMALL)
    const used = BASIC.maxStorageBytes - SMALL_CIPHER - 1
    await seedVaultUsage(ownerId, { items: 1, bytes: used })
    const results = await Promise.all([a, b].map((s) => completeRaw(token, s.itemId, completeBody([beneficiary.id]))))
    expect(results.map((r) => r.status).sort()).toEqual([201, 413])
    const loser = results[0]!.status === 201 ? b : a
    const winner = loser === a ? b : a
    expect(await counters(token)).toEqual({ storageUsed: used + SMALL_CIPHER, vaultItemCount: 2 })
    expect(await blobOf(ownerId, winner.itemId)).not.toBeNull()
    await expectNothingStored(ownerId, token, loser.itemId, { storageUsed: used + SMALL_CIPHER, vaultItemCount: 2 })
  })
})

describe('counters stay exact', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('through completes (+cipherSize, +1) and deletes (−cipherSize, −1)', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const a = await uploadItem(token, [beneficiary.id], SMALL)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(SMALL), vaultItemCount: 1 })
    const bSize = UPLOAD_CHUNK_BYTES + 1
    const b = await uploadItem(token, [beneficiary.id], bSize)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(SMALL) + cipherSize(bSize), vaultItemCount: 2 })
    const c = await uploadItem(token, [beneficiary.id], 0)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(SMALL) + cipherSize(bSize) + 29, vaultItemCount: 3 })

    expect((await call(`/api/vault/items/${b.item.id}`, { method: 'DELETE', token })).status).toBe(200)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(SMALL) + 29, vaultItemCount: 2 })
    expect((await call(`/api/vault/items/${b.item.id}`, { method: 'DELETE', token })).status).toBe(404)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(SMALL) + 29, vaultItemCount: 2 })
    expect((await call(`/api/vault/items/${a.item.id}`, { method: 'DELETE', token })).status).toBe(200)
    expect((await call(`/api/vault/items/${c.item.id}`, { method: 'DELETE', token })).status).toBe(200)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    expect(await itemRowsOf(ownerId)).toEqual([])
  })

  it('an in-progress or refused upload never touches them; deleting frees room for the next one', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 19, bytes: 0 })
    const { item } = await uploadItem(token, [beneficiary.id])
    expect(await counters(token)).toEqual({ storageUsed: SMALL_CIPHER, vaultItemCount: 20 })
    expect((await start(token)).status).toBe(402)
    expect((await call(`/api/vault/items/${item.id}`, { method: 'DELETE', token })).status).toBe(200)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 19 })
    const session = await startUpload(token, SMALL)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 19 })
    await putAllParts(token, session, SMALL)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 19 })
  })

  it('two concurrent deletes of one item: one 200, one 404, decremented once', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const keep = await uploadItem(token, [beneficiary.id], SMALL)
    const doomed = await uploadItem(token, [beneficiary.id], 2 * SMALL)
    const before = await counters(token)
    expect(before).toEqual({ storageUsed: SMALL_CIPHER + cipherSize(2 * SMALL), vaultItemCount: 2 })
    const results = await Promise.all([1, 2, 3].map(() => call(`/api/vault/items/${doomed.item.id}`, { method: 'DELETE', token })))
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404])
    expect(await counters(token)).toEqual({ storageUsed: SMALL_CIPHER, vaultItemCount: 1 })
    expect(await itemRow(ownerId, doomed.item.id)).toBeNull()
    expect(await grantRows(ownerId, doomed.item.id)).toEqual([])
    await waitForBlobGone(ownerId, doomed.item.id)
    expect(await itemRow(ownerId, keep.item.id)).toMatchObject({ status: 'active' })
  })

  it("are the vault's own rows: a directory copy that went wrong is never trusted, and the next act corrects it", async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const { item } = await uploadItem(token, [beneficiary.id])
    const directory = () => env.DB.prepare('select vault_items as items, vault_bytes as bytes from users where id = ?').bind(ownerId).first()
    expect(await directory()).toEqual({ items: 1, bytes: SMALL_CIPHER })
    await env.DB.prepare('update users set vault_items = 20, vault_bytes = ? where id = ?').bind(BASIC.maxStorageBytes, ownerId).run()
    await mirrorAccount(ownerId)
    // The owner's own view counts the object's rows, and so do the limits: there is room for more.
    expect(await counters(token)).toEqual({ storageUsed: SMALL_CIPHER, vaultItemCount: 1 })
    expect((await start(token)).status).toBe(201)
    expect((await call(`/api/vault/items/${item.id}`, { method: 'DELETE', token })).status).toBe(200)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    expect(await directory()).toEqual({ items: 0, bytes: 0 })
  })
})

describe('reservations at upload start', { timeout: MULTI_MB_TIMEOUT }, () => {
  const statuses = (responses: Response[]) => responses.map((r) => r.status).sort()

  it('30 concurrent starts on Basic reserve at most 20 items: 20 start, 10 are refused with 402', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const codes = statuses(await Promise.all(Array.from({ length: 30 }, () => start(token))))
    expect(codes.filter((c) => c === 201)).toHaveLength(20)
    expect(codes.filter((c) => c === 402)).toHaveLength(10)
    expect(await itemRowsOf(ownerId)).toHaveLength(20)
  })

  it('30 concurrent starts of 30 MB on Basic reserve at most 500 MB: 16 start, 14 are refused with 413', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const size = 30 * MB
    const codes = statuses(await Promise.all(Array.from({ length: 30 }, () => start(token, size))))
    expect(codes.filter((c) => c === 201)).toHaveLength(16)
    expect(codes.filter((c) => c === 413)).toHaveLength(14)
    const reserved = await itemRowsOf(ownerId)
    expect(reserved.reduce((sum, r) => sum + r.cipher_size, 0)).toBeLessThanOrEqual(BASIC.maxStorageBytes)
  })

  it('an aborted upload gives its reservation back at once', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 19, bytes: 0 })
    const first = (await (await start(token)).json()) as { itemId: string }
    expect((await start(token)).status).toBe(402)
    expect((await call(`/api/vault/uploads/${first.itemId}`, { method: 'DELETE', token })).status).toBe(200)
    expect((await start(token)).status).toBe(201)
  })
})

describe('grants for many beneficiaries fit their body limit', { timeout: MULTI_MB_TIMEOUT }, () => {
  it("an upload's completion naming the contract's 200 beneficiaries is taken; one past the limit is a 413", async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await setAccount(ownerId, { planTier: 'enterprise' })
    const key = await publicKey()
    const ids = Array.from({ length: 199 }, () => crypto.randomUUID())
    await ownerExec(
      ownerId,
      ...ids.map((id, i): [string, ...unknown[]] => [
        `insert into beneficiaries (id, full_name, email, relationship, public_key, public_key_fingerprint, created_at, updated_at) values (?, ?, ?, 'Friend', ?, 'fp', ?, ?)`,
        id,
        `Heir ${i}`,
        `heir-${i}-${id.slice(0, 8)}@example.com`,
        key,
        Date.now(),
        Date.now(),
      ]),
    )
    const own = (await ownerRows<{ id: string }>(ownerId, 'select id from beneficiaries')).find((b) => !ids.includes(b.id))!
    const everyone = [own.id, ...ids]
    expect(everyone).toHaveLength(200)
    // A real grant: a 256-byte RSA-OAEP ciphertext, 344 characters of base64; metadata at its 32 KiB cap.
    const grant = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(256))))
    const metadata = 'A'.repeat(32 * 1024)
    const session = await startUpload(token, SMALL)
    await putAllParts(token, session, SMALL)
    const body = completeBody([], { encryptedMetadata: metadata, grants: everyone.map((beneficiaryId) => ({ beneficiaryId, wrappedKey: grant })) })
    expect(JSON.stringify(body).length).toBeGreaterThan(16 * 1024)
    const res = await completeRaw(token, session.itemId, body)
    expect(res.status).toBe(201)
    expect(await grantRows(ownerId, session.itemId)).toHaveLength(200)

    const other = await startUpload(token, SMALL)
    await putAllParts(token, other, SMALL)
    const oversized = await call(`/api/vault/uploads/${other.itemId}/complete`, { token, rawBody: JSON.stringify({ ...body, padding: 'x'.repeat(GRANTS_BODY_MAX_BYTES) }) })
    expect(oversized.status).toBe(413)
  })
})
