import { AAD_PURPOSE, buildAad } from './aad'
import { toBase64, utf8 } from './encoding'
import { decodeEnvelope, open, seal } from './envelope'
import { DecryptionError } from './errors'
import type { DataKey } from './keys'

// Item metadata (file name, MIME type, tags, password-entry fields) is JSON encrypted with the
// item's DEK. The AAD binds it to its item id, so the server cannot swap two items' metadata.

function metadataAad(itemId: string): Uint8Array<ArrayBuffer> {
  return buildAad(AAD_PURPOSE.metadata, itemId)
}

/** JSON of `value`, encrypted: base64 of version || iv || ciphertext. */
export async function encryptMetadata<T>(dek: DataKey, itemId: string, value: T): Promise<string> {
  const json = JSON.stringify(value)
  if (json === undefined) throw new TypeError('Metadata must be JSON-serialisable')
  return toBase64(await seal(dek, utf8(json), metadataAad(itemId)))
}

/**
 * The value back. The type parameter is trusted, not checked: validate the result (e.g. with the
 * contract's zod schema) where its shape matters. DecryptionError for the wrong key, the wrong item
 * or altered bytes.
 */
export async function decryptMetadata<T>(dek: DataKey, itemId: string, data: string): Promise<T> {
  const plain = await open(dek, decodeEnvelope(data), metadataAad(itemId))
  try {
    return JSON.parse(new TextDecoder().decode(plain)) as T
  } catch (cause) {
    throw new DecryptionError('Decrypted metadata is not JSON', { cause })
  }
}
