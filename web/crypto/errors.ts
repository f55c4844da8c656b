// Named domain errors (STYLE.md, "Bitwarden clients"). Messages never carry key material,
// plaintext or passphrases; a `cause`, when set, is WebCrypto's own (secret-free) DOMException.

/**
 * Authentication failed or the bytes are not a ciphertext of ours: wrong key, tampered bytes,
 * unknown format version, chunks reordered, truncated or from another item. AES-GCM cannot tell
 * these apart, and callers should not either: the data is not to be trusted.
 */
export class DecryptionError extends Error {
  constructor(message = 'Decryption failed', options?: ErrorOptions) {
    super(message, options)
    this.name = 'DecryptionError'
  }
}

/** The text given as a beneficiary private key holds no usable RSA-OAEP pkcs8 key. */
export class InvalidPrivateKeyError extends Error {
  constructor(options?: ErrorOptions) {
    super('Invalid private key format', options)
    this.name = 'InvalidPrivateKeyError'
  }
}

/** No private key was given at all (empty or whitespace-only input). */
export class MissingPrivateKeyError extends Error {
  constructor() {
    super('Private key is required for decryption')
    this.name = 'MissingPrivateKeyError'
  }
}

/** A private key that does not belong to the public key the vault holds for the beneficiary. */
export class KeyMismatchError extends Error {
  constructor() {
    super('The private key does not match the public key the vault holds')
    this.name = 'KeyMismatchError'
  }
}
