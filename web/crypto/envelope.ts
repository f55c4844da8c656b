import { DecryptionError } from './errors'
import { fromBase64 } from './encoding'
import { CRYPTO_FORMAT_VERSION, GCM_TAG_BYTES, IV_BYTES } from './params'
import { bufferSource, randomBytes, subtle } from './subtle'

// Every AES-GCM output of the module has one layout: version (1 byte) || iv (12) || ciphertext
// with its 16-byte tag. Carrying the IV beside the ciphertext keeps each value self-contained;
// the version byte lets a later format be told apart. Both are also covered by the AAD (the
// version directly, the IV by GCM itself), so neither can be altered unnoticed.

export const ENVELOPE_HEADER_BYTES = 1 + IV_BYTES

export interface EnvelopeParts {
  iv: Uint8Array<ArrayBuffer>
  body: Uint8Array<ArrayBuffer>
}

/** A fresh random IV: never reused under a key, never derived from data. */
export function randomIv(): Uint8Array<ArrayBuffer> {
  return randomBytes(IV_BYTES)
}

/** version || iv || body. */
export function frame(iv: Uint8Array, body: ArrayBuffer): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(ENVELOPE_HEADER_BYTES + body.byteLength)
  out[0] = CRYPTO_FORMAT_VERSION
  out.set(iv, 1)
  out.set(new Uint8Array(body), ENVELOPE_HEADER_BYTES)
  return out
}

/** Splits an envelope; DecryptionError when it is too short or of an unknown version. */
export function unframe(data: Uint8Array): EnvelopeParts {
  if (!(data instanceof Uint8Array) || data.length < ENVELOPE_HEADER_BYTES + GCM_TAG_BYTES) {
    throw new DecryptionError('Malformed ciphertext: too short')
  }
  if (data[0] !== CRYPTO_FORMAT_VERSION) {
    throw new DecryptionError('Malformed ciphertext: unsupported format version')
  }
  const bytes = bufferSource(data)
  return { iv: bytes.slice(1, ENVELOPE_HEADER_BYTES), body: bytes.subarray(ENVELOPE_HEADER_BYTES) }
}

/** Base64 → envelope bytes; bad base64 is a DecryptionError like any other corrupt ciphertext. */
export function decodeEnvelope(b64: string): Uint8Array<ArrayBuffer> {
  try {
    return fromBase64(b64)
  } catch {
    throw new DecryptionError('Malformed ciphertext: not base64')
  }
}

/** AES-GCM encrypt with a fresh IV; returns the envelope. */
export async function seal(key: CryptoKey, plaintext: Uint8Array, aad: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = randomIv()
  const ciphertext = await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, bufferSource(plaintext))
  return frame(iv, ciphertext)
}

/** AES-GCM decrypt of split parts; DecryptionError when authentication fails. */
export async function openParts(key: CryptoKey, parts: EnvelopeParts, aad: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const plain = await subtle().decrypt({ name: 'AES-GCM', iv: parts.iv, additionalData: aad }, key, parts.body)
    return new Uint8Array(plain)
  } catch (cause) {
    throw new DecryptionError('Decryption failed: wrong key or data altered', { cause })
  }
}

/** unframe + openParts. */
export async function open(key: CryptoKey, data: Uint8Array, aad: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return openParts(key, unframe(data), aad)
}
