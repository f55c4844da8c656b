// Byte/text conversions used by the crypto module and by the code that stores its output.

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const encoder = new TextEncoder()

/** Standard, padded base64 (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
  // fromCharCode in slices: spreading a multi-megabyte chunk at once overflows the call stack.
  const SLICE = 0x8000
  let binary = ''
  for (let i = 0; i < bytes.length; i += SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + SLICE))
  }
  return btoa(binary)
}

/**
 * Decodes standard, padded base64. Strict on purpose (atob alone accepts whitespace and missing
 * padding): stored values are always written by toBase64, so anything else is corruption.
 */
export function fromBase64(str: string): Uint8Array<ArrayBuffer> {
  if (typeof str !== 'string' || !STRICT_BASE64.test(str)) {
    throw new Error('Invalid base64: expected standard padded base64 text')
  }
  const binary = atob(str)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** UTF-8 bytes of a string. */
export function utf8(str: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(str)
}

/** Joins byte arrays into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
