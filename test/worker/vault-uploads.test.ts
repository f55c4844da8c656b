import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import {
  CHUNK_OVERHEAD_BYTES,
  cipherSize,
  MAX_FILE_BYTES,
  partCount,
  partSize,
  UPLOAD_CHUNK_BYTES,
  VAULT_ITEM_MESSAGES,
  type UploadSession,
  type VaultItem,
} from '../../contract/vault-items'
import { addBeneficiary, call, messageOf, register } from './helpers'
import { ownerExec, seedVaultUsage } from './owner-helpers'
import {
  blobDeletionKeys,
  blobOf,
  completeBody,
  completeRaw,
  concatBytes,
  content,
  counters,
  grantRows,
  itemKey,
  itemRow,
  itemRowsOf,
  listItems,
  MB,
  multipartIsOpen,
  ownerWithBeneficiary,
  partBytes,
  partRows,
  putAllParts,
  putPart,
  sameBytes,
  startUpload,
  startUploadRaw,
  uploadItem,
} from './vault-helpers'

// Several tests move 8 MiB parts through workerd; on a loaded machine that takes seconds.
const MULTI_MB_TIMEOUT = 30_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const MAX_PART = UPLOAD_CHUNK_BYTES + CHUNK_OVERHEAD_BYTES

async function getUpload(token: string, itemId: string) {
  return call(`/api/vault/uploads/${itemId}`, { token })
}
async function abortUpload(token: string, itemId: string) {
  return call(`/api/vault/uploads/${itemId}`, { method: 'DELETE', token })
}

describe('POST /api/vault/uploads (start)', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('needs a session', async () => {
    const res = await startUploadRaw(undefined, { type: 'doc', plainSize: 10 })
    expect(res.status).toBe(401)
    const bad = await startUploadRaw('not-a-token', { type: 'doc', plainSize: 10 })
    expect(bad.status).toBe(401)
  })

  it('answers 400 naming the field for a bad type or plainSize, and reserves nothing', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const cases: [unknown, string][] = [
      [{ type: 'spreadsheet', plainSize: 10 }, 'type'],
      [{ plainSize: 10 }, 'type'],
      [{ type: 'doc', plainSize: -1 }, 'plainSize'],
      [{ type: 'doc', plainSize: 1.5 }, 'plainSize'],
      [{ type: 'doc', plainSize: '100' }, 'plainSize'],
      [{ type: 'doc' }, 'plainSize'],
      [{ type: 'doc', plainSize: null }, 'plainSize'],
    ]
    for (const [body, field] of cases) {
      const res = await startUploadRaw(token, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      const message = await messageOf(res)
      expect(message.startsWith(`${field}:`), `${JSON.stringify(body)} → ${message}`).toBe(true)
    }
    expect(await itemRowsOf(ownerId)).toEqual([])
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
  })

  it('refuses a file over 100 MB with the server message, and takes exactly 100 MB', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const over = await startUploadRaw(token, { type: 'video', plainSize: MAX_FILE_BYTES + 1 })
    expect(over.status).toBe(400)
    expect(await messageOf(over)).toContain(VAULT_ITEM_MESSAGES.fileTooLargeServer)
    expect(await itemRowsOf(ownerId)).toEqual([])

    const max = await startUpload(token, MAX_FILE_BYTES, 'video')
    expect(max.partCount).toBe(13)
    expect(max.cipherSize).toBe(MAX_FILE_BYTES + 13 * CHUNK_OVERHEAD_BYTES)
  })

  it('answers the session: a fresh uuid, the chunk size, part count, cipher size and no parts yet', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const plainSize = 2 * UPLOAD_CHUNK_BYTES + 1
    const res = await startUploadRaw(token, { type: 'photo', plainSize })
    expect(res.status).toBe(201)
    const session = (await res.json()) as UploadSession
    expect(partCount(plainSize)).toBe(3)
    expect(session).toEqual({
      itemId: expect.stringMatching(UUID),
      chunkBytes: UPLOAD_CHUNK_BYTES,
      partCount: 3,
      cipherSize: plainSize + 3 * CHUNK_OVERHEAD_BYTES,
      uploadedParts: [],
    })
    const row = await itemRow(ownerId, session.itemId)
    expect(row).toMatchObject({ status: 'uploading', r2_key: itemKey(ownerId, session.itemId), cipher_size: session.cipherSize })
    expect(row?.upload_id).toBeTruthy()
    // Nothing is counted until completion.
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    const second = await startUpload(token, 10)
    expect(second.itemId).not.toBe(session.itemId)
  })

  it('a 0-byte file is one part of 29 bytes, and completes to a 29-byte object', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const session = await startUpload(token, 0)
    expect(session).toMatchObject({ partCount: 1, cipherSize: 29, uploadedParts: [] })
    expect((await putPart(token, session.itemId, 1, partBytes(28, 1))).status).toBe(400)
    const bytes = partBytes(29, 1)
    expect((await putPart(token, session.itemId, 1, bytes)).status).toBe(200)
    const done = await completeRaw(token, session.itemId, completeBody([beneficiary.id]))
    expect(done.status).toBe(201)
    expect(((await done.json()) as VaultItem).cipherSize).toBe(29)
    const res = await content(token, session.itemId)
    expect(res.status).toBe(200)
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), bytes)).toBe(true)
    expect(await counters(token)).toEqual({ storageUsed: 29, vaultItemCount: 1 })
  })
})

describe('PUT /api/vault/uploads/:itemId/parts/:n', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('takes parts in any order, lists them sorted for resume, replaces a re-sent part, and assembles the exact bytes', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const plainSize = 2 * UPLOAD_CHUNK_BYTES + 1000
    const session = await startUpload(token, plainSize)
    expect(session.partCount).toBe(3)
    const p1 = partBytes(partSize(1, plainSize), 1)
    const p2 = partBytes(partSize(2, plainSize), 2)
    const p3 = partBytes(partSize(3, plainSize), 3)
    expect([p1.length, p2.length, p3.length]).toEqual([MAX_PART, MAX_PART, 1000 + CHUNK_OVERHEAD_BYTES])

    const r3 = await putPart(token, session.itemId, 3, p3)
    expect(r3.status).toBe(200)
    expect(await r3.json()).toEqual({ partNumber: 3, size: p3.length })
    let resumed = (await (await getUpload(token, session.itemId)).json()) as UploadSession
    expect(resumed).toEqual({ ...session, uploadedParts: [3] })

    expect((await putPart(token, session.itemId, 1, p1)).status).toBe(200)
    resumed = (await (await getUpload(token, session.itemId)).json()) as UploadSession
    expect(resumed.uploadedParts).toEqual([1, 3])

    // Part 2 sent twice: the second copy (different bytes) is the one assembled.
    expect((await putPart(token, session.itemId, 2, partBytes(p2.length, 99))).status).toBe(200)
    expect((await putPart(token, session.itemId, 2, p2)).status).toBe(200)
    resumed = (await (await getUpload(token, session.itemId)).json()) as UploadSession
    expect(resumed.uploadedParts).toEqual([1, 2, 3])
    const rows = await partRows(ownerId, session.itemId)
    expect(rows.map((r) => [r.part_number, r.size])).toEqual([
      [1, p1.length],
      [2, p2.length],
      [3, p3.length],
    ])

    const done = await completeRaw(token, session.itemId, completeBody([beneficiary.id]))
    expect(done.status).toBe(201)
    const res = await content(token, session.itemId)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const stored = new Uint8Array(await res.arrayBuffer())
    expect(stored.length).toBe(session.cipherSize)
    expect(sameBytes(stored, concatBytes([p1, p2, p3]))).toBe(true)
    // The same bytes straight from R2.
    const object = await env.BLOBS.get(itemKey(ownerId, session.itemId))
    expect(sameBytes(new Uint8Array(await object!.arrayBuffer()), concatBytes([p1, p2, p3]))).toBe(true)
  })

  it('refuses a part of the wrong size (400 naming the expected size) and records nothing', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const session = await startUpload(token, 100) // one part of 129 bytes
    const mismatch = VAULT_ITEM_MESSAGES.partSizeMismatch(129)
    for (const size of [0, 1, 128, 130, 1000]) {
      const res = await putPart(token, session.itemId, 1, partBytes(size, 1))
      expect(res.status, `size ${size}`).toBe(400)
      expect(await messageOf(res)).toBe(mismatch)
    }
    // A declared Content-Length that disagrees with the part's size, though the body is right.
    const declaredLess = await putPart(token, session.itemId, 1, partBytes(129, 1), { 'content-length': '100' })
    expect(declaredLess.status).toBe(400)
    expect(await messageOf(declaredLess)).toBe(mismatch)
    const declaredMore = await putPart(token, session.itemId, 1, partBytes(129, 1), { 'content-length': '200' })
    expect(declaredMore.status).toBe(400)
    expect(await messageOf(declaredMore)).toBe(mismatch)
    // The right declared size with a short body.
    const shortBody = await putPart(token, session.itemId, 1, partBytes(100, 1), { 'content-length': '129' })
    expect(shortBody.status).toBe(400)

    expect(await partRows(ownerId, session.itemId)).toEqual([])
    const resumed = (await (await getUpload(token, session.itemId)).json()) as UploadSession
    expect(resumed.uploadedParts).toEqual([])
    // The right size still works afterwards.
    expect((await putPart(token, session.itemId, 1, partBytes(129, 1), { 'content-length': '129' })).status).toBe(200)
  })

  it('checks a non-last part of a multi-part file against the full chunk size', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const plainSize = UPLOAD_CHUNK_BYTES + 10
    const session = await startUpload(token, plainSize)
    // Part 1 sent with the last part's size, and part 2 with a full chunk: both wrong.
    const r1 = await putPart(token, session.itemId, 1, partBytes(partSize(2, plainSize), 1))
    expect(r1.status).toBe(400)
    expect(await messageOf(r1)).toBe(VAULT_ITEM_MESSAGES.partSizeMismatch(MAX_PART))
    const r2 = await putPart(token, session.itemId, 2, partBytes(MAX_PART, 2))
    expect(r2.status).toBe(400)
    expect(await messageOf(r2)).toBe(VAULT_ITEM_MESSAGES.partSizeMismatch(10 + CHUNK_OVERHEAD_BYTES))
    expect(await partRows(ownerId, session.itemId)).toEqual([])
  })

  it('answers 413 to a body over the part limit, streamed or declared', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const session = await startUpload(token, 2 * UPLOAD_CHUNK_BYTES)
    const tooBig = partBytes(MAX_PART + 1, 1)
    const streamed = await putPart(token, session.itemId, 1, tooBig)
    expect(streamed.status).toBe(413)
    expect(await messageOf(streamed)).toBe(VAULT_ITEM_MESSAGES.partTooLarge(MAX_PART))
    const declared = await putPart(token, session.itemId, 1, tooBig, { 'content-length': String(tooBig.length) })
    expect(declared.status).toBe(413)
    // Declared far over the limit: refused from the header alone.
    const huge = await putPart(token, session.itemId, 1, partBytes(10, 1), { 'content-length': String(64 * MB) })
    expect(huge.status).toBe(413)
    expect(await partRows(ownerId, session.itemId)).toEqual([])
    // Exactly the limit is a valid full part.
    expect((await putPart(token, session.itemId, 1, partBytes(MAX_PART, 1))).status).toBe(200)
  })

  it('refuses part numbers that are 0, past the last part, negative or not integers (400)', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const session = await startUpload(token, 100)
    const body = partBytes(129, 1)
    for (const n of ['0', '2', '-1', '1.5', 'abc', '99999']) {
      const res = await putPart(token, session.itemId, n, body)
      expect(res.status, `part ${n}`).toBe(400)
      expect(await messageOf(res), `part ${n}`).toMatch(/part/i)
    }
    for (const n of ['0', '2', '1.5']) {
      expect(await messageOf(await putPart(token, session.itemId, n, body))).toContain(VAULT_ITEM_MESSAGES.partNumberInvalid)
    }
    expect(await partRows(ownerId, session.itemId)).toEqual([])
  })

  it("another owner's token gets 404 on GET, PUT, complete and DELETE, and the upload is untouched", async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const other = await ownerWithBeneficiary()
    const session = await startUpload(token, 100)
    expect((await putPart(token, session.itemId, 1, partBytes(129, 1))).status).toBe(200)

    expect((await getUpload(other.token, session.itemId)).status).toBe(404)
    const put = await putPart(other.token, session.itemId, 1, partBytes(129, 7))
    expect(put.status).toBe(404)
    expect(await messageOf(put)).toBe(VAULT_ITEM_MESSAGES.uploadNotFound)
    expect((await completeRaw(other.token, session.itemId, completeBody([other.beneficiary.id]))).status).toBe(404)
    expect((await abortUpload(other.token, session.itemId)).status).toBe(404)

    const row = await itemRow(ownerId, session.itemId)
    expect(row).toMatchObject({ status: 'uploading' })
    expect(await counters(other.token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    // The owner's part 1 is still the owner's bytes.
    expect((await completeRaw(token, session.itemId, completeBody([beneficiary.id]))).status).toBe(201)
    const stored = new Uint8Array(await (await content(token, session.itemId)).arrayBuffer())
    expect(sameBytes(stored, partBytes(129, 1))).toBe(true)
  })

  it('an unknown item id is 404 and a non-uuid one 400, never 500', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const unknown = crypto.randomUUID()
    const body = partBytes(129, 1)
    expect((await getUpload(token, unknown)).status).toBe(404)
    expect((await putPart(token, unknown, 1, body)).status).toBe(404)
    expect((await completeRaw(token, unknown, completeBody([beneficiary.id]))).status).toBe(404)
    expect((await abortUpload(token, unknown)).status).toBe(404)
    for (const bad of ['not-a-uuid', '123', `${unknown}x`]) {
      expect((await getUpload(token, bad)).status, bad).toBe(400)
      expect((await putPart(token, bad, 1, body)).status, bad).toBe(400)
      expect((await completeRaw(token, bad, completeBody([beneficiary.id]))).status, bad).toBe(400)
      expect((await abortUpload(token, bad)).status, bad).toBe(400)
    }
  })

  it('an active item is no longer an upload: GET, PUT, complete and DELETE of /uploads/:id are 404 and the item stays', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const { item, parts } = await uploadItem(token, [beneficiary.id])
    expect((await getUpload(token, item.id)).status).toBe(404)
    expect((await putPart(token, item.id, 1, partBytes(129, 5))).status).toBe(404)
    expect((await abortUpload(token, item.id)).status).toBe(404)
    expect(await itemRow(ownerId, item.id)).toMatchObject({ status: 'active' })
    expect(await blobOf(ownerId, item.id)).not.toBeNull()
    const stored = new Uint8Array(await (await content(token, item.id)).arrayBuffer())
    expect(sameBytes(stored, parts[0]!)).toBe(true)
  })
})

describe('POST /api/vault/uploads/:itemId/complete', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('refuses to complete while parts are missing, counting nothing; completes once they arrive', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const plainSize = UPLOAD_CHUNK_BYTES + 5
    const session = await startUpload(token, plainSize)
    const none = await completeRaw(token, session.itemId, completeBody([beneficiary.id]))
    expect(none.status).toBe(400)
    expect(await messageOf(none)).toBe(VAULT_ITEM_MESSAGES.partsMissing)
    expect((await putPart(token, session.itemId, 2, partBytes(partSize(2, plainSize), 2))).status).toBe(200)
    const some = await completeRaw(token, session.itemId, completeBody([beneficiary.id]))
    expect(some.status).toBe(400)
    expect(await messageOf(some)).toBe(VAULT_ITEM_MESSAGES.partsMissing)

    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    expect(await itemRow(ownerId, session.itemId)).toMatchObject({ status: 'uploading' })
    expect(await grantRows(ownerId, session.itemId)).toEqual([])
    expect(await env.BLOBS.head(itemKey(ownerId, session.itemId))).toBeNull()
    expect(await listItems(token)).toEqual([])

    expect((await putPart(token, session.itemId, 1, partBytes(partSize(1, plainSize), 1))).status).toBe(200)
    expect((await completeRaw(token, session.itemId, completeBody([beneficiary.id]))).status).toBe(201)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(plainSize), vaultItemCount: 1 })
  })

  it('validates grants: empty, another owner’s beneficiary, duplicates — 400 and nothing counted', async () => {
    const { token, beneficiary, ownerId } = await ownerWithBeneficiary()
    const other = await ownerWithBeneficiary()
    const session = await startUpload(token, 100)
    await putAllParts(token, session, 100)

    const empty = await completeRaw(token, session.itemId, completeBody([]))
    expect(empty.status).toBe(400)
    expect(await messageOf(empty)).toContain(VAULT_ITEM_MESSAGES.beneficiariesRequired)

    const foreign = await completeRaw(token, session.itemId, completeBody([beneficiary.id, other.beneficiary.id]))
    expect(foreign.status).toBe(400)
    expect(await messageOf(foreign)).toBe(VAULT_ITEM_MESSAGES.unknownBeneficiary)

    const unknown = await completeRaw(token, session.itemId, completeBody([crypto.randomUUID()]))
    expect(unknown.status).toBe(400)
    expect(await messageOf(unknown)).toBe(VAULT_ITEM_MESSAGES.unknownBeneficiary)

    const duplicate = await completeRaw(token, session.itemId, completeBody([beneficiary.id, beneficiary.id]))
    expect(duplicate.status).toBe(400)
    expect(await messageOf(duplicate)).toBe(VAULT_ITEM_MESSAGES.grantsMustMatch)

    const notUuid = await completeRaw(token, session.itemId, completeBody(['not-a-uuid']))
    expect(notUuid.status).toBe(400)
    expect(await messageOf(notUuid)).toMatch(/^grants\.0\.beneficiaryId:/)

    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    expect(await counters(other.token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    expect(await grantRows(ownerId, session.itemId)).toEqual([])
    expect(await itemRow(ownerId, session.itemId)).toMatchObject({ status: 'uploading' })
    // Still completable with a valid body.
    expect((await completeRaw(token, session.itemId, completeBody([beneficiary.id]))).status).toBe(201)
  })

  it('validates the policy: approver contact, schedule date, protocol', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    const session = await startUpload(token, 100)
    await putAllParts(token, session, 100)
    const attempt = (policy: unknown) => completeRaw(token, session.itemId, { ...completeBody([beneficiary.id]), policy })

    const noApprover = await attempt({ requiresApprover: true })
    expect(noApprover.status).toBe(400)
    expect(await messageOf(noApprover)).toContain(VAULT_ITEM_MESSAGES.approverRequired)
    const badApprover = await attempt({ requiresApprover: true, approverContact: 'not an email' })
    expect(badApprover.status).toBe(400)
    expect(await messageOf(badApprover)).toMatch(/approverContact/)
    const noDate = await attempt({ protocol: 'SCHEDULED' })
    expect(noDate.status).toBe(400)
    expect(await messageOf(noDate)).toContain(VAULT_ITEM_MESSAGES.scheduleRequired)
    const badDate = await attempt({ protocol: 'SCHEDULED', scheduledAt: 'next tuesday' })
    expect(badDate.status).toBe(400)
    const badProtocol = await attempt({ protocol: 'WHENEVER' })
    expect(badProtocol.status).toBe(400)
    expect(await messageOf(badProtocol)).toMatch(/^policy\.protocol:/)
    const missingPolicy = await completeRaw(token, session.itemId, { ...completeBody([beneficiary.id]), policy: undefined })
    expect(missingPolicy.status).toBe(400)
    const badMeta = await completeRaw(token, session.itemId, completeBody([beneficiary.id], { encryptedMetadata: 'not base64!' }))
    expect(badMeta.status).toBe(400)
    expect(await messageOf(badMeta)).toMatch(/^encryptedMetadata:/)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })

    const scheduledAt = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString()
    const ok = await attempt({ protocol: 'SCHEDULED', scheduledAt, requiresApprover: true, approverContact: 'lawyer@example.com' })
    expect(ok.status).toBe(201)
    const item = (await ok.json()) as VaultItem
    expect(item.accessPolicy).toEqual({
      name: 'Scheduled Date',
      protocol: 'SCHEDULED',
      requiresApprover: true,
      approverContact: 'lawyer@example.com',
      scheduledAt,
    })
    const [listed] = await listItems(token)
    expect(listed?.accessPolicy).toEqual(item.accessPolicy)
  })

  it('stores the item: metadata, grants with the beneficiary key version, no parts rows, and a second complete is 404', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const second = await addBeneficiary(token, beneficiary.publicKey)
    // A beneficiary whose key was rotated: the grant must record the current key version.
    await ownerExec(ownerId, ['UPDATE beneficiaries SET key_version = 3 WHERE id = ?', second.id])
    const plainSize = UPLOAD_CHUNK_BYTES + 77
    const session = await startUpload(token, plainSize, 'video')
    const parts = await putAllParts(token, session, plainSize)
    expect((await partRows(ownerId, session.itemId)).length).toBe(2)
    const body = completeBody([beneficiary.id, second.id], { encryptedMetadata: btoa('meta!'), wrappedKey: btoa('dek') })
    const done = await completeRaw(token, session.itemId, body)
    expect(done.status).toBe(201)
    const item = (await done.json()) as VaultItem
    expect(item).toMatchObject({
      id: session.itemId,
      type: 'video',
      plainSize,
      cipherSize: cipherSize(plainSize),
      chunkBytes: UPLOAD_CHUNK_BYTES,
      encryptedMetadata: btoa('meta!'),
      wrappedKey: btoa('dek'),
      accessPolicy: { name: 'Verified Death', protocol: 'VERIFIED_DEATH', requiresApprover: false, approverContact: null, scheduledAt: null },
    })
    expect(Number.isNaN(Date.parse(item.createdAt))).toBe(false)
    expect([...item.beneficiaryIds].sort()).toEqual([beneficiary.id, second.id].sort())

    const grants = await grantRows(ownerId, item.id)
    const byBeneficiary = Object.fromEntries(grants.map((g) => [g.beneficiary_id, g]))
    expect(grants).toHaveLength(2)
    expect(byBeneficiary[beneficiary.id]).toMatchObject({ wrapped_key: body.grants[0]!.wrappedKey, key_version: 1 })
    expect(byBeneficiary[second.id]).toMatchObject({ wrapped_key: body.grants[1]!.wrappedKey, key_version: 3 })

    expect(await partRows(ownerId, item.id)).toEqual([])
    const row = await itemRow(ownerId, item.id)
    expect(row).toMatchObject({ status: 'active', upload_id: null })
    expect(row?.completed_at).toBeTypeOf('number')
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(plainSize), vaultItemCount: 1 })

    const again = await completeRaw(token, session.itemId, body)
    expect(again.status).toBe(404)
    expect(await messageOf(again)).toBe(VAULT_ITEM_MESSAGES.uploadNotFound)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(plainSize), vaultItemCount: 1 })
    expect(await grantRows(ownerId, item.id)).toHaveLength(2)
    const stored = new Uint8Array(await (await content(token, item.id)).arrayBuffer())
    expect(sameBytes(stored, concatBytes(parts))).toBe(true)
    expect(await blobOf(ownerId, item.id)).not.toBeNull()
  })

  it('two concurrent completes of one upload: one 201, the object intact, counted once', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const session = await startUpload(token, 100)
    const [part] = await putAllParts(token, session, 100)
    const results = await Promise.all([1, 2].map(() => completeRaw(token, session.itemId, completeBody([beneficiary.id]))))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(await counters(token)).toEqual({ storageUsed: cipherSize(100), vaultItemCount: 1 })
    expect(await itemRow(ownerId, session.itemId)).toMatchObject({ status: 'active' })
    expect(await grantRows(ownerId, session.itemId)).toHaveLength(1)
    expect(await blobOf(ownerId, session.itemId)).not.toBeNull()
    const stored = new Uint8Array(await (await content(token, session.itemId)).arrayBuffer())
    expect(sameBytes(stored, part!)).toBe(true)
  })
})

describe('DELETE /api/vault/uploads/:itemId (abort)', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('cancels the upload: 200, then 404, nothing counted, no object, no parts, the R2 upload aborted', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const plainSize = UPLOAD_CHUNK_BYTES + 3
    const session = await startUpload(token, plainSize)
    expect((await putPart(token, session.itemId, 1, partBytes(partSize(1, plainSize), 1))).status).toBe(200)
    const row = await itemRow(ownerId, session.itemId)
    expect(row?.upload_id).toBeTruthy()

    const res = await abortUpload(token, session.itemId)
    expect(res.status).toBe(200)
    expect((await getUpload(token, session.itemId)).status).toBe(404)
    expect((await putPart(token, session.itemId, 2, partBytes(partSize(2, plainSize), 2))).status).toBe(404)
    expect((await abortUpload(token, session.itemId)).status).toBe(404)
    expect(await counters(token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
    expect(await itemRow(ownerId, session.itemId)).toBeNull()
    expect(await partRows(ownerId, session.itemId)).toEqual([])
    expect(await env.BLOBS.get(itemKey(ownerId, session.itemId))).toBeNull()
    expect(await multipartIsOpen(row!.r2_key, row!.upload_id!)).toBe(false)
    expect(await blobDeletionKeys(ownerId)).not.toContain(itemKey(ownerId, session.itemId))
  })

  it('an aborted upload no longer counts against the plan', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 19, bytes: 0 })
    const first = await startUpload(token, 10)
    expect((await startUploadRaw(token, { type: 'doc', plainSize: 10 })).status).toBe(402)
    expect((await abortUpload(token, first.itemId)).status).toBe(200)
    expect((await startUploadRaw(token, { type: 'doc', plainSize: 10 })).status).toBe(201)
  })
})

describe('a session is needed on every upload route', { timeout: MULTI_MB_TIMEOUT }, () => {
  it('answers 401 without one', async () => {
    const owner = await register()
    const session = await startUpload(owner.token, 10)
    expect((await call(`/api/vault/uploads/${session.itemId}`)).status).toBe(401)
    expect((await call(`/api/vault/uploads/${session.itemId}/parts/1`, { method: 'PUT', rawBody: 'x', headers: { 'content-type': 'application/octet-stream' } })).status).toBe(401)
    expect((await call(`/api/vault/uploads/${session.itemId}/complete`, { body: {} })).status).toBe(401)
    expect((await call(`/api/vault/uploads/${session.itemId}`, { method: 'DELETE' })).status).toBe(401)
    expect((await call('/api/vault/items')).status).toBe(401)
    expect((await call(`/api/vault/items/${session.itemId}/content`)).status).toBe(401)
    expect((await call(`/api/vault/items/${session.itemId}`, { method: 'DELETE' })).status).toBe(401)
    expect(await itemRow(owner.user.id, session.itemId)).toMatchObject({ status: 'uploading' })
  })
})
