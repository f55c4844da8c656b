import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import {
  cipherSize,
  partCount,
  partSize,
  RELEASE_PROTOCOL_LABELS,
  UPLOAD_CHUNK_BYTES,
  VAULT_ITEM_MESSAGES,
  type ReleaseProtocol,
  type UploadCompleteBody,
  type UploadSession,
  type VaultItem,
} from '../../contract/vault-items'
import type { Db } from '../db/client'
import { inSlices } from '../db/in-slices'
import { beneficiaries, blobDeletions, itemGrants, policies, policyItems, uploadParts, users, vaultItems, type UserRow, type VaultItemRow } from '../db/schema'
import { ApiError, badRequest, notFound } from '../lib/errors'
import { planLimitsFor } from './plan-limits'

type Blobs = Pick<Env, 'BLOBS'>

export function toVaultItem(row: VaultItemRow, beneficiaryIds: string[]): VaultItem {
  const protocol = row.releaseProtocol as ReleaseProtocol
  return {
    id: row.id,
    type: row.type,
    plainSize: row.plainSize,
    cipherSize: row.cipherSize,
    chunkBytes: row.chunkBytes,
    createdAt: new Date(row.completedAt ?? row.createdAt).toISOString(),
    encryptedMetadata: row.encryptedMetadata ?? '',
    wrappedKey: row.wrappedKey ?? '',
    accessPolicy: {
      name: RELEASE_PROTOCOL_LABELS[protocol] ?? protocol,
      protocol,
      requiresApprover: row.requiresApprover,
      approverContact: row.approverContact,
      scheduledAt: row.scheduledAt ? new Date(row.scheduledAt).toISOString() : null,
    },
    beneficiaryIds,
  }
}

function storageLimitError(maxBytes: number) {
  return new ApiError(413, VAULT_ITEM_MESSAGES.storageLimit(maxBytes))
}
function itemLimitError(maxItems: number) {
  return new ApiError(402, VAULT_ITEM_MESSAGES.itemLimit(maxItems))
}

/**
 * Reserves an item and opens its R2 multipart upload. Uploads still in progress count against
 * the plan, so parallel uploads cannot together pass it; completion checks again, atomically.
 */
export async function startUpload(
  db: Db,
  env: Blobs,
  owner: UserRow,
  body: { type: VaultItemRow['type']; plainSize: number },
  now = Date.now(),
): Promise<UploadSession> {
  // During a payment issue's grace the vault stays usable, but it does not grow (seeds 000 §4).
  if (owner.subscriptionStatus === 'past_due') throw new ApiError(402, VAULT_ITEM_MESSAGES.uploadsPausedForPayment)
  const limits = planLimitsFor(owner)
  const size = cipherSize(body.plainSize)
  const [inflight] = await db
    .select({ n: sql<number>`count(*)`, bytes: sql<number>`coalesce(sum(${vaultItems.cipherSize}), 0)` })
    .from(vaultItems)
    .where(and(eq(vaultItems.ownerId, owner.id), eq(vaultItems.status, 'uploading')))
  if (limits.maxItems !== null && owner.vaultItemCount + (inflight?.n ?? 0) >= limits.maxItems) throw itemLimitError(limits.maxItems)
  if (owner.storageUsed + (inflight?.bytes ?? 0) + size > limits.maxStorageBytes) throw storageLimitError(limits.maxStorageBytes)

  const id = crypto.randomUUID()
  const r2Key = `items/${owner.id}/${id}`
  const upload = await env.BLOBS.createMultipartUpload(r2Key, { httpMetadata: { contentType: 'application/octet-stream' } })
  const parts = partCount(body.plainSize)
  await db.insert(vaultItems).values({
    id,
    ownerId: owner.id,
    type: body.type,
    status: 'uploading',
    plainSize: body.plainSize,
    cipherSize: size,
    chunkBytes: UPLOAD_CHUNK_BYTES,
    partCount: parts,
    r2Key,
    uploadId: upload.uploadId,
    createdAt: now,
  })
  return { itemId: id, chunkBytes: UPLOAD_CHUNK_BYTES, partCount: parts, cipherSize: size, uploadedParts: [] }
}

export async function findUpload(db: Db, ownerId: string, itemId: string): Promise<VaultItemRow> {
  const row = await db.query.vaultItems.findFirst({
    where: and(eq(vaultItems.id, itemId), eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'uploading')),
  })
  if (!row) throw notFound(VAULT_ITEM_MESSAGES.uploadNotFound)
  return row
}

export async function uploadSession(db: Db, row: VaultItemRow): Promise<UploadSession> {
  const parts = await db
    .select({ n: uploadParts.partNumber })
    .from(uploadParts)
    .where(eq(uploadParts.itemId, row.id))
    .orderBy(asc(uploadParts.partNumber))
  return {
    itemId: row.id,
    chunkBytes: row.chunkBytes,
    partCount: row.partCount,
    cipherSize: row.cipherSize,
    uploadedParts: parts.map((p) => p.n),
  }
}

/** The exact size a part must have; anything else is refused before it reaches R2. */
export function expectedPartSize(row: VaultItemRow, partNumber: number): number {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > row.partCount) throw badRequest(VAULT_ITEM_MESSAGES.partNumberInvalid)
  return partSize(partNumber, row.plainSize, row.chunkBytes)
}

export async function storePart(db: Db, env: Blobs, row: VaultItemRow, partNumber: number, bytes: ArrayBuffer): Promise<void> {
  const upload = env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId!)
  const part = await upload.uploadPart(partNumber, bytes)
  await db
    .insert(uploadParts)
    .values({ itemId: row.id, partNumber, etag: part.etag, size: bytes.byteLength })
    .onConflictDoUpdate({ target: [uploadParts.itemId, uploadParts.partNumber], set: { etag: part.etag, size: bytes.byteLength } })
}

/** Ends an upload that will not be completed: its R2 parts and its rows go. */
export async function discardUpload(db: Db, env: Blobs, row: VaultItemRow): Promise<void> {
  if (row.uploadId) {
    try {
      await env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId).abort()
    } catch (error) {
      console.error(`aborting upload ${row.id} failed`, error)
    }
  }
  await db.delete(vaultItems).where(and(eq(vaultItems.id, row.id), eq(vaultItems.status, 'uploading')))
}

/**
 * Completes an upload. R2 assembles the parts; then one D1 batch activates the item only if the
 * owner's plan still has room, counts it, and stores its grants. The batch is a transaction and
 * every statement after the first acts only if the first did (the operation token), so an upload
 * that would pass a limit leaves nothing counted or stored.
 */
export async function completeUpload(
  db: Db,
  env: Blobs,
  owner: UserRow,
  row: VaultItemRow,
  body: UploadCompleteBody,
  now = Date.now(),
): Promise<VaultItem> {
  const parts = await db.select().from(uploadParts).where(eq(uploadParts.itemId, row.id)).orderBy(asc(uploadParts.partNumber))
  if (parts.length !== row.partCount || parts.some((p, i) => p.partNumber !== i + 1)) throw badRequest(VAULT_ITEM_MESSAGES.partsMissing)

  const beneficiaryIds = [...new Set(body.grants.map((g) => g.beneficiaryId))]
  if (beneficiaryIds.length !== body.grants.length) throw badRequest(VAULT_ITEM_MESSAGES.grantsMustMatch)
  const owned = await inSlices(beneficiaryIds, (slice) =>
    db
      .select({ id: beneficiaries.id, keyVersion: beneficiaries.keyVersion })
      .from(beneficiaries)
      .where(and(eq(beneficiaries.ownerId, owner.id), inArray(beneficiaries.id, slice))),
  )
  if (owned.length !== beneficiaryIds.length) throw badRequest(VAULT_ITEM_MESSAGES.unknownBeneficiary)
  const keyVersions = new Map(owned.map((b) => [b.id, b.keyVersion]))

  let object: R2Object
  try {
    object = await env.BLOBS.resumeMultipartUpload(row.r2Key, row.uploadId!).complete(
      parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })),
    )
  } catch (error) {
    // A retried or concurrent completion (or an abort) got there first: that request answers.
    if (!(await stillUploading(db, row.id))) throw notFound(VAULT_ITEM_MESSAGES.uploadNotFound)
    throw error
  }
  if (object.size !== row.cipherSize) {
    await forgetItem(db, env, row)
    throw badRequest(`The uploaded data is ${object.size} bytes; ${row.cipherSize} were expected.`)
  }

  const policyIds = [...new Set(body.policyIds ?? [])]
  const limits = planLimitsFor(owner)
  const token = crypto.randomUUID()
  const policy = body.policy
  const applied = and(eq(vaultItems.id, row.id), eq(vaultItems.operationToken, token), eq(vaultItems.status, 'active'))
  const [activated] = await db.batch([
    db
      .update(vaultItems)
      .set({
        status: 'active',
        operationToken: token,
        encryptedMetadata: body.encryptedMetadata,
        wrappedKey: body.wrappedKey,
        releaseProtocol: policy.protocol ?? 'VERIFIED_DEATH',
        requiresApprover: policy.requiresApprover ?? false,
        approverContact: policy.requiresApprover ? (policy.approverContact ?? null) : null,
        scheduledAt: policy.scheduledAt ? Date.parse(policy.scheduledAt) : null,
        uploadId: null,
        completedAt: now,
      })
      .where(
        and(
          eq(vaultItems.id, row.id),
          eq(vaultItems.status, 'uploading'),
          sql`(select ${users.storageUsed} from ${users} where ${users.id} = ${owner.id}) + ${row.cipherSize} <= ${limits.maxStorageBytes}`,
          limits.maxItems === null
            ? sql`1`
            : sql`(select ${users.vaultItemCount} from ${users} where ${users.id} = ${owner.id}) < ${limits.maxItems}`,
        ),
      )
      .returning(),
    db
      .update(users)
      .set({
        storageUsed: sql`${users.storageUsed} + ${row.cipherSize}`,
        vaultItemCount: sql`${users.vaultItemCount} + 1`,
        updatedAt: now,
      })
      .where(and(eq(users.id, owner.id), sql`exists (select 1 from ${vaultItems} where ${applied})`)),
    // Each grant is selected from the item row itself, so it exists only if the activation applied.
    ...body.grants.map((g) =>
      db.insert(itemGrants).select(
        db
          .select({
            itemId: vaultItems.id,
            beneficiaryId: sql<string>`${g.beneficiaryId}`.as('beneficiary_id'),
            wrappedKey: sql<string>`${g.wrappedKey}`.as('wrapped_key'),
            keyVersion: sql<number>`${keyVersions.get(g.beneficiaryId) ?? 1}`.as('key_version'),
            direct: sql<boolean>`${g.direct === false ? 0 : 1}`.as('direct'),
            createdAt: sql<number>`${now}`.as('created_at'),
          })
          .from(vaultItems)
          .where(applied),
      ),
    ),
    ...policyIds.map((policyId) =>
      db.insert(policyItems).select(
        db
          .select({ policyId: policies.id, itemId: vaultItems.id })
          .from(vaultItems)
          .innerJoin(policies, and(eq(policies.id, policyId), eq(policies.ownerId, owner.id)))
          .where(applied),
      ),
    ),
    db.delete(uploadParts).where(and(eq(uploadParts.itemId, row.id), sql`exists (select 1 from ${vaultItems} where ${applied})`)),
  ])
  const item = activated[0]
  if (!item) {
    // Completed or aborted by another request meanwhile: the object is that request's, keep it.
    if (!(await stillUploading(db, row.id))) throw notFound(VAULT_ITEM_MESSAGES.uploadNotFound)
    // Otherwise the plan has no room left: remove what R2 holds.
    const current = await db.query.users.findFirst({ where: eq(users.id, owner.id) })
    await forgetItem(db, env, row)
    if (limits.maxItems !== null && (current?.vaultItemCount ?? 0) >= limits.maxItems) throw itemLimitError(limits.maxItems)
    throw storageLimitError(limits.maxStorageBytes)
  }
  return toVaultItem(item, beneficiaryIds)
}

async function stillUploading(db: Db, id: string): Promise<boolean> {
  const current = await db.query.vaultItems.findFirst({ where: eq(vaultItems.id, id), columns: { status: true } })
  return current?.status === 'uploading'
}

/**
 * Removes an uploading item's row and its assembled object (used when completion is refused).
 * The object is queued for deletion only if this call removed the row: if another request
 * activated the item meanwhile, the object is that item's content.
 */
async function forgetItem(db: Db, env: Blobs, row: VaultItemRow) {
  const gone = await db.batch([
    db
      .delete(vaultItems)
      .where(and(eq(vaultItems.id, row.id), eq(vaultItems.status, 'uploading')))
      .returning({ r2Key: vaultItems.r2Key }),
  ])
  if (gone[0].length === 0) return
  await db.insert(blobDeletions).values({ r2Key: row.r2Key, createdAt: Date.now() }).onConflictDoNothing()
  await deleteBlob(db, env, row.r2Key)
}

async function deleteBlob(db: Db, env: Blobs, r2Key: string) {
  try {
    await env.BLOBS.delete(r2Key)
    await db.delete(blobDeletions).where(eq(blobDeletions.r2Key, r2Key))
  } catch (error) {
    console.error(`deleting blob ${r2Key} failed; the sweep will retry`, error)
  }
}

export async function listItems(db: Db, ownerId: string): Promise<VaultItem[]> {
  const rows = await db
    .select()
    .from(vaultItems)
    .where(and(eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'active')))
    .orderBy(desc(vaultItems.completedAt), desc(vaultItems.id))
  if (rows.length === 0) return []
  const grants = await db
    .select({ itemId: itemGrants.itemId, beneficiaryId: itemGrants.beneficiaryId })
    .from(itemGrants)
    .innerJoin(vaultItems, and(eq(vaultItems.id, itemGrants.itemId), eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'active')))
  const byItem = new Map<string, string[]>()
  for (const g of grants) byItem.set(g.itemId, [...(byItem.get(g.itemId) ?? []), g.beneficiaryId])
  return rows.map((r) => toVaultItem(r, byItem.get(r.id) ?? []))
}

export async function findActiveItem(db: Db, ownerId: string, id: string): Promise<VaultItemRow> {
  const row = await db.query.vaultItems.findFirst({
    where: and(eq(vaultItems.id, id), eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'active')),
  })
  if (!row) throw notFound(VAULT_ITEM_MESSAGES.itemNotFound)
  return row
}

/**
 * Deletes an item: its row, grants and its share of the owner's counters in one transaction
 * (guarded so two concurrent deletes count once), then its R2 object.
 */
export async function deleteItem(db: Db, env: Blobs, ownerId: string, id: string, now = Date.now()): Promise<void> {
  const row = await findActiveItem(db, ownerId, id)
  const token = crypto.randomUUID()
  const claimed = and(eq(vaultItems.id, id), eq(vaultItems.operationToken, token), eq(vaultItems.status, 'deleting'))
  const [marked] = await db.batch([
    db
      .update(vaultItems)
      .set({ status: 'deleting', operationToken: token })
      .where(and(eq(vaultItems.id, id), eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'active')))
      .returning({ id: vaultItems.id }),
    db
      .update(users)
      .set({
        storageUsed: sql`max(0, ${users.storageUsed} - ${row.cipherSize})`,
        vaultItemCount: sql`max(0, ${users.vaultItemCount} - 1)`,
        updatedAt: now,
      })
      .where(and(eq(users.id, ownerId), sql`exists (select 1 from ${vaultItems} where ${claimed})`)),
    db
      .insert(blobDeletions)
      .select(
        db
          .select({
            r2Key: vaultItems.r2Key,
            createdAt: sql<number>`${now}`.as('created_at'),
            attempts: sql<number>`0`.as('attempts'),
          })
          .from(vaultItems)
          .where(claimed),
      )
      .onConflictDoNothing(),
    db.delete(vaultItems).where(claimed),
  ])
  if (marked.length === 0) throw notFound(VAULT_ITEM_MESSAGES.itemNotFound)
  await deleteBlob(db, env, row.r2Key)
}

const ABANDONED_AFTER_MS = DAY_MS

/** Cron: aborts uploads left unfinished for a day, and retries blob deletions that failed. */
export async function sweepUploads(db: Db, env: Blobs, now = Date.now()): Promise<{ abandonedUploads: number; blobsDeleted: number }> {
  const stale = await db
    .select()
    .from(vaultItems)
    .where(and(eq(vaultItems.status, 'uploading'), lt(vaultItems.createdAt, now - ABANDONED_AFTER_MS)))
    .limit(100)
  for (const row of stale) await discardUpload(db, env, row)
  const pending = await db.select().from(blobDeletions).limit(100)
  let blobsDeleted = 0
  for (const { r2Key } of pending) {
    try {
      await env.BLOBS.delete(r2Key)
      await db.delete(blobDeletions).where(eq(blobDeletions.r2Key, r2Key))
      blobsDeleted++
    } catch (error) {
      console.error(`sweep: deleting blob ${r2Key} failed`, error)
      await db
        .update(blobDeletions)
        .set({ attempts: sql`${blobDeletions.attempts} + 1` })
        .where(eq(blobDeletions.r2Key, r2Key))
    }
  }
  return { abandonedUploads: stale.length, blobsDeleted }
}

/**
 * Adds or replaces grants on an item (a policy created later, a key rotation): each is the item's
 * data key wrapped, in the owner's browser, with one of the owner's beneficiaries' public keys.
 */
export async function putGrants(
  db: Db,
  ownerId: string,
  itemId: string,
  grants: Array<{ beneficiaryId: string; wrappedKey: string }>,
  now = Date.now(),
): Promise<string[]> {
  await findActiveItem(db, ownerId, itemId)
  const ids = [...new Set(grants.map((g) => g.beneficiaryId))]
  if (ids.length !== grants.length) throw badRequest(VAULT_ITEM_MESSAGES.grantsMustMatch)
  const owned = await inSlices(ids, (slice) =>
    db
      .select({ id: beneficiaries.id, keyVersion: beneficiaries.keyVersion })
      .from(beneficiaries)
      .where(and(eq(beneficiaries.ownerId, ownerId), inArray(beneficiaries.id, slice))),
  )
  if (owned.length !== ids.length) throw badRequest(VAULT_ITEM_MESSAGES.unknownBeneficiary)
  const versions = new Map(owned.map((b) => [b.id, b.keyVersion]))
  const [first, ...rest] = grants.map((g) =>
    db
      .insert(itemGrants)
      .values({ itemId, beneficiaryId: g.beneficiaryId, wrappedKey: g.wrappedKey, keyVersion: versions.get(g.beneficiaryId) ?? 1, createdAt: now })
      .onConflictDoUpdate({
        target: [itemGrants.itemId, itemGrants.beneficiaryId],
        set: { wrappedKey: g.wrappedKey, keyVersion: versions.get(g.beneficiaryId) ?? 1, createdAt: now },
      }),
  )
  await db.batch([first!, ...rest])
  const all = await db.select({ id: itemGrants.beneficiaryId }).from(itemGrants).where(eq(itemGrants.itemId, itemId))
  return all.map((g) => g.id)
}
