// Branded key types (STYLE.md, after bitwarden/clients `libs/common/src/types/key.ts`): each is a
// CryptoKey at run time, but the compiler refuses a MasterKey where a DataKey is expected, so a
// key cannot be used for a job it was not made for. Only this module mints them (by casting the
// result of crypto.subtle), so holding one means it has the algorithm and usages documented here.

/**
 * The key that wraps a vault's data keys, signing key and policies' keys: the random vault key
 * (vault format 2, FORMAT.md), non-extractable once unwrapped. A vault of format 1 has none: there
 * the PBKDF2 key itself wraps everything, and deriveMasterKey mints it as this type.
 */
export type MasterKey = CryptoKey & { readonly __brand: 'MasterKey' }

/**
 * AES-GCM-256 from PBKDF2(passphrase) of a format-2 vault; non-extractable; wraps only the vault
 * key and the passphrase check, so it is refused wherever a MasterKey (vault key) belongs.
 */
export type PassphraseKey = CryptoKey & { readonly __brand: 'PassphraseKey' }

/** One item's AES-GCM-256 key (DEK); encrypts its content chunks and metadata. */
export type DataKey = CryptoKey & { readonly __brand: 'DataKey' }

/** RSA-OAEP-2048/SHA-256 public key of a beneficiary; wraps DEKs into grants. */
export type BeneficiaryPublicKey = CryptoKey & { readonly __brand: 'BeneficiaryPublicKey' }

/** RSA-OAEP private key from an Access Kit; non-extractable; unwraps grants. */
export type BeneficiaryPrivateKey = CryptoKey & { readonly __brand: 'BeneficiaryPrivateKey' }

/**
 * The owner's vault signing key: ECDSA P-256 private key, for 'sign' only; signs beneficiary key
 * statements. Extractable only straight from generateSigningKeyPair (so it can be wrapped once);
 * the one unwrapped from the server at unlock is non-extractable.
 */
export type SigningPrivateKey = CryptoKey & { readonly __brand: 'SigningPrivateKey' }
