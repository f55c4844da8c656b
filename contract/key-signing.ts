import { z } from 'zod'

// The owner's vault signing key (ECDSA P-256, made in the browser at vault setup): only a browser
// holding the unlocked vault can say which public key belongs to which beneficiary. The server
// checks every signature before it stores a key, and the owner's browser checks again before it
// wraps anything for one, so neither a stolen session nor the server can slip in its own key.
// Exact bytes: web/crypto/FORMAT.md, "Beneficiary key statements".

/** First line of every statement: what is signed and in which format. */
export const KEY_STATEMENT_TAG = 'legacy-vault:beneficiary-key:v1'

export interface KeyStatementFields {
  /** The owner's account id. */
  ownerId: string
  /** The beneficiary's address (trimmed and lower-cased here, whatever the caller passes). */
  email: string
  /** 1 for the first key, +1 at each rotation. */
  keyVersion: number
  /** The beneficiary's RSA-OAEP public key, base64 SPKI exactly as stored. */
  publicKey: string
}

/** The text whose UTF-8 bytes the owner's signing key signs (five lines, LF, no trailing newline). */
export function keyStatement(f: KeyStatementFields): string {
  return [KEY_STATEMENT_TAG, f.ownerId, f.email.trim().toLowerCase(), String(f.keyVersion), f.publicKey].join('\n')
}

export const KEY_SIGNING_MESSAGES = {
  /** The field at fault is named before it: "keySignature: …". */
  signatureInvalid: "The beneficiary's key must be signed by your unlocked vault. Unlock your vault and try again.",
  signingKeyMissing: 'Your vault has no signing key yet. Unlock your vault to create it, then try again.',
  signingKeyExists: 'Your vault already has a signing key.',
  /** Shown in the owner's browser when a key's signature does not hold (seeds of issue 0.2 · 4 of 7). */
  keyChangedOutside: "This beneficiary's key was changed outside your vault",
  /** A key stored before signing keys, not yet confirmed by the owner. */
  keyNotConfirmed: "This beneficiary's key has not been confirmed yet. Confirm it on the Beneficiaries page first.",
  signingKeyReplaced: "Your vault's signing key was replaced outside your vault, so no beneficiary key can be trusted. Change your password and contact support.",
  /**
   * A statement at or below the newest one the vault accepted (contract/vault-statements.ts): a
   * replay, or one overtaken by a change made meanwhile. The answer carries `statementSequence`, the
   * newest accepted, so the owner's browser can sign once more above it.
   */
  statementOutdated: 'A newer change to your beneficiaries was made meanwhile, so this one was not applied. Reload and try again.',
  /** The field at fault is named before it: "grantsSignature: …". */
  grantsSignatureInvalid: "The re-wrapped items must be signed by your unlocked vault as they were sent. Nothing was changed: unlock your vault and replace the key again.",
  confirmKeyTitle: 'Confirm this key',
  keyConfirmed: 'Key confirmed',
} as const

const base64 = /^[A-Za-z0-9+/]+={0,2}$/

/** ECDSA P-256 signature in IEEE P1363 form (r || s, 64 bytes), base64: 88 characters. */
export const keySignatureSchema = z
  .string({ error: KEY_SIGNING_MESSAGES.signatureInvalid })
  .regex(base64, KEY_SIGNING_MESSAGES.signatureInvalid)
  .length(88, KEY_SIGNING_MESSAGES.signatureInvalid)

/** The vault's signing public key: P-256 SPKI (91 bytes), base64: 124 characters. */
export const signingPublicKeySchema = z
  .string({ error: 'signingPublicKey must be a P-256 public key in base64 SPKI form' })
  .regex(base64, 'signingPublicKey must be a P-256 public key in base64 SPKI form')
  .length(124, 'signingPublicKey must be a P-256 public key in base64 SPKI form')

/** The signing private key wrapped by the master key (version || iv || AES-GCM-wrapped PKCS#8), base64. */
export const wrappedSigningKeySchema = z
  .string({ error: 'wrappedSigningKey must be base64' })
  .regex(base64, 'wrappedSigningKey must be base64')
  .min(100, 'wrappedSigningKey is too short')
  .max(512, 'wrappedSigningKey is too long')

/** POST /api/vault/signing-key: a vault made before signing keys gets one at its next unlock. */
export const signingKeyBodySchema = z.object({ signingPublicKey: signingPublicKeySchema, wrappedSigningKey: wrappedSigningKeySchema })
export type SigningKeyBody = z.infer<typeof signingKeyBodySchema>
