import { beforeAll, describe, expect, it } from 'vitest'
import {
  DecryptionError,
  decryptChunk,
  encryptChunk,
  fromBase64,
  generateBeneficiaryKeyPair,
  generateDataKey,
  importBeneficiaryPrivateKey,
  importBeneficiaryPublicKey,
  InvalidPrivateKeyError,
  MissingPrivateKeyError,
  privateKeyToPem,
  publicKeyFingerprint,
  toBase64,
  unwrapDataKeyForBeneficiary,
  utf8,
  wrapDataKeyForBeneficiary,
  type BeneficiaryKeyPair,
  type DataKey,
} from '@/crypto'

// RSA-2048 key generation costs tens of milliseconds: two pairs for the whole file.
let alice: BeneficiaryKeyPair
let bob: BeneficiaryKeyPair
let dek: DataKey

beforeAll(async () => {
  ;[alice, bob, dek] = await Promise.all([generateBeneficiaryKeyPair(), generateBeneficiaryKeyPair(), generateDataKey()])
})

function kitText(pem: string): string {
  return [
    'LEGACY VAULT — BENEFICIARY ACCESS KIT',
    '',
    'Beneficiary: Ada Lovelace <ada@example.com>',
    'Key fingerprint: A1B2 C3D4 E5F6 …',
    '',
    'Keep this document safe. Paste the block below when asked for your private key.',
    '',
    pem.replace(/\n/g, '\r\n'),
    '',
    'Issued 2025-01-01.',
  ].join('\n')
}

describe('beneficiary key pair', () => {
  it('is RSA-OAEP 2048, e = 65537, SHA-256', () => {
    const algorithm = alice.publicKey.algorithm as RsaHashedKeyAlgorithm
    expect(algorithm.name).toBe('RSA-OAEP')
    expect(algorithm.modulusLength).toBe(2048)
    expect([...algorithm.publicExponent]).toEqual([1, 0, 1])
    expect(algorithm.hash).toEqual({ name: 'SHA-256' })
    expect(alice.publicKey.type).toBe('public')
  })

  it('exports the public key as spki and the private key as pkcs8, both base64', async () => {
    const spki = fromBase64(alice.publicKeySpki)
    const pkcs8 = fromBase64(alice.privateKeyPkcs8)
    expect(spki.length).toBeGreaterThan(256)
    expect(pkcs8.length).toBeGreaterThan(1000)
    expect(alice.publicKeySpki).not.toBe(bob.publicKeySpki)
    const imported = await importBeneficiaryPublicKey(alice.publicKeySpki)
    expect((imported.algorithm as RsaHashedKeyAlgorithm).modulusLength).toBe(2048)
  })
})

describe('grants', () => {
  it('round-trip a data key through the public and private keys', async () => {
    const chunk = await encryptChunk(dek, 'item-1', 0, true, utf8('for Ada'))
    const wrapped = await wrapDataKeyForBeneficiary(dek, await importBeneficiaryPublicKey(alice.publicKeySpki))
    expect(fromBase64(wrapped)).toHaveLength(256)

    const privateKey = await importBeneficiaryPrivateKey(alice.privateKeyPkcs8)
    expect(privateKey.extractable).toBe(false)
    const unwrapped = await unwrapDataKeyForBeneficiary(wrapped, privateKey)
    expect(unwrapped.algorithm).toEqual({ name: 'AES-GCM', length: 256 })
    expect(unwrapped.extractable).toBe(false)
    expect(new TextDecoder().decode(await decryptChunk(unwrapped, 'item-1', 0, true, chunk))).toBe('for Ada')
  })

  it('differ each time (OAEP is randomised)', async () => {
    expect(await wrapDataKeyForBeneficiary(dek, alice.publicKey)).not.toBe(await wrapDataKeyForBeneficiary(dek, alice.publicKey))
  })

  it('cannot be unwrapped with another beneficiary’s key', async () => {
    const wrapped = await wrapDataKeyForBeneficiary(dek, alice.publicKey)
    const bobKey = await importBeneficiaryPrivateKey(bob.privateKeyPkcs8)
    await expect(unwrapDataKeyForBeneficiary(wrapped, bobKey)).rejects.toBeInstanceOf(DecryptionError)
  })

  it('cannot be unwrapped once altered or malformed', async () => {
    const key = await importBeneficiaryPrivateKey(alice.privateKeyPkcs8)
    const bytes = fromBase64(await wrapDataKeyForBeneficiary(dek, alice.publicKey))
    bytes[100]! ^= 1
    await expect(unwrapDataKeyForBeneficiary(toBase64(bytes), key)).rejects.toBeInstanceOf(DecryptionError)
    await expect(unwrapDataKeyForBeneficiary('%%%', key)).rejects.toBeInstanceOf(DecryptionError)
    await expect(unwrapDataKeyForBeneficiary(toBase64(bytes.subarray(0, 10)), key)).rejects.toBeInstanceOf(DecryptionError)
  })
})

describe('importing a private key', () => {
  async function unwrapsAlicesGrant(input: string): Promise<boolean> {
    const key = await importBeneficiaryPrivateKey(input)
    const wrapped = await wrapDataKeyForBeneficiary(dek, alice.publicKey)
    await unwrapDataKeyForBeneficiary(wrapped, key)
    return true
  }

  it('accepts raw base64 pkcs8, with or without surrounding whitespace', async () => {
    expect(await unwrapsAlicesGrant(alice.privateKeyPkcs8)).toBe(true)
    expect(await unwrapsAlicesGrant(`\n  ${alice.privateKeyPkcs8}  \n`)).toBe(true)
  })

  it('accepts a PEM block, with CRLFs and indentation', async () => {
    const pem = privateKeyToPem(alice.privateKeyPkcs8)
    expect(await unwrapsAlicesGrant(pem)).toBe(true)
    expect(await unwrapsAlicesGrant(pem.replace(/\n/g, '\r\n    '))).toBe(true)
  })

  it('accepts the whole text of an Access Kit', async () => {
    expect(await unwrapsAlicesGrant(kitText(privateKeyToPem(alice.privateKeyPkcs8)))).toBe(true)
  })

  it.each(['', '   ', '\n\t\r\n'])("refuses empty input %j with 'Private key is required for decryption'", async (input) => {
    const error = await importBeneficiaryPrivateKey(input).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingPrivateKeyError)
    expect((error as Error).message).toBe('Private key is required for decryption')
  })

  it("refuses junk with 'Invalid private key format'", async () => {
    const ec = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
    const ecPkcs8 = toBase64(new Uint8Array(await crypto.subtle.exportKey('pkcs8', ec.privateKey)))
    const junk = [
      'hello world',
      'not base64!!',
      toBase64(utf8('some random bytes that are not a key')),
      alice.publicKeySpki, // a public key pasted by mistake
      alice.privateKeyPkcs8.slice(0, 200) + '==',
      '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
      '-----BEGIN PRIVATE KEY-----\n' + alice.privateKeyPkcs8, // no END line
      privateKeyToPem(alice.privateKeyPkcs8).replace(/PRIVATE KEY/g, 'RSA PRIVATE KEY'),
      kitText('(the key block was cut off)'),
      ecPkcs8, // a valid pkcs8 key, but not RSA
    ]
    for (const input of junk) {
      const error = await importBeneficiaryPrivateKey(input).catch((e: unknown) => e)
      expect(error, input.slice(0, 40)).toBeInstanceOf(InvalidPrivateKeyError)
      expect((error as Error).message).toBe('Invalid private key format')
    }
  })
})

describe('PEM', () => {
  it('wraps base64 at 64 characters between the PKCS#8 armour lines', () => {
    const pem = privateKeyToPem(alice.privateKeyPkcs8)
    const lines = pem.trimEnd().split('\n')
    expect(lines[0]).toBe('-----BEGIN PRIVATE KEY-----')
    expect(lines.at(-1)).toBe('-----END PRIVATE KEY-----')
    const body = lines.slice(1, -1)
    expect(body.slice(0, -1).every((l) => l.length === 64)).toBe(true)
    expect(body.at(-1)!.length).toBeLessThanOrEqual(64)
    expect(body.join('')).toBe(alice.privateKeyPkcs8)
  })

  it('refuses text that is not base64', () => {
    expect(() => privateKeyToPem('not a key!')).toThrow('Invalid base64')
  })
})

describe('public key fingerprint', () => {
  it('is SHA-256 of the spki bytes as 16 groups of 4 uppercase hex digits', async () => {
    // SHA-256("abc"), the FIPS 180-2 test vector.
    expect(await publicKeyFingerprint(toBase64(utf8('abc')))).toBe(
      'BA78 16BF 8F01 CFEA 4141 40DE 5DAE 2223 B003 61A3 9617 7A9C B410 FF61 F200 15AD',
    )
  })

  it('is stable for a key and differs between keys', async () => {
    const a = await publicKeyFingerprint(alice.publicKeySpki)
    expect(a).toMatch(/^[0-9A-F]{4}( [0-9A-F]{4}){15}$/)
    expect(await publicKeyFingerprint(alice.publicKeySpki)).toBe(a)
    expect(await publicKeyFingerprint(bob.publicKeySpki)).not.toBe(a)
  })
})

describe('importing a public key', () => {
  it('refuses an RSA key under 2048 bits', async () => {
    const weak = await crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 1024, publicExponent: Uint8Array.of(1, 0, 1), hash: 'SHA-256' },
      true,
      ['wrapKey', 'unwrapKey'],
    )
    const spki = toBase64(new Uint8Array(await crypto.subtle.exportKey('spki', weak.publicKey)))
    await expect(importBeneficiaryPublicKey(spki)).rejects.toThrow('at least 2048 bits')
  })

  it('refuses junk', async () => {
    await expect(importBeneficiaryPublicKey(toBase64(utf8('junk')))).rejects.toThrow()
    await expect(importBeneficiaryPublicKey('junk!')).rejects.toThrow('Invalid base64')
  })
})
