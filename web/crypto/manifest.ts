import { bufferSource, subtle } from './subtle'

/**
 * SHA-256 of one ciphertext chunk exactly as it is sent (version, IV, AES-GCM output): the item
 * manifest's content digest is taken over these, in order (FORMAT.md, "Item manifests").
 */
export async function chunkDigest(chunk: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', bufferSource(chunk)))
}
