// The part of node:crypto (nodejs_compat) the worker uses, typed here instead of bringing all of
// @types/node into the Workers types.
declare module 'node:crypto' {
  interface Digest {
    update(data: string | Uint8Array): Digest
    digest(encoding: 'hex' | 'base64url'): string
  }
  export function createHash(algorithm: 'sha256'): Digest
  export function createHmac(algorithm: 'sha256', key: string | Uint8Array): Digest
}
