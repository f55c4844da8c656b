import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'

// The audit chain's digest, synchronous and the same everywhere (the browser's verifier, Node's,
// an export check): SHA-256 of the string's UTF-8 bytes as lower-case hex. Web Crypto's digest is
// asynchronous, and awaiting it once per entry cost ten times the hashing itself.

interface Utf8Encoder {
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number }
}
// Every runtime here has TextEncoder; not every tsconfig that reads the contract declares it.
const encoder = new (globalThis as unknown as { TextEncoder: new () => Utf8Encoder }).TextEncoder()
// One buffer reused by every call (a UTF-8 string is at most 3 bytes per UTF-16 unit): allocating
// per entry cost as much as a third of the hash.
let buffer = new Uint8Array(1024)

export function auditSha256Hex(input: string): string {
  if (buffer.length < input.length * 3) buffer = new Uint8Array(input.length * 3)
  const { written } = encoder.encodeInto(input, buffer)
  return bytesToHex(sha256(buffer.subarray(0, written)))
}
