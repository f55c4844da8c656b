// The vault's cryptographic parameters (ARCHITECTURE §3; seeds 000 §9 "Key derivation").
// Every ciphertext the server stores was made with these values, so changing one makes existing
// vaults unreadable: bump CRYPTO_FORMAT_VERSION and keep a decoder for the old version instead.

/** PBKDF2-HMAC-SHA256 work factor: OWASP's 2023 figure, and what the seeds specify. */
export const PBKDF2_ITERATIONS = 600_000
export const PBKDF2_HASH = 'SHA-256'
/** Random per-vault salt; stored in clear by the server as `vaultSalt`. */
export const SALT_BYTES = 32
/** GCM's native nonce size. Always random; one key (one item's DEK) never sees 2^32 messages. */
export const IV_BYTES = 12
/** The GCM authentication tag WebCrypto appends to every ciphertext (its default, 128 bits). */
export const GCM_TAG_BYTES = 16
export const AES_KEY_BITS = 256
export const RSA_MODULUS_BITS = 2048
export const RSA_HASH = 'SHA-256'
/** Plaintext bytes per content chunk. Bounds browser memory and R2 multipart part sizes. */
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024
/** First byte of every envelope (version || iv || ciphertext) and part of every AAD. */
export const CRYPTO_FORMAT_VERSION = 1
/**
 * The vault's key layout (FORMAT.md, "Vault formats"), distinct from the envelope version above:
 * 1 = the passphrase's PBKDF2 key wraps every data key; 2 = it wraps a random vault key only.
 */
export const VAULT_FORMAT_VERSION = 2
