// The vault's crypto module: the only code in the app that touches crypto.subtle (STYLE.md,
// "Bitwarden clients"). Import from '@/crypto', not from its files. Wire format: FORMAT.md.

export type { BeneficiaryPrivateKey, BeneficiaryPublicKey, DataKey, MasterKey, PassphraseKey, SigningPrivateKey } from './keys'
export { DecryptionError, InvalidPrivateKeyError, KeyMismatchError, MissingPrivateKeyError } from './errors'
export {
  AES_KEY_BITS,
  CRYPTO_FORMAT_VERSION,
  DEFAULT_CHUNK_BYTES,
  GCM_TAG_BYTES,
  IV_BYTES,
  PBKDF2_HASH,
  PBKDF2_ITERATIONS,
  RSA_HASH,
  RSA_MODULUS_BITS,
  SALT_BYTES,
  VAULT_FORMAT_VERSION,
} from './params'
export { fromBase64, toBase64, utf8 } from './encoding'
export { createPassphraseCheck, deriveMasterKey, derivePassphraseKey, generateVaultSalt, verifyPassphrase } from './master-key'
export { generateVaultKey, unwrapVaultKey, wrapVaultKey } from './vault-key'
export {
  deriveRecoveryKey,
  generateRecoveryCode,
  generateRecoverySalt,
  unwrapVaultKeyWithRecovery,
  wrapVaultKeyForRecovery,
  type RecoveryKey,
} from './recovery-code'
export { generateDataKey, unwrapDataKey, wrapDataKey } from './data-key'
export {
  generateBeneficiaryKeyPair,
  importBeneficiaryPrivateKey,
  importBeneficiaryPublicKey,
  privateKeyToPem,
  publicKeyFingerprint,
  unwrapDataKeyForBeneficiary,
  wrapDataKeyForBeneficiary,
  type BeneficiaryKeyPair,
} from './beneficiary-keys'
export {
  generateSigningKeyPair,
  rewrapSigningKey,
  signingKeyMatches,
  signKeyStatement,
  signStatement,
  unwrapSigningKey,
  verifyStatement,
  verifyKeyStatement,
  wrapSigningKey,
  type SigningKeyPair,
} from './signing'
export {
  CHUNK_OVERHEAD_BYTES,
  decryptChunk,
  decryptChunks,
  decryptStream,
  encryptBlob,
  encryptChunk,
  encryptedChunkSize,
  encryptStream,
} from './content'
export type { ByteSource } from '@/lib/byte-source'
export { decryptMetadata, encryptMetadata } from './metadata'
export { sha256Hex } from './audit-hash'
export { chunkDigest } from './chunk-digest'
export { createHeirKeyBackup, openHeirKeyBackup, privateKeyMatches, type HeirBackupBinding, type HeirKeyBackupBytes } from './heir-key-backup'
