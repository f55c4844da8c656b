import { parseRecoveryCode, recoveryCodeFromBytes, RECOVERY_RANDOM_SYMBOLS } from '../../contract/vault-recovery'
import { AAD_PURPOSE, buildAad } from './aad'
import { fromBase64, toBase64, utf8 } from './encoding'
import { decodeEnvelope, frame, randomIv, unframe } from './envelope'
import { DecryptionError } from './errors'
import type { MasterKey } from './keys'
import { AES_KEY_BITS, SALT_BYTES, VAULT_FORMAT_VERSION } from './params'
import { randomBytes, subtle } from './subtle'

// The owner's recovery code (FORMAT.md "Recovery code"): a second wrap of the vault key, under a
// key from the code rather than the passphrase. The code is 135 random bits, so HKDF-SHA256 (no
// stretching) makes its key; the wrap is AES-GCM with its own purpose tag, so no other wrapped
// value (the passphrase's wrap, an heir's backup) can stand in for it.

/** Opaque: an AES-GCM-256 key from a recovery code; wraps only the vault key. */
export type RecoveryKey = CryptoKey & { readonly __brand: 'RecoveryKey' }

const HKDF_INFO = 'legacy-vault:recovery-code'
const VAULT_KEY_ALGORITHM = { name: 'AES-GCM', length: AES_KEY_BITS } as const
const VAULT_KEY_USAGES: KeyUsage[] = ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']

function wrapParams(iv: Uint8Array<ArrayBuffer>): AesGcmParams {
  return { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.recoveryKeyWrap, VAULT_FORMAT_VERSION) }
}

/** A fresh code as printed (seven groups of four), from the browser's random source. */
export function generateRecoveryCode(): string {
  return recoveryCodeFromBytes(randomBytes(RECOVERY_RANDOM_SYMBOLS))
}

/** A code's own salt: base64 of 32 random bytes, stored with its wrap. */
export function generateRecoverySalt(): string {
  return toBase64(randomBytes(SALT_BYTES))
}

/**
 * HKDF-SHA256 over the code's 27 random symbols (as typed, once normalised: contract/
 * vault-recovery.ts), with the stored salt. RangeError for text that is not a whole, valid code.
 */
export async function deriveRecoveryKey(code: string, saltB64: string): Promise<RecoveryKey> {
  const parsed = parseRecoveryCode(code)
  if (!parsed.ok) throw new RangeError(`Not a recovery code (${parsed.problem})`)
  const salt = fromBase64(saltB64)
  if (salt.length !== SALT_BYTES) throw new Error(`Recovery salt must be ${SALT_BYTES} bytes`)
  const material = await subtle().importKey('raw', utf8(parsed.symbols), 'HKDF', false, ['deriveKey'])
  return (await subtle().deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: utf8(HKDF_INFO) }, material, VAULT_KEY_ALGORITHM, false, [
    'wrapKey',
    'unwrapKey',
  ])) as RecoveryKey
}

/** The vault key (extractable) wrapped by a recovery key: base64 of version || iv || AES-GCM output, 61 bytes. */
export async function wrapVaultKeyForRecovery(vaultKey: MasterKey, recoveryKey: RecoveryKey): Promise<string> {
  const iv = randomIv()
  return toBase64(frame(iv, await subtle().wrapKey('raw', vaultKey, recoveryKey, wrapParams(iv))))
}

/** The vault key back from its recovery wrap; DecryptionError for another code, or altered or swapped bytes. */
export async function unwrapVaultKeyWithRecovery(wrapped: string, recoveryKey: RecoveryKey, extractable = false): Promise<MasterKey> {
  const { iv, body } = unframe(decodeEnvelope(wrapped))
  try {
    return (await subtle().unwrapKey(
      'raw',
      body,
      recoveryKey,
      wrapParams(iv),
      VAULT_KEY_ALGORITHM,
      extractable,
      VAULT_KEY_USAGES,
    )) as MasterKey
  } catch (cause) {
    throw new DecryptionError('Could not unwrap the vault key: wrong recovery code or data altered', { cause })
  }
}
