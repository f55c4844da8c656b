import { VAULT_MESSAGES } from '../../contract/vault'
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
}

/** What the account's public view shows of the vault: its keys (once set up) and exact counts. */
export interface VaultSummary {
  keys: Pick<VaultKeys, 'salt' | 'check'> | null
  itemCount: number
  storageUsed: number
}

export const VAULT_KEYS = 'vaultKeys'

export function vaultKeysOf(storage: DurableObjectStorage): VaultKeys | null {
  return storage.kv.get<VaultKeys>(VAULT_KEYS) ?? null
}

/** Sets the keys once: a second setup would orphan every key wrapped under the first passphrase. */
export function setUpVault(storage: DurableObjectStorage, u: Unit, salt: string, check: string): void {
  if (vaultKeysOf(storage)) throw conflict(VAULT_MESSAGES.alreadySetUp)
  storage.kv.put(VAULT_KEYS, { salt, check, setUpAt: u.now } satisfies VaultKeys)
  u.audit({ actor: 'user', action: 'vault.setup', details: {} })
}
