import { useSyncExternalStore } from 'react'
import { KEY_SIGNING_MESSAGES, type KeyStatementFields, type SigningKeyBody } from '../../../contract/key-signing'
import { beneficiaryStatement, grantsStatement, type BeneficiaryStatementFields, type StatedGrant } from '../../../contract/vault-statements'
import { VAULT_MESSAGES, type PassphraseChangeBody, type RecoveryWrapBody, type VaultSetupBody } from '../../../contract/vault'
import {
  createPassphraseCheck,
  DecryptionError,
  deriveMasterKey,
  derivePassphraseKey,
  deriveRecoveryKey,
  generateRecoveryCode,
  generateRecoverySalt,
  unwrapVaultKeyWithRecovery,
  wrapVaultKeyForRecovery,
  generateVaultKey,
  generateSigningKeyPair,
  generateVaultSalt,
  signingKeyMatches,
  signKeyStatement,
  signStatement,
  unwrapSigningKey,
  verifyKeyStatement,
  verifyPassphrase,
  verifyStatement,
  unwrapVaultKey,
  wrapSigningKey,
  wrapVaultKey,
  type MasterKey,
  type PassphraseKey,
  type SigningPrivateKey,
} from '@/crypto'

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

/** The vault's signing key is not one this passphrase opens: it was replaced outside the vault. */
export class SigningKeyProblemError extends Error {
  constructor() {
    super(KEY_SIGNING_MESSAGES.signingKeyReplaced)
    this.name = 'SigningKeyProblemError'
  }
}

/**
 * The passphrase opened the check but not the vault key: the stored wrap is not this vault's (a
 * swapped or altered wrap). Refused, never worked around: nothing is unwrapped with another key.
 */
export class VaultKeyProblemError extends Error {
  constructor() {
    super(VAULT_MESSAGES.vaultKeyReplaced)
    this.name = 'VaultKeyProblemError'
  }
}

/** What the vault's keys look like on the server (the signed-in user's view). */
export interface StoredVault {
  ownerId: string
  salt: string
  check: string
  /** The vault key wrapped by the passphrase's key (format 2); null for a vault of format 1. */
  vaultKey: string | null
  /** Null for a vault set up before signing keys: the first unlock makes one. */
  signingKey: { publicKey: string; wrapped: string } | null
  /** The vault key wrapped under the owner's recovery code (absent or null: no code). */
  recovery?: { salt: string; wrappedVaultKey: string } | null
}

interface Signing {
  ownerId: string
  publicKey: string
  privateKey: SigningPrivateKey
}

/**
 * A beneficiary as far as its statement goes: a v2 statement (contract/vault-statements.ts) when
 * `statementSequence` is set, else a v1 key statement (contract/key-signing.ts), or none yet.
 */
export type SignedBeneficiaryKey = Omit<KeyStatementFields, 'ownerId'> & {
  id: string
  fullName: string
  relationship: string
  keySignature: string | null
  statementSequence: number | null
}

/** Which statement a beneficiary's signature holds as, for this vault: v2, v1 (to restate), or none. */
export type StatementCheck = 'v2' | 'v1' | null

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
  // 2 when `key` is a vault key, 1 when it is a format-1 vault's passphrase key.
  let format: 1 | 2 = 2
  // The signing key this passphrase opened (null: locked, or a stored key it does not open).
  let signing: Signing | null = null
  let signingProblem = false
  let idleTimer: ReturnType<typeof setTimeout> | undefined
  const listeners = new Set<Listener>()

  const emit = () => listeners.forEach((l) => l())

  function clearLocal() {
    key = null
    signing = null
    signingProblem = false
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

  function open(master: MasterKey, salt: string, signed: Signing | null, keyFormat: 1 | 2 = 2) {
    key = master
    format = keyFormat
    signing = signed
    signingProblem = signed === null
    storage?.setItem(SESSION_SALT_KEY, salt)
    storage?.setItem(SESSION_UNLOCKED_KEY, 'true')
    armIdleTimer()
    emit()
  }

  const session = {
    isUnlocked: () => key !== null,
    /** The vault key (a format-1 vault's master key until it moves), or VaultLockedError: every encrypt/decrypt goes through here. */
    requireKey(): MasterKey {
      if (!key) throw new VaultLockedError()
      return key
    },
    /** Which vault format the key held belongs to (null while locked): uploads say it, so a stale key is refused. */
    vaultFormat(): 1 | 2 | null {
      return key ? format : null
    },
    /**
     * Derives the key and checks it against the stored check value; false for a wrong passphrase.
     * Then opens the vault's signing key, trusted only if this master key unwraps the private half
     * of the stored public key; a vault without one gets one now (`addSigningKey` stores it).
     */
    async unlock(
      passphrase: string,
      vault: StoredVault,
      addSigningKey: (body: SigningKeyBody) => Promise<void>,
      moveToVaultKey?: (passphraseKey: PassphraseKey, master: MasterKey, signingWrap: string) => Promise<MasterKey>,
    ): Promise<boolean> {
      let candidate: MasterKey
      let keyFormat: 1 | 2 = vault.vaultKey ? 2 : 1
      if (vault.vaultKey) {
        // Format 2: the check tells a wrong passphrase; a wrap the right passphrase cannot open was swapped.
        const passphraseKey = await derivePassphraseKey(passphrase, vault.salt)
        if (!(await verifyPassphrase(passphraseKey, vault.check))) return false
        try {
          candidate = await unwrapVaultKey(vault.vaultKey, passphraseKey)
        } catch {
          throw new VaultKeyProblemError()
        }
      } else {
        candidate = await deriveMasterKey(passphrase, vault.salt)
        if (!(await verifyPassphrase(candidate, vault.check))) return false
      }
      let signed: Signing | null = null
      let signingWrap = vault.signingKey?.wrapped ?? null
      if (vault.signingKey) {
        signed = await openSigningKey(vault, candidate)
      } else {
        const pair = await generateSigningKeyPair()
        const wrapped = await wrapSigningKey(pair.privateKey, candidate)
        await addSigningKey({ signingPublicKey: pair.publicKey, wrappedSigningKey: wrapped })
        signingWrap = wrapped
        signed = { ownerId: vault.ownerId, publicKey: pair.publicKey, privateKey: await unwrapSigningKey(wrapped, candidate) }
      }
      // Format 1 moves to a vault key now (web/features/vault/key-move.ts); the vault opens with
      // the old key if the move cannot finish this time (its wraps stay in force until the commit).
      if (!vault.vaultKey && moveToVaultKey && signed && signingWrap) {
        try {
          // In format 1 the master key is the passphrase's PBKDF2 key itself: no second derivation.
          candidate = await moveToVaultKey(candidate as unknown as PassphraseKey, candidate, signingWrap)
          keyFormat = 2
          channel?.postMessage('lock')
        } catch (error) {
          console.warn('The move to a vault key did not finish; it resumes at the next unlock.', error)
        }
      }
      open(candidate, vault.salt, signed, keyFormat)
      return true
    },
    /**
     * A new passphrase (vault format 2, vault unlocked): the old one re-entered opens the stored
     * vault key (false when it is wrong), the new one wraps that same key under a fresh salt, and
     * `persist` sends the salt, check and wrap in one request. This tab reopens with the key it
     * just wrapped; every other tab locks.
     */
    async changePassphrase(oldPassphrase: string, newPassphrase: string, vault: StoredVault, persist: (body: PassphraseChangeBody) => Promise<void>): Promise<boolean> {
      if (!key) throw new VaultLockedError()
      if (!vault.vaultKey) throw new Error('A vault of format 1 moves to a vault key before its passphrase can change')
      const oldKey = await derivePassphraseKey(oldPassphrase, vault.salt)
      if (!(await verifyPassphrase(oldKey, vault.check))) return false
      let vaultKey: MasterKey
      try {
        vaultKey = await unwrapVaultKey(vault.vaultKey, oldKey, true)
      } catch {
        throw new VaultKeyProblemError()
      }
      const salt = generateVaultSalt()
      const newKey = await derivePassphraseKey(newPassphrase, salt)
      const body = { vaultSalt: salt, passphraseCheck: await createPassphraseCheck(newKey), wrappedVaultKey: await wrapVaultKey(vaultKey, newKey) }
      await persist(body)
      const reopened = await unwrapVaultKey(body.wrappedVaultKey, newKey)
      channel?.postMessage('lock')
      open(reopened, salt, signing)
      return true
    },
    /**
     * Makes a new vault: a fresh salt, the key, the check value, the signing key pair and the first
     * recovery code's wrap, then stores them on the server through `persist`. The keys are kept
     * only if the server accepted them. Answers the recovery code, for the owner to print: it is
     * nowhere else.
     */
    async create(passphrase: string, ownerId: string, persist: (setup: VaultSetupBody) => Promise<void>): Promise<string> {
      const salt = generateVaultSalt()
      const passphraseKey = await derivePassphraseKey(passphrase, salt)
      const passphraseCheck = await createPassphraseCheck(passphraseKey)
      const vaultKey = await generateVaultKey()
      const wrappedVaultKey = await wrapVaultKey(vaultKey, passphraseKey)
      const code = generateRecoveryCode()
      const recovery = await recoveryWrapOf(vaultKey, code)
      // The session keeps a non-extractable copy: the extractable one is dropped here.
      const master = await unwrapVaultKey(wrappedVaultKey, passphraseKey)
      const pair = await generateSigningKeyPair()
      const wrappedSigningKey = await wrapSigningKey(pair.privateKey, master)
      await persist({ vaultSalt: salt, passphraseCheck, wrappedVaultKey, signingPublicKey: pair.publicKey, wrappedSigningKey, recovery })
      open(master, salt, { ownerId, publicKey: pair.publicKey, privateKey: await unwrapSigningKey(wrappedSigningKey, master) })
      return code
    },
    /**
     * A new recovery code (vault format 2, unlocked): the passphrase re-entered opens an
     * extractable copy of the vault key (null when it is wrong), a fresh code wraps it, and
     * `persist` stores the wrap in place of the old one. Answers the code, for the owner to print.
     */
    async makeRecoveryCode(passphrase: string, vault: StoredVault, persist: (body: RecoveryWrapBody) => Promise<void>): Promise<string | null> {
      if (!key) throw new VaultLockedError()
      if (!vault.vaultKey) throw new Error('A vault of format 1 moves to a vault key before it can have a recovery code')
      const passphraseKey = await derivePassphraseKey(passphrase, vault.salt)
      if (!(await verifyPassphrase(passphraseKey, vault.check))) return null
      let vaultKey: MasterKey
      try {
        vaultKey = await unwrapVaultKey(vault.vaultKey, passphraseKey, true)
      } catch {
        throw new VaultKeyProblemError()
      }
      const code = generateRecoveryCode()
      await persist(await recoveryWrapOf(vaultKey, code))
      return code
    },
    /**
     * Whether `code` opens this vault's recovery wrap (false for another or an older code). The
     * code's own typing mistakes are the caller's to catch first (parseRecoveryCode).
     */
    async checkRecoveryCode(code: string, vault: StoredVault): Promise<boolean> {
      return (await openWithRecovery(code, vault, false)) !== null
    },
    /**
     * Forgot the passphrase: the recovery code opens the vault key, which must also open the
     * vault's own signing key (else the wrap was swapped: VaultKeyProblemError, nothing set), and
     * a new passphrase wraps it as a passphrase change does (`persist`, `via: 'recovery_code'`).
     * False when the code does not open the wrap. The vault is unlocked here; other tabs lock.
     */
    async recover(code: string, newPassphrase: string, vault: StoredVault, persist: (body: PassphraseChangeBody) => Promise<void>): Promise<boolean> {
      const vaultKey = await openWithRecovery(code, vault, true)
      if (!vaultKey) return false
      const signed = vault.signingKey ? await openSigningKey(vault, vaultKey) : null
      if (vault.signingKey && !signed) throw new VaultKeyProblemError()
      const salt = generateVaultSalt()
      const newKey = await derivePassphraseKey(newPassphrase, salt)
      const body: PassphraseChangeBody = {
        vaultSalt: salt,
        passphraseCheck: await createPassphraseCheck(newKey),
        wrappedVaultKey: await wrapVaultKey(vaultKey, newKey),
        via: 'recovery_code',
      }
      await persist(body)
      const reopened = await unwrapVaultKey(body.wrappedVaultKey, newKey)
      channel?.postMessage('lock')
      open(reopened, salt, signed)
      return true
    },
    /** Whether the vault is unlocked but its stored signing key is not one its passphrase opens. */
    hasSigningProblem: () => key !== null && signingProblem,
    /** The vault's signature over a beneficiary key (VaultLockedError, or SigningKeyProblemError). */
    async signKey(fields: Omit<KeyStatementFields, 'ownerId'>): Promise<string> {
      if (!key) throw new VaultLockedError()
      if (!signing) throw new SigningKeyProblemError()
      return signKeyStatement(signing.privateKey, { ownerId: signing.ownerId, ...fields })
    },
    /** The vault's signature over any statement of contract/vault-statements.ts (VaultLockedError, or SigningKeyProblemError). */
    async signText(text: string): Promise<string> {
      if (!key) throw new VaultLockedError()
      if (!signing) throw new SigningKeyProblemError()
      return signStatement(signing.privateKey, text)
    },
    /** The owner id and signing public key this passphrase opened (null while locked or when they do not match). */
    signer(): { ownerId: string; publicKey: string } | null {
      return key && signing ? { ownerId: signing.ownerId, publicKey: signing.publicKey } : null
    },
    /** The vault's signature over the beneficiary statement (v2) for `fields` (VaultLockedError, or SigningKeyProblemError). */
    async signBeneficiary(fields: Omit<BeneficiaryStatementFields, 'ownerId'>): Promise<string> {
      if (!key) throw new VaultLockedError()
      if (!signing) throw new SigningKeyProblemError()
      return signStatement(signing.privateKey, beneficiaryStatement({ ownerId: signing.ownerId, ...fields }))
    },
    /** The vault's signature over grantsStatement of `grants` (a rotation's complete set, as sent). */
    async signGrants(grants: readonly StatedGrant[]): Promise<string> {
      if (!key) throw new VaultLockedError()
      if (!signing) throw new SigningKeyProblemError()
      return signStatement(signing.privateKey, grantsStatement(signing.ownerId, grants))
    },
    /**
     * Which of this vault's statements a beneficiary's signature holds as: 'v2' over the row as it
     * is at its sequence, 'v1' over its key and address only (a row from before 0.3, to be restated),
     * or null (unsigned, or signed by nothing of this vault's). The high-water rule is the caller's
     * (web/features/circle/statements.ts).
     */
    async checkStatement(b: SignedBeneficiaryKey): Promise<StatementCheck> {
      if (!key) throw new VaultLockedError()
      if (!signing || !b.keySignature) return null
      if (b.statementSequence !== null) {
        const text = beneficiaryStatement({
          ownerId: signing.ownerId,
          sequence: b.statementSequence,
          beneficiaryId: b.id,
          fullName: b.fullName,
          relationship: b.relationship,
          email: b.email,
          keyVersion: b.keyVersion,
          publicKey: b.publicKey,
        })
        return (await verifyStatement(signing.publicKey, text, b.keySignature)) ? 'v2' : null
      }
      const v1 = { ownerId: signing.ownerId, email: b.email, keyVersion: b.keyVersion, publicKey: b.publicKey }
      return (await verifyKeyStatement(signing.publicKey, v1, b.keySignature)) ? 'v1' : null
    },
    /** Whether a beneficiary's statement (v2, or v1 not yet restated) carries this vault's signature. */
    async isSignedKey(b: SignedBeneficiaryKey): Promise<boolean> {
      return (await session.checkStatement(b)) !== null
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

/**
 * The vault's stored signing key, trusted only if `key` opens the private half of its public key
 * (null otherwise: a key replaced outside the vault, or a vault key that is not this vault's).
 */
async function openSigningKey(vault: StoredVault, key: MasterKey): Promise<Signing | null> {
  if (!vault.signingKey) return null
  try {
    const privateKey = await unwrapSigningKey(vault.signingKey.wrapped, key)
    if (await signingKeyMatches(privateKey, vault.signingKey.publicKey)) return { ownerId: vault.ownerId, publicKey: vault.signingKey.publicKey, privateKey }
  } catch {
    // Not opened: not trusted.
  }
  return null
}

/** A recovery code's wrap of the vault key (extractable), under a fresh salt of its own. */
async function recoveryWrapOf(vaultKey: MasterKey, code: string): Promise<RecoveryWrapBody> {
  const recoverySalt = generateRecoverySalt()
  return { recoverySalt, wrappedVaultKey: await wrapVaultKeyForRecovery(vaultKey, await deriveRecoveryKey(code, recoverySalt)) }
}

/** The vault key from the recovery wrap, or null when the code does not open it. */
async function openWithRecovery(code: string, vault: StoredVault, extractable: boolean): Promise<MasterKey | null> {
  if (!vault.recovery) return null
  try {
    return await unwrapVaultKeyWithRecovery(vault.recovery.wrappedVaultKey, await deriveRecoveryKey(code, vault.recovery.salt), extractable)
  } catch (error) {
    if (error instanceof DecryptionError || error instanceof RangeError) return null
    throw error
  }
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
