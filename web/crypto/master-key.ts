import { AAD_PURPOSE, buildAad } from './aad'
import { fromBase64, toBase64, utf8 } from './encoding'
import { decodeEnvelope, openParts, seal, unframe } from './envelope'
import { DecryptionError } from './errors'
import type { MasterKey, PassphraseKey } from './keys'
import { AES_KEY_BITS, PBKDF2_HASH, PBKDF2_ITERATIONS, SALT_BYTES } from './params'
import { randomBytes, subtle } from './subtle'

// The master key is derived from the vault passphrase (never from the account password) and
// never leaves the browser: it is non-extractable, so not even this code can read its bytes.

/** The known plaintext behind the passphrase check; public, its purpose is recognition. */
const PASSPHRASE_CHECK_PLAINTEXT = 'legacy-vault:passphrase-check:v1'

/** A new vault's salt: base64 of 32 random bytes, stored by the server in clear. */
export function generateVaultSalt(): string {
  return toBase64(randomBytes(SALT_BYTES))
}

/**
 * PBKDF2-SHA256 (600 000 iterations) of the NFC-normalised passphrase, so the same passphrase
 * typed on keyboards that compose accents differently gives the same key.
 */
export async function deriveMasterKey(passphrase: string, saltB64: string): Promise<MasterKey> {
  return (await derive(passphrase, saltB64)) as MasterKey
}

/** The same derivation for a vault of format 2: this key only wraps the vault key and the check. */
export async function derivePassphraseKey(passphrase: string, saltB64: string): Promise<PassphraseKey> {
  return (await derive(passphrase, saltB64)) as PassphraseKey
}

async function derive(passphrase: string, saltB64: string): Promise<CryptoKey> {
  const salt = fromBase64(saltB64)
  if (salt.length !== SALT_BYTES) throw new Error(`Vault salt must be ${SALT_BYTES} bytes`)
  const material = await subtle().importKey('raw', utf8(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey'])
  const key = await subtle().deriveKey(
    { name: 'PBKDF2', salt, iterations: PBKDF2_ITERATIONS, hash: PBKDF2_HASH },
    material,
    { name: 'AES-GCM', length: AES_KEY_BITS },
    false,
    ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'],
  )
  return key
}

/**
 * A value the server stores so the browser can tell a wrong passphrase from a right one before
 * it tries to unwrap anything: the known plaintext encrypted under the passphrase's key (the
 * master key of a format-1 vault). In format 2 it is what tells a wrong passphrase (the check
 * fails) from a swapped vault-key wrap (the check opens, the wrap does not).
 */
export async function createPassphraseCheck(key: MasterKey | PassphraseKey): Promise<string> {
  return toBase64(await seal(key, utf8(PASSPHRASE_CHECK_PLAINTEXT), buildAad(AAD_PURPOSE.passphraseCheck)))
}

/**
 * true iff `check` decrypts under `key` to the known plaintext; false for another passphrase's key
 * (or a check that fails authentication). Throws DecryptionError when `check` is not a check value
 * at all (bad base64, too short, unknown version): that is corruption, not a wrong passphrase.
 */
export async function verifyPassphrase(key: MasterKey | PassphraseKey, check: string): Promise<boolean> {
  const parts = unframe(decodeEnvelope(check))
  try {
    const plain = await openParts(key, parts, buildAad(AAD_PURPOSE.passphraseCheck))
    return new TextDecoder().decode(plain) === PASSPHRASE_CHECK_PLAINTEXT
  } catch (error) {
    if (error instanceof DecryptionError) return false
    throw error
  }
}
