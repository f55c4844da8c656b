import { createHash, createPublicKey, verify } from 'node:crypto'

// An outside decryptor's check of an item before it decrypts it, written from web/crypto/FORMAT.md
// ("Item manifests") alone, with Node's crypto and nothing of this project: the test that uses it
// shows the format document is enough.

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest()
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

export interface ManifestFacts {
  owner: string
  item: string
  type: string
  size: number
  chunks: number
  contentDigest: string
  metadataDigest: string
  grants: Array<{ beneficiary: string; keyVersion: number; wrappedKeyDigest: string }>
}

/** The text's values, or null unless it is exactly the form FORMAT.md gives. */
export function readManifest(text: string): ManifestFacts | null {
  const lines = text.split('\n')
  const m = [
    /^legacy-vault:item-manifest:v1$/.exec(lines[0] ?? ''),
    /^owner (\S+)$/.exec(lines[1] ?? ''),
    /^item (\S+)$/.exec(lines[2] ?? ''),
    /^type (doc|photo|video|password)$/.exec(lines[3] ?? ''),
    /^size (0|[1-9][0-9]*)$/.exec(lines[4] ?? ''),
    /^chunks ([1-9][0-9]*) ([0-9a-f]{64})$/.exec(lines[5] ?? ''),
    /^metadata ([0-9a-f]{64})$/.exec(lines[6] ?? ''),
  ]
  if (m.some((x) => !x)) return null
  const grants = []
  for (const line of lines.slice(7)) {
    const g = /^grant (\S+) ([1-9][0-9]*) ([0-9a-f]{64})$/.exec(line)
    if (!g) return null
    grants.push({ beneficiary: g[1]!, keyVersion: Number(g[2]), wrappedKeyDigest: g[3]! })
  }
  const sorted = grants.map((g) => g.beneficiary)
  if (sorted.some((id, i) => i > 0 && Buffer.compare(Buffer.from(sorted[i - 1]!), Buffer.from(id)) > 0)) return null
  return {
    owner: m[1]![1]!,
    item: m[2]![1]!,
    type: m[3]![1]!,
    size: Number(m[4]![1]),
    chunks: Number(m[5]![1]),
    contentDigest: m[5]![2]!,
    metadataDigest: m[6]![1]!,
    grants,
  }
}

/** The content digest of stored ciphertext: SHA-256 over the SHA-256 of each chunk of chunkBytes + 29 bytes (the last shorter). */
export function contentDigest(ciphertext: Uint8Array, chunkBytes: number): { chunks: number; digest: string } {
  const size = chunkBytes + 29
  const digests: Buffer[] = []
  for (let at = 0; at < ciphertext.length || digests.length === 0; at += size) digests.push(sha256(ciphertext.subarray(at, at + size)))
  return { chunks: digests.length, digest: hex(sha256(Buffer.concat(digests))) }
}

export type Verdict = { ok: true; facts: ManifestFacts } | { ok: false; why: string }

/** FORMAT.md's steps 1 to 4: signature, form and ids, content, metadata. */
export function checkItem(input: {
  signingPublicKey: string
  manifest: string
  signature: string
  owner: string
  item: string
  ciphertext: Uint8Array
  chunkBytes: number
  encryptedMetadata: string
}): Verdict {
  const key = createPublicKey({ key: Buffer.from(input.signingPublicKey, 'base64'), format: 'der', type: 'spki' })
  const signature = Buffer.from(input.signature, 'base64')
  if (signature.length !== 64 || !verify('sha256', Buffer.from(input.manifest, 'utf8'), { key, dsaEncoding: 'ieee-p1363' }, signature)) {
    return { ok: false, why: 'signature' }
  }
  const facts = readManifest(input.manifest)
  if (!facts) return { ok: false, why: 'form' }
  if (facts.owner !== input.owner || facts.item !== input.item) return { ok: false, why: 'ids' }
  const content = contentDigest(input.ciphertext, input.chunkBytes)
  if (content.chunks !== facts.chunks || content.digest !== facts.contentDigest) return { ok: false, why: 'content' }
  if (hex(sha256(Buffer.from(input.encryptedMetadata, 'base64'))) !== facts.metadataDigest) return { ok: false, why: 'metadata' }
  return { ok: true, facts }
}

/** The wrapped key digest of a grant (base64 as given). */
export const wrappedKeyDigest = (wrappedKey: string) => hex(sha256(Buffer.from(wrappedKey, 'base64')))

/** The signing key's fingerprint as the Access Kit shows it. */
export const fingerprint = (spki: string) => hex(sha256(Buffer.from(spki, 'base64'))).toUpperCase().match(/.{4}/g)!.join(' ')
