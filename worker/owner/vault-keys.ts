import { VAULT_KEY_FORMAT, VAULT_MESSAGES, type PassphraseChangeBody, type RecoveryWrapBody } from '../../contract/vault'
import { VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { conflict } from '../lib/errors'
import type { Unit } from './unit'

/**
 * The vault's salt and passphrase check, set once when the owner sets up their vault: the browser
 * derives the master key from the passphrase and this salt, and the check (encrypted under the
 * master key) tells a right passphrase from a wrong one. Neither is the key. Kept in the owner's
 * object with the rest of the vault, under one key of its storage.
 */
export interface VaultKeys {
  salt: string
  check: string
  setUpAt: number
  /** The vault's signing key (contract/key-signing.ts): public in clear, private wrapped by the master key. */
  signing?: VaultSigningKey
  /**
   * Format 2 (web/crypto/vault-key.ts): the vault key wrapped by the passphrase's key; it wraps
   * the signing key and every data key. Absent: format 1, the passphrase's key wraps them itself.
   */
  vaultKey?: string
  format?: typeof VAULT_KEY_FORMAT
  /** When a format-1 vault moved to its vault key (absent: made in format 2, or not moved). */
  movedAt?: number
  /** When the passphrase last changed (absent: never). */
  passphraseChangedAt?: number
  /** The vault key wrapped under the owner's recovery code (format 2 only); absent: no code. */
  recovery?: RecoveryWrap
}

export interface RecoveryWrap {
  salt: string
  wrapped: string
  madeAt: number
}

export interface VaultSigningKey {
  publicKey: string
  wrapped: string
}

/** What the account's public view shows of the vault: its keys (once set up) and exact counts. */
export interface VaultSummary {
  keys: Pick<VaultKeys, 'salt' | 'check' | 'signing' | 'vaultKey' | 'recovery'> | null
  itemCount: number
  storageUsed: number
}

export const VAULT_KEYS = 'vaultKeys'

export function vaultKeysOf(storage: DurableObjectStorage): VaultKeys | null {
  return storage.kv.get<VaultKeys>(VAULT_KEYS) ?? null
}

/** Sets the keys once: a second setup would orphan every key wrapped under the first passphrase. */
export function setUpVault(
  storage: DurableObjectStorage,
  u: Unit,
  salt: string,
  check: string,
  signing: VaultSigningKey,
  vaultKey: string,
  recovery?: RecoveryWrapBody,
): void {
  if (vaultKeysOf(storage)) throw conflict(VAULT_MESSAGES.alreadySetUp)
  const keys: VaultKeys = { salt, check, setUpAt: u.now, signing, vaultKey, format: VAULT_KEY_FORMAT }
  if (recovery) keys.recovery = { salt: recovery.recoverySalt, wrapped: recovery.wrappedVaultKey, madeAt: u.now }
  storage.kv.put(VAULT_KEYS, keys)
  u.audit({ actor: 'user', action: 'vault.setup', details: { recoveryCode: recovery !== undefined } })
}

/**
 * A new recovery code: its wrap of the vault key replaces the one before, so the old code no
 * longer opens the vault. The server cannot check the wrap (it never sees the code or the key);
 * the route asks for fresh proof and tells the owner, and the browser that uses a code checks
 * what it opens against the vault's signing key (web/features/vault/vault-session.ts).
 */
export function setRecoveryCode(storage: DurableObjectStorage, u: Unit, body: RecoveryWrapBody): void {
  const keys = vaultKeysOf(storage)
  if (!keys) throw conflict(VAULT_MESSAGES.notSetUp)
  if (keys.format !== VAULT_KEY_FORMAT || !keys.vaultKey) throw conflict(VAULT_MESSAGES.moveFirst)
  storage.kv.put(VAULT_KEYS, { ...keys, recovery: { salt: body.recoverySalt, wrapped: body.wrappedVaultKey, madeAt: u.now } } satisfies VaultKeys)
  u.audit({ actor: 'user', action: 'vault.recovery_code_made', details: { replaced: keys.recovery !== undefined } })
}

/**
 * Gives a vault made before signing keys its one, once. Whoever holds a session could call this
 * first, but the owner's browser trusts the stored key only if its own master key unwraps the
 * matching private key (web/features/vault/vault-session.ts), and warns otherwise.
 */
export function addSigningKey(storage: DurableObjectStorage, u: Unit, signing: VaultSigningKey): void {
  const keys = vaultKeysOf(storage)
  if (!keys) throw conflict(KEY_SIGNING_MESSAGES.signingKeyMissing)
  if (keys.signing) throw conflict(KEY_SIGNING_MESSAGES.signingKeyExists)
  storage.kv.put(VAULT_KEYS, { ...keys, signing } satisfies VaultKeys)
  u.audit({ actor: 'user', action: 'vault.signing_key_added', details: {} })
}

/** The vault's signing public key, or a refusal: no beneficiary key is taken without it. */
export function signingPublicKeyOf(storage: DurableObjectStorage): string {
  const signing = vaultKeysOf(storage)?.signing
  if (!signing) throw conflict(KEY_SIGNING_MESSAGES.signingKeyMissing)
  return signing.publicKey
}

/**
 * A new passphrase: only the salt, the check and the vault key's wrap change (the browser proved
 * the old passphrase by unwrapping the vault key it re-wraps). A format-1 vault has no vault key
 * to re-wrap: it moves at its next unlock first.
 */
export function changePassphrase(storage: DurableObjectStorage, u: Unit, body: PassphraseChangeBody): void {
  const keys = vaultKeysOf(storage)
  if (!keys) throw conflict(VAULT_MESSAGES.notSetUp)
  if (keys.format !== VAULT_KEY_FORMAT || !keys.vaultKey) throw conflict(VAULT_MESSAGES.moveFirst)
  storage.kv.put(VAULT_KEYS, {
    ...keys,
    salt: body.vaultSalt,
    check: body.passphraseCheck,
    vaultKey: body.wrappedVaultKey,
    passphraseChangedAt: u.now,
  } satisfies VaultKeys)
  u.audit({ actor: 'user', action: body.via === 'recovery_code' ? 'vault.recovered' : 'vault.passphrase_changed', details: {} })
}

/**
 * A key wrapped by a browser still holding the key of before the vault's move (unlocked on
 * another device before the commit) is refused: the app could no longer open it.
 */
export function assertVaultFormat(storage: DurableObjectStorage, claimed: 1 | 2 | undefined): void {
  const format = vaultKeysOf(storage)?.vaultKey ? 2 : 1
  if (claimed !== undefined && claimed !== format) throw conflict(VAULT_ITEM_MESSAGES.vaultMovedElsewhere)
}
