import type { ItemMetadata, PasswordEntry, VaultItem } from '../../../../contract/vault-items'
import { DecryptionError, decryptStream, encryptedChunkSize, unwrapDataKey, type DataKey, type MasterKey } from '@/crypto'
import { responseError, sessionHeaders } from '@/lib/api-client'
import { byteSource, lentPieces } from '@/lib/byte-source'
import { defaultFetch, isAbortError, isNetworkError, type FetchLike } from './http'
import { browserDownloadChannel, DownloadWorkerUnavailable, streamDownloadSupported, streamToDownload, type DownloadChannel } from './stream-save'

// The owner's way back to the plaintext: the ciphertext arrives as a stream, is cut back into its
// encrypted chunks (each chunkBytes + 29 bytes, the last shorter), and each chunk is authenticated
// and decrypted as it arrives. With the File System Access API the plaintext goes straight to disk;
// otherwise it streams to disk through the same-origin download Service Worker (stream-save.ts);
// only a browser with neither collects it into a Blob, up to BLOB_SAVE_MAX_BYTES. The fetch-and-decrypt
// (decryptContent) and the save dialog (chooseSaveTarget) take any data key and URL, so the
// beneficiary portal's download (web/features/releases/portal.ts) runs through them too.

type Bytes = Uint8Array<ArrayBuffer>


/**
 * Re-cuts a byte stream into pieces of exactly `size` bytes, the last one shorter (never empty).
 * Each input piece is copied before the next is asked for, so the source may lend its pieces
 * (lentPieces). With `slots`, the pieces are cut into that many buffers used in turn, so nothing is
 * allocated per piece: a piece yielded is then overwritten once `slots` more have been asked for,
 * and the consumer must be done with it by then. Without, each piece is a buffer of its own.
 */
export async function* rechunk(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, size: number, slots?: number): AsyncGenerator<Bytes, void, undefined> {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`size must be a positive integer, got ${size}`)
  if (slots !== undefined && (!Number.isSafeInteger(slots) || slots < 1)) throw new RangeError(`slots must be a positive integer, got ${slots}`)
  const pieces = byteSource(source)
  const ring: Bytes[] = []
  let next = 0
  const take = (): Bytes => {
    if (slots === undefined) return new Uint8Array(size)
    const slot = next
    next = (next + 1) % slots
    return (ring[slot] ??= new Uint8Array(size))
  }
  let buffer = take()
  let filled = 0
  for await (const input of pieces) {
    let offset = 0
    while (offset < input.length) {
      const n = Math.min(size - filled, input.length - offset)
      buffer.set(input.subarray(offset, offset + n), filled)
      filled += n
      offset += n
      if (filled === size) {
        yield buffer
        buffer = take()
        filled = 0
      }
    }
  }
  if (filled > 0) yield slots === undefined ? buffer.slice(0, filled) : buffer.subarray(0, filled)
}

export interface DecryptOptions {
  fetch?: FetchLike
  signal?: AbortSignal
  /** Ciphertext bytes received so far, and the total. */
  onProgress?: (received: number, total: number) => void
  /**
   * Re-fetches of the content URL after a network error (none by default). A re-fetch resumes
   * where the last one broke off: the bytes already received are skipped, not counted again.
   */
  retries?: number
  /** Wait before re-fetch n (1-based); one second times n by default. */
  retryDelayMs?: (retry: number) => number
  /** Sees each encrypted chunk, in order, before it is decrypted (the heir's seal check); throwing stops the download. */
  onEncryptedChunk?: (chunk: Uint8Array) => void | Promise<void>
}

/** Where an item's ciphertext comes from, and what its chunks are sealed to. */
export interface EncryptedContent {
  url: string
  /** The vault item id: the associated data of every chunk. */
  itemId: string
  chunkBytes: number
  cipherSize: number
  /** Credentials and headers of the GET; same-origin cookies and no headers by default. */
  request?: Pick<RequestInit, 'headers' | 'credentials'>
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => (clearTimeout(timer), reject(signal?.reason))
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * The ciphertext's bytes in arrival order, re-fetched after a network error as options allow. The
 * pieces are lent (lentPieces): each is valid until the next is asked for.
 */
async function* fetchCiphertext(content: EncryptedContent, options: DecryptOptions): AsyncGenerator<Uint8Array, void, undefined> {
  const fetchFn = options.fetch ?? defaultFetch
  const retries = options.retries ?? 0
  let received = 0
  for (let attempt = 0; ; attempt++) {
    let skip = received
    try {
      const res = await fetchFn(content.url, { credentials: 'same-origin', ...content.request, signal: options.signal })
      if (!res.ok) throw await responseError(res)
      if (!res.body) throw new DecryptionError('The encrypted content is empty')
      for await (let piece of lentPieces(res.body)) {
        if (skip > 0) {
          const drop = Math.min(skip, piece.length)
          skip -= drop
          piece = piece.subarray(drop)
          if (piece.length === 0) continue
        }
        received += piece.length
        options.onProgress?.(received, content.cipherSize)
        yield piece
      }
      return
    } catch (error) {
      // Only the fetch and the body's reads land here: a consumer's failure ends this generator.
      if (!isNetworkError(error) || attempt >= retries || options.signal?.aborted) throw error
    }
    await pause(options.retryDelayMs?.(attempt + 1) ?? 1000 * (attempt + 1), options.signal)
  }
}

/**
 * The source's items with the next one already being fetched while the consumer works on the
 * current one: at most one item ahead, so a download reads the network while it decrypts (the
 * fetch would otherwise stall, unread, during every chunk's decryption). A failure of the item
 * ahead surfaces when the consumer reaches it; a consumer that stops early stops the source.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]()
  let ahead: Promise<IteratorResult<T>> | null = iterator.next()
  // Awaited below; until then a rejection must not count as unhandled.
  ahead.catch(() => undefined)
  let finished = false
  try {
    for (;;) {
      const result: IteratorResult<T> = await ahead
      if (result.done) {
        finished = true
        return
      }
      ahead = iterator.next()
      ahead.catch(() => undefined)
      yield result.value
    }
  } catch (error) {
    finished = true
    throw error
  } finally {
    // Stopped early: let the item in flight settle, then stop the source.
    if (!finished) {
      await ahead?.catch(() => undefined)
      await iterator.return?.()
    }
  }
}

async function* seeing<T>(source: AsyncIterable<T>, see: (item: T) => void | Promise<void>): AsyncGenerator<T, void, undefined> {
  for await (const item of source) {
    await see(item)
    yield item
  }
}

/**
 * Encrypted chunks in their reassembly buffers at once: the one being decrypted and the one
 * readAhead fills meanwhile. decryptStream is done with a chunk (its decryption has copied it,
 * onEncryptedChunk has seen it) before it asks for the next, and only then does readAhead ask
 * rechunk for the one after, which refills the first buffer.
 */
const REASSEMBLY_BUFFERS = 2

/** The plaintext behind a content URL, piece by piece, each authenticated before it is yielded. */
export async function* decryptContent(content: EncryptedContent, dek: DataKey, options: DecryptOptions = {}): AsyncGenerator<Bytes, void, undefined> {
  const chunks = readAhead(rechunk(fetchCiphertext(content, options), encryptedChunkSize(content.chunkBytes), REASSEMBLY_BUFFERS))
  yield* decryptStream(dek, content.itemId, options.onEncryptedChunk ? seeing(chunks, options.onEncryptedChunk) : chunks)
}

/** All of a plaintext's pieces as one Blob. */
export async function collectBlob(pieces: AsyncIterable<Bytes>, type = ''): Promise<Blob> {
  const parts: Bytes[] = []
  for await (const piece of pieces) parts.push(piece)
  return new Blob(parts, { type })
}

/** A decrypted password entry's JSON, with every field present. */
export function parsePasswordEntry(text: string): PasswordEntry {
  const value = JSON.parse(text) as Partial<PasswordEntry>
  return { site: value.site ?? '', username: value.username ?? '', password: value.password ?? '', notes: value.notes ?? '' }
}

type OwnedItem = Pick<VaultItem, 'id' | 'wrappedKey' | 'chunkBytes' | 'cipherSize'>

const contentUrl = (id: string) => `/api/vault/items/${encodeURIComponent(id)}/content`

/** The owner's item's plaintext, piece by piece, each authenticated before it is yielded. */
export async function* decryptItemContent(item: OwnedItem, master: MasterKey, options: DecryptOptions = {}): AsyncGenerator<Bytes, void, undefined> {
  const dek = await unwrapDataKey(item.wrappedKey, master)
  const content: EncryptedContent = {
    url: contentUrl(item.id),
    itemId: item.id,
    chunkBytes: item.chunkBytes,
    cipherSize: item.cipherSize,
    request: { headers: sessionHeaders(), credentials: 'include' },
  }
  yield* decryptContent(content, dek, options)
}

/** The whole plaintext in memory (previews, password entries, and the Blob download path). */
export async function decryptItemToBlob(item: OwnedItem, mimetype: string, master: MasterKey, options: DecryptOptions = {}): Promise<Blob> {
  return collectBlob(decryptItemContent(item, master, options), mimetype)
}

export async function decryptPasswordEntry(item: OwnedItem, master: MasterKey, options: DecryptOptions = {}): Promise<PasswordEntry> {
  return parsePasswordEntry(await (await decryptItemToBlob(item, 'application/json', master, options)).text())
}

interface WritableFileStream {
  write(data: Bytes): Promise<void>
  close(): Promise<void>
  abort(): Promise<void>
}
export type SaveFilePicker = (options: { suggestedName?: string }) => Promise<{ createWritable(): Promise<WritableFileStream> }>

/**
 * The File System Access picker when the browser has one. Automated browsers (navigator.webdriver)
 * get the download-link path, since nothing can click a native save dialog there.
 */
export function browserSaveFilePicker(): SaveFilePicker | null {
  if (typeof window === 'undefined' || navigator.webdriver) return null
  const picker = (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker
  return typeof picker === 'function' ? picker.bind(window) : null
}

/** Saves a Blob under a file name through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  // Long enough for the browser to start reading it; then the plaintext copy is released.
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
}

/** The largest file saved through a Blob, the last resort: the whole plaintext is held in memory there. */
export const BLOB_SAVE_MAX_BYTES = 200 * 1024 * 1024
export const TOO_LARGE_FOR_BROWSER =
  'This file is too large to download in this browser. Please use a current version of Chrome, Edge, Firefox or Safari.'

/** Where a decrypted file goes: the file chosen in the save dialog, a streamed download, or a Blob saved through a link. */
export interface SaveTarget {
  /** Writes the plaintext; the name, type and size matter only to the download paths (the dialog has the name already). */
  write(pieces: AsyncIterable<Bytes>, file: { filename: string; mimetype: string; size?: number }): Promise<void>
}

export interface SaveTargetOptions {
  /** Defaults to the browser's picker when it has one; null forces a download path. */
  picker?: SaveFilePicker | null
  /** The download worker; defaults to the browser's when it can take a stream; null forces the Blob path. */
  stream?: DownloadChannel | null
  /** The Blob path's saver; defaults to saveBlob. */
  save?: (blob: Blob, filename: string) => void
}

/**
 * Opens the save dialog when there is one. Must be called straight from a click (the picker needs
 * the user's gesture), before any slow work. Resolves 'cancelled' if the user closed the dialog.
 * `size` (the plaintext's) lets the Blob path refuse a file too large for it before anything is fetched.
 */
export async function chooseSaveTarget(suggestedName: string, options: SaveTargetOptions & { size?: number } = {}): Promise<SaveTarget | 'cancelled'> {
  const picker = options.picker === undefined ? browserSaveFilePicker() : options.picker
  if (!picker) {
    const channel = options.stream === undefined ? (streamDownloadSupported() ? browserDownloadChannel : null) : options.stream
    const save = options.save ?? saveBlob
    const tooLarge = options.size !== undefined && options.size > BLOB_SAVE_MAX_BYTES
    const saveAsBlob = async (pieces: AsyncIterable<Bytes>, file: { filename: string; mimetype: string }) => {
      if (tooLarge) throw new Error(TOO_LARGE_FOR_BROWSER)
      save(await collectBlob(pieces, file.mimetype), file.filename)
    }
    if (!channel) {
      if (tooLarge) throw new Error(TOO_LARGE_FOR_BROWSER)
      return { write: saveAsBlob }
    }
    return {
      async write(pieces, file) {
        try {
          await streamToDownload(pieces, file, channel)
        } catch (error) {
          // No worker after all (refused before anything was read): the Blob path, if the file fits.
          if (error instanceof DownloadWorkerUnavailable) return saveAsBlob(pieces, file)
          throw error
        }
      },
    }
  }
  let handle: Awaited<ReturnType<SaveFilePicker>>
  try {
    handle = await picker({ suggestedName })
  } catch (error) {
    if (isAbortError(error)) return 'cancelled'
    throw error
  }
  return {
    async write(pieces) {
      const writable = await handle.createWritable()
      try {
        for await (const piece of pieces) await writable.write(piece)
        await writable.close()
      } catch (error) {
        // Nothing half-decrypted is left on disk.
        await writable.abort().catch(() => undefined)
        throw error
      }
    },
  }
}

/**
 * Decrypts an item and saves it. Must be called straight from a click (the save picker needs the
 * user's gesture). Resolves 'cancelled' if the owner closed the save dialog.
 */
export async function downloadItem(
  item: OwnedItem & Partial<Pick<VaultItem, 'plainSize'>>,
  metadata: Pick<ItemMetadata, 'filename' | 'mimetype'>,
  master: MasterKey,
  options: DecryptOptions & SaveTargetOptions = {},
): Promise<'saved' | 'cancelled'> {
  const target = await chooseSaveTarget(metadata.filename, { ...options, size: item.plainSize })
  if (target === 'cancelled') return 'cancelled'
  try {
    await target.write(decryptItemContent(item, master, options), { ...metadata, size: item.plainSize })
  } catch (error) {
    // Cancelled in the browser's own download list.
    if (isAbortError(error) && !options.signal?.aborted) return 'cancelled'
    throw error
  }
  return 'saved'
}
