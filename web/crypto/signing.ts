import { keyStatement, type KeyStatementFields } from '../../contract/key-signing'
import { AAD_PURPOSE, buildAad } from './aad'
import { fromBase64, toBase64, utf8 } from './encoding'
import { decodeEnvelope, frame, randomIv, unframe } from './envelope'
import { DecryptionError } from './errors'
import type { MasterKey, SigningPrivateKey } from './keys'
import { subtle } from './subtle'

// The owner's vault signing key (contract/key-signing.ts): an ECDSA P-256 key pair made in the
// browser at vault setup. The server stores the public key in clear (base64 SPKI) and the private
// key only wrapped by the master key, like a data key, so only a browser holding the unlocked
// vault can sign a beneficiary key statement. Bytes: FORMAT.md, "Beneficiary key statements".

const SIGNING_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const
const SIGNATURE_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const

/**
 * Signed and verified by signingKeyMatches only, never sent anywhere. Distinct from every key
 * statement (those begin with KEY_STATEMENT_TAG), so a probe signature is never a statement's.
 */
const SIGNING_KEY_PROBE = 'legacy-vault:signing-key-probe:v1'

export interface SigningKeyPair {
  /** base64 SPKI (91 bytes, 124 characters): what the server stores in clear. */
  publicKey: string
  /** Extractable so that wrapSigningKey can wrap it; keep it in memory only. */
  privateKey: SigningPrivateKey
}

function wrapParams(iv: Uint8Array<ArrayBuffer>): AesGcmParams {
  return { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.signingKeyWrap) }
}

/** A new ECDSA P-256 key pair for a vault (at setup, or at the first unlock of an older vault). */
export async function generateSigningKeyPair(): Promise<SigningKeyPair> {
  const pair = await subtle().generateKey(SIGNING_KEY_ALGORITHM, true, ['sign', 'verify'])
  const spki = await subtle().exportKey('spki', pair.publicKey)
  return { publicKey: toBase64(new Uint8Array(spki)), privateKey: pair.privateKey as SigningPrivateKey }
}

/**
 * The private key (PKCS#8) wrapped by the master key: base64 of version || iv || AES-GCM output,
 * AAD `legacy-vault:signing-key-wrap`. Needs the extractable key from generateSigningKeyPair.
 */
export async function wrapSigningKey(privateKey: SigningPrivateKey, master: MasterKey): Promise<string> {
  const iv = randomIv()
  return toBase64(frame(iv, await subtle().wrapKey('pkcs8', privateKey, master, wrapParams(iv))))
}

/**
 * The private key back from wrapSigningKey's output: non-extractable, for 'sign' only.
 * DecryptionError for the wrong master key, altered bytes, or another kind of wrapped value.
 */
export async function unwrapSigningKey(wrapped: string, master: MasterKey): Promise<SigningPrivateKey> {
  const { iv, body } = unframe(decodeEnvelope(wrapped))
  try {
    const key = await subtle().unwrapKey('pkcs8', body, master, wrapParams(iv), SIGNING_KEY_ALGORITHM, false, ['sign'])
    return key as SigningPrivateKey
  } catch (cause) {
    throw new DecryptionError('Could not unwrap the signing key: wrong passphrase or data altered', { cause })
  }
}

/**
 * The wrapped private key moved from one wrapping key to another (a vault's move to a vault key):
 * unwrapped extractable only inside this call, then wrapped again. DecryptionError as unwrapSigningKey.
 */
export async function rewrapSigningKey(wrapped: string, from: MasterKey, to: MasterKey): Promise<string> {
  const { iv, body } = unframe(decodeEnvelope(wrapped))
  let key: CryptoKey
  try {
    key = await subtle().unwrapKey('pkcs8', body, from, wrapParams(iv), SIGNING_KEY_ALGORITHM, true, ['sign'])
  } catch (cause) {
    throw new DecryptionError('Could not unwrap the signing key: wrong passphrase or data altered', { cause })
  }
  return wrapSigningKey(key as SigningPrivateKey, to)
}

/** ECDSA P-256 / SHA-256 over UTF-8 bytes; IEEE P1363 (r || s, 64 bytes) in base64 (88 chars). */
export async function signStatement(privateKey: SigningPrivateKey, text: string): Promise<string> {
  return toBase64(new Uint8Array(await subtle().sign(SIGNATURE_ALGORITHM, privateKey, utf8(text))))
}

/** false, never an exception, for a malformed key or signature: neither is to be trusted. */
export async function verifyStatement(signingPublicKey: string, text: string, signature: string): Promise<boolean> {
  try {
    return await subtle().verify(SIGNATURE_ALGORITHM, await verifyingKey(signingPublicKey), fromBase64(signature), utf8(text))
  } catch {
    return false
  }
}

// A portal checks every released item's seal against one vault key, and the owner's browser every
// beneficiary's statement: each public key is imported once, not once per statement. Public keys
// only, and few (the last VERIFYING_KEYS_KEPT); a key that fails to import is not kept.
const VERIFYING_KEYS_KEPT = 8
const verifyingKeys = new Map<string, Promise<CryptoKey>>()

function verifyingKey(signingPublicKey: string): Promise<CryptoKey> {
  const known = verifyingKeys.get(signingPublicKey)
  if (known) return known
  const imported = subtle().importKey('spki', fromBase64(signingPublicKey), SIGNING_KEY_ALGORITHM, false, ['verify'])
  verifyingKeys.set(signingPublicKey, imported)
  imported.catch(() => verifyingKeys.delete(signingPublicKey))
  if (verifyingKeys.size > VERIFYING_KEYS_KEPT) verifyingKeys.delete(verifyingKeys.keys().next().value!)
  return imported
}

/** The owner's signature over keyStatement(fields): base64 IEEE P1363 (88 characters). */
export async function signKeyStatement(privateKey: SigningPrivateKey, fields: KeyStatementFields): Promise<string> {
  return signStatement(privateKey, keyStatement(fields))
}

/**
 * true iff `signature` is the vault signing key's signature over keyStatement(fields). false (not
 * an error) for any other statement or key, an altered signature, or malformed base64.
 */
export async function verifyKeyStatement(
  signingPublicKey: string,
  fields: KeyStatementFields,
  signature: string,
): Promise<boolean> {
  return verifyStatement(signingPublicKey, keyStatement(fields), signature)
}

/**
 * true iff `privateKey` is the private half of `signingPublicKey` (a probe text signed with one
 * verifies with the other). At unlock the browser trusts the server's stored public key only if
 * the key its own master key unwrapped matches it. false for a malformed public key.
 */
export async function signingKeyMatches(privateKey: SigningPrivateKey, signingPublicKey: string): Promise<boolean> {
  return verifyStatement(signingPublicKey, SIGNING_KEY_PROBE, await signStatement(privateKey, SIGNING_KEY_PROBE))
}
