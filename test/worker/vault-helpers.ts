import { env } from 'cloudflare:workers'
import { expect } from 'vitest'
import type { PlanTier } from '../../contract/plans'
import { partSize, type UploadCompleteBody, type UploadSession, type VaultItem } from '../../contract/vault-items'
import { addBeneficiary, call, register, rsaOaepPublicKey, waitFor } from './helpers'
import { ownerRow, ownerRows, SEED_PREFIX } from './owner-helpers'

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

/** A valid completion body granting the item to the given beneficiaries. */
export function completeBody(beneficiaryIds: string[], overrides: Partial<UploadCompleteBody> = {}): UploadCompleteBody {
  return {
    encryptedMetadata: btoa('encrypted metadata'),
    wrappedKey: btoa('wrapped data key'),
    policy: {},
    grants: beneficiaryIds.map((beneficiaryId, i) => ({ beneficiaryId, wrappedKey: btoa(`grant-${i}`) })),
    ...overrides,
  }
}

export function completeRaw(token: string, itemId: string, body: unknown): Promise<Response> {
  return call(`/api/vault/uploads/${itemId}/complete`, { token, body })
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
