import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { cipherSize, VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { addBeneficiary, call, messageOf } from './helpers'
import { ownerExec } from './owner-helpers'
import {
  blobDeletionKeys,
  blobOf,
  completeRaw,
  content,
  counters,
  grantRows,
  itemKey,
  itemRow,
  listItems,
  ownerWithBeneficiary,
  partRows,
  putAllParts,
  sameBytes,
  signedGrantsBody,
  sleep,
  startUpload,
  uploadItem,
  waitForBlobGone,
} from './vault-helpers'

function deleteItem(token: string, id: string) {
  return call(`/api/vault/items/${id}`, { method: 'DELETE', token })
}

describe('GET /api/vault/items', () => {
  it('is empty for a new owner', async () => {
    const { token } = await ownerWithBeneficiary()
    expect(await listItems(token)).toEqual([])
  })

  it("lists only the caller's active items, newest first, with beneficiaryIds from item_grants", async () => {
    const { token, beneficiary, ownerId } = await ownerWithBeneficiary()
    const second = await addBeneficiary(token, beneficiary.publicKey)
    const first = await uploadItem(token, [beneficiary.id])
    await sleep(5)
    const middle = await uploadItem(token, [beneficiary.id, second.id], 2000)
    await sleep(5)
    const last = await uploadItem(token, [second.id], 0)
    // Neither an upload in progress nor another owner's item is listed.
    const inProgress = await startUpload(token, 100)
    await putAllParts(token, inProgress, 100)
    const other = await ownerWithBeneficiary()
    const foreign = await uploadItem(other.token, [other.beneficiary.id])

    const list = await listItems(token)
    expect(list.map((i) => i.id)).toEqual([last.item.id, middle.item.id, first.item.id])
    const times = list.map((i) => Date.parse(i.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(list[0]).toEqual(last.item)
    expect(list[2]).toEqual(first.item)
    expect(list[1]!.beneficiaryIds.slice().sort()).toEqual([beneficiary.id, second.id].sort())
    expect(list[1]).toMatchObject({ plainSize: 2000, cipherSize: cipherSize(2000), type: 'doc' })
    expect((await listItems(other.token)).map((i) => i.id)).toEqual([foreign.item.id])

    // beneficiaryIds are read from item_grants, not remembered from the upload.
    await ownerExec(ownerId, ['DELETE FROM item_grants WHERE item_id = ? AND beneficiary_id = ?', middle.item.id, beneficiary.id])
    const after = await listItems(token)
    expect(after.find((i) => i.id === middle.item.id)?.beneficiaryIds).toEqual([second.id])
  })

  it('orders by completion, not by start', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const startedFirst = await startUpload(token, 10)
    await sleep(5)
    const startedSecond = await startUpload(token, 20)
    await putAllParts(token, startedFirst, 10)
    await putAllParts(token, startedSecond, 20)
    const body = { encryptedMetadata: btoa('m'), wrappedKey: btoa('k'), policy: {}, grants: [{ beneficiaryId: beneficiary.id, wrappedKey: btoa('g') }] }
    expect((await completeRaw(token, startedSecond.itemId, body)).status).toBe(201)
    await sleep(5)
    expect((await completeRaw(token, startedFirst.itemId, body)).status).toBe(201)
    expect((await listItems(token)).map((i) => i.id)).toEqual([startedFirst.itemId, startedSecond.itemId])
  })
})

describe('the item list kept in the owner\'s object', () => {
  it('follows every write: a new item, a row changed straight in SQL, new grants, a deletion, an upload started', async () => {
    const { token, beneficiary, ownerId } = await ownerWithBeneficiary()
    const a = (await uploadItem(token, [beneficiary.id])).item
    const ids = async () => (await listItems(token)).map((i) => i.id)
    expect(await ids()).toEqual([a.id])
    expect(await ids()).toEqual([a.id])
    await sleep(5)
    const b = (await uploadItem(token, [beneficiary.id])).item
    expect(await ids()).toEqual([b.id, a.id])
    // A write that is no act of the API at all still shows at once.
    await ownerExec(ownerId, [`update vault_items set encrypted_metadata = 'Y2hhbmdlZA' where id = ?`, a.id])
    expect((await listItems(token)).find((i) => i.id === a.id)?.encryptedMetadata).toBe('Y2hhbmdlZA')
    const second = await addBeneficiary(token, beneficiary.publicKey)
    const grants = await call(`/api/vault/items/${a.id}/grants`, { method: 'PUT', token, body: await signedGrantsBody(token, a.id, [{ beneficiaryId: second.id, wrappedKey: 'd3JhcHBlZA' }]) })
    expect(grants.status).toBe(200)
    expect((await listItems(token)).find((i) => i.id === a.id)?.beneficiaryIds.sort()).toEqual([beneficiary.id, second.id].sort())
    expect((await deleteItem(token, b.id)).status).toBe(200)
    expect(await ids()).toEqual([a.id])
    await startUpload(token, 100)
    expect(await ids()).toEqual([a.id])
  })
})

describe('GET /api/vault/items/:id/content', () => {
  it("serves the owner's ciphertext and nobody else's", async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const { item, parts } = await uploadItem(token, [beneficiary.id], 500)
    const res = await content(token, item.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(cipherSize(500)))
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), parts[0]!)).toBe(true)

    const other = await ownerWithBeneficiary()
    const foreign = await content(other.token, item.id)
    expect(foreign.status).toBe(404)
    expect(await messageOf(foreign)).toBe(VAULT_ITEM_MESSAGES.itemNotFound)
    expect(await blobOf(ownerId, item.id)).not.toBeNull()
  })

  it('an unknown id is 404, a non-uuid 400, an upload in progress 404', async () => {
    const { token } = await ownerWithBeneficiary()
    expect((await content(token, crypto.randomUUID())).status).toBe(404)
    expect((await content(token, 'nope')).status).toBe(400)
    const session = await startUpload(token, 100)
    await putAllParts(token, session, 100)
    expect((await content(token, session.itemId)).status).toBe(404)
  })

  it('an item whose object is missing in R2 is 404, not 500', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const { item } = await uploadItem(token, [beneficiary.id])
    await env.BLOBS.delete(itemKey(ownerId, item.id))
    const res = await content(token, item.id)
    expect(res.status).toBe(404)
  })
})

describe('DELETE /api/vault/items/:id', () => {
  it('removes the row, its grants and its R2 object, and leaves other items alone', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const second = await addBeneficiary(token, beneficiary.publicKey)
    const keep = await uploadItem(token, [beneficiary.id])
    const doomed = await uploadItem(token, [beneficiary.id, second.id], 300)
    expect(await grantRows(ownerId, doomed.item.id)).toHaveLength(2)

    const res = await deleteItem(token, doomed.item.id)
    expect(res.status).toBe(200)
    expect(await itemRow(ownerId, doomed.item.id)).toBeNull()
    expect(await grantRows(ownerId, doomed.item.id)).toEqual([])
    await waitForBlobGone(ownerId, doomed.item.id)
    expect(await blobDeletionKeys(ownerId)).not.toContain(itemKey(ownerId, doomed.item.id))
    expect((await content(token, doomed.item.id)).status).toBe(404)
    expect((await listItems(token)).map((i) => i.id)).toEqual([keep.item.id])
    expect(await grantRows(ownerId, keep.item.id)).toHaveLength(1)
    expect(await blobOf(ownerId, keep.item.id)).not.toBeNull()
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(100), vaultItemCount: 1 })
  })

  it("another owner's token, an unknown id and an upload in progress are 404; a non-uuid is 400", async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const { item } = await uploadItem(token, [beneficiary.id])
    const other = await ownerWithBeneficiary()
    const foreign = await deleteItem(other.token, item.id)
    expect(foreign.status).toBe(404)
    expect(await messageOf(foreign)).toBe(VAULT_ITEM_MESSAGES.itemNotFound)
    expect(await itemRow(ownerId, item.id)).toMatchObject({ status: 'active' })
    expect(await grantRows(ownerId, item.id)).toHaveLength(1)
    expect(await blobOf(ownerId, item.id)).not.toBeNull()
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(100), vaultItemCount: 1 })

    expect((await deleteItem(token, crypto.randomUUID())).status).toBe(404)
    expect((await deleteItem(token, 'not-a-uuid')).status).toBe(400)

    const session = await startUpload(token, 100)
    await putAllParts(token, session, 100)
    expect((await deleteItem(token, session.itemId)).status).toBe(404)
    expect(await itemRow(ownerId, session.itemId)).toMatchObject({ status: 'uploading' })
    expect(await partRows(ownerId, session.itemId)).toHaveLength(1)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(100), vaultItemCount: 1 })
  })
})

describe('deleting a beneficiary', () => {
  it('removes their grants; the item stays, with its other grants, content and counters', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const second = await addBeneficiary(token, beneficiary.publicKey)
    const shared = await uploadItem(token, [beneficiary.id, second.id])
    const onlyFirst = await uploadItem(token, [beneficiary.id], 200)
    const before = await counters(token)

    const res = await call(`/api/beneficiaries/${beneficiary.id}`, { method: 'DELETE', token })
    expect(res.status).toBe(200)
    expect((await grantRows(ownerId, shared.item.id)).map((g) => g.beneficiary_id)).toEqual([second.id])
    expect(await grantRows(ownerId, onlyFirst.item.id)).toEqual([])
    expect(await itemRow(ownerId, shared.item.id)).toMatchObject({ status: 'active' })
    expect(await itemRow(ownerId, onlyFirst.item.id)).toMatchObject({ status: 'active' })
    const list = await listItems(token)
    expect(list.find((i) => i.id === shared.item.id)?.beneficiaryIds).toEqual([second.id])
    expect(list.find((i) => i.id === onlyFirst.item.id)?.beneficiaryIds).toEqual([])
    expect((await content(token, onlyFirst.item.id)).status).toBe(200)
    expect(await blobOf(ownerId, onlyFirst.item.id)).not.toBeNull()
    expect(await counters(token)).toEqual(before)
  })
})
