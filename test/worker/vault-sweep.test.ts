import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { runSweeps } from '../../worker/cron'
import { call } from './helpers'
import {
  blobDeletionKeys,
  blobOf,
  content,
  counters,
  itemRow,
  multipartIsOpen,
  ownerWithBeneficiary,
  partRows,
  putAllParts,
  setAccount,
  startUpload,
  uploadItem,
} from './vault-helpers'

const DAY = 24 * 60 * 60 * 1000

async function age(itemId: string, ms: number) {
  const res = await env.DB.prepare('UPDATE vault_items SET created_at = ? WHERE id = ?').bind(Date.now() - ms, itemId).run()
  expect(res.meta.changes).toBe(1)
}

// One test: the sweep acts on the whole (per-file) database, so its counts are only exact when
// nothing else in this file runs beside it.
describe('runSweeps: uploads and blob deletions', () => {
  it('aborts uploads left for over a day, keeps fresh ones and items, and retries pending blob deletions', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await setAccount(ownerId, { storageUsed: 1234, vaultItemCount: 2 })

    const stale = await startUpload(token, 100)
    await putAllParts(token, stale, 100)
    await age(stale.itemId, 2 * DAY)
    const staleRow = (await itemRow(stale.itemId))!

    // A stale upload whose R2 upload is already gone (R2's own lifecycle): its row still goes.
    const orphan = await startUpload(token, 50)
    const orphanRow = (await itemRow(orphan.itemId))!
    await env.BLOBS.resumeMultipartUpload(orphanRow.r2_key, orphanRow.upload_id!).abort()
    await age(orphan.itemId, 3 * DAY)

    const fresh = await startUpload(token, 100)
    await putAllParts(token, fresh, 100)
    await age(fresh.itemId, DAY - 60_000)

    const { item: old } = await uploadItem(token, [beneficiary.id])
    await age(old.id, 30 * DAY) // completed long ago: an item, not an upload
    const countersBefore = await counters(token)

    // A blob whose row is gone but whose deletion did not go through.
    const pendingKey = `items/${ownerId}/${crypto.randomUUID()}`
    await env.BLOBS.put(pendingKey, new Uint8Array([1, 2, 3]))
    await env.DB.prepare('INSERT INTO blob_deletions (r2_key, created_at, attempts) VALUES (?, ?, 0)').bind(pendingKey, Date.now() - DAY).run()
    // One whose object is already gone: deleting it again is harmless and clears the row.
    const goneKey = `items/${ownerId}/${crypto.randomUUID()}`
    await env.DB.prepare('INSERT INTO blob_deletions (r2_key, created_at, attempts) VALUES (?, ?, 0)').bind(goneKey, Date.now()).run()

    const result = await runSweeps(env)
    expect(result).toMatchObject({ abandonedUploads: 2, blobsDeleted: 2 })

    expect(await itemRow(stale.itemId)).toBeNull()
    expect(await partRows(stale.itemId)).toEqual([])
    expect(await multipartIsOpen(staleRow.r2_key, staleRow.upload_id!)).toBe(false)
    expect(await blobOf(ownerId, stale.itemId)).toBeNull()
    expect((await call(`/api/vault/uploads/${stale.itemId}`, { token })).status).toBe(404)
    expect(await itemRow(orphan.itemId)).toBeNull()

    expect(await itemRow(fresh.itemId)).toMatchObject({ status: 'uploading' })
    const resumed = await call(`/api/vault/uploads/${fresh.itemId}`, { token })
    expect(resumed.status).toBe(200)
    expect(((await resumed.json()) as { uploadedParts: number[] }).uploadedParts).toEqual([1])

    expect(await itemRow(old.id)).toMatchObject({ status: 'active' })
    expect((await content(token, old.id)).status).toBe(200)
    expect(await counters(token)).toEqual(countersBefore)

    expect(await env.BLOBS.head(pendingKey)).toBeNull()
    expect(await blobDeletionKeys()).toEqual([])

    // Idempotent: a second run finds nothing to do.
    expect(await runSweeps(env)).toMatchObject({ abandonedUploads: 0, blobsDeleted: 0 })
    expect(await itemRow(fresh.itemId)).toMatchObject({ status: 'uploading' })
    // The fresh upload becomes stale a day later and goes then.
    expect(await runSweeps(env, Date.now() + DAY)).toMatchObject({ abandonedUploads: 1 })
    expect(await itemRow(fresh.itemId)).toBeNull()
    expect(await itemRow(old.id)).toMatchObject({ status: 'active' })
    expect(await counters(token)).toEqual(countersBefore)
  })
})
