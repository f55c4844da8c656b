import { formatFingerprint } from '../../contract/circle'
import { fromBase64 } from '../lib/crypto'

/**
 * Checks that a beneficiary public key really is an RSA-OAEP/SHA-256 key of 2048 bits, and returns
 * its fingerprint (as the Access Kit prints it), or null when it is not.
 */
export async function inspectBeneficiaryPublicKey(spkiBase64: string): Promise<{ fingerprint: string } | null> {
  try {
    const spki = fromBase64(spkiBase64)
    const key = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt'])
    const algorithm = key.algorithm as { modulusLength?: number }
    if (algorithm.modulusLength !== 2048) return null
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', spki))
    return { fingerprint: formatFingerprint(digest) }
  } catch {
    return null
  }
}
