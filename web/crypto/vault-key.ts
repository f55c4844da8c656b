import { AAD_PURPOSE, buildAad } from './aad'
import { toBase64 } from './encoding'
import { decodeEnvelope, frame, randomIv, unframe } from './envelope'
import { DecryptionError } from './errors'
import type { MasterKey, PassphraseKey } from './keys'
import { AES_KEY_BITS, VAULT_FORMAT_VERSION } from './params'
import { subtle } from './subtle'

// The vault key (vault format 2, FORMAT.md): a random AES-GCM-256 key that wraps what the
// passphrase's key wrapped in format 1 (data keys, the signing key, policies' keys). The
// passphrase's key wraps only it, so changing the passphrase re-wraps 32 bytes whatever the vault holds.

const VAULT_KEY_ALGORITHM = { name: 'AES-GCM', length: AES_KEY_BITS } as const
const VAULT_KEY_USAGES: KeyUsage[] = ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']

function wrapParams(iv: Uint8Array<ArrayBuffer>): AesGcmParams {
  return { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.vaultKeyWrap, VAULT_FORMAT_VERSION) }
}

/** A fresh vault key; extractable only so that wrapVaultKey can wrap it (keep it in memory only). */
export async function generateVaultKey(): Promise<MasterKey> {
  return (await subtle().generateKey(VAULT_KEY_ALGORITHM, true, VAULT_KEY_USAGES)) as MasterKey
}

/**
 * The vault key wrapped by the passphrase's key: base64 of version || iv || AES-GCM output
 * (61 bytes), AAD `legacy-vault:vault-key-wrap` with the vault format. Needs an extractable key
 * (generateVaultKey's, or unwrapVaultKey's with `extractable`).
 */
export async function wrapVaultKey(vaultKey: MasterKey, passphraseKey: PassphraseKey): Promise<string> {
  const iv = randomIv()
  return toBase64(frame(iv, await subtle().wrapKey('raw', vaultKey, passphraseKey, wrapParams(iv))))
}

/**
 * The vault key back from wrapVaultKey's output, non-extractable unless asked (a passphrase
 * change re-wraps it). DecryptionError when it does not authenticate: another passphrase's key,
 * altered bytes, or another kind of wrapped value put in its place.
 */
export async function unwrapVaultKey(wrapped: string, passphraseKey: PassphraseKey, extractable = false): Promise<MasterKey> {
  const { iv, body } = unframe(decodeEnvelope(wrapped))
  try {
    return (await subtle().unwrapKey('raw', body, passphraseKey, wrapParams(iv), VAULT_KEY_ALGORITHM, extractable, VAULT_KEY_USAGES)) as MasterKey
  } catch (cause) {
    throw new DecryptionError('Could not unwrap the vault key: wrong passphrase or data altered', { cause })
  }
}
