import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { z } from 'zod'

// What the owner's vault signs, beyond the v1 key statement of contract/key-signing.ts. Every
// statement is UTF-8 text, lines joined by LF with no trailing newline, whose first line is its tag;
// the vault signing key signs the bytes (ECDSA P-256 / SHA-256, IEEE P1363, base64: 88 characters).
// Free text (names) is written as a JSON string, so no value can add or end a line. Exact bytes:
// web/crypto/FORMAT.md. The one table:
//
// | statement         | signed when                                   | the server refuses unless            | who checks again          |
// |-------------------|-----------------------------------------------|--------------------------------------|---------------------------|
// | beneficiary (v2)  | a person is added, renamed, moved to another  | it verifies, and its sequence is     | the owner's browser, and  |
// |                   | address, given a new key, or confirmed        | above every one accepted before      | never below what it saw   |
// | item manifest     | an item is uploaded, or sealed after the fact | it verifies over the item as stored  | the heir's portal, and an |
// |                   |                                               | (content, metadata, grants)          | outside decryptor         |
// | grants            | grants are added later (a policy), a key is   | it verifies over exactly the grants  | —                         |
// |                   | replaced (the complete re-wrapped set)        | it stores                            |                           |

export const STATEMENT_TAGS = {
  beneficiary: 'legacy-vault:beneficiary:v2',
  manifest: 'legacy-vault:item-manifest:v1',
  grants: 'legacy-vault:grants:v1',
} as const

// Synchronous (noble) and the same in the worker, the browser and Node: these digests are small.

/** Lower-case hex SHA-256 of `data` (bytes, or the UTF-8 of a string). */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === 'string' ? utf8ToBytes(data) : data))
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const BASE64_VALUE = new Map([...BASE64].map((c, i) => [c, i]))

/** Whether `value` is standard base64 (padding optional, as the API's schemas take it). */
export const isBase64 = (value: string) => /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.replace(/=+$/, '').length % 4 !== 1

/** Standard base64 to bytes, padded or not; throws on anything else (callers validated it already). */
export function base64ToBytes(value: string): Uint8Array {
  if (!isBase64(value)) throw new Error('Invalid base64')
  const body = value.replace(/=+$/, '')
  const out = new Uint8Array(Math.floor((body.length * 3) / 4))
  let bits = 0
  let acc = 0
  let o = 0
  for (const c of body) {
    acc = (acc << 6) | BASE64_VALUE.get(c)!
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (acc >> bits) & 0xff
    }
  }
  return out
}

/** SHA-256 of the bytes a base64 value stands for (a wrapped key, a metadata envelope). */
export const digestOfBase64 = (value: string) => sha256Hex(base64ToBytes(value))

/**
 * A public key's fingerprint as people compare it: SHA-256 of the SPKI bytes, upper-case hex in 16
 * groups of 4. The same form for a beneficiary's key and for the vault's signing key.
 */
export function keyFingerprint(spkiBase64: string): string {
  return digestOfBase64(spkiBase64).toUpperCase().match(/.{4}/g)!.join(' ')
}

// ---- Beneficiary statement (v2) ----------------------------------------------------------------

export interface BeneficiaryStatementFields {
  ownerId: string
  /** Vault-wide, only grows: the server takes a statement only above every one it took before. */
  sequence: number
  beneficiaryId: string
  fullName: string
  relationship: string
  /** Trimmed and lower-cased here, whatever the caller passes. */
  email: string
  keyVersion: number
  /** base64 SPKI exactly as stored. */
  publicKey: string
}

export function beneficiaryStatement(f: BeneficiaryStatementFields): string {
  return [
    STATEMENT_TAGS.beneficiary,
    f.ownerId,
    String(f.sequence),
    f.beneficiaryId,
    JSON.stringify(f.fullName),
    JSON.stringify(f.relationship),
    f.email.trim().toLowerCase(),
    String(f.keyVersion),
    f.publicKey,
  ].join('\n')
}

/** The sequence a statement carries: a positive safe integer. */
export const statementSequenceSchema = z
  .number({ error: 'statementSequence must be a whole number' })
  .int('statementSequence must be a whole number')
  .min(1, 'statementSequence must be at least 1')
  .max(Number.MAX_SAFE_INTEGER, 'statementSequence is too large')

// ---- Item manifest -----------------------------------------------------------------------------

export interface ManifestGrant {
  beneficiaryId: string
  keyVersion: number
  /** Hex SHA-256 of the wrapped key's bytes. */
  wrappedKeyDigest: string
}

export interface ItemManifestFields {
  ownerId: string
  itemId: string
  type: string
  plainSize: number
  chunkCount: number
  /** Hex SHA-256 over the 32-byte SHA-256 digests of the ciphertext chunks, concatenated in order. */
  contentDigest: string
  /** Hex SHA-256 of the metadata envelope's bytes. */
  metadataDigest: string
  grants: readonly ManifestGrant[]
}

const grantLine = (g: ManifestGrant) => `grant ${g.beneficiaryId} ${g.keyVersion} ${g.wrappedKeyDigest}`
const byBeneficiary = (a: ManifestGrant, b: ManifestGrant) => (a.beneficiaryId < b.beneficiaryId ? -1 : a.beneficiaryId > b.beneficiaryId ? 1 : 0)

/** The manifest text: one line per field, then one per grant, sorted by beneficiary id. */
export function itemManifest(f: ItemManifestFields): string {
  return [
    STATEMENT_TAGS.manifest,
    `owner ${f.ownerId}`,
    `item ${f.itemId}`,
    `type ${f.type}`,
    `size ${f.plainSize}`,
    `chunks ${f.chunkCount} ${f.contentDigest}`,
    `metadata ${f.metadataDigest}`,
    ...[...f.grants].sort(byBeneficiary).map(grantLine),
  ].join('\n')
}

const MANIFEST_LINE = {
  owner: /^owner (\S+)$/,
  item: /^item (\S+)$/,
  type: /^type (\S+)$/,
  size: /^size (0|[1-9]\d*)$/,
  chunks: /^chunks ([1-9]\d*) ([0-9a-f]{64})$/,
  metadata: /^metadata ([0-9a-f]{64})$/,
  grant: /^grant (\S+) ([1-9]\d*) ([0-9a-f]{64})$/,
}

/** The fields of a manifest's text, or null for anything that is not exactly one (the heir's check). */
export function parseItemManifest(text: string): ItemManifestFields | null {
  const lines = text.split('\n')
  if (lines[0] !== STATEMENT_TAGS.manifest || lines.length < 7) return null
  const [owner, item, type, size, chunks, metadata] = (['owner', 'item', 'type', 'size', 'chunks', 'metadata'] as const).map((k, i) =>
    MANIFEST_LINE[k].exec(lines[i + 1]!),
  )
  if (!owner || !item || !type || !size || !chunks || !metadata) return null
  const grants: ManifestGrant[] = []
  for (const line of lines.slice(7)) {
    const g = MANIFEST_LINE.grant.exec(line)
    if (!g) return null
    grants.push({ beneficiaryId: g[1]!, keyVersion: Number(g[2]), wrappedKeyDigest: g[3]! })
  }
  const fields: ItemManifestFields = {
    ownerId: owner[1]!,
    itemId: item[1]!,
    type: type[1]!,
    plainSize: Number(size[1]),
    chunkCount: Number(chunks[1]),
    contentDigest: chunks[2]!,
    metadataDigest: metadata[1]!,
    grants,
  }
  // Canonical form only: the same fields must give back the same bytes.
  return itemManifest(fields) === text ? fields : null
}

/** The content digest from the chunks' own SHA-256 digests (32 bytes each), in order. */
export function contentDigestOf(chunkDigests: readonly Uint8Array[]): string {
  const all = new Uint8Array(chunkDigests.length * 32)
  chunkDigests.forEach((d, i) => all.set(d, i * 32))
  return sha256Hex(all)
}

// ---- Grants statement --------------------------------------------------------------------------

export interface StatedGrant {
  itemId: string
  beneficiaryId: string
  keyVersion: number
  /** base64 of the wrapped data key, as sent. */
  wrappedKey: string
}

/**
 * The statement over a set of grants: their count and the SHA-256 of one line per grant
 * (`<itemId> <beneficiaryId> <keyVersion> <hex SHA-256 of the wrapped key bytes>` + LF), sorted,
 * so that thousands of grants (a replaced key) are still one short statement.
 */
export function grantsStatement(ownerId: string, grants: readonly StatedGrant[]): string {
  const lines = grants.map((g) => `${g.itemId} ${g.beneficiaryId} ${g.keyVersion} ${digestOfBase64(g.wrappedKey)}\n`).sort()
  return [STATEMENT_TAGS.grants, `owner ${ownerId}`, `count ${grants.length}`, `digest ${sha256Hex(lines.join(''))}`].join('\n')
}

/** A vault signature over a statement: ECDSA P-256 P1363 in base64, 88 characters. */
export const statementSignatureSchema = z
  .string({ error: 'The vault signature is missing. Unlock your vault and try again.' })
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The vault signature is not valid. Unlock your vault and try again.')
  .length(88, 'The vault signature is not valid. Unlock your vault and try again.')
