import { describe, expect, it, vi } from 'vitest'
import {
  DecryptionError,
  deriveRecoveryKey,
  generateRecoveryCode,
  generateRecoverySalt,
  generateVaultKey,
  unwrapVaultKey,
  unwrapVaultKeyWithRecovery,
  wrapVaultKey,
  wrapVaultKeyForRecovery,
} from '@/crypto'
import {
  formatRecoveryCode,
  parseRecoveryCode,
  RECOVERY_ALPHABET,
  RECOVERY_RANDOM_SYMBOLS,
  recoveryCheckSymbol,
  recoveryCodeFromBytes,
} from '../../contract/vault-recovery'
import type { PassphraseChangeBody, RecoveryWrapBody, VaultSetupBody } from '../../contract/vault'
import { createVaultSession, VaultKeyProblemError, VaultLockedError, type StoredVault } from '@/features/vault/vault-session'

// The owner's recovery code (0.3 · 4 of 7 item 3): its printed form and check symbol, its wrap of
// the vault key, and the vault session's recovery: a forgotten passphrase replaced through the
// code, a new code that voids the old one, and a swapped wrap detected rather than obeyed.

const PASSPHRASE = 'Correct Horse Battery Staple 42!'
const NEW_PASSPHRASE = 'Otter Lantern Quietly Seventeen 9?'

const compact = (code: string) => code.replace(/-/g, '')

describe('recovery code format', () => {
  it('is seven groups of four symbols of Crockford base32, the last symbol checking the other 27', () => {
    const code = generateRecoveryCode()
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/)
    const symbols = compact(code)
    expect(symbols).toHaveLength(RECOVERY_RANDOM_SYMBOLS + 1)
    expect(recoveryCheckSymbol(symbols.slice(0, -1))).toBe(symbols.at(-1))
    expect(generateRecoveryCode()).not.toBe(code)
  })

  it('uses every symbol of the alphabet with equal weight (each random byte’s low five bits)', () => {
    const bytes = Uint8Array.from({ length: RECOVERY_RANDOM_SYMBOLS }, (_, i) => i + 32 * (i % 8))
    const code = compact(recoveryCodeFromBytes(bytes))
    expect(code.slice(0, RECOVERY_RANDOM_SYMBOLS)).toBe(RECOVERY_ALPHABET.slice(0, RECOVERY_RANDOM_SYMBOLS))
  })

  it('reads what a person types: any case, spaces or no hyphens, O for 0 and I or L for 1', () => {
    const code = recoveryCodeFromBytes(Uint8Array.from({ length: RECOVERY_RANDOM_SYMBOLS }, (_, i) => (i * 7) % 32))
    const symbols = compact(code).slice(0, RECOVERY_RANDOM_SYMBOLS)
    for (const typed of [code, code.toLowerCase(), compact(code), code.replace(/-/g, ' '), ` ${code} `]) {
      expect(parseRecoveryCode(typed)).toEqual({ ok: true, symbols })
    }
    const withZeroAndOne = formatRecoveryCode('0'.repeat(26) + '1' + recoveryCheckSymbol('0'.repeat(26) + '1'))
    expect(parseRecoveryCode(withZeroAndOne.replace(/0/g, 'o').replace('1', 'l'))).toMatchObject({ ok: true })
  })

  it('catches every single mistyped symbol, and every swap of two different neighbours', () => {
    const code = compact(generateRecoveryCode())
    for (let i = 0; i < code.length; i++) {
      for (const other of RECOVERY_ALPHABET) {
        if (other === code[i]) continue
        const typo = code.slice(0, i) + other + code.slice(i + 1)
        expect(parseRecoveryCode(typo)).toEqual({ ok: false, problem: 'check' })
      }
    }
    let swaps = 0
    for (let i = 0; i + 1 < code.length; i++) {
      const [a, b] = [RECOVERY_ALPHABET.indexOf(code[i]!), RECOVERY_ALPHABET.indexOf(code[i + 1]!)]
      // Luhn mod 32 misses only `0` and `Z` side by side (values 0 and 31).
      if (a === b || (a + b === 31 && a * b === 0)) continue
      const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2)
      expect(parseRecoveryCode(swapped)).toEqual({ ok: false, problem: 'check' })
      swaps++
    }
    expect(swaps).toBeGreaterThan(0)
  })

  it('a swap of two different neighbours goes unnoticed only for `0` and `Z`, at every weight and next to the check symbol too', () => {
    const missed = new Set<string>()
    for (const at of [RECOVERY_RANDOM_SYMBOLS - 3, RECOVERY_RANDOM_SYMBOLS - 2, RECOVERY_RANDOM_SYMBOLS - 1]) {
      for (const a of RECOVERY_ALPHABET) {
        for (const b of RECOVERY_ALPHABET) {
          if (a === b) continue
          // The pair at `at` and `at + 1`; at the last position the second of them is the check symbol.
          const body = 'A'.repeat(at) + a + (at + 1 < RECOVERY_RANDOM_SYMBOLS ? b : '') + 'A'.repeat(Math.max(0, RECOVERY_RANDOM_SYMBOLS - at - 2))
          const code = body + recoveryCheckSymbol(body)
          if (code[at + 1] !== b) continue
          const swapped = code.slice(0, at) + code[at + 1] + code[at] + code.slice(at + 2)
          if (parseRecoveryCode(swapped).ok) missed.add([a, b].sort().join(''))
        }
      }
    }
    expect([...missed]).toEqual(['0Z'])
  })

  it('names what is wrong: nothing typed, a symbol not in the code’s alphabet, a missing or extra symbol', () => {
    const code = generateRecoveryCode()
    expect(parseRecoveryCode('  - ')).toEqual({ ok: false, problem: 'empty' })
    expect(parseRecoveryCode(code.replace(/-/, '-U'))).toEqual({ ok: false, problem: 'symbol' })
    expect(parseRecoveryCode(`${code}!`)).toEqual({ ok: false, problem: 'symbol' })
    expect(parseRecoveryCode(code.slice(0, -1))).toEqual({ ok: false, problem: 'length' })
    expect(parseRecoveryCode(`${code}A`)).toEqual({ ok: false, problem: 'length' })
  })
})

describe('recovery wrap', () => {
  it('wraps the vault key under the code and its salt, and opens with the code however it is typed', async () => {
    const vaultKey = await generateVaultKey()
    const code = generateRecoveryCode()
    const salt = generateRecoverySalt()
    const wrapped = await wrapVaultKeyForRecovery(vaultKey, await deriveRecoveryKey(code, salt))
    expect(atob(wrapped)).toHaveLength(61)
    const opened = await unwrapVaultKeyWithRecovery(wrapped, await deriveRecoveryKey(compact(code).toLowerCase(), salt), true)
    const [a, b] = await Promise.all([crypto.subtle.exportKey('raw', vaultKey), crypto.subtle.exportKey('raw', opened)])
    expect(new Uint8Array(b)).toEqual(new Uint8Array(a))
    // Non-extractable unless asked.
    await expect(crypto.subtle.exportKey('raw', await unwrapVaultKeyWithRecovery(wrapped, await deriveRecoveryKey(code, salt)))).rejects.toThrow()
  })

  it('refuses another code, another salt, altered bytes, and a passphrase’s wrap put in its place', async () => {
    const vaultKey = await generateVaultKey()
    const code = generateRecoveryCode()
    const salt = generateRecoverySalt()
    const key = await deriveRecoveryKey(code, salt)
    const wrapped = await wrapVaultKeyForRecovery(vaultKey, key)
    await expect(unwrapVaultKeyWithRecovery(wrapped, await deriveRecoveryKey(generateRecoveryCode(), salt))).rejects.toBeInstanceOf(DecryptionError)
    await expect(unwrapVaultKeyWithRecovery(wrapped, await deriveRecoveryKey(code, generateRecoverySalt()))).rejects.toBeInstanceOf(DecryptionError)
    const bytes = Uint8Array.from(atob(wrapped), (c) => c.charCodeAt(0))
    bytes[30]! ^= 1
    await expect(unwrapVaultKeyWithRecovery(btoa(String.fromCharCode(...bytes)), key)).rejects.toBeInstanceOf(DecryptionError)
    // The same AES key used as a passphrase key: the purpose tags differ, so neither wrap opens as the other.
    const asPassphraseKey = key as unknown as Parameters<typeof wrapVaultKey>[1]
    const passphraseWrap = await wrapVaultKey(vaultKey, asPassphraseKey)
    await expect(unwrapVaultKeyWithRecovery(passphraseWrap, key)).rejects.toBeInstanceOf(DecryptionError)
    await expect(unwrapVaultKey(wrapped, asPassphraseKey)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('refuses to derive from text that is not a whole, valid code', async () => {
    await expect(deriveRecoveryKey('not a code', generateRecoverySalt())).rejects.toBeInstanceOf(RangeError)
  })
})

describe('vault session: the recovery code', { timeout: 20_000 }, () => {
  const session = () => createVaultSession({ storage: null, broadcast: false })

  /** A vault made by the session as the app makes it, and its stored form as the server then shows it. */
  async function newVault() {
    let setup: VaultSetupBody | undefined
    const code = await session().create(PASSPHRASE, 'owner-1', async (body) => {
      setup = body
    })
    const vault: StoredVault = {
      ownerId: 'owner-1',
      salt: setup!.vaultSalt,
      check: setup!.passphraseCheck,
      vaultKey: setup!.wrappedVaultKey,
      signingKey: { publicKey: setup!.signingPublicKey, wrapped: setup!.wrappedSigningKey },
      recovery: { salt: setup!.recovery!.recoverySalt, wrappedVaultKey: setup!.recovery!.wrappedVaultKey },
    }
    return { code, vault, setup: setup! }
  }

  const noSigningKey = async () => {
    throw new Error('not expected')
  }

  it('setup sends the first code’s wrap (never the code) and answers the code', async () => {
    const { code, setup } = await newVault()
    expect(setup.recovery).toBeDefined()
    expect(JSON.stringify(setup)).not.toContain(compact(code).slice(0, 8))
    expect(JSON.stringify(setup)).not.toContain(code.slice(0, 9))
  })

  it('forgot the passphrase: the code opens the vault, a new passphrase is set in one request, and only it unlocks afterwards', async () => {
    const { code, vault } = await newVault()
    const owner = session()
    expect(await owner.checkRecoveryCode(code, vault)).toBe(true)
    let sent: PassphraseChangeBody | undefined
    expect(
      await owner.recover(code, NEW_PASSPHRASE, vault, async (body) => {
        sent = body
      }),
    ).toBe(true)
    expect(owner.isUnlocked()).toBe(true)
    expect(owner.signer()).toEqual({ ownerId: 'owner-1', publicKey: vault.signingKey!.publicKey })
    expect(sent!.via).toBe('recovery_code')
    expect(JSON.stringify(sent)).not.toContain(compact(code).slice(0, 8))
    const after: StoredVault = { ...vault, salt: sent!.vaultSalt, check: sent!.passphraseCheck, vaultKey: sent!.wrappedVaultKey }
    expect(await session().unlock(NEW_PASSPHRASE, after, noSigningKey)).toBe(true)
    expect(await session().unlock(PASSPHRASE, after, noSigningKey)).toBe(false)
    // The code still opens the vault (its wrap did not change).
    expect(await session().checkRecoveryCode(code, after)).toBe(true)
  })

  it('another code (or one with a typing mistake) opens nothing and sends nothing', async () => {
    const { code, vault } = await newVault()
    const persist = vi.fn(async () => undefined)
    const owner = session()
    expect(await owner.checkRecoveryCode(generateRecoveryCode(), vault)).toBe(false)
    expect(await owner.recover(generateRecoveryCode(), NEW_PASSPHRASE, vault, persist)).toBe(false)
    // The second symbol mistyped (never replaced by itself: that would be the right code).
    const typo = code.slice(0, 1) + (code[1] === 'A' ? 'B' : 'A') + code.slice(2)
    expect(await owner.recover(typo, NEW_PASSPHRASE, vault, persist)).toBe(false)
    expect(await owner.recover(code, NEW_PASSPHRASE, { ...vault, recovery: null }, persist)).toBe(false)
    expect(persist).not.toHaveBeenCalled()
    expect(owner.isUnlocked()).toBe(false)
  })

  it('a wrap swapped by the server (its own vault key, under a code it knows) is detected: nothing is set, the vault stays locked', async () => {
    const { vault } = await newVault()
    const serverCode = generateRecoveryCode()
    const serverSalt = generateRecoverySalt()
    const swapped = await wrapVaultKeyForRecovery(await generateVaultKey(), await deriveRecoveryKey(serverCode, serverSalt))
    const persist = vi.fn(async () => undefined)
    const owner = session()
    await expect(owner.recover(serverCode, NEW_PASSPHRASE, { ...vault, recovery: { salt: serverSalt, wrappedVaultKey: swapped } }, persist)).rejects.toBeInstanceOf(
      VaultKeyProblemError,
    )
    expect(persist).not.toHaveBeenCalled()
    expect(owner.isUnlocked()).toBe(false)
  })

  it('a new code needs the vault unlocked and the passphrase, and voids the old one', async () => {
    const { code, vault } = await newVault()
    const owner = session()
    await expect(owner.makeRecoveryCode(PASSPHRASE, vault, async () => undefined)).rejects.toBeInstanceOf(VaultLockedError)
    expect(await owner.unlock(PASSPHRASE, vault, noSigningKey)).toBe(true)
    const persist = vi.fn(async (_body: RecoveryWrapBody) => undefined)
    expect(await owner.makeRecoveryCode('not the passphrase', vault, persist)).toBeNull()
    expect(persist).not.toHaveBeenCalled()
    const fresh = await owner.makeRecoveryCode(PASSPHRASE, vault, persist)
    expect(fresh).not.toBeNull()
    expect(fresh).not.toBe(code)
    const body = persist.mock.calls[0]![0]
    const after: StoredVault = { ...vault, recovery: { salt: body.recoverySalt, wrappedVaultKey: body.wrappedVaultKey } }
    expect(await session().checkRecoveryCode(fresh!, after)).toBe(true)
    expect(await session().checkRecoveryCode(code, after)).toBe(false)
    // The new code opens the same vault key: the vault's signing key opens under it.
    const other = session()
    expect(await other.recover(fresh!, NEW_PASSPHRASE, after, async () => undefined)).toBe(true)
    expect(other.signer()?.publicKey).toBe(vault.signingKey!.publicKey)
  })

  it('the passphrase’s key wraps only the vault key: an item key wrapped before recovery opens after it', async () => {
    const { code, vault } = await newVault()
    const owner = session()
    expect(await owner.unlock(PASSPHRASE, vault, noSigningKey)).toBe(true)
    const { generateDataKey, wrapDataKey, unwrapDataKey } = await import('@/crypto')
    const dataKey = await generateDataKey()
    const wrappedDataKey = await wrapDataKey(dataKey, owner.requireKey())
    let sent: PassphraseChangeBody | undefined
    const recovered = session()
    expect(await recovered.recover(code, NEW_PASSPHRASE, vault, async (b) => void (sent = b))).toBe(true)
    await expect(unwrapDataKey(wrappedDataKey, recovered.requireKey())).resolves.toBeDefined()
    const later = session()
    expect(await later.unlock(NEW_PASSPHRASE, { ...vault, salt: sent!.vaultSalt, check: sent!.passphraseCheck, vaultKey: sent!.wrappedVaultKey }, noSigningKey)).toBe(true)
    await expect(unwrapDataKey(wrappedDataKey, later.requireKey())).resolves.toBeDefined()
  })
})

describe('the recovery wrap as FORMAT.md writes it', () => {
  it('opens with nothing but the document: Luhn mod 32, HKDF-SHA256 over the 27 symbols, the 45-byte AAD', async () => {
    const vaultKey = await generateVaultKey()
    const code = generateRecoveryCode()
    const salt = generateRecoverySalt()
    const wrapped = await wrapVaultKeyForRecovery(vaultKey, await deriveRecoveryKey(code, salt))

    // The check symbol, by hand.
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
    const symbols = compact(code)
    let sum = 0
    for (let i = 26, factor = 2; i >= 0; i--, factor = 3 - factor) {
      const product = factor * alphabet.indexOf(symbols[i]!)
      sum += Math.floor(product / 32) + (product % 32)
    }
    expect(alphabet[(32 - (sum % 32)) % 32]).toBe(symbols[27])

    const enc = new TextEncoder()
    const material = await crypto.subtle.importKey('raw', enc.encode(symbols.slice(0, 27)), 'HKDF', false, ['deriveKey'])
    const saltBytes = Uint8Array.from(atob(salt), (c) => c.charCodeAt(0))
    const key = await crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: saltBytes, info: enc.encode('legacy-vault:recovery-code') }, material, { name: 'AES-GCM', length: 256 }, false, ['decrypt'])
    const tag = enc.encode('legacy-vault:recovery-key-wrap')
    const aad = new Uint8Array([0x01, 0, 0, 0, tag.length, ...tag, 0x02, 0, 0, 0, 1, 0x02, 0, 0, 0, 2])
    expect(aad).toHaveLength(45)
    const bytes = Uint8Array.from(atob(wrapped), (c) => c.charCodeAt(0))
    expect(bytes[0]).toBe(1)
    const raw = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(1, 13), additionalData: aad }, key, bytes.slice(13))
    expect(new Uint8Array(raw)).toEqual(new Uint8Array(await crypto.subtle.exportKey('raw', vaultKey)))
  })
})
