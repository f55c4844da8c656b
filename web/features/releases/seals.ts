import { KIT_VAULT_FINGERPRINT_LABEL, type ReleasedAsset } from '../../../contract/releases'
import { contentDigestOf, digestOfBase64, keyFingerprint, parseItemManifest, type ItemManifestFields } from '../../../contract/vault-statements'
import { chunkDigest, verifyStatement } from '@/crypto'

// The heir's check that what the portal lists really comes from the owner's vault (0.3 · 3 of 7),
// made before anything is decrypted: the Access Kit names the vault's signing key by its
// fingerprint, and every item carries a manifest that key signed (contract/vault-statements.ts,
// FORMAT.md "Item manifest"). The server can list anything; it cannot sign for the vault.

// ---- The vault fingerprint the heir brings ------------------------------------------------------

/** "Vault fingerprint:" (the kit's label) and 16 groups of 4 hex digits, spaced or wrapped in any way (a kit copied from paper). */
const FINGERPRINT = new RegExp(`${KIT_VAULT_FINGERPRINT_LABEL}:\\s*((?:[0-9A-Fa-f]{4}\\s*){15}[0-9A-Fa-f]{4})(?![ \\t]*[0-9A-Fa-f])`, 'g')

/** Upper-case hex in groups of 4, the form keyFingerprint gives. */
const normalise = (hex: string) => hex.replace(/\s+/g, '').toUpperCase().match(/.{4}/g)!.join(' ')

/**
 * Every distinct vault fingerprint in a pasted key block or a whole kit's text (the kit states it
 * twice: among its facts and right above the key). None: a kit printed before kits carried it.
 */
export function kitVaultFingerprints(text: string): string[] {
  return [...new Set([...text.matchAll(FINGERPRINT)].map((m) => normalise(m[1]!)))]
}

/** The served key's fingerprint, or null when there is none or it is not a key at all. */
export function servedFingerprint(vaultSigningKey: string | null): string | null {
  if (!vaultSigningKey) return null
  try {
    return keyFingerprint(vaultSigningKey)
  } catch {
    return null
  }
}

/**
 * What the heir can trust the served vault key for:
 * - 'kit': their kit names exactly this key, so a seal it verifies is the owner's;
 * - 'mismatch': their kit names another key (or this site shows none): nothing is opened;
 * - 'unchecked': their kit predates fingerprints; the heir compares `fingerprint` themselves
 *   (null: this vault has no key, so nothing here can carry a seal).
 */
export type VaultTrust = { kind: 'kit'; fingerprint: string } | { kind: 'mismatch' } | { kind: 'unchecked'; fingerprint: string | null }

export function vaultTrust(kitFingerprints: readonly string[], vaultSigningKey: string | null): VaultTrust {
  const served = servedFingerprint(vaultSigningKey)
  if (kitFingerprints.length === 0) return { kind: 'unchecked', fingerprint: served }
  if (served !== null && kitFingerprints.every((f) => f === served)) return { kind: 'kit', fingerprint: served }
  return { kind: 'mismatch' }
}

// ---- Each item's seal -----------------------------------------------------------------------

/** 'missing': the item carries no manifest; 'invalid': it carries one that fails a check. */
export type SealCheck = { sealed: true; manifest: ItemManifestFields } | { sealed: false; reason: 'missing' | 'invalid' }

/** The fields of the item as the server hands it over that its manifest must state. */
type SealedFields = Pick<ReleasedAsset['vaultItem'], 'id' | 'type' | 'plainSize' | 'encryptedMetadata'>

/** Whether a manifest states exactly this item: its id, type, size and metadata ciphertext. */
export function manifestStates(manifest: ItemManifestFields, item: SealedFields): boolean {
  return (
    manifest.itemId === item.id &&
    manifest.type === item.type &&
    manifest.plainSize === item.plainSize &&
    manifest.metadataDigest === digestOfBase64Safe(item.encryptedMetadata)
  )
}

function digestOfBase64Safe(value: string): string | null {
  try {
    return digestOfBase64(value)
  } catch {
    return null
  }
}

/**
 * The item's seal, checked against the served vault key: its manifest parses, states this item,
 * and carries the key's signature. The content is checked as it is fetched (contentCheck).
 */
export async function checkSeal(item: Pick<ReleasedAsset['vaultItem'], keyof SealedFields | 'manifest' | 'manifestSignature'>, vaultSigningKey: string | null): Promise<SealCheck> {
  if (item.manifest === null && item.manifestSignature === null) return { sealed: false, reason: 'missing' }
  const manifest = item.manifest === null ? null : parseItemManifest(item.manifest)
  if (!manifest || !item.manifestSignature || !vaultSigningKey || !manifestStates(manifest, item)) return { sealed: false, reason: 'invalid' }
  if (!(await verifyStatement(vaultSigningKey, item.manifest!, item.manifestSignature))) return { sealed: false, reason: 'invalid' }
  return { sealed: true, manifest }
}

/**
 * What the portal does with an item:
 * - 'sealed': opens it (its manifest verifies with a key the heir can trust, or compares);
 * - 'unsealed': an older kit and an item the vault never sealed: opens only once the heir chooses to;
 * - 'refused': never decrypted (a failed seal, no seal where the kit can check one, or the wrong vault key).
 */
export type SealVerdict = { state: 'sealed'; manifest: ItemManifestFields } | { state: 'unsealed' } | { state: 'refused' }

export function sealVerdict(check: SealCheck, trust: VaultTrust): SealVerdict {
  if (trust.kind === 'mismatch') return { state: 'refused' }
  if (check.sealed) return { state: 'sealed', manifest: check.manifest }
  if (check.reason === 'missing' && trust.kind === 'unchecked') return { state: 'unsealed' }
  return { state: 'refused' }
}

// ---- The content ----------------------------------------------------------------------------

/** The content is not the ciphertext the vault sealed (other, reordered, missing or extra chunks). */
export class ContentNotSealedError extends Error {
  constructor() {
    super('The content does not match its seal')
    this.name = 'ContentNotSealedError'
  }
}

/**
 * Follows a sealed item's ciphertext chunks as they arrive (`see`, in order) and its plaintext
 * pieces (`hold`): each piece is passed on only once the next one exists, so the last is held back
 * until every chunk's digest has been seen and the chunks' content digest matches the manifest.
 */
export function contentCheck(manifest: Pick<ItemManifestFields, 'chunkCount' | 'contentDigest'>) {
  const digests: Uint8Array[] = []
  return {
    async see(chunk: Uint8Array) {
      if (digests.length >= manifest.chunkCount) throw new ContentNotSealedError()
      digests.push(await chunkDigest(chunk))
    },
    async *hold<T>(pieces: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
      let held: { value: T } | null = null
      for await (const piece of pieces) {
        if (held) yield held.value
        held = { value: piece }
      }
      if (digests.length !== manifest.chunkCount || contentDigestOf(digests) !== manifest.contentDigest) throw new ContentNotSealedError()
      if (held) yield held.value
    },
  }
}
