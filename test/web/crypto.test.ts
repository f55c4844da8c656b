import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AES_KEY_BITS,
  createPassphraseCheck,
  CRYPTO_FORMAT_VERSION,
  DecryptionError,
  decryptChunk,
  decryptMetadata,
  DEFAULT_CHUNK_BYTES,
  deriveMasterKey,
  encryptChunk,
  encryptMetadata,
  fromBase64,
  generateDataKey,
  generateVaultSalt,
  IV_BYTES,
  PBKDF2_HASH,
  PBKDF2_ITERATIONS,
  RSA_HASH,
  RSA_MODULUS_BITS,
  SALT_BYTES,
  toBase64,
  unwrapDataKey,
  utf8,
  verifyPassphrase,
  wrapDataKey,
  type DataKey,
  type MasterKey,
} from '@/crypto'

// Passphrase, salt and the three derived keys are shared by the file: PBKDF2 at 600 000
// iterations costs ~0.3 s per derivation, so each is done once (in parallel) in beforeAll.
const PASSPHRASE_NFD = 'Correct horse battery staple, cafe\u0301 ☕'
const PASSPHRASE_NFC = PASSPHRASE_NFD.normalize('NFC')
const WRONG_PASSPHRASE = 'Correct horse battery staple, cafe ☕'

let salt: string
let master: MasterKey
let masterFromNfc: MasterKey
let wrongMaster: MasterKey
let pbkdf2Params: Pbkdf2Params[]
let passphraseBytes: Uint8Array[]

beforeAll(async () => {
  salt = generateVaultSalt()
  const deriveKey = vi.spyOn(crypto.subtle, 'deriveKey')
  const deriveBits = vi.spyOn(crypto.subtle, 'deriveBits')
  const importKey = vi.spyOn(crypto.subtle, 'importKey')
  ;[master, masterFromNfc, wrongMaster] = await Promise.all([
    deriveMasterKey(PASSPHRASE_NFD, salt),
    deriveMasterKey(PASSPHRASE_NFC, salt),
    deriveMasterKey(WRONG_PASSPHRASE, salt),
  ])
  pbkdf2Params = [...deriveKey.mock.calls, ...deriveBits.mock.calls]
    .map((call) => call[0] as Pbkdf2Params)
    .filter((p) => p.name === 'PBKDF2')
  passphraseBytes = importKey.mock.calls.filter((c) => c[2] === 'PBKDF2').map((c) => new Uint8Array(c[1] as ArrayBuffer))
  vi.restoreAllMocks()
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('parameters (ARCHITECTURE §3, seeds 000 §9)', () => {
  it('has the specified values', () => {
    expect({
      PBKDF2_ITERATIONS,
      PBKDF2_HASH,
      SALT_BYTES,
      IV_BYTES,
      AES_KEY_BITS,
      RSA_MODULUS_BITS,
      RSA_HASH,
      DEFAULT_CHUNK_BYTES,
      CRYPTO_FORMAT_VERSION,
    }).toEqual({
      PBKDF2_ITERATIONS: 600_000,
      PBKDF2_HASH: 'SHA-256',
      SALT_BYTES: 32,
      IV_BYTES: 12,
      AES_KEY_BITS: 256,
      RSA_MODULUS_BITS: 2048,
      RSA_HASH: 'SHA-256',
      DEFAULT_CHUNK_BYTES: 4 * 1024 * 1024,
      CRYPTO_FORMAT_VERSION: 1,
    })
  })

  it('passes 600 000 iterations of SHA-256 and the 32-byte salt to PBKDF2', () => {
    expect(pbkdf2Params).toHaveLength(3)
    for (const params of pbkdf2Params) {
      expect(params.iterations).toBe(600_000)
      expect(params.hash).toBe('SHA-256')
      expect(new Uint8Array(params.salt as ArrayBuffer)).toEqual(fromBase64(salt))
      expect((params.salt as Uint8Array).byteLength).toBe(32)
    }
  })
})

describe('encoding', () => {
  it('round-trips bytes through base64, including large and empty arrays', () => {
    const big = new Uint8Array(200_000).map((_, i) => (i * 31) & 0xff)
    expect(fromBase64(toBase64(big))).toEqual(big)
    expect(toBase64(new Uint8Array())).toBe('')
    expect(fromBase64('')).toEqual(new Uint8Array())
    expect(toBase64(utf8('abc'))).toBe('YWJj')
    expect(fromBase64('YQ==')).toEqual(Uint8Array.of(0x61))
  })

  it.each(['YQ', 'abc', 'ab$=', 'YW Jj', 'YWJj\n', '====', 'YQ==YQ=='])('rejects %j as base64', (bad) => {
    expect(() => fromBase64(bad)).toThrow('Invalid base64')
  })

  it('encodes UTF-8', () => {
    expect(utf8('é')).toEqual(Uint8Array.of(0xc3, 0xa9))
  })
})

describe('branded keys', () => {
  it('keeps key kinds apart at compile time', () => {
    // Checked by `tsc -b`: each line below must be a type error.
    const misuse = (m: MasterKey, d: DataKey, k: CryptoKey) => {
      // @ts-expect-error a master key is not a data key
      void wrapDataKey(m, m)
      // @ts-expect-error arguments swapped
      void wrapDataKey(m, d)
      // @ts-expect-error an unbranded CryptoKey is neither
      void encryptChunk(k, 'item', 0, true, new Uint8Array())
    }
    expect(misuse).toBeTypeOf('function')
  })
})

describe('master key', () => {
  it('makes a random 32-byte salt', () => {
    const a = generateVaultSalt()
    expect(fromBase64(a)).toHaveLength(32)
    expect(generateVaultSalt()).not.toBe(a)
  })

  it('is AES-GCM-256, non-extractable, for encrypt/decrypt/wrapKey/unwrapKey', async () => {
    expect(master.algorithm).toEqual({ name: 'AES-GCM', length: 256 })
    expect(master.extractable).toBe(false)
    expect([...master.usages].sort()).toEqual(['decrypt', 'encrypt', 'unwrapKey', 'wrapKey'])
    await expect(crypto.subtle.exportKey('raw', master)).rejects.toThrow()
    await expect(crypto.subtle.exportKey('jwk', master)).rejects.toThrow()
  })

  it('NFC-normalises the passphrase before PBKDF2', async () => {
    expect(passphraseBytes[0]).toEqual(utf8(PASSPHRASE_NFC))
    expect(passphraseBytes[1]).toEqual(utf8(PASSPHRASE_NFC))
    expect(await verifyPassphrase(masterFromNfc, await createPassphraseCheck(master))).toBe(true)
  })

  it('refuses a salt that is not 32 bytes', async () => {
    await expect(deriveMasterKey('x', toBase64(new Uint8Array(16)))).rejects.toThrow('Vault salt must be 32 bytes')
    await expect(deriveMasterKey('x', 'not base64!')).rejects.toThrow('Invalid base64')
  })
})

describe('passphrase check', () => {
  it('verifies the right passphrase and is different every time', async () => {
    const check = await createPassphraseCheck(master)
    expect(await verifyPassphrase(master, check)).toBe(true)
    expect(await createPassphraseCheck(master)).not.toBe(check)
    // version || iv || 32-byte plaintext + tag
    expect(fromBase64(check)).toHaveLength(1 + 12 + 32 + 16)
    expect(fromBase64(check)[0]).toBe(1)
  })

  it('answers false (not an error) for a wrong passphrase', async () => {
    expect(await verifyPassphrase(wrongMaster, await createPassphraseCheck(master))).toBe(false)
  })

  it('answers false for an altered check', async () => {
    const bytes = fromBase64(await createPassphraseCheck(master))
    bytes[20]! ^= 1
    expect(await verifyPassphrase(master, toBase64(bytes))).toBe(false)
  })

  it('throws for a check that is not one', async () => {
    const good = fromBase64(await createPassphraseCheck(master))
    const otherVersion = good.slice()
    otherVersion[0] = 2
    for (const bad of ['', 'not base64!', toBase64(new Uint8Array(20)), toBase64(otherVersion)]) {
      await expect(verifyPassphrase(master, bad)).rejects.toBeInstanceOf(DecryptionError)
    }
  })

  it('is not interchangeable with other ciphertexts under the master key', async () => {
    const dek = await generateDataKey()
    const wrapped = await wrapDataKey(dek, master)
    // Same key, same layout, different AAD purpose.
    await expect(verifyPassphrase(master, wrapped)).resolves.toBe(false)
  })
})

describe('data keys', () => {
  it('are AES-GCM-256 and extractable (so they can be wrapped)', async () => {
    const dek = await generateDataKey()
    expect(dek.algorithm).toEqual({ name: 'AES-GCM', length: 256 })
    expect(dek.extractable).toBe(true)
    expect([...dek.usages].sort()).toEqual(['decrypt', 'encrypt'])
  })

  it('round-trip through the master key, and the unwrapped key can be wrapped again', async () => {
    const dek = await generateDataKey()
    const chunk = await encryptChunk(dek, 'item-1', 0, true, utf8('hello'))
    const wrapped = await wrapDataKey(dek, master)
    expect(fromBase64(wrapped)).toHaveLength(1 + 12 + 32 + 16)
    expect(await wrapDataKey(dek, master)).not.toBe(wrapped)

    const unwrapped = await unwrapDataKey(wrapped, master)
    expect(unwrapped.algorithm).toEqual({ name: 'AES-GCM', length: 256 })
    expect(unwrapped.extractable).toBe(true)
    expect(new TextDecoder().decode(await decryptChunk(unwrapped, 'item-1', 0, true, chunk))).toBe('hello')

    const rewrapped = await unwrapDataKey(await wrapDataKey(unwrapped, master), master)
    expect(await crypto.subtle.exportKey('raw', rewrapped)).toEqual(await crypto.subtle.exportKey('raw', dek))
  })

  it('cannot be unwrapped with a wrong passphrase', async () => {
    const wrapped = await wrapDataKey(await generateDataKey(), master)
    await expect(unwrapDataKey(wrapped, wrongMaster)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('cannot be unwrapped once altered or malformed', async () => {
    const bytes = fromBase64(await wrapDataKey(await generateDataKey(), master))
    for (let i = 0; i < bytes.length; i++) {
      const tampered = bytes.slice()
      tampered[i]! ^= 0x80
      await expect(unwrapDataKey(toBase64(tampered), master)).rejects.toBeInstanceOf(DecryptionError)
    }
    await expect(unwrapDataKey('???', master)).rejects.toBeInstanceOf(DecryptionError)
    await expect(unwrapDataKey(toBase64(bytes.subarray(0, 20)), master)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('does not accept the passphrase check as a wrapped key', async () => {
    await expect(unwrapDataKey(await createPassphraseCheck(master), master)).rejects.toBeInstanceOf(DecryptionError)
  })
})

describe('metadata', () => {
  const meta = { filename: 'Testament – final.pdf', mimetype: 'application/pdf', tags: ['legal', 'família'], size: 12345 }

  it('round-trips JSON', async () => {
    const dek = await generateDataKey()
    const sealed = await encryptMetadata(dek, 'item-1', meta)
    expect(sealed).not.toContain('Testament')
    expect(await decryptMetadata<typeof meta>(dek, 'item-1', sealed)).toEqual(meta)
    expect(await decryptMetadata(dek, 'item-1', await encryptMetadata(dek, 'item-1', null))).toBeNull()
  })

  it('cannot be moved to another item', async () => {
    const dek = await generateDataKey()
    const sealed = await encryptMetadata(dek, 'item-1', meta)
    await expect(decryptMetadata(dek, 'item-2', sealed)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('fails with another key or altered bytes, and never names the plaintext', async () => {
    const dek = await generateDataKey()
    const sealed = await encryptMetadata(dek, 'item-1', meta)
    const error = await decryptMetadata(await generateDataKey(), 'item-1', sealed).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DecryptionError)
    expect(String((error as Error).message)).not.toMatch(/Testament|pdf|legal/)
    const bytes = fromBase64(sealed)
    bytes[bytes.length - 1]! ^= 1
    await expect(decryptMetadata(dek, 'item-1', toBase64(bytes))).rejects.toBeInstanceOf(DecryptionError)
  })

  it('is not interchangeable with a content chunk of the same item', async () => {
    const dek = await generateDataKey()
    const sealed = await encryptMetadata(dek, 'item-1', meta)
    await expect(decryptChunk(dek, 'item-1', 0, true, fromBase64(sealed))).rejects.toBeInstanceOf(DecryptionError)
  })

  it('refuses a value JSON cannot represent', async () => {
    await expect(encryptMetadata(await generateDataKey(), 'item-1', undefined)).rejects.toThrow(TypeError)
  })
})
