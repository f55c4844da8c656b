import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPassphraseCheck, deriveMasterKey, generateVaultSalt } from '@/crypto'
import { scorePassphrase } from '@/features/vault/passphrase-strength'
import type { SigningKeyBody } from '../../contract/key-signing'
import { FAILED_UNLOCK_MESSAGES, UNLOCK_FORGIVE_MS } from '../../contract/triggers'
import type { VaultSetupBody } from '../../contract/vault'
import {
  createVaultSession,
  SESSION_SALT_KEY,
  SESSION_UNLOCKED_KEY,
  SigningKeyProblemError,
  VaultLockedError,
  type StoredVault,
} from '@/features/vault/vault-session'

/** A row still on a v1 key statement: only its key and address are signed. */
const V1_ROW = { id: 'beneficiary-1', fullName: 'Ben Heir', relationship: 'Son', statementSequence: null }

describe('passphrase strength (seeds 001 §5)', () => {
  it('scores each rule exactly', () => {
    expect(scorePassphrase('').score).toBe(0)
    expect(scorePassphrase('abcdefghijkl').score).toBe(20 + 10) // length ≥ 12, lowercase
    expect(scorePassphrase('Abcdefghijk1').score).toBe(20 + 10 + 10 + 10)
    expect(scorePassphrase('Abcdefghijk1!').score).toBe(20 + 10 + 10 + 10 + 15)
    expect(scorePassphrase('Abcdefghijklmno1!').score).toBe(20 + 10 + 10 + 10 + 15 + 15) // ≥ 16
    // Every rule met gives 90: the spec's cap at 100 is never reached.
    expect(scorePassphrase('Abcdefghijklmnopqrs1!').score).toBe(90)
  })
  it('labels and colours at the 40 and 70 thresholds', () => {
    expect(scorePassphrase('abcdefghijkl')).toMatchObject({ label: 'Weak', tone: 'red' }) // 30
    expect(scorePassphrase('abcdefghijk1')).toMatchObject({ score: 40, label: 'Good', tone: 'yellow' })
    expect(scorePassphrase('Abcdefghijk1!')).toMatchObject({ score: 65, label: 'Good' })
    expect(scorePassphrase('Abcdefghijklmno1!')).toMatchObject({ score: 80, label: 'Strong', tone: 'green' })
  })
  it('counts 16 and 20 characters from exactly 16 and exactly 20', () => {
    expect(scorePassphrase('abcdefghijklmno').score).toBe(20 + 10) // 15 characters
    expect(scorePassphrase('abcdefghijklmnop').score).toBe(20 + 10 + 15) // 16
    expect(scorePassphrase('abcdefghijklmnopqrs').score).toBe(20 + 10 + 15) // 19
    expect(scorePassphrase('abcdefghijklmnopqrst').score).toBe(20 + 10 + 10 + 15) // 20
  })
  it('a score of exactly 70 is Strong', () => {
    expect(scorePassphrase('Abcdefghijklmno!')).toMatchObject({ score: 70, label: 'Strong', tone: 'green' })
  })
  it('gives the spec hints for what is missing', () => {
    expect(scorePassphrase('short').hints).toEqual([
      'Use at least 12 characters',
      'Include uppercase letters',
      'Include numbers',
      'Include special characters',
    ])
    expect(scorePassphrase('ABCDEFGHIJKLM').hints).toEqual(['Include lowercase letters', 'Include numbers', 'Include special characters'])
  })
})

describe('vault session', () => {
  const storage = new Map<string, string>()
  const fakeStorage = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  }
  let salt: string
  let check: string
  /** A vault as the server describes it, set up before signing keys. */
  let legacy: StoredVault
  const noSigningKey = async () => {
    throw new Error('not expected to add a signing key')
  }
  beforeAll(async () => {
    salt = generateVaultSalt()
    check = await createPassphraseCheck(await deriveMasterKey('the right passphrase!', salt))
    legacy = { ownerId: 'owner-1', salt, check, signingKey: null, vaultKey: null }
  })
  afterEach(() => {
    vi.useRealTimers()
    storage.clear()
  })

  it('refuses to hand out a key while locked', () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    expect(session.isUnlocked()).toBe(false)
    expect(() => session.requireKey()).toThrow(VaultLockedError)
    expect(() => session.requireKey()).toThrow('Vault is locked. Please unlock with your passphrase.')
  })

  it('tells a wrong passphrase from a right one', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    expect(await session.unlock('a wrong passphrase', legacy, noSigningKey)).toBe(false)
    expect(session.isUnlocked()).toBe(false)
    expect(storage.size).toBe(0)
    expect(await session.unlock('the right passphrase!', legacy, async () => undefined)).toBe(true)
    expect(session.isUnlocked()).toBe(true)
    expect(storage.get(SESSION_SALT_KEY)).toBe(salt)
    expect(storage.get(SESSION_UNLOCKED_KEY)).toBe('true')
  })

  it('lock clears the key and both session-storage entries, and tells subscribers', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    const seen: boolean[] = []
    session.subscribe(() => seen.push(session.isUnlocked()))
    await session.unlock('the right passphrase!', legacy, async () => undefined)
    session.lock()
    expect(session.isUnlocked()).toBe(false)
    expect(storage.has(SESSION_SALT_KEY)).toBe(false)
    expect(storage.has(SESSION_UNLOCKED_KEY)).toBe(false)
    expect(seen).toEqual([true, false])
    await expect(session.signKey({ email: 'a@example.com', keyVersion: 1, publicKey: 'AAAA' })).rejects.toThrow(VaultLockedError)
  })

  it('locks itself after the idle period, and activity pushes that back', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false, idleMs: 1000 })
    await session.unlock('the right passphrase!', legacy, async () => undefined)
    vi.useFakeTimers()
    session.touch() // re-arms under the fake clock
    vi.advanceTimersByTime(900)
    session.touch()
    vi.advanceTimersByTime(900)
    expect(session.isUnlocked()).toBe(true)
    vi.advanceTimersByTime(200)
    expect(session.isUnlocked()).toBe(false)
  })

  it('locks an unlocked vault after 15 minutes without activity by default', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    await session.unlock('the right passphrase!', legacy, async () => undefined)
    vi.useFakeTimers()
    session.touch() // re-arms under the fake clock
    vi.advanceTimersByTime(15 * 60 * 1000 - 1)
    expect(session.isUnlocked()).toBe(true)
    vi.advanceTimersByTime(1)
    expect(session.isUnlocked()).toBe(false)
  })

  it('creates a vault, with its signing key, only when the server accepts it', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    await expect(session.create('a fine passphrase 1!', 'owner-1', async () => Promise.reject(new Error('409: already set up')))).rejects.toThrow('409')
    expect(session.isUnlocked()).toBe(false)
    let sent: VaultSetupBody | undefined
    await session.create('a fine passphrase 1!', 'owner-1', async (setup) => {
      sent = setup
    })
    expect(session.isUnlocked()).toBe(true)
    // What reaches the server: the salt, the check value, the signing public key and its private
    // key wrapped by the master key. Never the passphrase.
    expect(Object.keys(sent!).sort()).toEqual(['passphraseCheck', 'recovery', 'signingPublicKey', 'vaultSalt', 'wrappedSigningKey', 'wrappedVaultKey'])
    expect(JSON.stringify(sent)).not.toContain('a fine passphrase')
    const signature = await session.signKey({ email: 'heir@example.com', keyVersion: 1, publicKey: 'AAAA' })
    const other = createVaultSession({ storage: null, broadcast: false })
    const stored: StoredVault = {
      ownerId: 'owner-1',
      salt: sent!.vaultSalt,
      check: sent!.passphraseCheck,
      signingKey: { publicKey: sent!.signingPublicKey, wrapped: sent!.wrappedSigningKey },
      vaultKey: sent!.wrappedVaultKey,
    }
    expect(await other.unlock('a fine passphrase 1!', stored, noSigningKey)).toBe(true)
    expect(other.hasSigningProblem()).toBe(false)
    // Another tab of the same vault trusts what this one signed, and nothing else.
    const heir = { email: 'heir@example.com', keyVersion: 1, publicKey: 'AAAA' }
    expect(await other.isSignedKey({ ...V1_ROW, ...heir, keySignature: signature })).toBe(true)
    expect(await other.isSignedKey({ ...V1_ROW, ...heir, publicKey: 'BBBB', keySignature: signature })).toBe(false)
    expect(await other.isSignedKey({ ...V1_ROW, ...heir, keyVersion: 2, keySignature: signature })).toBe(false)
    expect(await other.isSignedKey({ ...V1_ROW, ...heir, keySignature: null })).toBe(false)
  })

  it('gives a vault made before signing keys its signing key at the first unlock', async () => {
    const session = createVaultSession({ storage: null, broadcast: false })
    let added: SigningKeyBody | undefined
    expect(await session.unlock('the right passphrase!', legacy, async (body) => void (added = body))).toBe(true)
    expect(added!.signingPublicKey).toHaveLength(124)
    const signature = await session.signKey({ email: 'heir@example.com', keyVersion: 3, publicKey: 'AAAA' })
    expect(await session.isSignedKey({ ...V1_ROW, email: 'heir@example.com', keyVersion: 3, publicKey: 'AAAA', keySignature: signature })).toBe(true)
    // The next unlock uses the stored key.
    const next = createVaultSession({ storage: null, broadcast: false })
    expect(await next.unlock('the right passphrase!', { ...legacy, signingKey: { publicKey: added!.signingPublicKey, wrapped: added!.wrappedSigningKey } }, noSigningKey)).toBe(true)
    expect(await next.isSignedKey({ ...V1_ROW, email: 'heir@example.com', keyVersion: 3, publicKey: 'AAAA', keySignature: signature })).toBe(true)
  })

  it('trusts no signing key its passphrase does not open: one put there by someone else signs nothing', async () => {
    // A stolen session stored an attacker's key pair, wrapped under the attacker's own master key.
    const attacker = createVaultSession({ storage: null, broadcast: false })
    let theirs: VaultSetupBody | undefined
    await attacker.create('the attacker passphrase', 'owner-1', async (setup) => void (theirs = setup))
    const forged = await attacker.signKey({ email: 'heir@example.com', keyVersion: 1, publicKey: 'EVIL' })
    const owner = createVaultSession({ storage: null, broadcast: false })
    const substituted: StoredVault = { ...legacy, signingKey: { publicKey: theirs!.signingPublicKey, wrapped: theirs!.wrappedSigningKey } }
    expect(await owner.unlock('the right passphrase!', substituted, noSigningKey)).toBe(true)
    expect(owner.hasSigningProblem()).toBe(true)
    expect(await owner.isSignedKey({ ...V1_ROW, email: 'heir@example.com', keyVersion: 1, publicKey: 'EVIL', keySignature: forged })).toBe(false)
    await expect(owner.signKey({ email: 'heir@example.com', keyVersion: 1, publicKey: 'AAAA' })).rejects.toThrow(SigningKeyProblemError)

    // Or it kept the owner's wrapped key and put its own public key beside it: the halves do not match.
    const mine = createVaultSession({ storage: null, broadcast: false })
    let ours: VaultSetupBody | undefined
    await mine.create('the right passphrase!', 'owner-1', async (setup) => void (ours = setup))
    const halves: StoredVault = {
      ownerId: 'owner-1',
      salt: ours!.vaultSalt,
      check: ours!.passphraseCheck,
      signingKey: { publicKey: theirs!.signingPublicKey, wrapped: ours!.wrappedSigningKey },
      vaultKey: ours!.wrappedVaultKey,
    }
    const fooled = createVaultSession({ storage: null, broadcast: false })
    expect(await fooled.unlock('the right passphrase!', halves, noSigningKey)).toBe(true)
    expect(fooled.hasSigningProblem()).toBe(true)
    expect(await fooled.isSignedKey({ ...V1_ROW, email: 'heir@example.com', keyVersion: 1, publicKey: 'EVIL', keySignature: forged })).toBe(false)
  })
})

describe('the unlock dialog after a wrong passphrase', () => {
  const words = FAILED_UNLOCK_MESSAGES.attemptsLeft

  it('says how many attempts are left before the Failed unlock attempts trigger starts a release', () => {
    expect(words(4)).toBe('4 attempts left before your Failed unlock attempts trigger starts a release. Unlocking successfully within 15 minutes forgives these attempts.')
    expect(words(1)).toMatch(/^1 attempt left before your Failed unlock attempts trigger starts a release\./)
    expect(words(0)).toBe(
      'No attempts left: your Failed unlock attempts trigger will start a release within 15 minutes unless you unlock your vault successfully before then.',
    )
  })

  it('says nothing when no such trigger is active', () => {
    expect(words(null)).toBeNull()
  })

  it('names the forgiving time the engine uses', () => {
    expect(UNLOCK_FORGIVE_MS).toBe(15 * 60_000)
    for (const n of [0, 1, 3]) expect(words(n)).toContain(`${UNLOCK_FORGIVE_MS / 60_000} minutes`)
  })
})
