import { createHash, createHmac } from 'node:crypto'

// Synchronous digests (node:crypto under nodejs_compat). Web Crypto is asynchronous, and the owner
// object computes audit hashes and signs e-mailed links inside a synchronous SQLite transaction.

export function sha256HexSync(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function hmacSha256Base64Url(key: string | Uint8Array, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url')
}

export function hmacSha256Hex(key: string | Uint8Array, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex')
}
