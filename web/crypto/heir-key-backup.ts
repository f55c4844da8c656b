import { z } from 'zod'
import { AAD_PURPOSE, buildAad } from './aad'
import { importBeneficiaryPrivateKey, importBeneficiaryPublicKey, pkcs8FromInput } from './beneficiary-keys'
import { fromBase64, toBase64, utf8 } from './encoding'
import { decodeEnvelope, openParts, seal, unframe } from './envelope'
import { DecryptionError, InvalidPrivateKeyError, KeyMismatchError } from './errors'
import type { BeneficiaryPrivateKey } from './keys'
import { deriveMasterKey, generateVaultSalt } from './master-key'
import { AES_KEY_BITS } from './params'
import { subtle } from './subtle'

// An heir's own backup of their private key (FORMAT.md "Heir key backup"): the PKCS#8 key and the
// vault fingerprints their kit printed, as JSON, sealed with AES-GCM under PBKDF2(passphrase) with
// a fresh salt. The AAD names the owner, the beneficiary and the key version, so the server cannot
// hand one person's backup to another, or an old key's backup for a new key, without failing
// authentication; the unwrapped key must also match the public key the vault holds for them.

/** Who and which key a backup belongs to: the AAD's fields. */
export interface HeirBackupBinding {
  ownerId: string
  beneficiaryId: string
  keyVersion: number
}

export interface HeirKeyBackupBytes {
  /** base64 envelope (version || iv || ciphertext). */
  backup: string
  /** base64 of 32 random bytes. */
  salt: string
}

const plaintextSchema = z.strictObject({
  v: z.literal(1),
  pkcs8: z.string(),
  vaultFingerprints: z.array(z.string()),
})

const aadOf = (b: HeirBackupBinding) => buildAad(AAD_PURPOSE.heirKeyBackup, b.ownerId, b.beneficiaryId, b.keyVersion)

/** The same PBKDF2-SHA256 (600 000 iterations) as the vault passphrase, under the backup's own salt. */
const deriveBackupKey = (passphrase: string, salt: string) => deriveMasterKey(passphrase, salt) as Promise<CryptoKey>

/**
 * true iff `privateKey` opens what `publicKeySpki` wraps: a fresh random key is wrapped with the
 * public key and must come back unchanged through the private one.
 */
export async function privateKeyMatches(privateKey: BeneficiaryPrivateKey, publicKeySpki: string): Promise<boolean> {
  const publicKey = await importBeneficiaryPublicKey(publicKeySpki)
  const probe = await subtle().generateKey({ name: 'AES-GCM', length: AES_KEY_BITS }, true, ['encrypt'])
  const wrapped = await subtle().wrapKey('raw', probe, publicKey, { name: 'RSA-OAEP' })
  try {
    const back = await subtle().unwrapKey('raw', wrapped, privateKey, { name: 'RSA-OAEP' }, { name: 'AES-GCM', length: AES_KEY_BITS }, true, ['encrypt'])
    const [a, b] = await Promise.all([subtle().exportKey('raw', probe), subtle().exportKey('raw', back)])
    return toBase64(new Uint8Array(a)) === toBase64(new Uint8Array(b))
  } catch {
    return false
  }
}

/**
 * A backup of the private key in `kitText` (a whole Access Kit, a PEM block or raw base64 pkcs8).
 * MissingPrivateKeyError / InvalidPrivateKeyError for unusable text; KeyMismatchError when the key
 * is not the one the vault holds for them (an older or another person's kit).
 */
export async function createHeirKeyBackup(
  kitText: string,
  vaultFingerprints: readonly string[],
  passphrase: string,
  binding: HeirBackupBinding,
  publicKeySpki: string,
): Promise<HeirKeyBackupBytes> {
  const key = await importBeneficiaryPrivateKey(kitText)
  if (!(await privateKeyMatches(key, publicKeySpki))) throw new KeyMismatchError()
  const pkcs8 = toBase64(fromBase64(pkcs8FromInput(kitText)))
  const plaintext = utf8(JSON.stringify({ v: 1, pkcs8, vaultFingerprints: [...vaultFingerprints] }))
  const salt = generateVaultSalt()
  const sealed = await seal(await deriveBackupKey(passphrase, salt), plaintext, aadOf(binding))
  return { backup: toBase64(sealed), salt }
}

/**
 * The private key (non-extractable) and the kit's vault fingerprints from a backup.
 * DecryptionError for a wrong passphrase or a backup that is not this person's for this key
 * version, or was altered (AES-GCM cannot tell these apart); KeyMismatchError when it opens but
 * holds a key other than the one the vault holds for them. Nothing unauthenticated is used.
 */
export async function openHeirKeyBackup(
  stored: HeirKeyBackupBytes,
  passphrase: string,
  binding: HeirBackupBinding,
  publicKeySpki: string,
): Promise<{ key: BeneficiaryPrivateKey; vaultFingerprints: string[] }> {
  const parts = unframe(decodeEnvelope(stored.backup))
  let backupKey: CryptoKey
  try {
    backupKey = await deriveBackupKey(passphrase, stored.salt)
  } catch (cause) {
    throw new DecryptionError('Malformed backup salt', { cause })
  }
  const plain = await openParts(backupKey, parts, aadOf(binding))
  let content: z.infer<typeof plaintextSchema>
  try {
    content = plaintextSchema.parse(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain)))
  } catch (cause) {
    throw new DecryptionError('Backup content is not in the expected form', { cause })
  }
  let key: BeneficiaryPrivateKey
  try {
    key = await importBeneficiaryPrivateKey(content.pkcs8)
  } catch (error) {
    if (error instanceof InvalidPrivateKeyError) throw new DecryptionError('Backup holds no usable private key', { cause: error })
    throw error
  }
  if (!(await privateKeyMatches(key, publicKeySpki))) throw new KeyMismatchError()
  return { key, vaultFingerprints: content.vaultFingerprints }
}
