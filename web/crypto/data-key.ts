import { AAD_PURPOSE, buildAad } from './aad'
import { toBase64 } from './encoding'
import { decodeEnvelope, frame, randomIv, unframe } from './envelope'
import { DecryptionError } from './errors'
import type { DataKey, MasterKey } from './keys'
import { AES_KEY_BITS } from './params'
import { subtle } from './subtle'

// One data key (DEK) per item. The server keeps it only wrapped by the master key, so a passphrase
// change or a new beneficiary means re-wrapping one small key, never re-encrypting the content.
// wrapKey/unwrapKey keep the raw key bytes inside WebCrypto rather than in JS memory.

const DATA_KEY_ALGORITHM = { name: 'AES-GCM', length: AES_KEY_BITS } as const

/** A fresh AES-GCM-256 DEK; extractable only so that it can be wrapped (master key, beneficiaries). */
export async function generateDataKey(): Promise<DataKey> {
  const key = await subtle().generateKey(DATA_KEY_ALGORITHM, true, ['encrypt', 'decrypt'])
  return key as DataKey
}

/** The DEK wrapped by the master key: base64 of version || iv || wrapped key (61 bytes). */
export async function wrapDataKey(dek: DataKey, master: MasterKey): Promise<string> {
  const iv = randomIv()
  const params = { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.dataKeyWrap) }
  return toBase64(frame(iv, await subtle().wrapKey('raw', dek, master, params)))
}

/**
 * The DEK back from wrapDataKey's output, extractable again so the owner can re-wrap it for a
 * beneficiary. DecryptionError for the wrong master key or altered bytes.
 */
export async function unwrapDataKey(wrapped: string, master: MasterKey): Promise<DataKey> {
  const { iv, body } = unframe(decodeEnvelope(wrapped))
  try {
    const params = { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.dataKeyWrap) }
    const key = await subtle().unwrapKey('raw', body, master, params, DATA_KEY_ALGORITHM, true, ['encrypt', 'decrypt'])
    return key as DataKey
  } catch (cause) {
    throw new DecryptionError('Could not unwrap the data key: wrong passphrase or data altered', { cause })
  }
}
