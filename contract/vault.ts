import { z } from 'zod'
import { signingPublicKeySchema, wrappedSigningKeySchema } from './key-signing'

// The vault passphrase never reaches the server. What does: the PBKDF2 salt, and a small value
// encrypted under the master key, so a wrong passphrase can be told apart from a right one.
const base64 = /^[A-Za-z0-9+/]+={0,2}$/

export const VAULT_SALT_BYTES = 32

export const vaultSetupBodySchema = z.object({
  vaultSalt: z
    .string({ error: 'vaultSalt is required' })
    .regex(base64, 'vaultSalt must be base64')
    .refine((v) => Math.floor((v.replace(/=+$/, '').length * 3) / 4) === VAULT_SALT_BYTES, 'vaultSalt must encode 32 bytes'),
  passphraseCheck: z
    .string({ error: 'passphraseCheck is required' })
    .regex(base64, 'passphraseCheck must be base64')
    .min(24, 'passphraseCheck is too short')
    .max(512, 'passphraseCheck is too long'),
  // The vault's signing key (contract/key-signing.ts): every beneficiary key is signed with it.
  signingPublicKey: signingPublicKeySchema,
  wrappedSigningKey: wrappedSigningKeySchema,
})
export type VaultSetupBody = z.infer<typeof vaultSetupBodySchema>

export const VAULT_MESSAGES = {
  alreadySetUp: 'Your vault is already set up. Its passphrase cannot be replaced without losing access to what it protects.',
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
