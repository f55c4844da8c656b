import { AES_KEY_BITS, RSA_HASH, RSA_MODULUS_BITS } from './params'
import { fromBase64, toBase64 } from './encoding'
import { DecryptionError, InvalidPrivateKeyError, MissingPrivateKeyError } from './errors'
import type { BeneficiaryPrivateKey, BeneficiaryPublicKey, DataKey } from './keys'
import { subtle } from './subtle'

// A beneficiary's RSA-OAEP key pair is made in the owner's browser. The server gets the public
// key (spki) only; the private key (pkcs8) goes into the Access Kit the owner hands over outside
// the service (ARCHITECTURE §3). A grant is an item's DEK wrapped with the public key.

const RSA_ALGORITHM = { name: 'RSA-OAEP', hash: RSA_HASH } as const
/** 65537, big-endian, as WebCrypto wants it. */
const RSA_PUBLIC_EXPONENT = Uint8Array.of(0x01, 0x00, 0x01)
const PEM_PRIVATE_KEY = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/

export interface BeneficiaryKeyPair {
  publicKey: BeneficiaryPublicKey
  /** base64 spki: what the server stores. */
  publicKeySpki: string
  /** base64 pkcs8: for the Access Kit only; never sent to the server. */
  privateKeyPkcs8: string
}

/** A new RSA-OAEP-2048 / SHA-256 key pair (e = 65537). */
export async function generateBeneficiaryKeyPair(): Promise<BeneficiaryKeyPair> {
  const pair = await subtle().generateKey(
    { ...RSA_ALGORITHM, modulusLength: RSA_MODULUS_BITS, publicExponent: RSA_PUBLIC_EXPONENT },
    true,
    ['wrapKey', 'unwrapKey'],
  )
  const [spki, pkcs8] = await Promise.all([
    subtle().exportKey('spki', pair.publicKey),
    subtle().exportKey('pkcs8', pair.privateKey),
  ])
  return {
    publicKey: pair.publicKey as BeneficiaryPublicKey,
    publicKeySpki: toBase64(new Uint8Array(spki)),
    privateKeyPkcs8: toBase64(new Uint8Array(pkcs8)),
  }
}

/**
 * A stored public key. Refuses RSA keys shorter than 2048 bits: the server is not trusted, and a
 * substituted weak key would expose every grant made with it (the fingerprint guards the rest).
 */
export async function importBeneficiaryPublicKey(spkiB64: string): Promise<BeneficiaryPublicKey> {
  const key = await subtle().importKey('spki', fromBase64(spkiB64), RSA_ALGORITHM, true, ['wrapKey'])
  const { modulusLength } = key.algorithm as RsaHashedKeyAlgorithm
  if (modulusLength < RSA_MODULUS_BITS) {
    throw new Error(`Beneficiary public key must be at least ${RSA_MODULUS_BITS} bits`)
  }
  return key as BeneficiaryPublicKey
}

/** The base64 pkcs8 inside whatever the beneficiary pasted or uploaded. */
export function pkcs8FromInput(input: string): string {
  const pem = PEM_PRIVATE_KEY.exec(input)
  if (pem) return (pem[1] ?? '').replace(/\s+/g, '')
  if (input.includes('-----BEGIN')) throw new InvalidPrivateKeyError() // e.g. PKCS#1 or encrypted PEM
  return input.replace(/\s+/g, '')
}

/**
 * The private key from raw base64 pkcs8, a PEM block, or the whole text of an Access Kit that
 * contains one. Non-extractable: the beneficiary's browser only ever unwraps with it.
 * MissingPrivateKeyError for empty input; InvalidPrivateKeyError for anything else unusable.
 */
export async function importBeneficiaryPrivateKey(input: string): Promise<BeneficiaryPrivateKey> {
  if (typeof input !== 'string' || input.trim() === '') throw new MissingPrivateKeyError()
  let der: Uint8Array<ArrayBuffer>
  try {
    der = fromBase64(pkcs8FromInput(input))
  } catch (error) {
    throw error instanceof InvalidPrivateKeyError ? error : new InvalidPrivateKeyError()
  }
  try {
    const key = await subtle().importKey('pkcs8', der, RSA_ALGORITHM, false, ['unwrapKey'])
    return key as BeneficiaryPrivateKey
  } catch (cause) {
    throw new InvalidPrivateKeyError({ cause })
  }
}

/** PEM text of a base64 pkcs8 key, 64-character lines (RFC 7468), for the Access Kit. */
export function privateKeyToPem(pkcs8B64: string): string {
  const body = toBase64(fromBase64(pkcs8B64.replace(/\s+/g, '')))
  const lines = body.match(/.{1,64}/g) ?? []
  return ['-----BEGIN PRIVATE KEY-----', ...lines, '-----END PRIVATE KEY-----', ''].join('\n')
}

/**
 * SHA-256 of the spki bytes as 16 groups of 4 uppercase hex digits ('A1B2 C3D4 …'): short enough
 * to read aloud, so owner and beneficiary can compare the key the server holds with the kit's.
 */
export async function publicKeyFingerprint(spkiB64: string): Promise<string> {
  const digest = new Uint8Array(await subtle().digest('SHA-256', fromBase64(spkiB64)))
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase()
  return (hex.match(/.{4}/g) ?? []).slice(0, 16).join(' ')
}

/** A grant: the raw DEK wrapped with RSA-OAEP under the beneficiary's public key, base64. */
export async function wrapDataKeyForBeneficiary(dek: DataKey, publicKey: BeneficiaryPublicKey): Promise<string> {
  return toBase64(new Uint8Array(await subtle().wrapKey('raw', dek, publicKey, { name: 'RSA-OAEP' })))
}

/**
 * The DEK from a grant. Non-extractable: a beneficiary decrypts, never re-wraps.
 * DecryptionError for another beneficiary's key or altered bytes.
 */
export async function unwrapDataKeyForBeneficiary(wrapped: string, privateKey: BeneficiaryPrivateKey): Promise<DataKey> {
  let bytes: Uint8Array<ArrayBuffer>
  try {
    bytes = fromBase64(wrapped)
  } catch {
    throw new DecryptionError('Malformed ciphertext: not base64')
  }
  try {
    const key = await subtle().unwrapKey(
      'raw',
      bytes,
      privateKey,
      { name: 'RSA-OAEP' },
      { name: 'AES-GCM', length: AES_KEY_BITS },
      false,
      ['encrypt', 'decrypt'],
    )
    return key as DataKey
  } catch (cause) {
    throw new DecryptionError('Could not unwrap the data key: wrong private key or data altered', { cause })
  }
}
