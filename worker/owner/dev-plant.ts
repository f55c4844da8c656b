import { z } from 'zod'
import { ITEM_TYPES } from '../../contract/vault-items'
import { fromBase64, toBase64 } from '../lib/crypto'

// Local only (worker/routes/dev.ts checks): an item written straight into an owner's object the
// way a hostile server, or a session past the upload's checks, could write one: its own
// ciphertext under a data key of its own, wrapped to every beneficiary's public key as stored, and
// whatever manifest it likes. For the browser test of the heir's seal check
// (test/e2e/heir-verification.test.ts), which must refuse it.

const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Not base64')

export const devPlantItemSchema = z.object({
  email: z.email(),
  /** The id the ciphertext was sealed to (its chunks' and metadata's associated data). */
  id: z.uuid(),
  type: z.enum(ITEM_TYPES),
  plainSize: z.number().int().min(0).max(4096),
  chunkBytes: z.number().int().min(1).max(8 * 1024 * 1024),
  encryptedMetadata: base64.max(4096),
  content: base64.max(8192),
  /** The planter's own data key, raw (32 bytes). */
  dataKey: base64.length(44),
  /** The manifest's UTF-8 text in base64 (the API's text rule refuses line breaks in strings). */
  manifest: base64.max(8192).nullable().default(null),
  manifestSignature: z.string().max(200).nullable().default(null),
})
export type DevPlantedItem = z.infer<typeof devPlantItemSchema>

const RSA_OAEP = { name: 'RSA-OAEP', hash: 'SHA-256' } as const

export async function plantItem(storage: DurableObjectStorage, blobs: R2Bucket, ownerId: string, item: DevPlantedItem): Promise<void> {
  const content = fromBase64(item.content)
  const people = storage.sql.exec<{ id: string; public_key: string; key_version: number }>('select id, public_key, key_version from beneficiaries').toArray()
  const grants = await Promise.all(
    people.map(async (p) => {
      const key = await crypto.subtle.importKey('spki', fromBase64(p.public_key), RSA_OAEP, false, ['encrypt'])
      return { ...p, wrapped: toBase64(new Uint8Array(await crypto.subtle.encrypt(RSA_OAEP, key, fromBase64(item.dataKey)))) }
    }),
  )
  const r2Key = `items/${ownerId}/${item.id}`
  await blobs.put(r2Key, content)
  const now = Date.now()
  storage.transactionSync(() => {
    storage.sql.exec(
      `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, encrypted_metadata, release_protocol, created_at, completed_at, manifest, manifest_signature)
       values (?, ?, 'active', ?, ?, ?, 1, ?, ?, 'MANUAL_RELEASE', ?, ?, ?, ?)`,
      item.id,
      item.type,
      item.plainSize,
      content.length,
      item.chunkBytes,
      r2Key,
      item.encryptedMetadata,
      now,
      now,
      item.manifest === null ? null : new TextDecoder().decode(fromBase64(item.manifest)),
      item.manifestSignature,
    )
    for (const g of grants) {
      storage.sql.exec('insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, ?, ?, 1, ?)', item.id, g.id, g.wrapped, g.key_version, now)
    }
  })
}
