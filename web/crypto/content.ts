import { AAD_PURPOSE, buildAad } from './aad'
import { concatBytes } from './encoding'
import { ENVELOPE_HEADER_BYTES, open, openParts, seal, unframe } from './envelope'
import { DecryptionError } from './errors'
import type { DataKey } from './keys'
import { DEFAULT_CHUNK_BYTES, GCM_TAG_BYTES } from './params'
import { byteSource, type ByteSource } from '@/lib/byte-source'

// Item content is encrypted in fixed-size chunks so a large file never has to sit in memory whole
// and can go to R2 as a multipart upload. Each chunk is its own AES-GCM envelope with a fresh IV;
// its AAD binds (format version, item id, chunk index, is-last flag), so chunks cannot be
// reordered, moved to another item, or cut off after a whole chunk (ARCHITECTURE §3).
// Every file, even an empty one, has exactly one chunk marked last.

/** Bytes a chunk adds to its plaintext: version (1) + IV (12) + GCM tag (16) = 29. */
export const CHUNK_OVERHEAD_BYTES = ENVELOPE_HEADER_BYTES + GCM_TAG_BYTES

/** Size of the encrypted chunk made from `plainBytes` bytes of plaintext. */
export function encryptedChunkSize(plainBytes: number): number {
  return plainBytes + CHUNK_OVERHEAD_BYTES
}

function chunkAad(itemId: string, index: number, isLast: boolean): Uint8Array<ArrayBuffer> {
  return buildAad(AAD_PURPOSE.chunk, itemId, index, isLast)
}

function assertChunkBytes(chunkBytes: number): void {
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1) {
    throw new RangeError(`chunkBytes must be a positive integer, got ${chunkBytes}`)
  }
}

/** One chunk: version || iv || ciphertext+tag. `index` is 0-based, at most 2^32 − 1. */
export async function encryptChunk(
  dek: DataKey,
  itemId: string,
  index: number,
  isLast: boolean,
  plaintext: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  return seal(dek, plaintext, chunkAad(itemId, index, isLast))
}

/** One chunk's plaintext; DecryptionError unless it was made for exactly this item, index and flag. */
export async function decryptChunk(
  dek: DataKey,
  itemId: string,
  index: number,
  isLast: boolean,
  data: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  return open(dek, data, chunkAad(itemId, index, isLast))
}

/** A whole in-memory file as its chunks, in order (at least one). */
export async function encryptBlob(
  dek: DataKey,
  itemId: string,
  data: Uint8Array,
  chunkBytes: number = DEFAULT_CHUNK_BYTES,
): Promise<Uint8Array<ArrayBuffer>[]> {
  assertChunkBytes(chunkBytes)
  const count = Math.max(1, Math.ceil(data.length / chunkBytes))
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      encryptChunk(dek, itemId, i, i === count - 1, data.subarray(i * chunkBytes, (i + 1) * chunkBytes)),
    ),
  )
}

/** A whole file back from all its chunks, in order; DecryptionError if any is wrong or missing. */
export async function decryptChunks(dek: DataKey, itemId: string, chunks: readonly Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  if (chunks.length === 0) throw new DecryptionError('Encrypted content has no chunks')
  const last = chunks.length - 1
  return concatBytes(await Promise.all(chunks.map((chunk, i) => decryptChunk(dek, itemId, i, i === last, chunk))))
}

/**
 * Encrypts a stream of any-sized pieces as chunks of exactly `chunkBytes` plaintext (the last one
 * shorter), yielding them in order: the same chunks encryptBlob would make. A full piece is held
 * back until more input arrives or the source ends, since only then is it known whether it is the
 * last. Memory stays near two chunks (the piece being filled, the chunk being yielded) plus
 * whatever single piece the source hands over.
 */
export async function* encryptStream(
  dek: DataKey,
  itemId: string,
  source: ByteSource,
  chunkBytes: number = DEFAULT_CHUNK_BYTES,
): AsyncGenerator<Uint8Array<ArrayBuffer>, void, undefined> {
  assertChunkBytes(chunkBytes)
  const piece = new Uint8Array(chunkBytes)
  let filled = 0
  let index = 0
  for await (const input of byteSource(source)) {
    let offset = 0
    while (offset < input.length) {
      if (filled === chunkBytes) {
        // More input exists, so the full piece is not the last one. encrypt copies its input
        // before resolving, so the buffer can be reused once the chunk is made.
        const chunk = await encryptChunk(dek, itemId, index++, false, piece)
        filled = 0
        yield chunk
      }
      const take = Math.min(chunkBytes - filled, input.length - offset)
      piece.set(input.subarray(offset, offset + take), filled)
      filled += take
      offset += take
    }
  }
  yield await encryptChunk(dek, itemId, index, true, piece.subarray(0, filled))
}

/**
 * Decrypts chunks as they arrive, yielding each one's plaintext once it is authenticated. A chunk
 * is tried as "not last" and then as "last", so nothing need be known in advance. Throws
 * DecryptionError for a chunk that fails both, for a chunk after the last, and when the stream
 * ends without a last chunk (truncation). Until the generator completes, what it has yielded is
 * authentic but may be incomplete.
 */
export async function* decryptStream(
  dek: DataKey,
  itemId: string,
  encryptedChunks: ByteSource,
): AsyncGenerator<Uint8Array<ArrayBuffer>, void, undefined> {
  let index = 0
  let sawLast = false
  for await (const chunk of byteSource(encryptedChunks)) {
    if (sawLast) throw new DecryptionError('Encrypted content continues after its last chunk')
    const parts = unframe(chunk)
    let plain: Uint8Array<ArrayBuffer>
    try {
      plain = await openParts(dek, parts, chunkAad(itemId, index, false))
    } catch {
      plain = await openParts(dek, parts, chunkAad(itemId, index, true))
      sawLast = true
    }
    index++
    yield plain
  }
  if (!sawLast) throw new DecryptionError('Encrypted content is truncated: no last chunk')
}
