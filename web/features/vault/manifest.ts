import { contentDigestOf, digestOfBase64, itemManifest } from '../../../contract/vault-statements'
import { SigningKeyProblemError, vaultSession, VaultLockedError } from './vault-session'

// The item manifest the owner's vault signs (contract/vault-statements.ts, FORMAT.md "Item
// manifests"), from what this browser made or opened: the server rebuilds the same text from what it
// holds and takes the item only if the signature verifies over it.

export interface ManifestInput {
  ownerId: string
  itemId: string
  type: string
  plainSize: number
  /** The SHA-256 of each ciphertext chunk, in order (chunkDigest), or the content digest over them. */
  content: { chunkDigests: readonly Uint8Array[] } | { chunkCount: number; contentDigest: string }
  /** base64, as sent. */
  encryptedMetadata: string
  grants: ReadonlyArray<{ beneficiaryId: string; keyVersion: number; wrappedKey: string }>
}

export function manifestText(input: ManifestInput): string {
  const content =
    'chunkDigests' in input.content
      ? { chunkCount: input.content.chunkDigests.length, contentDigest: contentDigestOf(input.content.chunkDigests) }
      : input.content
  return itemManifest({
    ownerId: input.ownerId,
    itemId: input.itemId,
    type: input.type,
    plainSize: input.plainSize,
    chunkCount: content.chunkCount,
    contentDigest: content.contentDigest,
    metadataDigest: digestOfBase64(input.encryptedMetadata),
    grants: input.grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: g.keyVersion, wrappedKeyDigest: digestOfBase64(g.wrappedKey) })),
  })
}

/** Who signs statements: the unlocked vault, unless a test passes another. */
export interface VaultSigner {
  ownerId: string
  signText: (text: string) => Promise<string>
}

/** The unlocked vault as a signer (VaultLockedError, or SigningKeyProblemError when its key is not one it opens). */
export function vaultSigner(): VaultSigner {
  if (!vaultSession.isUnlocked()) throw new VaultLockedError()
  const signer = vaultSession.signer()
  if (!signer) throw new SigningKeyProblemError()
  return { ownerId: signer.ownerId, signText: (text) => vaultSession.signText(text) }
}
