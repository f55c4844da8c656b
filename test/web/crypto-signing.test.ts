import { beforeAll, describe, expect, it } from 'vitest'
import { KEY_STATEMENT_TAG, keyStatement, type KeyStatementFields } from '../../contract/key-signing'
import {
  CRYPTO_FORMAT_VERSION,
  DecryptionError,
  deriveMasterKey,
  fromBase64,
  generateBeneficiaryKeyPair,
  generateDataKey,
  generateSigningKeyPair,
  generateVaultSalt,
  sha256Hex,
  signingKeyMatches,
  signKeyStatement,
  toBase64,
  unwrapSigningKey,
  utf8,
  verifyKeyStatement,
  wrapDataKey,
  wrapSigningKey,
  type MasterKey,
  type SigningKeyPair,
  type SigningPrivateKey,
} from '@/crypto'

// The owner's vault signing key (web/crypto/signing.ts; FORMAT.md, "Beneficiary key statements").
// Two master keys, derived once for the file: PBKDF2 at 600 000 iterations costs ~0.3 s each.

let master: MasterKey
let wrongMaster: MasterKey
let pair: SigningKeyPair
let other: SigningKeyPair
let wrapped: string
let unwrapped: SigningPrivateKey
let fields: KeyStatementFields

beforeAll(async () => {
  const salt = generateVaultSalt()
  ;[master, wrongMaster, pair, other] = await Promise.all([
    deriveMasterKey('the owner passphrase', salt),
    deriveMasterKey('not the owner passphrase', salt),
    generateSigningKeyPair(),
    generateSigningKeyPair(),
  ])
  wrapped = await wrapSigningKey(pair.privateKey, master)
  unwrapped = await unwrapSigningKey(wrapped, master)
  fields = {
    ownerId: crypto.randomUUID(),
    email: 'anna.keller@example.org',
    keyVersion: 2,
    publicKey: (await generateBeneficiaryKeyPair()).publicKeySpki,
  }
})

/** The base64 with one byte changed. */
function flipByte(b64: string, index: number): string {
  const bytes = fromBase64(b64)
  bytes[index] = (bytes[index] ?? 0) ^ 0x01
  return toBase64(bytes)
}

describe('signing key pair', () => {
  it('round-trips: generate, wrap, unwrap, sign, verify', async () => {
    const signature = await signKeyStatement(unwrapped, fields)
    expect(await verifyKeyStatement(pair.publicKey, fields, signature)).toBe(true)
    // The freshly generated key signs too (setup signs before it ever unwraps).
    expect(await verifyKeyStatement(pair.publicKey, fields, await signKeyStatement(pair.privateKey, fields))).toBe(true)
  })

  it('has the wire sizes of contract/key-signing.ts', async () => {
    expect(pair.publicKey).toHaveLength(124)
    expect(fromBase64(pair.publicKey)).toHaveLength(91)
    const signature = await signKeyStatement(unwrapped, fields)
    expect(signature).toHaveLength(88)
    expect(fromBase64(signature)).toHaveLength(64)
    expect(wrapped.length).toBeGreaterThanOrEqual(100)
    expect(wrapped.length).toBeLessThanOrEqual(512)
    expect(fromBase64(wrapped)[0]).toBe(CRYPTO_FORMAT_VERSION)
  })

  it('wraps with a fresh IV each time', async () => {
    const again = await wrapSigningKey(pair.privateKey, master)
    expect(again).not.toBe(wrapped)
    expect(await signingKeyMatches(await unwrapSigningKey(again, master), pair.publicKey)).toBe(true)
  })

  it('unwraps to a non-extractable ECDSA P-256 key for signing only', async () => {
    expect(unwrapped.algorithm).toEqual({ name: 'ECDSA', namedCurve: 'P-256' })
    expect(unwrapped.type).toBe('private')
    expect(unwrapped.extractable).toBe(false)
    expect([...unwrapped.usages]).toEqual(['sign'])
    await expect(crypto.subtle.exportKey('pkcs8', unwrapped)).rejects.toThrow()
    await expect(crypto.subtle.exportKey('jwk', unwrapped)).rejects.toThrow()
    await expect(wrapSigningKey(unwrapped, master)).rejects.toThrow()
  })

  it('signingKeyMatches is true for its own public key and false for another', async () => {
    expect(await signingKeyMatches(unwrapped, pair.publicKey)).toBe(true)
    expect(await signingKeyMatches(unwrapped, other.publicKey)).toBe(false)
    expect(await signingKeyMatches(other.privateKey, pair.publicKey)).toBe(false)
    expect(await signingKeyMatches(unwrapped, 'not base64!')).toBe(false)
  })
})

describe('unwrapping the signing key', () => {
  it('throws DecryptionError with a wrong master key', async () => {
    await expect(unwrapSigningKey(wrapped, wrongMaster)).rejects.toThrow(DecryptionError)
  })

  it('throws DecryptionError once altered or malformed', async () => {
    const bytes = fromBase64(wrapped)
    for (const index of [1, 20, bytes.length - 1]) {
      await expect(unwrapSigningKey(flipByte(wrapped, index), master)).rejects.toThrow(DecryptionError)
    }
    await expect(unwrapSigningKey(toBase64(bytes.subarray(0, 20)), master)).rejects.toThrow(DecryptionError)
    await expect(unwrapSigningKey('not base64!', master)).rejects.toThrow(DecryptionError)
    await expect(unwrapSigningKey('', master)).rejects.toThrow(DecryptionError)
  })

  it('does not accept a wrapped data key (another AAD purpose) as a signing key', async () => {
    const wrappedDataKey = await wrapDataKey(await generateDataKey(), master)
    await expect(unwrapSigningKey(wrappedDataKey, master)).rejects.toThrow(DecryptionError)
  })

  it('keeps key kinds apart at compile time', () => {
    // Checked by `tsc -b`: each line below must be a type error.
    const misuse = (m: MasterKey, s: SigningPrivateKey, k: CryptoKey) => {
      // @ts-expect-error arguments swapped
      void wrapSigningKey(m, s)
      // @ts-expect-error an unbranded CryptoKey is not a signing key
      void signKeyStatement(k, fields)
      // @ts-expect-error a master key does not sign
      void signingKeyMatches(m, '')
    }
    expect(misuse).toBeTypeOf('function')
  })
})

describe('key statements', () => {
  it('are the five lines of FORMAT.md, LF-joined, with no trailing newline', () => {
    const text = keyStatement({ ...fields, email: '  Anna.Keller@Example.ORG\n' })
    expect(text.split('\n')).toEqual([KEY_STATEMENT_TAG, fields.ownerId, 'anna.keller@example.org', '2', fields.publicKey])
    expect(text.endsWith('\n')).toBe(false)
  })

  it("match FORMAT.md's worked example byte for byte", async () => {
    const publicKey =
      'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsagjgSKHEVHtLmAZvAPFHwU4PByRKZHAN0cFs+okGeanZTE2h/fQFg8uoUL0K5AaCRpfJNJQuF8bCxP0tIflEGp/WnzHdGxUcix/FpHx9i4m1bJLKyxx5ZC+DhXUsgiBYopat/sAQ06a5Fhxq9ZFcyl4r23gRuWoYNd54JzPf2/0CCS96zI7tuZOk8db9upEE/NpN+9V5vxBADe+5QGaj6GUlgBvmI9CF3LkDjejWpXfSeGR8zC3Ckz2msancGZscExqEpEWjEWVyFGbWAMniGUuaDqnSfaV+YXbtBDqi592Jsh9rOSXyFY/4aPqM1gYy28XU/+qJAb/pPMT32AG7wIDAQAB'
    const text = keyStatement({ ownerId: '3f2b8c1e-7d4a-4e9b-9a61-0c5d2e8f4b17', email: '  Anna.Keller@Example.org ', keyVersion: 2, publicKey })
    expect(utf8(text)).toHaveLength(487)
    expect(await sha256Hex(text)).toBe('20c748271dd46cabae30e977da087edb83cebed8d934cd7220a7dd774abc3a22')
  })

  it('are signed as ECDSA P-256 / SHA-256 over the UTF-8 statement, in P1363 form', async () => {
    const signature = await signKeyStatement(unwrapped, fields)
    const publicKey = await crypto.subtle.importKey('spki', fromBase64(pair.publicKey), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify'])
    const ok = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, fromBase64(signature), utf8(keyStatement(fields)))
    expect(ok).toBe(true)
  })

  it('ignore the case and surrounding whitespace of the e-mail', async () => {
    const signature = await signKeyStatement(unwrapped, { ...fields, email: ' Anna.KELLER@example.org\t' })
    expect(await verifyKeyStatement(pair.publicKey, fields, signature)).toBe(true)
    expect(await verifyKeyStatement(pair.publicKey, { ...fields, email: 'ANNA.keller@EXAMPLE.ORG ' }, signature)).toBe(true)
  })
})

describe('verifying a key statement answers false (never throws)', () => {
  let signature: string
  beforeAll(async () => {
    signature = await signKeyStatement(unwrapped, fields)
  })

  it('for another signing key', async () => {
    expect(await verifyKeyStatement(other.publicKey, fields, signature)).toBe(false)
    expect(await verifyKeyStatement(pair.publicKey, fields, await signKeyStatement(other.privateKey, fields))).toBe(false)
  })

  it('for another owner id', async () => {
    expect(await verifyKeyStatement(pair.publicKey, { ...fields, ownerId: crypto.randomUUID() }, signature)).toBe(false)
  })

  it('for another e-mail address', async () => {
    expect(await verifyKeyStatement(pair.publicKey, { ...fields, email: 'mallory@example.org' }, signature)).toBe(false)
  })

  it('for a replayed statement of an older key version', async () => {
    const old = { ...fields, keyVersion: 1 }
    const oldSignature = await signKeyStatement(unwrapped, old)
    expect(await verifyKeyStatement(pair.publicKey, old, oldSignature)).toBe(true)
    expect(await verifyKeyStatement(pair.publicKey, fields, oldSignature)).toBe(false)
    expect(await verifyKeyStatement(pair.publicKey, { ...fields, keyVersion: 3 }, signature)).toBe(false)
  })

  it('for another beneficiary public key', async () => {
    const { publicKeySpki } = await generateBeneficiaryKeyPair()
    expect(await verifyKeyStatement(pair.publicKey, { ...fields, publicKey: publicKeySpki }, signature)).toBe(false)
  })

  it('for a flipped signature byte', async () => {
    for (const index of [0, 31, 32, 63]) {
      expect(await verifyKeyStatement(pair.publicKey, fields, flipByte(signature, index))).toBe(false)
    }
  })

  it('for garbage or truncated base64, in the signature or the public key', async () => {
    expect(await verifyKeyStatement(pair.publicKey, fields, 'not base64!')).toBe(false)
    expect(await verifyKeyStatement(pair.publicKey, fields, '')).toBe(false)
    expect(await verifyKeyStatement(pair.publicKey, fields, toBase64(fromBase64(signature).subarray(0, 63)))).toBe(false)
    expect(await verifyKeyStatement(pair.publicKey, fields, toBase64(new Uint8Array(64)))).toBe(false)
    expect(await verifyKeyStatement('not base64!', fields, signature)).toBe(false)
    expect(await verifyKeyStatement(toBase64(new Uint8Array(91)), fields, signature)).toBe(false)
    expect(await verifyKeyStatement(fields.publicKey, fields, signature)).toBe(false) // an RSA key
  })
})
