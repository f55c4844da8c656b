import type { EstateItem } from '../../contract/estate-bundle'
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt } from 'drizzle-orm'
import { hexToBytes } from '@noble/hashes/utils.js'
import { DAY_MS } from '../../contract/constants'
import { contentDigestOf, digestOfBase64, grantsStatement, itemManifest } from '../../contract/vault-statements'
import {
  cipherSize,
  partCount,
  partSize,
  RELEASE_PROTOCOL_LABELS,
  SEAL_PAGE_SIZE,
  UPLOAD_CHUNK_BYTES,
  VAULT_ITEM_MESSAGES,
  type ReleaseProtocol,
  type SealItemBody,
  type UnsealedItem,
  type UploadCompleteBody,
  type UploadSession,
  type VaultItem,
} from '../../contract/vault-items'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import type { Account } from '../owner/account'
import { inSlices, type OwnerDb } from '../owner/db'
import { beneficiaries, itemGrants, policies, policyItems, uploadParts, vaultItems, type VaultItemRow } from '../owner/schema'
import { vaultUsage } from '../owner/usage'
import type { Unit } from '../owner/unit'
import { planLimitsFor } from './plan-limits'

// The owner's vault items, run inside the owner's object (worker/owner/). The plan's limits are
// checked against the object's own rows in the same transaction as the write: the object is the
// only writer of its owner's vault, so no concurrent request can pass a limit.

/** An upload left unfinished this long is aborted by the object's alarm. */
export const ABANDONED_UPLOAD_MS = DAY_MS

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
    sealed: row.manifest !== null,
  }
}

function storageLimitError(maxBytes: number) {
  return new ApiError(413, VAULT_ITEM_MESSAGES.storageLimit(maxBytes))
}
function itemLimitError(maxItems: number) {
  return new ApiError(402, VAULT_ITEM_MESSAGES.itemLimit(maxItems))
}


/**
 * Refuses an upload the plan has no room for. Uploads still in progress count, so parallel
 * uploads cannot together pass the limit; completion checks again in its own transaction.
 */
export function assertUploadRoom(db: OwnerDb, account: Account, plainSize: number): void {
  // During a payment issue's grace the vault stays usable, but it does not grow (seeds 000 §4).
  if (account.subscriptionStatus === 'past_due') throw new ApiError(402, VAULT_ITEM_MESSAGES.uploadsPausedForPayment)
  const limits = planLimitsFor(account)
  const usage = vaultUsage(db)
  if (limits.maxItems !== null && usage.items >= limits.maxItems) throw itemLimitError(limits.maxItems)
  if (usage.bytes + cipherSize(plainSize) > limits.maxStorageBytes) throw storageLimitError(limits.maxStorageBytes)
}

export const itemBlobKey = (ownerId: string, itemId: string) => `items/${ownerId}/${itemId}`

/** Reserves the item whose R2 multipart upload the object has just opened. */
export function reserveUpload(
  u: Unit,
  body: { type: VaultItemRow['type']; plainSize: number },
  upload: { itemId: string; r2Key: string; uploadId: string },
): UploadSession {
  assertUploadRoom(u.db, u.account, body.plainSize)
  const parts = partCount(body.plainSize)
  const size = cipherSize(body.plainSize)
  u.db.insert(vaultItems)
    .values({
      id: upload.itemId,
      type: body.type,
      status: 'uploading',
      plainSize: body.plainSize,
      cipherSize: size,
      chunkBytes: UPLOAD_CHUNK_BYTES,
      partCount: parts,
      r2Key: upload.r2Key,
      uploadId: upload.uploadId,
      createdAt: u.now,
    })
    .run()
  u.dueAt(u.now + ABANDONED_UPLOAD_MS)
  return { itemId: upload.itemId, chunkBytes: UPLOAD_CHUNK_BYTES, partCount: parts, cipherSize: size, uploadedParts: [] }
}

export function findUpload(db: OwnerDb, itemId: string): VaultItemRow {
  const row = db.select().from(vaultItems).where(and(eq(vaultItems.id, itemId), eq(vaultItems.status, 'uploading'))).get()
  if (!row) throw notFound(VAULT_ITEM_MESSAGES.uploadNotFound)
  return row
}

export function uploadSession(db: OwnerDb, row: VaultItemRow): UploadSession {
  const parts = db.select({ n: uploadParts.partNumber }).from(uploadParts).where(eq(uploadParts.itemId, row.id)).orderBy(asc(uploadParts.partNumber)).all()
  return { itemId: row.id, chunkBytes: row.chunkBytes, partCount: row.partCount, cipherSize: row.cipherSize, uploadedParts: parts.map((p) => p.n) }
}

/** Where a part goes and the exact size it must have; anything else is refused before it reaches R2. */
export function partTarget(db: OwnerDb, itemId: string, partNumber: number) {
  const row = findUpload(db, itemId)
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > row.partCount) throw badRequest(VAULT_ITEM_MESSAGES.partNumberInvalid)
  return { r2Key: row.r2Key, uploadId: row.uploadId!, size: partSize(partNumber, row.plainSize, row.chunkBytes) }
}

/** `digest`: hex SHA-256 of the part's bytes as the worker received them. */
export function recordPart(db: OwnerDb, itemId: string, partNumber: number, etag: string, size: number, digest: string): void {
  findUpload(db, itemId)
  db.insert(uploadParts)
    .values({ itemId, partNumber, etag, size, digest })
    .onConflictDoUpdate({ target: [uploadParts.itemId, uploadParts.partNumber], set: { etag, size, digest } })
    .run()
}

type GrantIn = { beneficiaryId: string; wrappedKey: string; keyVersion?: number | undefined }

/**
 * The manifest an upload must carry, rebuilt from what the object knows: its row, the digests of
 * the parts as they arrived, the beneficiaries' current key versions, and the body's metadata and
 * wraps. A part recorded without a digest (before manifests) counts as not sent.
 */
function uploadManifest(db: OwnerDb, ownerId: string, row: VaultItemRow, body: UploadCompleteBody) {
  const parts = db.select().from(uploadParts).where(eq(uploadParts.itemId, row.id)).orderBy(asc(uploadParts.partNumber)).all()
  if (parts.length !== row.partCount || parts.some((p, i) => p.partNumber !== i + 1 || !p.digest)) throw badRequest(VAULT_ITEM_MESSAGES.partsMissing)
  const contentDigest = contentDigestOf(parts.map((p) => hexToBytes(p.digest!)))
  const versions = beneficiaryKeyVersions(db, body.grants)
  const manifest = itemManifest({
    ownerId,
    itemId: row.id,
    type: row.type,
    plainSize: row.plainSize,
    chunkCount: row.partCount,
    contentDigest,
    metadataDigest: digestOfBase64(body.encryptedMetadata),
    grants: manifestGrants(body.grants, versions),
  })
  return { parts, contentDigest, manifest, versions }
}

const manifestGrants = (grants: readonly GrantIn[], versions: Map<string, number>) =>
  grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: versions.get(g.beneficiaryId)!, wrappedKeyDigest: digestOfBase64(g.wrappedKey) }))

/** What a completion's signature must verify over, and the parts to assemble once it does. */
export function completionPlan(db: OwnerDb, ownerId: string, itemId: string, body: UploadCompleteBody) {
  const row = findUpload(db, itemId)
  const { parts, manifest } = uploadManifest(db, ownerId, row, body)
  return { row, manifest, parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })) }
}

/**
 * Key versions of the beneficiaries the grants name: 400 unless each is the owner's, once; 409 when
 * a grant was wrapped (and signed) for a version the beneficiary no longer has.
 */
function beneficiaryKeyVersions(db: OwnerDb, grants: readonly GrantIn[]): Map<string, number> {
  const ids = [...new Set(grants.map((g) => g.beneficiaryId))]
  if (ids.length !== grants.length) throw badRequest(VAULT_ITEM_MESSAGES.grantsMustMatch)
  const owned = inSlices(ids, (slice) =>
    db.select({ id: beneficiaries.id, keyVersion: beneficiaries.keyVersion }).from(beneficiaries).where(inArray(beneficiaries.id, slice)).all(),
  )
  if (owned.length !== ids.length) throw badRequest(VAULT_ITEM_MESSAGES.unknownBeneficiary)
  const versions = new Map(owned.map((b) => [b.id, b.keyVersion]))
  if (grants.some((g) => g.keyVersion !== undefined && g.keyVersion !== versions.get(g.beneficiaryId))) throw conflict(VAULT_ITEM_MESSAGES.keyChangedMeanwhile)
  return versions
}

export type CompletionResult = { ok: true; item: VaultItem } | { ok: false; error: ApiError }

/**
 * Activates an upload R2 has assembled (`assembledSize` bytes): the item, its grants and the
 * policies that cover it, in this act's transaction. Refused when the object is not the size
 * announced or the plan has no room left: the item goes and its object is let go, so nothing is
 * counted or stored (the caller throws the error after the act commits).
 */
export function activateUpload(u: Unit, itemId: string, body: UploadCompleteBody, assembledSize: number, verifiedManifest: string): CompletionResult {
  const { db, now } = u
  const row = findUpload(db, itemId)
  const refuse = (error: ApiError): CompletionResult => {
    db.delete(vaultItems).where(eq(vaultItems.id, row.id)).run()
    u.releaseBlob(row.r2Key)
    return { ok: false, error }
  }
  let expected: ReturnType<typeof uploadManifest>
  try {
    expected = uploadManifest(db, u.ownerId, row, body)
  } catch (error) {
    if (error instanceof ApiError) return refuse(error)
    throw error
  }
  const { versions, contentDigest, manifest } = expected
  // A key replaced while R2 assembled the parts: the signature was over the version before.
  if (manifest !== verifiedManifest) return refuse(conflict(VAULT_ITEM_MESSAGES.keyChangedMeanwhile))
  if (assembledSize !== row.cipherSize) return refuse(badRequest(`The uploaded data is ${assembledSize} bytes; ${row.cipherSize} were expected.`))
  const limits = planLimitsFor(u.account)
  const usage = vaultUsage(db, ['active'])
  if (limits.maxItems !== null && usage.items >= limits.maxItems) return refuse(itemLimitError(limits.maxItems))
  if (usage.bytes + row.cipherSize > limits.maxStorageBytes) return refuse(storageLimitError(limits.maxStorageBytes))

  const policy = body.policy
  const scheduledAt = policy.scheduledAt ? Date.parse(policy.scheduledAt) : null
  const item = db
    .update(vaultItems)
    .set({
      status: 'active',
      encryptedMetadata: body.encryptedMetadata,
      wrappedKey: body.wrappedKey,
      releaseProtocol: policy.protocol ?? 'VERIFIED_DEATH',
      requiresApprover: policy.requiresApprover ?? false,
      approverContact: policy.requiresApprover ? (policy.approverContact ?? null) : null,
      scheduledAt,
      uploadId: null,
      completedAt: now,
      contentDigest,
      manifest,
      manifestSignature: body.manifestSignature,
    })
    .where(eq(vaultItems.id, row.id))
    .returning()
    .get()!
  for (const g of body.grants) {
    db.insert(itemGrants)
      .values({ itemId: row.id, beneficiaryId: g.beneficiaryId, wrappedKey: g.wrappedKey, keyVersion: versions.get(g.beneficiaryId) ?? 1, direct: g.direct !== false, createdAt: now })
      .run()
  }
  const policyIds = [...new Set(body.policyIds ?? [])]
  const covering = inSlices(policyIds, (slice) => db.select({ id: policies.id }).from(policies).where(inArray(policies.id, slice)).all())
  for (const p of covering) db.insert(policyItems).values({ policyId: p.id, itemId: row.id }).run()
  db.delete(uploadParts).where(eq(uploadParts.itemId, row.id)).run()
  if (item.releaseProtocol === 'SCHEDULED' && scheduledAt !== null) u.dueAt(scheduledAt)
  u.audit({
    actor: 'user',
    action: 'vault.item_added',
    details: { itemId: item.id, type: item.type, protocol: item.releaseProtocol, cipherSize: item.cipherSize, grants: body.grants.length, policies: policyIds.length },
  })
  return { ok: true, item: toVaultItem(item, body.grants.map((g) => g.beneficiaryId)) }
}

/** Ends an upload that will not be completed; the caller aborts its R2 multipart upload. */
export function discardUpload(db: OwnerDb, itemId: string): { r2Key: string; uploadId: string | null } {
  const row = findUpload(db, itemId)
  db.delete(vaultItems).where(and(eq(vaultItems.id, row.id), eq(vaultItems.status, 'uploading'))).run()
  return { r2Key: row.r2Key, uploadId: row.uploadId }
}

/** Uploads left unfinished since before `cutoff`. */
export function abandonedUploads(db: OwnerDb, cutoff: number): VaultItemRow[] {
  return db.select().from(vaultItems).where(and(eq(vaultItems.status, 'uploading'), lt(vaultItems.createdAt, cutoff))).limit(100).all()
}

/** Newest first, each with who it is granted to. */
export function listItems(db: OwnerDb): VaultItem[] {
  const rows = db.select().from(vaultItems).where(eq(vaultItems.status, 'active')).orderBy(desc(vaultItems.completedAt), desc(vaultItems.id)).all()
  if (rows.length === 0) return []
  const byItem = new Map<string, string[]>()
  for (const g of db.select({ itemId: itemGrants.itemId, beneficiaryId: itemGrants.beneficiaryId }).from(itemGrants).all()) {
    byItem.set(g.itemId, [...(byItem.get(g.itemId) ?? []), g.beneficiaryId])
  }
  return rows.map((r) => toVaultItem(r, byItem.get(r.id) ?? []))
}

/** Every active item with its seal and every grant of it, for the owner's estate bundle (contract/estate-bundle.ts). */
export function estateItems(db: OwnerDb): EstateItem[] {
  const rows = db.select().from(vaultItems).where(eq(vaultItems.status, 'active')).orderBy(desc(vaultItems.completedAt), desc(vaultItems.id)).all()
  const byItem = new Map<string, EstateItem['grants']>()
  for (const g of db.select({ itemId: itemGrants.itemId, beneficiaryId: itemGrants.beneficiaryId, keyVersion: itemGrants.keyVersion, wrappedKey: itemGrants.wrappedKey }).from(itemGrants).all()) {
    byItem.set(g.itemId, [...(byItem.get(g.itemId) ?? []), { beneficiaryId: g.beneficiaryId, keyVersion: g.keyVersion, wrappedKey: g.wrappedKey }])
  }
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    plainSize: r.plainSize,
    cipherSize: r.cipherSize,
    chunkBytes: r.chunkBytes,
    encryptedMetadata: r.encryptedMetadata ?? '',
    manifest: r.manifest,
    manifestSignature: r.manifest === null ? null : r.manifestSignature,
    grants: byItem.get(r.id) ?? [],
  }))
}

export function findActiveItem(db: OwnerDb, id: string): VaultItemRow {
  const row = db.select().from(vaultItems).where(and(eq(vaultItems.id, id), eq(vaultItems.status, 'active'))).get()
  if (!row) throw notFound(VAULT_ITEM_MESSAGES.itemNotFound)
  return row
}

/** Deletes an item with its grants and everything released of it; its R2 object goes after. */
export function deleteItem(u: Unit, id: string): void {
  const row = findActiveItem(u.db, id)
  u.db.delete(vaultItems).where(eq(vaultItems.id, id)).run()
  u.releaseBlob(row.r2Key)
  u.audit({ actor: 'user', action: 'vault.item_deleted', details: { itemId: id } })
}

/**
 * The statement a PUT of grants must be signed over: exactly the grants it would store, each with
 * the beneficiary's current key version (contract/vault-statements.ts `grantsStatement`).
 */
export function grantsPlan(db: OwnerDb, ownerId: string, itemId: string, grants: readonly GrantIn[]) {
  findActiveItem(db, itemId)
  const versions = beneficiaryKeyVersions(db, grants)
  const statement = grantsStatement(
    ownerId,
    grants.map((g) => ({ itemId, beneficiaryId: g.beneficiaryId, keyVersion: versions.get(g.beneficiaryId)!, wrappedKey: g.wrappedKey })),
  )
  return { statement, versions }
}

/**
 * Adds or replaces grants on an item (a policy created later): each is the item's data key wrapped,
 * in the owner's browser, with one of the owner's beneficiaries' public keys, and the set is signed
 * by the vault (`verifiedStatement`, checked by the caller against grantsPlan).
 */
export function putGrants(u: Unit, itemId: string, grants: readonly GrantIn[], verifiedStatement: string): string[] {
  const { db, now } = u
  const { statement, versions } = grantsPlan(db, u.ownerId, itemId, grants)
  if (statement !== verifiedStatement) throw conflict(VAULT_ITEM_MESSAGES.keyChangedMeanwhile)
  for (const g of grants) {
    const keyVersion = versions.get(g.beneficiaryId)!
    db.insert(itemGrants)
      .values({ itemId, beneficiaryId: g.beneficiaryId, wrappedKey: g.wrappedKey, keyVersion, createdAt: now })
      .onConflictDoUpdate({ target: [itemGrants.itemId, itemGrants.beneficiaryId], set: { wrappedKey: g.wrappedKey, keyVersion, createdAt: now } })
      .run()
  }
  const all = db.select({ id: itemGrants.beneficiaryId }).from(itemGrants).where(eq(itemGrants.itemId, itemId)).all().map((g) => g.id)
  u.audit({ actor: 'user', action: 'vault.grants_updated', details: { itemId, count: grants.length, total: all.length } })
  return all
}

// ---- Sealing items stored before manifests ----------------------------------------------------

/**
 * Active items without a manifest, by id after `after`. Only items with a data key wrapped by the
 * owner and encrypted metadata: the owner's browser proves an item is theirs by opening both, so an
 * item without them (the bench's empty ones) could never be sealed and is not offered.
 */
export function unsealedRows(db: OwnerDb, after: string | undefined, limit = SEAL_PAGE_SIZE): VaultItemRow[] {
  return db
    .select()
    .from(vaultItems)
    .where(
      and(
        eq(vaultItems.status, 'active'),
        isNull(vaultItems.manifest),
        isNotNull(vaultItems.wrappedKey),
        isNotNull(vaultItems.encryptedMetadata),
        after === undefined ? undefined : gt(vaultItems.id, after),
      ),
    )
    .orderBy(asc(vaultItems.id))
    .limit(limit)
    .all()
}

/** Records the content digest computed from an old item's stored ciphertext (once: later pages reuse it). */
export function recordContentDigest(db: OwnerDb, itemId: string, contentDigest: string): void {
  db.update(vaultItems).set({ contentDigest }).where(and(eq(vaultItems.id, itemId), isNull(vaultItems.contentDigest))).run()
}

function grantedTo(db: OwnerDb, itemId: string) {
  return db
    .select({ beneficiaryId: itemGrants.beneficiaryId, keyVersion: beneficiaries.keyVersion })
    .from(itemGrants)
    .innerJoin(beneficiaries, eq(beneficiaries.id, itemGrants.beneficiaryId))
    .where(eq(itemGrants.itemId, itemId))
    .orderBy(asc(itemGrants.beneficiaryId))
    .all()
}

/** An unsealed item as the browser needs it to seal it; its content digest must be known. */
export function unsealedItem(db: OwnerDb, row: VaultItemRow): UnsealedItem {
  return {
    id: row.id,
    type: row.type,
    plainSize: row.plainSize,
    chunkCount: row.partCount,
    contentDigest: row.contentDigest!,
    encryptedMetadata: row.encryptedMetadata!,
    wrappedKey: row.wrappedKey!,
    grants: grantedTo(db, row.id),
  }
}

/**
 * The manifest a seal must be signed over: the item as stored (its content digest, its metadata)
 * and the new wraps, which must be for exactly the beneficiaries it is granted to now.
 */
export function sealPlan(db: OwnerDb, ownerId: string, itemId: string, body: SealItemBody) {
  const row = findActiveItem(db, itemId)
  if (row.manifest !== null) throw conflict(VAULT_ITEM_MESSAGES.alreadySealed)
  if (!row.contentDigest || !row.encryptedMetadata || !row.wrappedKey) throw conflict(VAULT_ITEM_MESSAGES.sealNotReady)
  const versions = beneficiaryKeyVersions(db, body.grants)
  const current = grantedTo(db, itemId).map((g) => g.beneficiaryId)
  if (current.length !== body.grants.length || current.some((id) => !versions.has(id))) throw conflict(VAULT_ITEM_MESSAGES.sealGrantsChanged)
  const manifest = itemManifest({
    ownerId,
    itemId,
    type: row.type,
    plainSize: row.plainSize,
    chunkCount: row.partCount,
    contentDigest: row.contentDigest,
    metadataDigest: digestOfBase64(row.encryptedMetadata),
    grants: manifestGrants(body.grants, versions),
  })
  return { manifest, versions }
}

/** Replaces the item's wraps and stores its manifest, in one act, once the caller verified `verifiedManifest`. */
export function sealItem(u: Unit, itemId: string, body: SealItemBody, verifiedManifest: string): VaultItem {
  const { db, now } = u
  const { manifest, versions } = sealPlan(db, u.ownerId, itemId, body)
  if (manifest !== verifiedManifest) throw conflict(VAULT_ITEM_MESSAGES.sealGrantsChanged)
  for (const g of body.grants) {
    db.update(itemGrants)
      .set({ wrappedKey: g.wrappedKey, keyVersion: versions.get(g.beneficiaryId)!, createdAt: now })
      .where(and(eq(itemGrants.itemId, itemId), eq(itemGrants.beneficiaryId, g.beneficiaryId)))
      .run()
  }
  const item = db.update(vaultItems).set({ manifest, manifestSignature: body.manifestSignature }).where(eq(vaultItems.id, itemId)).returning().get()!
  u.audit({ actor: 'user', action: 'vault.item_sealed', details: { itemId, grants: body.grants.length } })
  return toVaultItem(item, body.grants.map((g) => g.beneficiaryId))
}

/**
 * The SHA-256 of each chunk of a stored item's ciphertext, in order: `chunkSize` bytes each
 * (chunkBytes + the chunk overhead), the last shorter. One chunk in memory at a time.
 */
export async function chunkDigests(stream: ReadableStream<Uint8Array>, chunkSize: number): Promise<Uint8Array[]> {
  const digests: Uint8Array[] = []
  const buffer = new Uint8Array(chunkSize)
  let fill = 0
  const digest = async (bytes: Uint8Array) => digests.push(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    for (let at = 0; at < value.length; ) {
      const n = Math.min(chunkSize - fill, value.length - at)
      buffer.set(value.subarray(at, at + n), fill)
      fill += n
      at += n
      if (fill === chunkSize) {
        await digest(buffer)
        fill = 0
      }
    }
  }
  if (fill > 0 || digests.length === 0) await digest(buffer.subarray(0, fill))
  return digests
}
