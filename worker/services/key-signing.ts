import { keyStatement, type KeyStatementFields } from '../../contract/key-signing'
import { fromBase64 } from '../lib/crypto'
import { badRequest } from '../lib/errors'
import { signingPublicKeyOf } from '../owner/vault-keys'

/**
 * Whether `signature` (ECDSA P-256 / SHA-256, IEEE P1363, base64) is the vault signing key's
 * (`signingPublicKey`, base64 SPKI) over the statement for `fields`. False, never a throw, for
 * anything malformed.
 */
export async function verifyKeySignature(signingPublicKey: string, fields: KeyStatementFields, signature: string): Promise<boolean> {
  return verifyVaultSignature(signingPublicKey, keyStatement(fields), signature)
}

/**
 * Whether `signature` is the vault signing key's over the UTF-8 of `text` (any statement of
 * contract/vault-statements.ts). False, never a throw, for anything malformed.
 */
export async function verifyVaultSignature(signingPublicKey: string, text: string, signature: string): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey('spki', fromBase64(signingPublicKey), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
    return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, fromBase64(signature), new TextEncoder().encode(text))
  } catch {
    return false
  }
}

/** 400 naming `field` unless `signature` is the vault's over `text`; 409 for a vault without a signing key. */
export async function checkVaultSignature(storage: DurableObjectStorage, text: string, signature: string, field: string, message: string): Promise<void> {
  if (!(await verifyVaultSignature(signingPublicKeyOf(storage), text, signature))) throw badRequest(`${field}: ${message}`, { errors: [{ field, message }] })
}
