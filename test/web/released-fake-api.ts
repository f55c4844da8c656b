import { sha256 } from '@noble/hashes/sha2.js'
import type { AssetDownload, ReleasedAsset } from '../../contract/releases'
import { RELEASE_MESSAGES } from '../../contract/releases'
import type { ItemMetadata, ItemType } from '../../contract/vault-items'
import { contentDigestOf, digestOfBase64, itemManifest } from '../../contract/vault-statements'
import {
  encryptMetadata,
  encryptStream,
  generateDataKey,
  signStatement,
  wrapDataKeyForBeneficiary,
  type BeneficiaryKeyPair,
  type DataKey,
  type SigningPrivateKey,
} from '@/crypto'
import type { FetchLike } from '@/features/vault/items/http'
import type { BeneficiaryLink } from '@/features/releases/portal'

// A fake of the release API for the portal's download (releases-download, releases-seals): the
// owner's browser encrypts an item and grants it to the beneficiary's public key (as
// web/features/vault/upload does), seals it with the vault key if asked, and the fake serves it
// the way the release API does.

export const OWNER_ID = 'owner-3f2b8c1e'

export interface VaultSigner {
  ownerId: string
  privateKey: SigningPrivateKey
}

export async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

export const CHUNK = 1000
export const LINK: BeneficiaryLink = { id: 'ben-1', token: 'access-token-0123456789' }

export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export function pattern(length: number, seed = 7): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length)
  let x = seed
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

export interface Stored {
  asset: ReleasedAsset
  itemId: string
  dek: DataKey
  cipher: Uint8Array
  download: Omit<AssetDownload, 'downloadCount' | 'maxDownloads'>
}

/** What the owner's upload produces, and the release API's three calls over it. */
export class FakePortalApi {
  readonly stored = new Map<string, Stored>()
  readonly requests: string[] = []
  pieceBytes = 333
  /** Decides each content fetch (1-based): answer, lose the connection before any byte, or after `after` bytes. */
  contentBehaviour: (attempt: number) => 'ok' | 'refuse' | 'drop' | { dropAfter: number } = () => 'ok'
  private contentAttempts = 0

  /** Stores an item as the owner's upload does; with `sealedBy`, sealed by that vault key as the owner's browser seals it. */
  async add(assetId: string, type: ItemType, plain: Uint8Array, metadata: ItemMetadata, publicKey: BeneficiaryKeyPair['publicKey'], sealedBy?: VaultSigner) {
    const itemId = `item-${assetId}`
    const dek = await generateDataKey()
    const chunks: Uint8Array[] = []
    for await (const c of encryptStream(dek, itemId, once(plain), CHUNK)) chunks.push(c)
    const cipher = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
    chunks.reduce((o, c) => (cipher.set(c, o), o + c.length), 0)
    const encryptedMetadata = await encryptMetadata(dek, itemId, metadata)
    const wrappedKey = await wrapDataKeyForBeneficiary(dek, publicKey)
    const fields = {
      ownerId: sealedBy?.ownerId ?? OWNER_ID,
      itemId,
      type,
      plainSize: plain.length,
      chunkCount: chunks.length,
      contentDigest: contentDigestOf(chunks.map((c) => sha256(c))),
      metadataDigest: digestOfBase64(encryptedMetadata),
      grants: [{ beneficiaryId: LINK.id, keyVersion: 1, wrappedKeyDigest: digestOfBase64(wrappedKey) }],
    }
    const manifest = sealedBy ? itemManifest(fields) : null
    const manifestSignature = sealedBy ? await signStatement(sealedBy.privateKey, manifest!) : null
    const asset: ReleasedAsset = {
      id: assetId,
      status: 'available',
      downloadCount: 0,
      maxDownloads: 5,
      expiresAt: null,
      releasedAt: new Date().toISOString(),
      vaultItem: { id: itemId, type, encryptedMetadata, wrappedKey, plainSize: plain.length, manifest, manifestSignature },
    }
    const download = {
      encryptedMasterKey: wrappedKey,
      item: { id: itemId, type, encryptedMetadata, plainSize: plain.length, cipherSize: cipher.length, chunkBytes: CHUNK, partCount: chunks.length },
      contentUrl: `/api/release-content/${assetId}?ticket=t-${assetId}`,
    }
    this.stored.set(assetId, { asset, itemId, dek, cipher, download })
    return asset
  }

  readonly fetch: FetchLike = async (url, init = {}) => {
    this.requests.push(`${init.method ?? 'GET'} ${url}`)
    const headers = new Headers(init.headers)
    if (headers.has('Authorization')) return json(400, { message: 'no session expected' })
    let m: RegExpMatchArray | null
    if ((m = url.match(/^\/api\/beneficiaries\/([^/]+)\/assets\/([^/]+)\/download\?token=(.+)$/))) {
      if (m[1] !== LINK.id || decodeURIComponent(m[3]!) !== LINK.token) return json(404, { message: RELEASE_MESSAGES.linkInvalid })
      const s = this.stored.get(m[2]!)
      if (!s) return json(404, { message: RELEASE_MESSAGES.assetNotFound })
      if (s.asset.downloadCount >= s.asset.maxDownloads) return json(403, { message: RELEASE_MESSAGES.downloadLimit })
      s.asset.downloadCount++
      return json(200, { ...s.download, downloadCount: s.asset.downloadCount, maxDownloads: s.asset.maxDownloads })
    }
    if ((m = url.match(/^\/api\/release-content\/([^?]+)\?ticket=/))) {
      const s = this.stored.get(m[1]!)!
      const behaviour = this.contentBehaviour(++this.contentAttempts)
      if (behaviour === 'drop') throw new TypeError('Failed to fetch')
      if (behaviour === 'refuse') return json(410, { message: RELEASE_MESSAGES.linkExpired })
      const dropAfter = typeof behaviour === 'object' ? behaviour.dropAfter : Infinity
      let offset = 0
      const pieceBytes = this.pieceBytes
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= dropAfter) return controller.error(new TypeError('network error'))
          if (offset >= s.cipher.length) return controller.close()
          controller.enqueue(s.cipher.slice(offset, offset + pieceBytes))
          offset += pieceBytes
        },
      })
      return new Response(body, { status: 200 })
    }
    return json(404, { message: `No route for ${url}` })
  }
}

