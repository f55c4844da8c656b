import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPassphraseCheck, deriveMasterKey, generateVaultSalt } from '@/crypto'
import { scorePassphrase } from '@/features/vault/passphrase-strength'
import { createVaultSession, SESSION_SALT_KEY, SESSION_UNLOCKED_KEY, VaultLockedError } from '@/features/vault/vault-session'

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
  beforeAll(async () => {
    salt = generateVaultSalt()
    check = await createPassphraseCheck(await deriveMasterKey('the right passphrase!', salt))
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
    expect(await session.unlock('a wrong passphrase', salt, check)).toBe(false)
    expect(session.isUnlocked()).toBe(false)
    expect(storage.size).toBe(0)
    expect(await session.unlock('the right passphrase!', salt, check)).toBe(true)
    expect(session.isUnlocked()).toBe(true)
    expect(storage.get(SESSION_SALT_KEY)).toBe(salt)
    expect(storage.get(SESSION_UNLOCKED_KEY)).toBe('true')
  })

  it('lock clears the key and both session-storage entries, and tells subscribers', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    const seen: boolean[] = []
    session.subscribe(() => seen.push(session.isUnlocked()))
    await session.unlock('the right passphrase!', salt, check)
    session.lock()
    expect(session.isUnlocked()).toBe(false)
    expect(storage.has(SESSION_SALT_KEY)).toBe(false)
    expect(storage.has(SESSION_UNLOCKED_KEY)).toBe(false)
    expect(seen).toEqual([true, false])
  })

  it('locks itself after the idle period, and activity pushes that back', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false, idleMs: 1000 })
    await session.unlock('the right passphrase!', salt, check)
    vi.useFakeTimers()
    session.touch() // re-arms under the fake clock
    vi.advanceTimersByTime(900)
    session.touch()
    vi.advanceTimersByTime(900)
    expect(session.isUnlocked()).toBe(true)
    vi.advanceTimersByTime(200)
    expect(session.isUnlocked()).toBe(false)
  })

  it('creates a vault only when the server accepts it', async () => {
    const session = createVaultSession({ storage: fakeStorage, broadcast: false })
    await expect(session.create('a fine passphrase 1!', async () => Promise.reject(new Error('409: already set up')))).rejects.toThrow('409')
    expect(session.isUnlocked()).toBe(false)
    let sent: { vaultSalt: string; passphraseCheck: string } | undefined
    await session.create('a fine passphrase 1!', async (setup) => {
      sent = setup
    })
    expect(session.isUnlocked()).toBe(true)
    // What reaches the server is the salt and the check value: never the passphrase.
    expect(JSON.stringify(sent)).not.toContain('a fine passphrase')
    const other = createVaultSession({ storage: null, broadcast: false })
    expect(await other.unlock('a fine passphrase 1!', sent!.vaultSalt, sent!.passphraseCheck)).toBe(true)
  })
})
