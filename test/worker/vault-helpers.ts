import { mirrorAccount } from '../../worker/owner/account'
import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import type { PlanTier } from '../../contract/plans'
import { partSize, type UploadCompleteBody, type UploadSession, type VaultItem } from '../../contract/vault-items'
import { contentDigestOf, digestOfBase64, grantsStatement, itemManifest, type ItemManifestFields, type StatedGrant } from '../../contract/vault-statements'
import { addBeneficiary, call, register, rsaOaepPublicKey, waitFor } from './helpers'
import { ownerRow, ownerRows, SEED_PREFIX } from './owner-helpers'
import { vaultSigner, WELL_FORMED_SIGNATURE } from './vault-signing'

// Helpers for the vault upload/item tests (vault-*.test.ts). Storage is per test file, so every
// test makes its own owner and reads counters for that owner only.

export const MB = 1024 * 1024
export const GB = 1024 * MB

let sharedKey: Promise<string> | undefined
/** One RSA-OAEP public key per test file: the API does not mind beneficiaries sharing one, and it saves key generation. */
export function publicKey(): Promise<string> {
  sharedKey ??= rsaOaepPublicKey()
  return sharedKey
}

/** A new owner (Basic plan, empty vault) with one beneficiary. */
export async function ownerWithBeneficiary() {
  const owner = await register()
  const beneficiary = await addBeneficiary(owner.token, await publicKey())
  return { owner, beneficiary, token: owner.token, ownerId: owner.user.id }
}

/** Deterministic, part-specific bytes: `seed` changes every byte, so a replaced part is told apart. */
export function partBytes(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed * 97 + (i >> 8)) & 255
  return bytes
}

export function concatBytes(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

export function startUploadRaw(token: string | undefined, body: unknown): Promise<Response> {
  return call('/api/vault/uploads', { token, body })
}

/** POST /api/vault/uploads; expects 201 and returns the session. */
export async function startUpload(token: string, plainSize: number, type = 'doc'): Promise<UploadSession> {
  const res = await startUploadRaw(token, { type, plainSize })
  if (res.status !== 201) throw new Error(`start upload failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as UploadSession
}

/** PUT one binary part (no Content-Length unless given in headers, as a streaming browser might). */
export function putPart(token: string, itemId: string, partNumber: number | string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return call(`/api/vault/uploads/${itemId}/parts/${partNumber}`, {
    method: 'PUT',
    token,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    rawBody: bytes as unknown as string,
  })
}

/** Uploads every part of a session with its exact size (bytes from partBytes(size, partNumber + seed)); returns them in order. */
export async function putAllParts(token: string, session: UploadSession, plainSize: number, seed = 0): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = []
  for (let n = 1; n <= session.partCount; n++) {
    const bytes = partBytes(partSize(n, plainSize), n + seed)
    const res = await putPart(token, session.itemId, n, bytes)
    if (res.status !== 200) throw new Error(`part ${n} failed: ${res.status} ${await res.text()}`)
    parts.push(bytes)
  }
  return parts
}

/** A completion body granting the item to the given beneficiaries: completeRaw signs its manifest unless it carries a manifestSignature. */
export function completeBody(beneficiaryIds: string[], overrides: Partial<UploadCompleteBody> = {}): Omit<UploadCompleteBody, 'manifestSignature'> & { manifestSignature?: string } {
  return {
    encryptedMetadata: btoa('encrypted metadata'),
    wrappedKey: btoa('wrapped data key'),
    policy: {},
    grants: beneficiaryIds.map((beneficiaryId, i) => ({ beneficiaryId, wrappedKey: btoa(`grant-${i}`) })),
    ...overrides,
  }
}

const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!, (h) => parseInt(h, 16))

/** `token`'s vault signature over `text` (any statement of contract/vault-statements.ts). */
export async function vaultSign(token: string, text: string): Promise<string> {
  const signer = await vaultSigner(token)
  return toBase64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signer.privateKey, new TextEncoder().encode(text)))
}

/** Current key versions of the owner's beneficiaries, read in their object. */
export async function keyVersionsOf(ownerId: string): Promise<Map<string, number>> {
  return new Map((await ownerRows<{ id: string; key_version: number }>(ownerId, 'select id, key_version from beneficiaries')).map((b) => [b.id, b.key_version]))
}

/**
 * The manifest of an open upload as an honest browser would sign it: the item's row and the digests
 * of the parts the server received (read in the owner's object), the body's metadata and wraps.
 * Null when the upload is not the owner's.
 */
export async function uploadManifestFor(ownerId: string, itemId: string, body: { encryptedMetadata: string; grants: Array<{ beneficiaryId: string; wrappedKey: string }> }): Promise<string | null> {
  const row = await ownerRow<{ type: string; plain_size: number; part_count: number }>(ownerId, 'select type, plain_size, part_count from vault_items where id = ?', itemId)
  if (!row) return null
  const parts = await ownerRows<{ digest: string | null }>(ownerId, 'select digest from upload_parts where item_id = ? order by part_number', itemId)
  const versions = await keyVersionsOf(ownerId)
  return itemManifest({
    ownerId,
    itemId,
    type: row.type,
    plainSize: row.plain_size,
    chunkCount: row.part_count,
    contentDigest: contentDigestOf(parts.map((p) => hexBytes(p.digest ?? '00'.repeat(32)))),
    metadataDigest: digestOfBase64(body.encryptedMetadata),
    grants: body.grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: versions.get(g.beneficiaryId) ?? 1, wrappedKeyDigest: digestOfBase64(g.wrappedKey) })),
  })
}

/** The fields of a manifest, to build one that differs from what is sent. */
export type ManifestFields = ItemManifestFields

const ownerIdOf = (token: string) => (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string }).sub

/**
 * The body with the vault's signature over its manifest, unless it has one (or cannot have one: not
 * an object with metadata and grants, or an upload that is not the owner's, which gets a signature
 * by nobody so that the server's own answer shows).
 */
export async function withManifestSignature(token: string, itemId: string, body: unknown): Promise<unknown> {
  if (!body || typeof body !== 'object' || 'manifestSignature' in body) return body
  const b = body as { encryptedMetadata?: unknown; grants?: unknown }
  let manifest: string | null = null
  try {
    if (typeof b.encryptedMetadata === 'string' && Array.isArray(b.grants)) manifest = await uploadManifestFor(ownerIdOf(token), itemId, b as never)
  } catch {
    manifest = null
  }
  return { ...body, manifestSignature: manifest ? await vaultSign(token, manifest) : WELL_FORMED_SIGNATURE }
}

/** POST .../complete, signing the manifest as the owner's browser would (withManifestSignature). */
export async function completeRaw(token: string, itemId: string, body: unknown): Promise<Response> {
  return call(`/api/vault/uploads/${itemId}/complete`, { token, body: await withManifestSignature(token, itemId, body) })
}

/** A PUT /api/vault/items/:id/grants body signed by `token`'s vault over exactly these grants (key versions as stored). */
export async function signedGrantsBody(token: string, itemId: string, grants: Array<{ beneficiaryId: string; wrappedKey: string }>) {
  const ownerId = ownerIdOf(token)
  const versions = await keyVersionsOf(ownerId)
  const stated: StatedGrant[] = grants.map((g) => ({ itemId, beneficiaryId: g.beneficiaryId, keyVersion: versions.get(g.beneficiaryId) ?? 1, wrappedKey: g.wrappedKey }))
  return { grants, grantsSignature: await vaultSign(token, grantsStatement(ownerId, stated)) }
}

/** Start, all parts, complete: expects 201 and returns the item, its session and its parts. */
export async function uploadItem(token: string, beneficiaryIds: string[], plainSize = 100, overrides: Partial<UploadCompleteBody> = {}) {
  const session = await startUpload(token, plainSize)
  const parts = await putAllParts(token, session, plainSize)
  const res = await completeRaw(token, session.itemId, completeBody(beneficiaryIds, overrides))
  if (res.status !== 201) throw new Error(`complete failed: ${res.status} ${await res.text()}`)
  return { item: (await res.json()) as VaultItem, session, parts }
}

export interface Counters {
  storageUsed: number
  vaultItemCount: number
}

/** The owner's counters as the API shows them (GET /api/auth/me). */
export async function counters(token: string): Promise<Counters> {
  const res = await call('/api/auth/me', { token })
  expect(res.status).toBe(200)
  const { user } = (await res.json()) as { user: Counters }
  return { storageUsed: user.storageUsed, vaultItemCount: user.vaultItemCount }
}

/** Sets account fields in D1 (plan, role). */
export async function setAccount(userId: string, fields: Partial<{ planTier: Exclude<PlanTier, 'paused' | 'admin'>; role: 'owner' | 'admin' }>) {
  const columns: Record<string, string> = { planTier: 'plan_tier', role: 'role' }
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined)
  if (entries.length === 0) return
  const sets = entries.map(([k]) => `${columns[k]} = ?`).join(', ')
  const result = await env.DB.prepare(`UPDATE users SET ${sets} WHERE id = ?`)
    .bind(...entries.map(([, v]) => v), userId)
    .run()
  expect(result.meta.changes).toBe(1)
  await mirrorAccount(userId)
}

export interface VaultItemDbRow {
  id: string
  status: string
  r2_key: string
  upload_id: string | null
  cipher_size: number
  created_at: number
  completed_at: number | null
}

export function itemRow(ownerId: string, itemId: string): Promise<VaultItemDbRow | null> {
  return ownerRow<VaultItemDbRow>(ownerId, 'SELECT * FROM vault_items WHERE id = ?', itemId)
}

/** The owner's item rows, leaving out rows seeded to reach a limit. */
export function itemRowsOf(ownerId: string): Promise<VaultItemDbRow[]> {
  return ownerRows<VaultItemDbRow>(ownerId, `SELECT * FROM vault_items WHERE id NOT LIKE '${SEED_PREFIX}%' ORDER BY created_at`)
}

export function grantRows(ownerId: string, itemId: string): Promise<{ item_id: string; beneficiary_id: string; wrapped_key: string; key_version: number }[]> {
  return ownerRows(ownerId, 'SELECT * FROM item_grants WHERE item_id = ? ORDER BY beneficiary_id', itemId)
}

export function partRows(ownerId: string, itemId: string): Promise<{ part_number: number; size: number; etag: string }[]> {
  return ownerRows(ownerId, 'SELECT part_number, size, etag FROM upload_parts WHERE item_id = ? ORDER BY part_number', itemId)
}

/** R2 keys the owner's object still has to delete (it retries them on its alarm). */
export async function blobDeletionKeys(ownerId: string): Promise<string[]> {
  return (await ownerRows<{ r2_key: string }>(ownerId, 'SELECT r2_key FROM blob_deletions')).map((r) => r.r2_key)
}

export const itemKey = (ownerId: string, itemId: string) => `items/${ownerId}/${itemId}`

/** The R2 object at the item's key, or null. */
export function blobOf(ownerId: string, itemId: string) {
  return env.BLOBS.head(itemKey(ownerId, itemId))
}

/** Whether R2 still has the open multipart upload (uploading a part to it works). */
export async function multipartIsOpen(r2Key: string, uploadId: string): Promise<boolean> {
  try {
    await env.BLOBS.resumeMultipartUpload(r2Key, uploadId).uploadPart(1, new Uint8Array(1))
    return true
  } catch {
    return false
  }
}

export async function content(token: string, itemId: string): Promise<Response> {
  return call(`/api/vault/items/${itemId}/content`, { token })
}

export async function listItems(token: string): Promise<VaultItem[]> {
  const res = await call('/api/vault/items', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as VaultItem[]
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits (briefly) until R2 has no object at the item's key; R2 deletes after a response may lag a little. */
export async function waitForBlobGone(ownerId: string, itemId: string, timeoutMs = 2000): Promise<void> {
  await waitFor(async () => (await blobOf(ownerId, itemId)) === null, timeoutMs)
}
