// The module's single door to WebCrypto. Looked up on every call (not captured at import) so a
// missing API fails with a clear message, and so tests can spy on crypto.subtle.

/** crypto.subtle, or a clear error where the browser withholds it (plain-http origins). */
export function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle
  if (!s) throw new Error('WebCrypto is unavailable: the vault needs a secure context (https or localhost)')
  return s
}

/** Cryptographically random bytes. */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length))
}

/**
 * The same bytes typed as WebCrypto's BufferSource wants them (TS 5.9 types Uint8Array over
 * ArrayBufferLike, which includes SharedArrayBuffer). Copies only in that unusual case.
 */
export function bufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes)
}
