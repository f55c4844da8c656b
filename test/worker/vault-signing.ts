import { keyStatement, type KeyStatementFields } from '../../contract/key-signing'
import { call } from './helpers'

// The owner's vault signing key, as the owner's browser keeps it (web/crypto/signing.ts): made at
// vault setup, the private half held here per session token for the tests that add beneficiaries.

interface Signer {
  ownerId: string
  privateKey: CryptoKey
  publicKey: string
}

const signers = new Map<string, Signer>()

const toBase64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
const ownerIdOf = (token: string) => (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string }).sub

/** A fresh P-256 signing key pair: the public half as base64 SPKI (124 characters). */
export async function signingKeyPair(): Promise<{ privateKey: CryptoKey; publicKey: string }> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair
  return { privateKey: pair.privateKey, publicKey: toBase64((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer) }
}

/** Shaped like a signature (88 base64 characters), signed by nobody: for requests that must get past validation. */
export const WELL_FORMED_SIGNATURE = `${'A'.repeat(86)}==`

/** Stands in for the master-key-wrapped private key: the server stores it without reading it. */
export const WRAPPED_SIGNING_KEY_STANDIN = btoa('wrapped signing key, opaque to the server'.repeat(3))

/** A valid /api/vault/setup body with a new signing key, remembered for `token`. */
export async function vaultSetupBody(token: string, overrides: Record<string, unknown> = {}) {
  const pair = await signingKeyPair()
  signers.set(token, { ownerId: ownerIdOf(token), ...pair })
  return {
    vaultSalt: toBase64(crypto.getRandomValues(new Uint8Array(32))),
    passphraseCheck: toBase64(crypto.getRandomValues(new Uint8Array(45))),
    signingPublicKey: pair.publicKey,
    wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN,
    ...overrides,
  }
}

const setups = new Map<string, Promise<Signer>>()

/** The signer of `token`'s vault, setting the vault up first (once, however many ask at once) if it is not. */
export async function vaultSigner(token: string): Promise<Signer> {
  const known = signers.get(token)
  if (known) return known
  let setup = setups.get(token)
  if (!setup) {
    setup = (async () => {
      const res = await call('/api/vault/setup', { token, body: await vaultSetupBody(token) })
      if (res.status !== 200) {
        signers.delete(token)
        throw new Error(`vault setup for signing failed: ${res.status} ${await res.text()}`)
      }
      return signers.get(token)!
    })()
    setups.set(token, setup)
  }
  return setup
}

/** Signs the statement for a beneficiary key with `signer`'s key (owner id filled in). */
export async function signWith(signer: Pick<Signer, 'ownerId' | 'privateKey'>, fields: Omit<KeyStatementFields, 'ownerId'>): Promise<string> {
  const data = new TextEncoder().encode(keyStatement({ ownerId: signer.ownerId, ...fields }))
  return toBase64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signer.privateKey, data))
}

/** `token`'s vault signature over a beneficiary key. */
export async function keySignatureFor(token: string, fields: Omit<KeyStatementFields, 'ownerId'>): Promise<string> {
  return signWith(await vaultSigner(token), fields)
}

/** The owner's own beneficiary `id`, if the owner has it (for signing a change to it). */
async function beneficiaryOf(token: string, id: string): Promise<{ email: string; keyVersion: number; publicKey: string } | undefined> {
  const res = await call('/api/beneficiaries', { token })
  if (res.status !== 200) return undefined
  return ((await res.json()) as Array<{ id: string; email: string; keyVersion: number; publicKey: string }>).find((b) => b.id === id)
}

/** A body for PUT /api/beneficiaries/:id: a new e-mail comes with the vault's signature for it (unless given). */
export async function signedUpdate(token: string, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof body.email !== 'string' || 'keySignature' in body) return body
  const current = await beneficiaryOf(token, id)
  if (!current) return { ...body, keySignature: WELL_FORMED_SIGNATURE }
  return { ...body, keySignature: await keySignatureFor(token, { email: body.email, keyVersion: current.keyVersion, publicKey: current.publicKey }).catch(() => undefined) }
}

/** A body for POST /api/beneficiaries/:id/rotate-key: the new key signed at the next version (unless given). */
export async function signedRotation(token: string, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if ('keySignature' in body || typeof body.publicKey !== 'string') return body
  const current = await beneficiaryOf(token, id)
  if (!current) return { ...body, keySignature: WELL_FORMED_SIGNATURE }
  return { ...body, keySignature: await keySignatureFor(token, { email: current.email, keyVersion: current.keyVersion + 1, publicKey: body.publicKey }).catch(() => undefined) }
}
