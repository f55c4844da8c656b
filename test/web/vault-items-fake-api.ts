import {
  partCount,
  cipherSize,
  partSize,
  uploadCompleteBodySchema,
  uploadStartBodySchema,
  VAULT_ITEM_MESSAGES,
  type UploadCompleteBody,
  type UploadSession,
  type VaultItem,
} from '../../contract/vault-items'
import { contentDigestOf, digestOfBase64, itemManifest } from '../../contract/vault-statements'
import { generateSigningKeyPair, signStatement, verifyStatement } from '@/crypto'
import type { VaultSigner } from '@/features/vault/manifest'
import type { FetchLike } from '@/features/vault/items/http'

// An in-memory version of the vault upload API (worker/routes/vault-items.ts), strict where the
// real one is: every part must be exactly partSize bytes, and completion needs every part. With
// `vault` set, completion also needs the vault's signature over the manifest rebuilt here, as the
// server rebuilds it (worker/services/vault-items.ts): from the parts as received, the key versions
// it holds (`keyVersions`, 1 unless set) and the body's metadata and wraps.

export interface RecordedRequest {
  method: string
  url: string
  body: string | Uint8Array | undefined
}

interface StoredUpload {
  type: string
  plainSize: number
  parts: Map<number, Uint8Array>
}

/** What a PUT does on one attempt: answer normally, answer with an error, or lose the connection. */
export type PutBehaviour = 'ok' | { status: number; message: string } | 'drop-before-store' | 'drop-after-store'

/** A vault signing key for the tests: its public half for FakeVaultApi, and a signer for uploadFile. */
export async function testVault(ownerId = '99999999-9999-4999-8999-999999999999'): Promise<{ ownerId: string; publicKey: string; signer: VaultSigner }> {
  const pair = await generateSigningKeyPair()
  return { ownerId, publicKey: pair.publicKey, signer: { ownerId, signText: (text) => signStatement(pair.privateKey, text) } }
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export class FakeVaultApi {
  readonly uploads = new Map<string, StoredUpload>()
  readonly items: VaultItem[] = []
  readonly completed = new Map<string, { body: UploadCompleteBody; content: Uint8Array }>()
  readonly requests: RecordedRequest[] = []
  readonly putAttempts = new Map<number, number>()
  inFlightPuts = 0
  maxInFlightPuts = 0
  /** Decides each PUT attempt (part number, 1-based attempt). */
  putBehaviour: (partNumber: number, attempt: number) => PutBehaviour = () => 'ok'
  startError: { status: number; message: string } | null = null
  /** Milliseconds a PUT takes, so parallel parts overlap. */
  putDelayMs = 2
  /** Sizes of the pieces the content response is cut into. */
  contentPieceBytes = 777
  /** The owner and their vault's signing public key: completion then checks the manifest. */
  vault: { ownerId: string; publicKey: string } | null = null
  /** Beneficiaries' current key versions (1 when not listed). */
  readonly keyVersions = new Map<string, number>()
  /** Manifests verified at completion, by item. */
  readonly manifests = new Map<string, string>()
  private nextId = 1

  constructor(
    readonly chunkBytes: number,
    vault: { ownerId: string; publicKey: string } | null = null,
  ) {
    this.vault = vault
  }

  session(itemId: string): UploadSession {
    const upload = this.uploads.get(itemId)!
    return {
      itemId,
      chunkBytes: this.chunkBytes,
      partCount: partCount(upload.plainSize, this.chunkBytes),
      cipherSize: cipherSize(upload.plainSize, this.chunkBytes),
      uploadedParts: [...upload.parts.keys()].sort((a, b) => a - b),
    }
  }

  readonly fetch: FetchLike = async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase()
    const body = init.body
    this.requests.push({
      method,
      url,
      body: typeof body === 'string' ? body : body instanceof Uint8Array ? new Uint8Array(body) : undefined,
    })
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
    let match: RegExpMatchArray | null

    if (method === 'POST' && url === '/api/vault/uploads') {
      if (this.startError) return json(this.startError.status, { message: this.startError.message })
      const parsed = uploadStartBodySchema.safeParse(JSON.parse(body as string))
      if (!parsed.success) return json(400, { message: parsed.error.issues[0]!.message })
      const itemId = `00000000-0000-4000-8000-${String(this.nextId++).padStart(12, '0')}`
      this.uploads.set(itemId, { type: parsed.data.type, plainSize: parsed.data.plainSize, parts: new Map() })
      return json(201, this.session(itemId))
    }

    if ((match = url.match(/^\/api\/vault\/uploads\/([^/]+)\/parts\/(\d+)$/)) && method === 'PUT') {
      const upload = this.uploads.get(match[1]!)
      if (!upload) return json(404, { message: VAULT_ITEM_MESSAGES.uploadNotFound })
      const n = Number(match[2])
      const attempt = (this.putAttempts.get(n) ?? 0) + 1
      this.putAttempts.set(n, attempt)
      this.inFlightPuts++
      this.maxInFlightPuts = Math.max(this.maxInFlightPuts, this.inFlightPuts)
      try {
        await new Promise((resolve) => setTimeout(resolve, this.putDelayMs))
        if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
        const behaviour = this.putBehaviour(n, attempt)
        if (behaviour === 'drop-before-store') throw new TypeError('Failed to fetch')
        if (typeof behaviour === 'object') return json(behaviour.status, { message: behaviour.message })
        if (n < 1 || n > partCount(upload.plainSize, this.chunkBytes)) return json(400, { message: VAULT_ITEM_MESSAGES.partNumberInvalid })
        const bytes = body as Uint8Array
        const expected = partSize(n, upload.plainSize, this.chunkBytes)
        if (bytes.length !== expected) return json(400, { message: VAULT_ITEM_MESSAGES.partSizeMismatch(expected) })
        upload.parts.set(n, new Uint8Array(bytes))
        if (behaviour === 'drop-after-store') throw new TypeError('Failed to fetch')
        return json(200, { partNumber: n, size: bytes.length })
      } finally {
        this.inFlightPuts--
      }
    }

    if ((match = url.match(/^\/api\/vault\/uploads\/([^/]+)\/complete$/)) && method === 'POST') {
      const itemId = match[1]!
      const upload = this.uploads.get(itemId)
      if (!upload) return json(404, { message: VAULT_ITEM_MESSAGES.uploadNotFound })
      const parsed = uploadCompleteBodySchema.safeParse(JSON.parse(body as string))
      if (!parsed.success) return json(400, { message: parsed.error.issues[0]!.message })
      const count = partCount(upload.plainSize, this.chunkBytes)
      if (upload.parts.size !== count) return json(409, { message: VAULT_ITEM_MESSAGES.partsMissing })
      const ordered = Array.from({ length: count }, (_, i) => upload.parts.get(i + 1)!)
      const content = new Uint8Array(ordered.reduce((n, p) => n + p.length, 0))
      let offset = 0
      for (const part of ordered) {
        content.set(part, offset)
        offset += part.length
      }
      if (this.vault) {
        const versionOf = (id: string) => this.keyVersions.get(id) ?? 1
        if (parsed.data.grants.some((g) => g.keyVersion !== undefined && g.keyVersion !== versionOf(g.beneficiaryId))) {
          return json(409, { message: VAULT_ITEM_MESSAGES.keyChangedMeanwhile })
        }
        const digests = await Promise.all(ordered.map(async (p) => new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(p)))))
        const manifest = itemManifest({
          ownerId: this.vault.ownerId,
          itemId,
          type: upload.type,
          plainSize: upload.plainSize,
          chunkCount: count,
          contentDigest: contentDigestOf(digests),
          metadataDigest: digestOfBase64(parsed.data.encryptedMetadata),
          grants: parsed.data.grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: versionOf(g.beneficiaryId), wrappedKeyDigest: digestOfBase64(g.wrappedKey) })),
        })
        if (!(await verifyStatement(this.vault.publicKey, manifest, parsed.data.manifestSignature))) {
          return json(400, { message: `manifestSignature: ${VAULT_ITEM_MESSAGES.manifestInvalid}` })
        }
        this.manifests.set(itemId, manifest)
      }
      const policy = parsed.data.policy
      const item: VaultItem = {
        id: itemId,
        type: upload.type as VaultItem['type'],
        plainSize: upload.plainSize,
        cipherSize: content.length,
        chunkBytes: this.chunkBytes,
        createdAt: new Date().toISOString(),
        encryptedMetadata: parsed.data.encryptedMetadata,
        wrappedKey: parsed.data.wrappedKey,
        accessPolicy: {
          name: policy.protocol,
          protocol: policy.protocol,
          requiresApprover: policy.requiresApprover,
          approverContact: policy.approverContact ?? null,
          scheduledAt: policy.scheduledAt ?? null,
        },
        beneficiaryIds: parsed.data.grants.map((g) => g.beneficiaryId),
        sealed: this.vault !== null,
      }
      this.uploads.delete(itemId)
      this.completed.set(itemId, { body: JSON.parse(body as string) as UploadCompleteBody, content })
      this.items.unshift(item)
      return json(201, item)
    }

    if ((match = url.match(/^\/api\/vault\/uploads\/([^/]+)$/))) {
      const itemId = match[1]!
      if (!this.uploads.has(itemId)) return json(404, { message: VAULT_ITEM_MESSAGES.uploadNotFound })
      if (method === 'GET') return json(200, this.session(itemId))
      if (method === 'DELETE') {
        this.uploads.delete(itemId)
        return new Response(null, { status: 204 })
      }
    }

    if (method === 'GET' && url === '/api/vault/items') return json(200, this.items)

    if ((match = url.match(/^\/api\/vault\/items\/([^/]+)\/content$/)) && method === 'GET') {
      const stored = this.completed.get(match[1]!)
      if (!stored) return json(404, { message: VAULT_ITEM_MESSAGES.itemNotFound })
      const pieceBytes = this.contentPieceBytes
      let offset = 0
      // A byte stream, as a fetch body is: the download reads it into a buffer of its own.
      const stream = new ReadableStream({
        type: 'bytes',
        pull(controller) {
          if (offset >= stored.content.length) {
            controller.close()
            // A reader waiting with its buffer gets it back, empty.
            return controller.byobRequest?.respond(0)
          }
          controller.enqueue(stored.content.slice(offset, offset + pieceBytes))
          offset += pieceBytes
        },
      })
      return new Response(stream, { status: 200, headers: { 'Content-Type': 'application/octet-stream' } })
    }

    return json(404, { message: `No route for ${method} ${url}` })
  }

  count(method: string, pattern: RegExp): number {
    return this.requests.filter((r) => r.method === method && pattern.test(r.url)).length
  }
}
