import { bufferSource, subtle } from './subtle'

// The SHA-256 of one encrypted chunk as an item manifest counts it (FORMAT.md, "Item manifest"):
// WebCrypto's digest, several times faster than hashing in script on a 4 MiB chunk.

/** The 32-byte SHA-256 digest of `chunk`'s bytes. */
export async function chunkDigest(chunk: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', bufferSource(chunk)))
}
