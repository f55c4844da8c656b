import { ESTATE_FILES, ESTATE_PAGE_MESSAGES, type EstateItemFile, type EstateVaultFile } from '../../contract/estate-bundle'
import type { ItemMetadata, PasswordEntry } from '../../contract/vault-items'
import { decryptMetadata, decryptStream, importBeneficiaryPrivateKey, unwrapDataKeyForBeneficiary, CHUNK_OVERHEAD_BYTES, type BeneficiaryPrivateKey } from '@/crypto'
import { checkSeal, contentCheck, kitVaultFingerprints, sealVerdict, vaultTrust, type VaultTrust } from '@/features/releases/seals'
import { passwordEntryText, safeFileName } from '@/features/export/vault-zip'

// The estate bundle's offline page (open-estate.html): an heir's folder opened with their Access
// Kit, in their browser, with no server. The same checks as the heir portal (seals.ts), the same
// decryption (web/crypto): this module is built into the page, so the two cannot drift.

export interface EstateKit {
  key: BeneficiaryPrivateKey
  vaultFingerprints: string[]
}

/** The kit's private key and the vault fingerprints it prints; null when no key is in the text. */
export async function readKit(text: string): Promise<EstateKit | null> {
  try {
    return { key: await importBeneficiaryPrivateKey(text), vaultFingerprints: kitVaultFingerprints(text) }
  } catch {
    return null
  }
}

/** A file as the page meets it: its name (a folder's files carry their path) and its bytes. */
export interface FolderFile {
  name: string
  blob: Blob
}

export interface EstateFolder {
  vault: EstateVaultFile | null
  items: { item: EstateItemFile; cipher: Blob | null }[]
}

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path
const ITEM_JSON = /^([0-9a-f-]{36})\.json$/i

async function json<T>(blob: Blob): Promise<T | null> {
  try {
    return JSON.parse(await blob.text()) as T
  } catch {
    return null
  }
}

/** The folder's vault.json and items, each with its ciphertext beside it (by file name, so a picked folder and picked files read alike). */
export async function readFolder(files: readonly FolderFile[]): Promise<EstateFolder> {
  const byName = new Map(files.map((f) => [baseName(f.name), f.blob]))
  const vaultBlob = byName.get(ESTATE_FILES.vault)
  const vault = vaultBlob ? await json<EstateVaultFile>(vaultBlob) : null
  const items: EstateFolder['items'] = []
  for (const [name, blob] of byName) {
    const id = ITEM_JSON.exec(name)?.[1]
    if (!id) continue
    const item = await json<EstateItemFile>(blob)
    if (!item || item.format !== 'legacy-vault/estate-item' || item.itemId !== id) continue
    items.push({ item, cipher: byName.get(ESTATE_FILES.cipher(id)) ?? null })
  }
  return { vault, items }
}

/** Whether the folder's vault key is the one the kit names (see seals.ts vaultTrust). */
export function estateTrust(kit: EstateKit, vault: EstateVaultFile): VaultTrust {
  return vaultTrust(kit.vaultFingerprints, vault.signingPublicKey)
}

export type OpenedEstateItem =
  | { ok: true; itemId: string; filename: string; mimetype: string; content: Blob }
  | { ok: false; itemId: string; reason: string }

/** The stored chunks of the ciphertext, in order, each `chunkBytes + 29` bytes (the last shorter). */
async function* chunksOf(cipher: Blob, chunkBytes: number): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const size = chunkBytes + CHUNK_OVERHEAD_BYTES
  for (let offset = 0; offset < cipher.size; offset += size) yield new Uint8Array(await cipher.slice(offset, offset + size).arrayBuffer())
}

/**
 * One item opened: its seal checked against the vault key the kit names (refused if not the
 * owner's), its data key unwrapped with the kit, its metadata and chunks decrypted, the content
 * held to the seal's chunk digests. A password entry comes out as a small text file.
 */
export async function openEstateItem(kit: EstateKit, vault: EstateVaultFile, entry: EstateFolder['items'][number]): Promise<OpenedEstateItem> {
  const { item, cipher } = entry
  const refuse = (reason: string): OpenedEstateItem => ({ ok: false, itemId: item.itemId, reason })
  const trust = estateTrust(kit, vault)
  if (trust.kind === 'mismatch') return refuse(ESTATE_PAGE_MESSAGES.wrongVault)
  const check = await checkSeal(
    { id: item.itemId, type: item.type, plainSize: item.plainSize, encryptedMetadata: item.encryptedMetadata, manifest: item.manifest, manifestSignature: item.manifestSignature },
    vault.signingPublicKey,
  )
  const verdict = sealVerdict(check, trust)
  // Offline there is no one to ask whether to open an unsealed item: only sealed ones open.
  if (verdict.state !== 'sealed' || verdict.manifest.ownerId !== vault.ownerId) return refuse(ESTATE_PAGE_MESSAGES.notSealed)
  if (!cipher) return refuse(ESTATE_PAGE_MESSAGES.missingCipher)
  let metadata: ItemMetadata
  let dek
  try {
    dek = await unwrapDataKeyForBeneficiary(item.grant.wrappedKey, kit.key)
    metadata = await decryptMetadata<ItemMetadata>(dek, item.itemId, item.encryptedMetadata)
  } catch {
    return refuse(ESTATE_PAGE_MESSAGES.wrongKey)
  }
  const sealed = contentCheck(verdict.manifest)
  async function* seen() {
    for await (const chunk of chunksOf(cipher!, item.chunkBytes)) {
      await sealed.see(chunk)
      yield chunk
    }
  }
  const parts: Uint8Array<ArrayBuffer>[] = []
  try {
    for await (const piece of sealed.hold(decryptStream(dek, item.itemId, seen()))) parts.push(piece)
  } catch {
    // A chunk that fails to authenticate, or chunks that are not the ones the vault sealed.
    return refuse(ESTATE_PAGE_MESSAGES.contentAltered)
  }
  const name = metadata.filename?.trim() || item.itemId
  if (item.type === 'password') {
    let entry: PasswordEntry
    try {
      entry = JSON.parse(new TextDecoder().decode(await new Blob(parts).arrayBuffer())) as PasswordEntry
    } catch {
      return refuse(ESTATE_PAGE_MESSAGES.contentAltered)
    }
    return { ok: true, itemId: item.itemId, filename: `${safeFileName(name)}.txt`, mimetype: 'text/plain', content: new Blob([passwordEntryText(name, entry)], { type: 'text/plain' }) }
  }
  const mimetype = metadata.mimetype || 'application/octet-stream'
  return { ok: true, itemId: item.itemId, filename: safeFileName(name), mimetype, content: new Blob(parts, { type: mimetype }) }
}
