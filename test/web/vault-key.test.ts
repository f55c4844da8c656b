import { describe, expect, it } from 'vitest'
import {
  createPassphraseCheck,
  DecryptionError,
  derivePassphraseKey,
  generateDataKey,
  generateVaultKey,
  generateVaultSalt,
  unwrapDataKey,
  unwrapSigningKey,
  unwrapVaultKey,
  wrapDataKey,
  wrapVaultKey,
  type MasterKey,
  type PassphraseKey,
} from '@/crypto'
import type { PassphraseChangeBody, VaultSetupBody } from '../../contract/vault'
import { createVaultSession, VaultKeyProblemError, type StoredVault } from '@/features/vault/vault-session'

// Vault format 2 (FORMAT.md): the passphrase's key wraps a random vault key, which wraps the rest.

const RIGHT = 'correct horse battery staple'
const noSigningKey = async () => {
  throw new Error('not expected to add a signing key')
}

function storedFrom(setup: VaultSetupBody): StoredVault {
  return {
    ownerId: 'owner-1',
    salt: setup.vaultSalt,
    check: setup.passphraseCheck,
    signingKey: { publicKey: setup.signingPublicKey, wrapped: setup.wrappedSigningKey },
    vaultKey: setup.wrappedVaultKey,
  }
}

async function newVault(passphrase = RIGHT) {
  const session = createVaultSession({ storage: null, broadcast: false })
  let setup: VaultSetupBody | undefined
  await session.create(passphrase, 'owner-1', async (body) => void (setup = body))
  return { session, setup: setup!, stored: storedFrom(setup!) }
}

describe('the vault key wrap', () => {
  it('is 61 bytes and opens only under the passphrase key that made it', async () => {
    const salt = generateVaultSalt()
    const key = await derivePassphraseKey(RIGHT, salt)
    const wrapped = await wrapVaultKey(await generateVaultKey(), key)
    expect(atob(wrapped)).toHaveLength(61)
    expect(wrapped).toHaveLength(84)
    await expect(unwrapVaultKey(wrapped, key)).resolves.toBeDefined()
    await expect(unwrapVaultKey(wrapped, await derivePassphraseKey('another passphrase', salt))).rejects.toThrow(DecryptionError)
    await expect(unwrapVaultKey(wrapped, await derivePassphraseKey(RIGHT, generateVaultSalt()))).rejects.toThrow(DecryptionError)
  })

  it('refuses another kind of wrap put in its place (its own purpose tag): a data key wrapped by the same key is not a vault key', async () => {
    const key = await derivePassphraseKey(RIGHT, generateVaultSalt())
    const dataKeyWrap = await wrapDataKey(await generateDataKey(), key as unknown as MasterKey)
    await expect(unwrapVaultKey(dataKeyWrap, key)).rejects.toThrow(DecryptionError)
  })

  it('an unwrapped vault key is not extractable unless asked, and wraps data keys that only it opens', async () => {
    const key = await derivePassphraseKey(RIGHT, generateVaultSalt())
    const wrapped = await wrapVaultKey(await generateVaultKey(), key)
    const vaultKey = await unwrapVaultKey(wrapped, key)
    expect(vaultKey.extractable).toBe(false)
    expect((await unwrapVaultKey(wrapped, key, true)).extractable).toBe(true)
    const dek = await generateDataKey()
    const dataWrap = await wrapDataKey(dek, vaultKey)
    await expect(unwrapDataKey(dataWrap, vaultKey)).resolves.toBeDefined()
    // The passphrase's key itself opens no data key of a format-2 vault.
    await expect(unwrapDataKey(dataWrap, key as unknown as MasterKey)).rejects.toThrow(DecryptionError)
  })

  it('keeps the key types apart: a passphrase key is refused where a vault key belongs', async () => {
    const key: PassphraseKey = await derivePassphraseKey(RIGHT, generateVaultSalt())
    const dek = await generateDataKey()
    // @ts-expect-error a PassphraseKey is not a MasterKey (vault key)
    await wrapDataKey(dek, key)
    // @ts-expect-error nor is a vault key a passphrase key
    await wrapVaultKey(await generateVaultKey(), await generateVaultKey())
  })
})

describe('a vault of format 2 in the session', () => {
  it('sends the wrapped vault key at setup, never the passphrase, and the signing key opens under the vault key only', async () => {
    const { setup } = await newVault()
    expect(JSON.stringify(setup)).not.toContain(RIGHT)
    const passphraseKey = await derivePassphraseKey(RIGHT, setup.vaultSalt)
    await expect(unwrapSigningKey(setup.wrappedSigningKey, passphraseKey as unknown as MasterKey)).rejects.toThrow(DecryptionError)
    await expect(unwrapSigningKey(setup.wrappedSigningKey, await unwrapVaultKey(setup.wrappedVaultKey, passphraseKey))).resolves.toBeDefined()
  })

  it('unlocks with the right passphrase, answers false for a wrong one', async () => {
    const { stored } = await newVault()
    const session = createVaultSession({ storage: null, broadcast: false })
    expect(await session.unlock('not the passphrase', stored, noSigningKey)).toBe(false)
    expect(session.isUnlocked()).toBe(false)
    expect(await session.unlock(RIGHT, stored, noSigningKey)).toBe(true)
    expect(session.hasSigningProblem()).toBe(false)
  })

  it('detects a swapped vault key wrap and does not obey it: the check opens, the wrap does not', async () => {
    const { stored } = await newVault()
    // The server swaps in another vault key wrapped under a key it made itself (another vault's)…
    const other = await newVault('some other passphrase')
    const session = createVaultSession({ storage: null, broadcast: false })
    await expect(session.unlock(RIGHT, { ...stored, vaultKey: other.stored.vaultKey }, noSigningKey)).rejects.toThrow(VaultKeyProblemError)
    expect(session.isUnlocked()).toBe(false)
    // …or flips a byte of the right one.
    const bytes = Uint8Array.from(atob(stored.vaultKey!), (c) => c.charCodeAt(0))
    bytes[20]! ^= 1
    await expect(session.unlock(RIGHT, { ...stored, vaultKey: btoa(String.fromCharCode(...bytes)) }, noSigningKey)).rejects.toThrow(VaultKeyProblemError)
    expect(session.isUnlocked()).toBe(false)
    // A swapped check AND wrap (another vault's pair) reads as a wrong passphrase: nothing opens either way.
    expect(await session.unlock(RIGHT, { ...stored, check: other.stored.check, vaultKey: other.stored.vaultKey }, noSigningKey)).toBe(false)
  })

  it('changes the passphrase by re-wrapping the same vault key: data keys still open, the old passphrase is refused', async () => {
    const { session, stored } = await newVault()
    const dataWrap = await wrapDataKey(await generateDataKey(), session.requireKey())
    expect(await session.changePassphrase('not the old one', 'a brand new passphrase', stored, async () => Promise.reject(new Error('not sent')))).toBe(false)
    let sent: PassphraseChangeBody | undefined
    expect(await session.changePassphrase(RIGHT, 'a brand new passphrase', stored, async (body) => void (sent = body))).toBe(true)
    expect(Object.keys(sent!).sort()).toEqual(['passphraseCheck', 'vaultSalt', 'wrappedVaultKey'])
    expect(sent!.vaultSalt).not.toBe(stored.salt)
    expect(JSON.stringify(sent)).not.toContain('a brand new passphrase')
    // This tab stays unlocked, with the same vault key.
    await expect(unwrapDataKey(dataWrap, session.requireKey())).resolves.toBeDefined()
    const after: StoredVault = { ...stored, salt: sent!.vaultSalt, check: sent!.passphraseCheck, vaultKey: sent!.wrappedVaultKey }
    const next = createVaultSession({ storage: null, broadcast: false })
    expect(await next.unlock(RIGHT, after, noSigningKey)).toBe(false)
    expect(await next.unlock('a brand new passphrase', after, noSigningKey)).toBe(true)
    await expect(unwrapDataKey(dataWrap, next.requireKey())).resolves.toBeDefined()
    expect(next.hasSigningProblem()).toBe(false)
  })

  it('keeps the old keys if the server refuses the change', async () => {
    const { session, stored } = await newVault()
    await expect(session.changePassphrase(RIGHT, 'a brand new passphrase', stored, async () => Promise.reject(new Error('403')))).rejects.toThrow('403')
    expect(session.isUnlocked()).toBe(true)
    expect(await createVaultSession({ storage: null, broadcast: false }).unlock(RIGHT, stored, noSigningKey)).toBe(true)
  })

  it('locks every other tab after a change, and not the one that changed it', async () => {
    const { stored } = await newVault()
    const changing = createVaultSession({ storage: null })
    const other = createVaultSession({ storage: null })
    expect(await changing.unlock(RIGHT, stored, noSigningKey)).toBe(true)
    expect(await other.unlock(RIGHT, stored, noSigningKey)).toBe(true)
    await changing.changePassphrase(RIGHT, 'a brand new passphrase', stored, async () => undefined)
    await expect.poll(() => other.isUnlocked()).toBe(false)
    expect(changing.isUnlocked()).toBe(true)
    changing.lock()
  })

  it('needs the vault unlocked to change the passphrase', async () => {
    const { stored } = await newVault()
    const locked = createVaultSession({ storage: null, broadcast: false })
    await expect(locked.changePassphrase(RIGHT, 'a brand new passphrase', stored, async () => undefined)).rejects.toThrow('locked')
  })

  it('a check made by the passphrase key is the same check a format-1 vault has (so a move keeps it)', async () => {
    const salt = generateVaultSalt()
    const check = await createPassphraseCheck(await derivePassphraseKey(RIGHT, salt))
    const v1 = createVaultSession({ storage: null, broadcast: false })
    expect(await v1.unlock(RIGHT, { ownerId: 'o', salt, check, signingKey: null, vaultKey: null }, async () => undefined)).toBe(true)
  })
})
