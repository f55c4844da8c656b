import type { ItemMetadata, PasswordEntry, VaultItem } from '../../../../contract/vault-items'
import { DecryptionError, decryptStream, encryptedChunkSize, unwrapDataKey, type MasterKey } from '@/crypto'
import { responseError, sessionHeaders } from '@/lib/api-client'
import { byteSource } from '@/lib/byte-source'
import { defaultFetch, isAbortError, type FetchLike } from './http'

// The owner's way back to the plaintext: the ciphertext arrives as a stream, is cut back into its
// encrypted chunks (each chunkBytes + 29 bytes, the last shorter), and each chunk is authenticated
// and decrypted as it arrives. With the File System Access API the plaintext goes straight to disk;
// otherwise it is collected into a Blob and saved through a download link.

type Bytes = Uint8Array<ArrayBuffer>


/** Re-cuts a byte stream into pieces of exactly `size` bytes, the last one shorter (never empty). */
export async function* rechunk(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Bytes, void, undefined> {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`size must be a positive integer, got ${size}`)
  const pieces = byteSource(source)
  let buffer = new Uint8Array(size)
  let filled = 0
  for await (const input of pieces) {
    let offset = 0
    while (offset < input.length) {
      const take = Math.min(size - filled, input.length - offset)
      buffer.set(input.subarray(offset, offset + take), filled)
      filled += take
      offset += take
      if (filled === size) {
        yield buffer
        buffer = new Uint8Array(size)
        filled = 0
      }
    }
  }
  if (filled > 0) yield buffer.slice(0, filled)
}

export interface DecryptOptions {
  fetch?: FetchLike
  signal?: AbortSignal
  /** Ciphertext bytes received so far, and the total. */
  onProgress?: (received: number, total: number) => void
}

const contentUrl = (id: string) => `/api/vault/items/${encodeURIComponent(id)}/content`

/** The item's plaintext, piece by piece, each authenticated before it is yielded. */
export async function* decryptItemContent(
  item: Pick<VaultItem, 'id' | 'wrappedKey' | 'chunkBytes' | 'cipherSize'>,
  master: MasterKey,
  options: DecryptOptions = {},
): AsyncGenerator<Bytes, void, undefined> {
  const fetchFn = options.fetch ?? defaultFetch
  const dek = await unwrapDataKey(item.wrappedKey, master)
  const res = await fetchFn(contentUrl(item.id), { headers: sessionHeaders(), credentials: 'include', signal: options.signal })
  if (!res.ok) throw await responseError(res)
  if (!res.body) throw new DecryptionError('The encrypted content is empty')
  let received = 0
  async function* counted(body: ReadableStream<Uint8Array>) {
    for await (const piece of byteSource(body)) {
      received += piece.length
      options.onProgress?.(received, item.cipherSize)
      yield piece
    }
  }
  yield* decryptStream(dek, item.id, rechunk(counted(res.body), encryptedChunkSize(item.chunkBytes)))
}

/** The whole plaintext in memory (previews, password entries, and the Blob download path). */
export async function decryptItemToBlob(
  item: Pick<VaultItem, 'id' | 'wrappedKey' | 'chunkBytes' | 'cipherSize'>,
  mimetype: string,
  master: MasterKey,
  options: DecryptOptions = {},
): Promise<Blob> {
  const parts: Bytes[] = []
  for await (const piece of decryptItemContent(item, master, options)) parts.push(piece)
  return new Blob(parts, { type: mimetype })
}

export async function decryptPasswordEntry(
  item: Pick<VaultItem, 'id' | 'wrappedKey' | 'chunkBytes' | 'cipherSize'>,
  master: MasterKey,
  options: DecryptOptions = {},
): Promise<PasswordEntry> {
  const text = await (await decryptItemToBlob(item, 'application/json', master, options)).text()
  const value = JSON.parse(text) as Partial<PasswordEntry>
  return { site: value.site ?? '', username: value.username ?? '', password: value.password ?? '', notes: value.notes ?? '' }
}

interface WritableFileStream {
  write(data: Bytes): Promise<void>
  close(): Promise<void>
  abort(): Promise<void>
}
type SaveFilePicker = (options: { suggestedName?: string }) => Promise<{ createWritable(): Promise<WritableFileStream> }>

/**
 * The File System Access picker when the browser has one. Automated browsers (navigator.webdriver)
 * get the download-link path, since nothing can click a native save dialog there.
 */
function saveFilePicker(): SaveFilePicker | null {
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

/**
 * Decrypts an item and saves it. Must be called straight from a click (the save picker needs the
 * user's gesture). Resolves 'cancelled' if the owner closed the save dialog.
 */
export async function downloadItem(
  item: Pick<VaultItem, 'id' | 'wrappedKey' | 'chunkBytes' | 'cipherSize'>,
  metadata: Pick<ItemMetadata, 'filename' | 'mimetype'>,
  master: MasterKey,
  options: DecryptOptions = {},
): Promise<'saved' | 'cancelled'> {
  const picker = saveFilePicker()
  if (picker) {
    let handle: Awaited<ReturnType<SaveFilePicker>>
    try {
      handle = await picker({ suggestedName: metadata.filename })
    } catch (error) {
      if (isAbortError(error)) return 'cancelled'
      throw error
    }
    const writable = await handle.createWritable()
    try {
      for await (const piece of decryptItemContent(item, master, options)) await writable.write(piece)
      await writable.close()
    } catch (error) {
      // Nothing half-decrypted is left on disk.
      await writable.abort().catch(() => undefined)
      throw error
    }
    return 'saved'
  }
  saveBlob(await decryptItemToBlob(item, metadata.mimetype, master, options), metadata.filename)
  return 'saved'
}
