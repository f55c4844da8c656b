import { z } from 'zod'
import { signingPublicKeySchema, wrappedSigningKeySchema } from './key-signing'

// The vault passphrase never reaches the server. What does: the PBKDF2 salt, and a small value
// encrypted under the master key, so a wrong passphrase can be told apart from a right one.
const base64 = /^[A-Za-z0-9+/]+={0,2}$/

export const VAULT_SALT_BYTES = 32

const saltSchemaFor = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(base64, `${name} must be base64`)
    .refine((v) => Math.floor((v.replace(/=+$/, '').length * 3) / 4) === VAULT_SALT_BYTES, `${name} must encode 32 bytes`)
const vaultSaltSchema = saltSchemaFor('vaultSalt')
const passphraseCheckSchema = z
  .string({ error: 'passphraseCheck is required' })
  .regex(base64, 'passphraseCheck must be base64')
  .min(24, 'passphraseCheck is too short')
  .max(512, 'passphraseCheck is too long')
/** The vault key wrapped by the passphrase's key (web/crypto/vault-key.ts): 61 bytes, 84 base64 characters. */
export const wrappedVaultKeySchema = z
  .string({ error: 'wrappedVaultKey is required' })
  .regex(base64, 'wrappedVaultKey must be base64')
  .length(84, 'wrappedVaultKey must be a wrapped 256-bit key')

/**
 * The vault key wrapped under the owner's recovery code (web/crypto/recovery-code.ts, contract/
 * vault-recovery.ts): the code's own salt and the wrap. A new one replaces (voids) the one before.
 */
export const recoveryWrapSchema = z.object({
  recoverySalt: saltSchemaFor('recoverySalt'),
  wrappedVaultKey: wrappedVaultKeySchema,
})
export type RecoveryWrapBody = z.infer<typeof recoveryWrapSchema>

/** The vault's format (web/crypto/params.ts VAULT_FORMAT_VERSION): 2 = a vault key under the passphrase. */
export const VAULT_KEY_FORMAT = 2

export const vaultSetupBodySchema = z.object({
  vaultSalt: vaultSaltSchema,
  passphraseCheck: passphraseCheckSchema,
  // Format 2: the check is under the passphrase's key, everything else under the vault key.
  wrappedVaultKey: wrappedVaultKeySchema,
  // The vault's signing key (contract/key-signing.ts): every beneficiary key is signed with it.
  signingPublicKey: signingPublicKeySchema,
  wrappedSigningKey: wrappedSigningKeySchema,
  // The first recovery code's wrap, made with the vault (the app always sends it).
  recovery: recoveryWrapSchema.optional(),
})
export type VaultSetupBody = z.infer<typeof vaultSetupBodySchema>

/**
 * POST /api/vault/passphrase: a new salt, the check under the new passphrase's key, and the same
 * vault key wrapped by it. Nothing else changes, so it is one request whatever the vault holds.
 */
export const passphraseChangeBodySchema = z.object({
  vaultSalt: vaultSaltSchema,
  passphraseCheck: passphraseCheckSchema,
  wrappedVaultKey: wrappedVaultKeySchema,
  // How the browser opened the vault key it re-wraps: the old passphrase, or the recovery code
  // (the owner is told which). The server cannot tell; it only words the record and the e-mail.
  via: z.enum(['passphrase', 'recovery_code'], { error: 'via must be passphrase or recovery_code' }).optional(),
})
export type PassphraseChangeBody = z.infer<typeof passphraseChangeBodySchema>

export const VAULT_MESSAGES = {
  alreadySetUp: 'Your vault is already set up. To use another passphrase, change it from Settings.',
  notSetUp: 'Your vault is not set up yet.',
  // A vault of format 1 moves to a vault key at its next unlock; its passphrase changes after that.
  moveFirst: 'Your vault is being updated to allow passphrase changes. Unlock it once, then try again.',
  passphraseChanged: 'Vault passphrase changed.',
  passphraseChangedBody: 'Use the new passphrase from now on. Your other open tabs were locked.',
  enterCurrentPassphrase: 'Please enter your current vault passphrase',
  currentPassphraseWrong: 'That is not your current vault passphrase.',
  samePassphrase: 'The new passphrase is the same as the current one.',
  changeNeedsUnlock: 'Unlock your vault to change its passphrase.',
  changeFailed: 'The passphrase could not be changed. Please try again.',
  // Format 2: the passphrase check opened but the vault key did not, so the stored key is not this vault's.
  vaultKeyReplaced: 'Your vault’s key could not be opened although your passphrase is right. It may have been altered; contact support before adding anything.',
  // Seeds 001 §5, §8
  enterPassphrase: 'Please enter a master passphrase',
  passphrasesDoNotMatch: 'Passphrases do not match',
  tooWeak: 'Passphrase is too weak. Please choose a stronger passphrase.',
  saltMissing: 'Failed to generate encryption salt',
  setupFailed: 'Failed to set up vault. Please try again.',
  initFailed: 'Failed to initialize vault encryption',
  enterUnlockPassphrase: 'Please enter your vault passphrase',
  invalidPassphrase: 'Invalid passphrase. Please try again.',
  unlockFailed: 'Failed to unlock vault. Please check your passphrase.',
  unlockedTitle: 'Vault Unlocked',
  unlockedBody: 'Your encrypted vault is now accessible.',
  lockedError: 'Vault is locked. Please unlock with your passphrase.',
  // Seeds 000 §5, §8 (registration step 3)
  registrationMismatch: 'Passphrase mismatch',
  registrationTooShort: 'Passphrase too short',
  registrationSetupFailed: 'Passphrase setup failed',
  setupComplete: 'Setup complete!',
  // A new passphrase judged by the guessing estimator (web/features/vault/passphrase-guessing.ts).
  tooGuessable: 'This passphrase would be too easy to guess for someone who has a copy of your encrypted vault.',
  guessingLonger: 'Add another word or two that do not usually go together, or make it longer.',
  guessingUnavailable: 'The passphrase could not be checked. Check your connection and try again.',
} as const
