import {
  partCount as expectedPartCount,
  partSize,
  type ItemMetadata,
  type ItemType,
  type ReleaseProtocol,
  type UploadCompleteBody,
  type UploadSession,
  type VaultItem,
  VAULT_ITEM_MESSAGES,
} from '../../../../contract/vault-items'
import {
  chunkDigest,
  encryptChunk,
  encryptMetadata,
  generateDataKey,
  importBeneficiaryPublicKey,
  wrapDataKey,
  wrapDataKeyForBeneficiary,
  type DataKey,
  type MasterKey,
} from '@/crypto'
import { ApiRequestError, errorText, PaymentRedirectError, responseError, sessionHeaders } from '@/lib/api-client'
import {
  abortError,
  defaultFetch,
  isAbortError,
  isNetworkError,
  NETWORK_ERROR_TEXT,
  sendJson,
  type FetchLike,
} from '../items/http'
import { manifestText, vaultSigner, type VaultSigner } from '../manifest'
import { vaultSession } from '../vault-session'

// One item's upload (ARCHITECTURE §3): a fresh data key, the content encrypted chunk by chunk in
// this browser and sent as the parts of a multipart upload, then the encrypted metadata, the
// wrapped keys and the vault's signature over the item's manifest (each chunk's SHA-256 is taken
// as it is encrypted). Only ciphertext, sizes and the chosen policy ever leave the browser.
//
// Memory stays near `concurrency` chunks: each worker reads one slice of the file, encrypts it,
// sends it, and only then reads the next. A failed part is re-sent with exponential backoff; after
// a dropped connection the server is asked which parts it already has, so nothing is sent twice.

export interface UploadBeneficiary {
  id: string
  /** base64 SPKI, as the beneficiaries list returns it. */
  publicKey: string
  /** The version of that key: the manifest names it beside the grant. */
  keyVersion: number
}

export interface UploadPolicy {
  protocol: ReleaseProtocol
  requiresApprover: boolean
  approverContact?: string
  /** ISO 8601 with offset. */
  scheduledAt?: string
}

export interface UploadFileInput {
  type: ItemType
  /** The file, or a password entry's JSON as a Blob. Read one slice at a time. */
  content: Blob
  metadata: ItemMetadata
  policy: UploadPolicy
  beneficiaries: readonly UploadBeneficiary[]
  /** Beneficiaries who get the item only through a policy (released under it, not the item's protocol). */
  policyOnly?: readonly string[]
  /** The active policies that cover the item, so their releases include it. */
  policyIds?: readonly string[]
  /**
   * These beneficiaries as the server has them now, each key checked as trusted: called once when a
   * key was replaced during the upload, to wrap and sign again for the new one.
   */
  refreshBeneficiaries?: () => Promise<readonly UploadBeneficiary[]>
}

export interface UploadFileOptions {
  /** Plaintext bytes confirmed by the server so far, and the total. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void
  /** Aborting stops every request and deletes the upload on the server. */
  signal?: AbortSignal
  fetch?: FetchLike
  /** Defaults to the unlocked vault's key (VaultLockedError when locked). */
  masterKey?: MasterKey
  /** Re-sends of one request after the first try. */
  maxRetries?: number
  /** Wait before retry n (1-based). */
  backoffMs?: (retry: number) => number
  /** Parts read, encrypted and in flight at once. */
  concurrency?: number
  /** Defaults to the unlocked vault's signing key (VaultLockedError or SigningKeyProblemError without one). */
  signer?: VaultSigner
}

export const UPLOAD_MAX_RETRIES = 5
export const UPLOAD_CONCURRENCY = 2

/** 0.5 s, 1 s, 2 s, 4 s, 8 s, each with up to 25 % jitter so parallel retries spread out. */
export function defaultBackoffMs(retry: number): number {
  const base = Math.min(500 * 2 ** (retry - 1), 8000)
  return base + Math.random() * base * 0.25
}

/** A failure for good: `message` is what to show (the server's words when it gave any). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'UploadError'
  }
}

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504])

function isRetryable(error: unknown): boolean {
  if (error instanceof ApiRequestError) return RETRYABLE_STATUS.has(error.status)
  return isNetworkError(error)
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError())
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError())
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

const uploadsUrl = '/api/vault/uploads'
const uploadUrl = (itemId: string) => `${uploadsUrl}/${encodeURIComponent(itemId)}`

/**
 * Encrypts and uploads one item, resolving with the stored VaultItem. Rejects with an AbortError
 * when `signal` aborts, otherwise with UploadError; either way the unfinished upload is deleted.
 */
export async function uploadFile(input: UploadFileInput, options: UploadFileOptions = {}): Promise<VaultItem> {
  const fetchFn = options.fetch ?? defaultFetch
  const master = options.masterKey ?? vaultSession.requireKey()
  const signer = options.signer ?? vaultSigner()
  const maxRetries = options.maxRetries ?? UPLOAD_MAX_RETRIES
  const backoffMs = options.backoffMs ?? defaultBackoffMs
  const concurrency = Math.max(1, options.concurrency ?? UPLOAD_CONCURRENCY)
  const plainSize = input.content.size

  // One controller for everything: the caller's abort, or the first failure of a parallel part.
  const controller = new AbortController()
  const signal = controller.signal
  const forwardAbort = () => controller.abort()
  if (options.signal?.aborted) throw abortError()
  options.signal?.addEventListener('abort', forwardAbort, { once: true })
  const userAborted = () => options.signal?.aborted === true

  let itemId: string | null = null
  try {
    // Keys first: a beneficiary key that cannot be used fails before anything is stored.
    const dek = await generateDataKey()
    const [wrappedKey, grants] = await Promise.all([wrapDataKey(dek, master), wrapGrants(dek, input.beneficiaries, input.policyOnly)])
    if (signal.aborted) throw abortError()

    // The format of the key held here: one made stale by a move on another device is refused before anything is sent.
    const vaultFormat = options.masterKey ? undefined : (vaultSession.vaultFormat() ?? undefined)
    const session = await sendJson<UploadSession>(fetchFn, 'POST', uploadsUrl, { type: input.type, plainSize, vaultFormat }, signal)
    itemId = session.itemId
    if (session.partCount !== expectedPartCount(plainSize, session.chunkBytes)) {
      throw new UploadError('The server proposed an upload that does not match this file. Please try again.')
    }

    options.onProgress?.(0, plainSize)
    const chunkDigests = await sendParts({ input, dek, session, fetchFn, signal, controller, maxRetries, backoffMs, concurrency, onProgress: options.onProgress })

    const encryptedMetadata = await encryptMetadata(dek, session.itemId, input.metadata)
    const signed = async (forGrants: UploadGrant[]): Promise<UploadCompleteBody> => ({
      encryptedMetadata,
      wrappedKey,
      policy: input.policy,
      grants: forGrants,
      policyIds: [...(input.policyIds ?? [])],
      manifestSignature: await signer.signText(
        manifestText({ ownerId: signer.ownerId, itemId: session.itemId, type: input.type, plainSize, content: { chunkDigests }, encryptedMetadata, grants: forGrants }),
      ),
    })
    const completeWith = async (forGrants: UploadGrant[]) =>
      complete({ fetchFn, itemId: session.itemId, body: await signed(forGrants), signal, maxRetries, backoffMs })
    try {
      return await completeWith(grants)
    } catch (error) {
      // A key replaced while this uploaded: wrap for the beneficiaries as they are now and sign once more.
      const keyChanged = error instanceof ApiRequestError && error.status === 409 && error.detail === VAULT_ITEM_MESSAGES.keyChangedMeanwhile
      if (!keyChanged || !input.refreshBeneficiaries) throw error
      const current = await input.refreshBeneficiaries()
      const ids = new Set(input.beneficiaries.map((b) => b.id))
      return await completeWith(await wrapGrants(dek, current.filter((b) => ids.has(b.id)), input.policyOnly))
    }
  } catch (error) {
    if (itemId) await discard(fetchFn, itemId)
    if (userAborted() || isAbortError(error)) throw abortError()
    if (error instanceof UploadError || error instanceof PaymentRedirectError) throw error
    const status = error instanceof ApiRequestError ? error.status : undefined
    const message = isNetworkError(error) ? NETWORK_ERROR_TEXT : errorText(error, NETWORK_ERROR_TEXT)
    throw new UploadError(message, status, { cause: error })
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort)
  }
}

type UploadGrant = UploadCompleteBody['grants'][number] & { keyVersion: number }

function wrapGrants(dek: DataKey, beneficiaries: readonly UploadBeneficiary[], policyOnly: readonly string[] | undefined): Promise<UploadGrant[]> {
  return Promise.all(
    beneficiaries.map(async (b) => ({
      beneficiaryId: b.id,
      wrappedKey: await wrapDataKeyForBeneficiary(dek, await importBeneficiaryPublicKey(b.publicKey)),
      keyVersion: b.keyVersion,
      direct: !policyOnly?.includes(b.id),
    })),
  )
}

/** Best effort: an upload left behind would expire on the server anyway. */
async function discard(fetchFn: FetchLike, itemId: string): Promise<void> {
  try {
    await fetchFn(uploadUrl(itemId), { method: 'DELETE', headers: sessionHeaders(), credentials: 'include' })
  } catch {
    // Offline: nothing more to do from here.
  }
}

interface PartsContext {
  input: UploadFileInput
  dek: DataKey
  session: UploadSession
  fetchFn: FetchLike
  signal: AbortSignal
  controller: AbortController
  maxRetries: number
  backoffMs: (retry: number) => number
  concurrency: number
  onProgress?: (bytesDone: number, bytesTotal: number) => void
}

/** Sends every part; resolves with the SHA-256 of each encrypted chunk, in order. */
async function sendParts(ctx: PartsContext): Promise<Uint8Array[]> {
  const { input, dek, session, fetchFn, signal, maxRetries, backoffMs } = ctx
  const { itemId, chunkBytes, partCount } = session
  const plainSize = input.content.size
  const plainBytesOf = (n: number) => Math.min(chunkBytes, plainSize - (n - 1) * chunkBytes)
  const digests: Array<Uint8Array | undefined> = new Array(partCount)

  // Parts the server is known to hold; progress counts each once.
  const stored = new Set<number>()
  let bytesDone = 0
  const markStored = (n: number) => {
    if (n < 1 || n > partCount || stored.has(n)) return
    stored.add(n)
    bytesDone += plainBytesOf(n)
    ctx.onProgress?.(bytesDone, plainSize)
  }
  session.uploadedParts.forEach(markStored)

  /** Resume: what the server has after a dropped connection. A failure here just means retry later. */
  async function refreshStored(): Promise<void> {
    try {
      const current = await sendJson<UploadSession>(fetchFn, 'GET', uploadUrl(itemId), undefined, signal)
      current.uploadedParts.forEach(markStored)
    } catch (error) {
      if (signal.aborted) throw abortError()
      // An answer other than 'try again' (say the upload is gone) ends the upload.
      if (!isRetryable(error)) throw error
    }
  }

  async function sendPart(n: number): Promise<void> {
    const start = (n - 1) * chunkBytes
    const plain = new Uint8Array(await input.content.slice(start, start + plainBytesOf(n)).arrayBuffer())
    if (signal.aborted) throw abortError()
    const cipher = await encryptChunk(dek, itemId, n - 1, n === partCount, plain)
    if (cipher.length !== partSize(n, plainSize, chunkBytes)) {
      throw new UploadError('Encrypted part has an unexpected size. Please try again.')
    }
    digests[n - 1] = await chunkDigest(cipher)
    for (let retry = 0; ; retry++) {
      let dropped = false
      try {
        const res = await fetchFn(`${uploadUrl(itemId)}/parts/${n}`, {
          method: 'PUT',
          headers: sessionHeaders('application/octet-stream'),
          body: cipher,
          credentials: 'include',
          signal,
        })
        if (res.ok) {
          await res.body?.cancel().catch(() => undefined)
          markStored(n)
          return
        }
        const error = await responseError(res)
        if (!isRetryable(error) || retry >= maxRetries) throw error
      } catch (error) {
        if (signal.aborted) throw abortError()
        if (!isRetryable(error) || retry >= maxRetries) throw error
        dropped = isNetworkError(error)
      }
      await sleep(backoffMs(retry + 1), signal)
      if (dropped) {
        await refreshStored()
        // The part arrived even though its answer was lost.
        if (stored.has(n)) return
      }
    }
  }

  const queue = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !stored.has(n))
  let next = 0
  let failure: { error: unknown } | null = null
  async function worker(): Promise<void> {
    while (!signal.aborted) {
      const n = queue[next++]
      if (n === undefined) return
      if (stored.has(n)) continue
      try {
        await sendPart(n)
      } catch (error) {
        // The first real failure stops the other worker too.
        if (!failure && !(isAbortError(error) && signal.aborted)) failure = { error }
        ctx.controller.abort()
        return
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(ctx.concurrency, queue.length) }, worker))
  if (failure) throw (failure as { error: unknown }).error
  if (signal.aborted) throw abortError()
  if (stored.size !== partCount) {
    // Only reachable if the server forgot parts it had confirmed; let completion report it.
    await refreshStored()
  }
  // Every part of a new upload was encrypted here, so every digest is known.
  if (digests.some((d) => d === undefined)) throw new UploadError('Some parts of this upload were not sent from here. Please try again.')
  return digests as Uint8Array[]
}

async function complete({
  fetchFn,
  itemId,
  body,
  signal,
  maxRetries,
  backoffMs,
}: {
  fetchFn: FetchLike
  itemId: string
  body: UploadCompleteBody
  signal: AbortSignal
  maxRetries: number
  backoffMs: (retry: number) => number
}): Promise<VaultItem> {
  for (let retry = 0; ; retry++) {
    try {
      return await sendJson<VaultItem>(fetchFn, 'POST', `${uploadUrl(itemId)}/complete`, body, signal)
    } catch (error) {
      if (signal.aborted) throw abortError()
      if (!isRetryable(error) || retry >= maxRetries) throw error
      await sleep(backoffMs(retry + 1), signal)
      if (isNetworkError(error)) {
        // The item may have been stored even though the answer was lost.
        const items = await sendJson<VaultItem[]>(fetchFn, 'GET', '/api/vault/items', undefined, signal).catch(() => [])
        const stored = items.find((item) => item.id === itemId)
        if (stored) return stored
      }
    }
  }
}
