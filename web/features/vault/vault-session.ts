import { useSyncExternalStore } from 'react'
import { createPassphraseCheck, deriveMasterKey, generateVaultSalt, verifyPassphrase, type MasterKey } from '@/crypto'

/**
 * The unlocked vault lives here and nowhere else: the master key is a non-extractable CryptoKey
 * held in this tab's memory only. It is never written to storage, so closing the last tab (or
 * reloading) locks the vault; it is also dropped after a period without activity, on log out,
 * and in every tab when any tab locks.
 */
export const VAULT_IDLE_LOCK_MS = 15 * 60 * 1000
// Seeds 000 §3: a vault salt entry and an 'unlocked' flag in session storage. They are hints for
// this tab only; the key itself is what unlocks anything.
export const SESSION_SALT_KEY = 'vault_salt'
export const SESSION_UNLOCKED_KEY = 'vault_unlocked'
const CHANNEL = 'legacy-vault:vault'

export class VaultLockedError extends Error {
  constructor() {
    super('Vault is locked. Please unlock with your passphrase.')
    this.name = 'VaultLockedError'
  }
}

type Listener = () => void

export interface VaultSessionOptions {
  idleMs?: number
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null
  broadcast?: boolean
}

export function createVaultSession(options: VaultSessionOptions = {}) {
  const idleMs = options.idleMs ?? VAULT_IDLE_LOCK_MS
  const storage = options.storage === undefined ? (globalThis.sessionStorage ?? null) : options.storage
  const channel = options.broadcast !== false && typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(CHANNEL) : null
  let key: MasterKey | null = null
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const listeners = new Set<Listener>()

  const emit = () => listeners.forEach((l) => l())

  function clearLocal() {
    key = null
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = undefined
    storage?.removeItem(SESSION_SALT_KEY)
    storage?.removeItem(SESSION_UNLOCKED_KEY)
    emit()
  }

  channel?.addEventListener('message', (event: MessageEvent) => {
    if (event.data === 'lock' && key) clearLocal()
  })

  function armIdleTimer() {
    if (idleTimer) clearTimeout(idleTimer)
    idleTimer = setTimeout(() => session.lock(), idleMs)
  }

  function open(master: MasterKey, salt: string) {
    key = master
    storage?.setItem(SESSION_SALT_KEY, salt)
    storage?.setItem(SESSION_UNLOCKED_KEY, 'true')
    armIdleTimer()
    emit()
  }

  const session = {
    isUnlocked: () => key !== null,
    /** The master key, or VaultLockedError: every encrypt/decrypt goes through here. */
    requireKey(): MasterKey {
      if (!key) throw new VaultLockedError()
      return key
    },
    /** Derives the key and checks it against the stored check value; false for a wrong passphrase. */
    async unlock(passphrase: string, salt: string, check: string): Promise<boolean> {
      const candidate = await deriveMasterKey(passphrase, salt)
      if (!(await verifyPassphrase(candidate, check))) return false
      open(candidate, salt)
      return true
    },
    /**
     * Makes a new vault: a fresh salt, the key, and the check value, then stores salt and check on
     * the server through `persist`. The key is kept only if the server accepted them.
     */
    async create(passphrase: string, persist: (setup: { vaultSalt: string; passphraseCheck: string }) => Promise<void>) {
      const salt = generateVaultSalt()
      const master = await deriveMasterKey(passphrase, salt)
      const passphraseCheck = await createPassphraseCheck(master)
      await persist({ vaultSalt: salt, passphraseCheck })
      open(master, salt)
    },
    lock() {
      const wasUnlocked = key !== null
      clearLocal()
      if (wasUnlocked) channel?.postMessage('lock')
    },
    /** Called on user activity: pushes the idle lock back. */
    touch() {
      if (key) armIdleTimer()
    },
    subscribe(listener: Listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  return session
}

export type VaultSession = ReturnType<typeof createVaultSession>

export const vaultSession = createVaultSession()

if (typeof window !== 'undefined') {
  const touch = () => vaultSession.touch()
  for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart']) window.addEventListener(type, touch, { passive: true })
}

export function useVaultUnlocked(): boolean {
  return useSyncExternalStore(vaultSession.subscribe, vaultSession.isUnlocked, () => false)
}
