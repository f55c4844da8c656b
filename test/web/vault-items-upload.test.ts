import { beforeAll, describe, expect, it } from 'vitest'
import { partSize, VAULT_ITEM_MESSAGES, type ItemMetadata } from '../../contract/vault-items'
import { contentDigestOf, parseItemManifest, sha256Hex } from '../../contract/vault-statements'
import { sha256 } from '@noble/hashes/sha2.js'
import {
  decryptChunks,
  decryptMetadata,
  deriveMasterKey,
  generateBeneficiaryKeyPair,
  generateVaultSalt,
  importBeneficiaryPrivateKey,
  fromBase64,
  privateKeyToPem,
  unwrapDataKey,
  verifyStatement,
  unwrapDataKeyForBeneficiary,
  type MasterKey,
} from '@/crypto'
import { decryptItemContent, downloadItem, type SaveFilePicker } from '@/features/vault/items/download'
import type { FetchLike } from '@/features/vault/items/http'
import { UploadError, uploadFile, type UploadFileInput } from '@/features/vault/upload/upload-file'
import { FakeVaultApi, testVault } from './vault-items-fake-api'
import type { VaultSigner } from '@/features/vault/manifest'

// The upload pipeline against an in-memory API: exact part sizes, retries, resume after a dropped
// connection, abort, and what the server ends up holding (ciphertext that decrypts back, and
// nothing in clear).

const CHUNK = 1024
const MARKER = 'MY-LAST-WILL-AND-TESTAMENT'
const FILENAME = 'last-will-of-grace-hopper.pdf'
const TAGS = ['estate-papers', 'solicitor-copy']

let master: MasterKey
let beneficiary: { id: string; publicKey: string; privateKeyPem: string }

beforeAll(async () => {
  master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
  vault = await testVault()
  fast = { backoffMs: () => 1, signer: vault.signer }
  const pair = await generateBeneficiaryKeyPair()
  beneficiary = {
    id: '11111111-1111-4111-8111-111111111111',
    publicKey: pair.publicKeySpki,
    privateKeyPem: privateKeyToPem(pair.privateKeyPkcs8),
  }
})

/** Text with a recognisable marker every few hundred bytes, so any plaintext leak is findable. */
function plaintext(length: number): Uint8Array<ArrayBuffer> {
  const line = new TextEncoder().encode(`${MARKER} clause ${'x'.repeat(200)}\n`)
  const out = new Uint8Array(length)
  for (let i = 0; i < length; i++) out[i] = line[i % line.length]!
  return out
}

/** A Blob that records every slice read, to show the file is read one chunk at a time. */
function recordingBlob(bytes: Uint8Array<ArrayBuffer>) {
  const blob = new Blob([bytes], { type: 'application/pdf' })
  const reads: [number, number][] = []
  const source = {
    size: blob.size,
    type: blob.type,
    slice(start?: number, end?: number) {
      reads.push([start ?? 0, end ?? blob.size])
      return blob.slice(start, end)
    },
  } as unknown as Blob
  return { source, reads }
}

function input(content: Blob, overrides: Partial<UploadFileInput> = {}): UploadFileInput {
  const metadata: ItemMetadata = { filename: FILENAME, mimetype: 'application/pdf', size: content.size, tags: TAGS }
  return {
    type: 'doc',
    content,
    metadata,
    policy: { protocol: 'VERIFIED_DEATH', requiresApprover: true, approverContact: 'lawyer@example.com' },
    beneficiaries: [{ id: beneficiary.id, publicKey: beneficiary.publicKey, keyVersion: 1 }],
    ...overrides,
  }
}

let vault: Awaited<ReturnType<typeof testVault>>
let fast: { backoffMs: () => number; signer: VaultSigner }

function latin1(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += String.fromCharCode(b)
  return out
}

describe('uploadFile', () => {
  it('sends each part at exactly partSize bytes, two at a time, reading one slice per part', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const bytes = plaintext(5 * CHUNK + 300)
    const { source, reads } = recordingBlob(bytes)
    const progress: number[] = []
    const item = await uploadFile(input(source), { fetch: api.fetch, masterKey: master, onProgress: (done) => progress.push(done), ...fast })

    const puts = api.requests.filter((r) => r.method === 'PUT')
    expect(puts).toHaveLength(6)
    for (const put of puts) {
      const n = Number(put.url.split('/').pop())
      expect((put.body as Uint8Array).length).toBe(partSize(n, bytes.length, CHUNK))
    }
    expect(api.maxInFlightPuts).toBe(2)
    expect(reads).toHaveLength(6)
    for (const [start, end] of reads) expect(end - start).toBeLessThanOrEqual(CHUNK)
    expect(progress[0]).toBe(0)
    expect(progress.at(-1)).toBe(bytes.length)
    expect([...progress].sort((a, b) => a - b)).toEqual(progress)
    expect(item.plainSize).toBe(bytes.length)
    expect(item.accessPolicy.requiresApprover).toBe(true)
  })

  it('stores ciphertext that decrypts back to the file, for the owner and for the beneficiary, and sends nothing in clear', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const bytes = plaintext(3 * CHUNK + 17)
    const item = await uploadFile(input(new Blob([bytes])), { fetch: api.fetch, masterKey: master, ...fast })
    const stored = api.completed.get(item.id)!

    // Owner: the data key unwrapped with the master key opens the parts and the metadata.
    const dek = await unwrapDataKey(stored.body.wrappedKey, master)
    const chunks = [0, 1, 2, 3].map((i) => stored.content.subarray(i * (CHUNK + 29), (i + 1) * (CHUNK + 29)))
    expect(latin1(await decryptChunks(dek, item.id, chunks))).toBe(latin1(bytes))
    expect(await decryptMetadata(dek, item.id, stored.body.encryptedMetadata)).toEqual({
      filename: FILENAME,
      mimetype: 'application/pdf',
      size: bytes.length,
      tags: TAGS,
    })

    // Beneficiary: their grant opens it with the private key from the Access Kit.
    expect(stored.body.grants).toHaveLength(1)
    const privateKey = await importBeneficiaryPrivateKey(beneficiary.privateKeyPem)
    const theirKey = await unwrapDataKeyForBeneficiary(stored.body.grants[0]!.wrappedKey, privateKey)
    expect(await decryptMetadata<ItemMetadata>(theirKey, item.id, stored.body.encryptedMetadata)).toMatchObject({ filename: FILENAME })

    // The streamed download path gives the same bytes, whatever pieces the network delivers.
    for (const pieceBytes of [1, 500, CHUNK + 29, 5000]) {
      api.contentPieceBytes = pieceBytes
      const pieces: Uint8Array[] = []
      for await (const piece of decryptItemContent(item, master, { fetch: api.fetch })) pieces.push(piece)
      expect(latin1(new Uint8Array(await new Blob(pieces as BlobPart[]).arrayBuffer()))).toBe(latin1(bytes))
    }

    for (const request of api.requests) {
      const text = `${request.url}\n${typeof request.body === 'string' ? request.body : request.body ? latin1(request.body) : ''}`
      expect(text).not.toContain(MARKER)
      expect(text).not.toContain(FILENAME)
      expect(text).not.toContain('last-will')
      for (const tag of TAGS) expect(text).not.toContain(tag)
    }
  })

  it('a beneficiary chosen on the item itself receives it under its own protocol; one reached only through a policy receives it only through that policy', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const other = await generateBeneficiaryKeyPair()
    const viaPolicy = { id: '22222222-2222-4222-8222-222222222222', publicKey: other.publicKeySpki, keyVersion: 1 }
    const item = await uploadFile(
      input(new Blob([plaintext(100)]), {
        beneficiaries: [{ id: beneficiary.id, publicKey: beneficiary.publicKey, keyVersion: 1 }, viaPolicy],
        policyOnly: [viaPolicy.id],
      }),
      { fetch: api.fetch, masterKey: master, ...fast },
    )
    const grants = api.completed.get(item.id)!.body.grants
    expect(Object.fromEntries(grants.map((g) => [g.beneficiaryId, g.direct]))).toEqual({ [beneficiary.id]: true, [viaPolicy.id]: false })
  })

  it('retries a failed part with backoff and succeeds', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    api.putBehaviour = (n, attempt) => (n === 2 && attempt <= 3 ? { status: 503, message: 'Storage is busy' } : 'ok')
    const delays: number[] = []
    const item = await uploadFile(input(new Blob([plaintext(3 * CHUNK)])), {
      fetch: api.fetch,
      masterKey: master,
      signer: vault.signer,
      backoffMs: (retry) => {
        delays.push(retry)
        return 1
      },
    })
    expect(api.putAttempts.get(2)).toBe(4)
    expect(api.putAttempts.get(1)).toBe(1)
    expect(delays).toEqual([1, 2, 3])
    expect(api.items[0]!.id).toBe(item.id)
  })

  it('resumes after a dropped connection from the parts the server already has', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    // Part 2's answer is lost although it was stored; part 3 is lost before it is stored.
    api.putBehaviour = (n, attempt) => {
      if (n === 2 && attempt === 1) return 'drop-after-store'
      if (n === 3 && attempt === 1) return 'drop-before-store'
      return 'ok'
    }
    const item = await uploadFile(input(new Blob([plaintext(4 * CHUNK + 1)])), { fetch: api.fetch, masterKey: master, ...fast })
    expect(api.putAttempts.get(2)).toBe(1)
    expect(api.putAttempts.get(3)).toBe(2)
    expect(api.count('GET', /^\/api\/vault\/uploads\/[^/]+$/)).toBeGreaterThanOrEqual(2)
    expect(api.completed.get(item.id)!.content.length).toBe(4 * CHUNK + 1 + 5 * 29)
  })

  it('gives up after five retries, deletes the upload and reports the server’s words', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    api.putBehaviour = (n) => (n === 1 ? { status: 503, message: 'Storage is unavailable right now.' } : 'ok')
    const error = await uploadFile(input(new Blob([plaintext(2 * CHUNK)])), { fetch: api.fetch, masterKey: master, ...fast }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UploadError)
    expect((error as Error).message).toBe('Storage is unavailable right now.')
    expect(api.putAttempts.get(1)).toBe(6)
    expect(api.count('DELETE', /^\/api\/vault\/uploads\/[^/]+$/)).toBe(1)
    expect(api.uploads.size).toBe(0)
    expect(api.count('POST', /\/complete$/)).toBe(0)
  })

  it('does not retry a refused part, and stops the other part in flight', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    api.putBehaviour = (n) => (n === 1 ? { status: 400, message: VAULT_ITEM_MESSAGES.partSizeMismatch(1) } : 'ok')
    const error = await uploadFile(input(new Blob([plaintext(6 * CHUNK)])), { fetch: api.fetch, masterKey: master, ...fast }).catch((e: unknown) => e)
    expect((error as Error).message).toBe(VAULT_ITEM_MESSAGES.partSizeMismatch(1))
    expect(api.putAttempts.get(1)).toBe(1)
    expect(api.count('PUT', /parts/)).toBeLessThan(6)
    expect(api.count('DELETE', /^\/api\/vault\/uploads\/[^/]+$/)).toBe(1)
  })

  it('reports a refused start (plan limits) with the server’s message and stores nothing', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    api.startError = { status: 402, message: VAULT_ITEM_MESSAGES.itemLimit(10) }
    const error = await uploadFile(input(new Blob([plaintext(10)])), { fetch: api.fetch, masterKey: master, ...fast }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UploadError)
    expect((error as UploadError).message).toBe(VAULT_ITEM_MESSAGES.itemLimit(10))
    expect((error as UploadError).status).toBe(402)
    expect(api.count('PUT', /./)).toBe(0)
  })

  it('aborts when asked: no more parts, the upload is deleted, and the promise rejects with AbortError', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const controller = new AbortController()
    const error = await uploadFile(input(new Blob([plaintext(8 * CHUNK)])), {
      fetch: api.fetch,
      masterKey: master,
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 2 * CHUNK) controller.abort()
      },
      ...fast,
    }).catch((e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect(api.count('PUT', /parts/)).toBeLessThan(8)
    expect(api.count('DELETE', /^\/api\/vault\/uploads\/[^/]+$/)).toBe(1)
    expect(api.uploads.size).toBe(0)
    expect(api.items).toHaveLength(0)
  })

  it('signs the manifest the server rebuilds: every encrypted chunk hashed as sent, in order, with the metadata and each grant', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const bytes = plaintext(3 * CHUNK + 5)
    const item = await uploadFile(input(new Blob([bytes])), { fetch: api.fetch, masterKey: master, ...fast })
    const stored = api.completed.get(item.id)!
    const manifest = parseItemManifest(api.manifests.get(item.id)!)!
    const chunks = [0, 1, 2, 3].map((i) => stored.content.subarray(i * (CHUNK + 29), (i + 1) * (CHUNK + 29)))
    expect(manifest).toEqual({
      ownerId: vault.ownerId,
      itemId: item.id,
      type: 'doc',
      plainSize: bytes.length,
      chunkCount: 4,
      contentDigest: contentDigestOf(chunks.map((c) => sha256(c))),
      metadataDigest: sha256Hex(fromBase64(stored.body.encryptedMetadata)),
      grants: [{ beneficiaryId: beneficiary.id, keyVersion: 1, wrappedKeyDigest: sha256Hex(fromBase64(stored.body.grants[0]!.wrappedKey)) }],
    })
    expect(stored.body.grants[0]!.keyVersion).toBe(1)
    expect(await verifyStatement(vault.publicKey, api.manifests.get(item.id)!, stored.body.manifestSignature)).toBe(true)
  })

  it('is refused when the signature is not the vault’s: the words shown, nothing stored, the upload deleted', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const other = await testVault(vault.ownerId)
    const error = await uploadFile(input(new Blob([plaintext(CHUNK + 1)])), { fetch: api.fetch, masterKey: master, ...fast, signer: other.signer }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UploadError)
    expect((error as UploadError).status).toBe(400)
    expect(api.items).toHaveLength(0)
    expect(api.uploads.size).toBe(0)
  })

  it('wraps for the new key and signs once more when a beneficiary’s key was replaced during the upload', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    api.keyVersions.set(beneficiary.id, 2)
    const replaced = await generateBeneficiaryKeyPair()
    const refreshed: number[] = []
    const withRefresh = input(new Blob([plaintext(CHUNK)]), {
      refreshBeneficiaries: async () => {
        refreshed.push(1)
        return [{ id: beneficiary.id, publicKey: replaced.publicKeySpki, keyVersion: 2 }]
      },
    })
    const item = await uploadFile(withRefresh, { fetch: api.fetch, masterKey: master, ...fast })
    expect(refreshed).toHaveLength(1)
    const grant = api.completed.get(item.id)!.body.grants[0]!
    expect(grant.keyVersion).toBe(2)
    const theirKey = await unwrapDataKeyForBeneficiary(grant.wrappedKey, await importBeneficiaryPrivateKey(privateKeyToPem(replaced.privateKeyPkcs8)))
    expect(await decryptMetadata<ItemMetadata>(theirKey, item.id, api.completed.get(item.id)!.body.encryptedMetadata)).toMatchObject({ filename: FILENAME })

    // Without a way to read the beneficiaries again, the 409 is the answer.
    const error = await uploadFile(input(new Blob([plaintext(10)])), { fetch: api.fetch, masterKey: master, ...fast }).catch((e: unknown) => e)
    expect((error as UploadError).status).toBe(409)
    expect((error as UploadError).message).toBe(VAULT_ITEM_MESSAGES.keyChangedMeanwhile)
  })

  it('uploads an empty file as one empty chunk', async () => {
    const api = new FakeVaultApi(CHUNK, vault)
    const item = await uploadFile(input(new Blob([])), { fetch: api.fetch, masterKey: master, ...fast })
    expect(api.completed.get(item.id)!.content.length).toBe(29)
    const pieces: Uint8Array[] = []
    for await (const piece of decryptItemContent(item, master, { fetch: api.fetch })) pieces.push(piece)
    expect(pieces.reduce((n, p) => n + p.length, 0)).toBe(0)
  })
})

describe('downloading an item', () => {
  const metadata = { filename: FILENAME, mimetype: 'application/pdf' }

  async function stored(length: number) {
    const api = new FakeVaultApi(CHUNK, vault)
    const bytes = plaintext(length)
    const item = await uploadFile(input(new Blob([bytes])), { fetch: api.fetch, masterKey: master, ...fast })
    return { api, bytes, item, contentGets: () => api.count('GET', /\/content$/) }
  }

  it('saves the decrypted file through a download link when there is no save dialog', async () => {
    const { api, bytes, item } = await stored(2 * CHUNK + 5)
    const saved: Array<{ blob: Blob; filename: string }> = []
    const result = await downloadItem(item, metadata, master, { fetch: api.fetch, picker: null, save: (blob, filename) => saved.push({ blob, filename }) })
    expect(result).toBe('saved')
    expect(saved.map((s) => [s.filename, s.blob.type])).toEqual([[FILENAME, 'application/pdf']])
    expect(latin1(new Uint8Array(await saved[0]!.blob.arrayBuffer()))).toBe(latin1(bytes))
  })

  it('writes to the chosen file, and fetches nothing when the dialog is cancelled', async () => {
    const { api, bytes, item, contentGets } = await stored(CHUNK + 1)
    const cancel: SaveFilePicker = async () => {
      throw new DOMException('The user aborted a request.', 'AbortError')
    }
    expect(await downloadItem(item, metadata, master, { fetch: api.fetch, picker: cancel })).toBe('cancelled')
    expect(contentGets()).toBe(0)

    const written: Uint8Array[] = []
    const picker: SaveFilePicker = async () => ({
      createWritable: async () => ({ write: async (piece) => void written.push(piece), close: async () => undefined, abort: async () => undefined }),
    })
    expect(await downloadItem(item, metadata, master, { fetch: api.fetch, picker })).toBe('saved')
    expect(latin1(new Uint8Array(await new Blob(written as BlobPart[]).arrayBuffer()))).toBe(latin1(bytes))
  })

  it('re-fetches after a network error only when asked to', async () => {
    const { api, bytes, item, contentGets } = await stored(3 * CHUNK)
    let drops = 1
    const flaky: FetchLike = async (url, init) => {
      if (url.endsWith('/content') && drops-- > 0) throw new TypeError('Failed to fetch')
      return api.fetch(url, init)
    }
    const read = async (retries?: number) => {
      const pieces: Uint8Array[] = []
      for await (const piece of decryptItemContent(item, master, { fetch: flaky, retries, retryDelayMs: () => 0 })) pieces.push(piece)
      return latin1(new Uint8Array(await new Blob(pieces as BlobPart[]).arrayBuffer()))
    }
    await expect(read()).rejects.toBeInstanceOf(TypeError)
    drops = 1
    expect(await read(1)).toBe(latin1(bytes))
    expect(contentGets()).toBe(1)
  })
})
