import { keyStatement, type KeyStatementFields } from '../../contract/key-signing'
import { beneficiaryStatement, grantsStatement, type BeneficiaryStatementFields, type StatedGrant } from '../../contract/vault-statements'
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
export const ownerIdOf = (token: string) => (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string }).sub

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
    wrappedVaultKey: toBase64(crypto.getRandomValues(new Uint8Array(61))),
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

/** `signer`'s signature over the UTF-8 of `text` (base64 IEEE P1363, as the browser makes it). */
export async function signTextWith(signer: Pick<Signer, 'privateKey'>, text: string): Promise<string> {
  return toBase64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, signer.privateKey, new TextEncoder().encode(text)))
}

/** Signs the v1 statement for a beneficiary key with `signer`'s key (owner id filled in): no longer taken for any write. */
export async function signWith(signer: Pick<Signer, 'ownerId' | 'privateKey'>, fields: Omit<KeyStatementFields, 'ownerId'>): Promise<string> {
  return signTextWith(signer, keyStatement({ ownerId: signer.ownerId, ...fields }))
}

/** `token`'s vault signature over a v1 key statement (refused since 0.3; kept to show that it is). */
export async function keySignatureFor(token: string, fields: Omit<KeyStatementFields, 'ownerId'>): Promise<string> {
  return signWith(await vaultSigner(token), fields)
}

// The sequence the next statement carries, per owner, as the owner's browser keeps it: one above
// the newest used here or reported by the server (a 409 names it).
const sequences = new Map<string, number>()

/** A fresh sequence for `token`'s owner, above every one handed out before. */
export function nextSequence(token: string): number {
  const owner = ownerIdOf(token)
  const next = (sequences.get(owner) ?? 0) + 1
  sequences.set(owner, next)
  return next
}

/** The server reported `highest` as the newest statement it took: the next one goes above it. */
export function noteHighestSequence(token: string, highest: number): void {
  const owner = ownerIdOf(token)
  if ((sequences.get(owner) ?? 0) < highest) sequences.set(owner, highest)
}

export type StatedFields = Omit<BeneficiaryStatementFields, 'ownerId'>

/** `token`'s vault signature over the beneficiary statement (v2) for `fields`. */
export async function statementSignatureFor(token: string, fields: StatedFields): Promise<string> {
  const signer = await vaultSigner(token)
  return signTextWith(signer, beneficiaryStatement({ ownerId: signer.ownerId, ...fields }))
}

/** A fresh sequence and `token`'s signature over the statement for `fields` at it. */
export async function statedBy(token: string, fields: Omit<StatedFields, 'sequence'>): Promise<{ keySignature: string; statementSequence: number }> {
  const statementSequence = nextSequence(token)
  return { keySignature: await statementSignatureFor(token, { ...fields, sequence: statementSequence }), statementSequence }
}

/**
 * Sends a request that carries a statement, as the owner's browser does: a 409 naming the newest
 * sequence the server took (another request got there first) is signed again above it, once.
 */
export async function sendStated(token: string, send: () => Promise<Response>): Promise<Response> {
  const first = await send()
  if (first.status !== 409) return first
  const highest = ((await first.clone().json()) as { statementSequence?: number }).statementSequence
  if (typeof highest !== 'number') return first
  noteHighestSequence(token, highest)
  return send()
}

/** `token`'s vault signature over grantsStatement(owner, grants). */
export async function grantsSignatureFor(token: string, grants: readonly StatedGrant[]): Promise<string> {
  const signer = await vaultSigner(token)
  return signTextWith(signer, grantsStatement(signer.ownerId, grants))
}

interface ListedBeneficiary {
  id: string
  fullName: string
  relationship: string
  email: string
  keyVersion: number
  publicKey: string
}

/** The owner's own beneficiary `id`, if the owner has it (for signing a change to it). */
export async function beneficiaryOf(token: string, id: string): Promise<ListedBeneficiary | undefined> {
  const res = await call('/api/beneficiaries', { token })
  if (res.status !== 200) return undefined
  return ((await res.json()) as ListedBeneficiary[]).find((b) => b.id === id)
}

const LABELS = ['fullName', 'relationship', 'email'] as const

/**
 * A body for PUT /api/beneficiaries/:id: a new name, relationship or e-mail comes with the vault's
 * statement over the row as it will be (unless a keySignature is given).
 */
export async function signedUpdate(token: string, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!LABELS.some((k) => typeof body[k] === 'string') || 'keySignature' in body) return body
  const current = await beneficiaryOf(token, id)
  if (!current) return { ...body, keySignature: WELL_FORMED_SIGNATURE, statementSequence: nextSequence(token) }
  const edited = { ...current, ...Object.fromEntries(LABELS.filter((k) => typeof body[k] === 'string').map((k) => [k, (body[k] as string).trim()])) }
  if (typeof body.email === 'string') edited.email = body.email.trim().toLowerCase()
  const stated = await statedBy(token, { beneficiaryId: id, fullName: edited.fullName, relationship: edited.relationship, email: edited.email, keyVersion: current.keyVersion, publicKey: current.publicKey }).catch(() => undefined)
  return { ...body, ...stated }
}

/**
 * A body for POST /api/beneficiaries/:id/rotate-key: the new key stated at the next version, and
 * the grants signed at it (each unless given).
 */
export async function signedRotation(token: string, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (typeof body.publicKey !== 'string') return body
  const current = await beneficiaryOf(token, id)
  const out: Record<string, unknown> = { ...body }
  if (!current) return { keySignature: WELL_FORMED_SIGNATURE, statementSequence: nextSequence(token), grantsSignature: WELL_FORMED_SIGNATURE, ...body }
  const keyVersion = current.keyVersion + 1
  if (!('keySignature' in body)) {
    Object.assign(out, await statedBy(token, { beneficiaryId: id, fullName: current.fullName, relationship: current.relationship, email: current.email, keyVersion, publicKey: body.publicKey }).catch(() => ({})))
  }
  if (!('grantsSignature' in body) && Array.isArray(body.grants)) {
    const grants = (body.grants as Array<{ itemId: string; wrappedKey: string }>).map((g) => ({ ...g, beneficiaryId: id, keyVersion }))
    out.grantsSignature = await grantsSignatureFor(token, grants).catch(() => undefined)
  }
  return out
}
