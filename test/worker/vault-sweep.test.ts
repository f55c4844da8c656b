import { runDurableObjectAlarm } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { runSweeps } from '../../worker/cron'
import { ABANDONED_UPLOAD_MS } from '../../worker/services/vault-items'
import { call } from './helpers'
import { ownerExec, ownerState, seedVaultUsage, vaultOf } from './owner-helpers'
import { blobDeletionKeys, blobOf, content, counters, itemRow, multipartIsOpen, ownerWithBeneficiary, partRows, putAllParts, startUpload, uploadItem } from './vault-helpers'

const DAY = 24 * 60 * 60 * 1000

function age(ownerId: string, itemId: string, ms: number) {
  return ownerExec(ownerId, ['UPDATE vault_items SET created_at = ? WHERE id = ?', Date.now() - ms, itemId])
}

// The owner's object keeps its own house: its alarm aborts uploads abandoned for a day and retries
// the R2 deletions that did not go through. Nothing here needs the cron sweep.
describe("the owner object's housekeeping", () => {
  it('arms its alarm for an upload to expire, aborts uploads left for over a day, keeps fresh ones and items, and retries pending blob deletions', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    await seedVaultUsage(ownerId, { items: 2, bytes: 1234 })

    const stale = await startUpload(token, 100)
    // A new upload pulls the alarm in to when it would be abandoned.
    const staleRow = (await itemRow(ownerId, stale.itemId))!
    expect(await ownerState<number>(ownerId, 'alarmAt')).toBe(staleRow.created_at + ABANDONED_UPLOAD_MS)
    await putAllParts(token, stale, 100)
    await age(ownerId, stale.itemId, 2 * DAY)

    // A stale upload whose R2 upload is already gone (R2's own lifecycle): its row still goes.
    const orphan = await startUpload(token, 50)
    const orphanRow = (await itemRow(ownerId, orphan.itemId))!
    await env.BLOBS.resumeMultipartUpload(orphanRow.r2_key, orphanRow.upload_id!).abort()
    await age(ownerId, orphan.itemId, 3 * DAY)

    const fresh = await startUpload(token, 100)
    await putAllParts(token, fresh, 100)
    await age(ownerId, fresh.itemId, DAY - 60_000)

    const { item: old } = await uploadItem(token, [beneficiary.id])
    await age(ownerId, old.id, 30 * DAY) // completed long ago: an item, not an upload
    const countersBefore = await counters(token)

    // A blob whose row is gone but whose deletion did not go through, and one already gone.
    const pendingKey = `items/${ownerId}/${crypto.randomUUID()}`
    const goneKey = `items/${ownerId}/${crypto.randomUUID()}`
    await env.BLOBS.put(pendingKey, new Uint8Array([1, 2, 3]))
    await ownerExec(
      ownerId,
      ['INSERT INTO blob_deletions (r2_key, created_at, attempts) VALUES (?, ?, 1)', pendingKey, Date.now() - DAY],
      ['INSERT INTO blob_deletions (r2_key, created_at, attempts) VALUES (?, ?, 0)', goneKey, Date.now()],
    )

    // What its alarm runs.
    expect(await runDurableObjectAlarm(vaultOf(ownerId))).toBe(true)

    expect(await itemRow(ownerId, stale.itemId)).toBeNull()
    expect(await partRows(ownerId, stale.itemId)).toEqual([])
    expect(await multipartIsOpen(staleRow.r2_key, staleRow.upload_id!)).toBe(false)
    expect(await blobOf(ownerId, stale.itemId)).toBeNull()
    expect((await call(`/api/vault/uploads/${stale.itemId}`, { token })).status).toBe(404)
    expect(await itemRow(ownerId, orphan.itemId)).toBeNull()

    expect(await itemRow(ownerId, fresh.itemId)).toMatchObject({ status: 'uploading' })
    const resumed = await call(`/api/vault/uploads/${fresh.itemId}`, { token })
    expect(resumed.status).toBe(200)
    expect(((await resumed.json()) as { uploadedParts: number[] }).uploadedParts).toEqual([1])

    expect(await itemRow(ownerId, old.id)).toMatchObject({ status: 'active' })
    expect((await content(token, old.id)).status).toBe(200)
    expect(await counters(token)).toEqual(countersBefore)

    expect(await env.BLOBS.head(pendingKey)).toBeNull()
    expect(await blobDeletionKeys(ownerId)).toEqual([])
    // Next, the fresh upload's day runs out: the alarm is set for then.
    const freshRow = (await itemRow(ownerId, fresh.itemId))!
    expect(await ownerState<number>(ownerId, 'alarmAt')).toBe(freshRow.created_at + ABANDONED_UPLOAD_MS)

    // Idempotent: running again now does nothing more.
    await vaultOf(ownerId).tick()
    expect(await itemRow(ownerId, fresh.itemId)).toMatchObject({ status: 'uploading' })
    // A day later the fresh upload is stale too and goes.
    await vaultOf(ownerId).tick(Date.now() + DAY)
    expect(await itemRow(ownerId, fresh.itemId)).toBeNull()
    expect(await itemRow(ownerId, old.id)).toMatchObject({ status: 'active' })
    expect(await counters(token)).toEqual(countersBefore)
  })

  it('a lost alarm is rung by the cron sweep from the directory', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    const stale = await startUpload(token, 100)
    // As if the upload had been left two days ago and its alarm had not rung: the directory still
    // says when it should have.
    await age(ownerId, stale.itemId, 2 * DAY)
    await env.DB.prepare('update users set next_due_at = ? where id = ?').bind(Date.now() - 5 * 60_000, ownerId).run()
    const result = await runSweeps(env)
    expect(result.ownersWoken).toBeGreaterThanOrEqual(1)
    expect(await itemRow(ownerId, stale.itemId)).toBeNull()
  })
})
