#!/usr/bin/env node
// node scripts/format-vectors.mjs > test/fixtures/format-vectors.ts
//
// Known-answer vectors for every purpose of web/crypto/FORMAT.md, made from FORMAT.md alone with
// Node's WebCrypto (this script imports nothing of the app's), so that test/web/format-vectors.test.ts
// can check the product's own code against bytes it did not make: a changed purpose tag, a dropped
// version byte, another AAD layout or another key derivation fails there. Every input is fixed, so
// running it again writes the same file, except the grant (RSA-OAEP is randomised) and nothing else.
// Run it again only for a new vector; a changed byte of an old one is a changed format.

import { createECDH, webcrypto } from 'node:crypto'

const subtle = webcrypto.subtle
const hex = (b) => Buffer.from(b).toString('hex')
const b64 = (b) => Buffer.from(b).toString('base64')
const utf8 = (s) => new TextEncoder().encode(s)
/** length bytes counting up from start (mod 256). */
const run = (start, length) => Uint8Array.from({ length }, (_, i) => (start + i) & 0xff)
const concat = (parts) => Uint8Array.from(parts.flatMap((p) => [...p]))

// FORMAT.md "AAD": field(string) = 01 || uint32 BE length || UTF-8; field(uint32) = 02 || 4 bytes BE;
// field(boolean) = 03 || 00/01; the purpose, then the envelope version 1, then the further fields.
function field(v) {
  if (typeof v === 'string') {
    const bytes = utf8(v)
    const len = Buffer.alloc(4)
    len.writeUInt32BE(bytes.length)
    return concat([[0x01], len, bytes])
  }
  if (typeof v === 'number') {
    const n = Buffer.alloc(4)
    n.writeUInt32BE(v)
    return concat([[0x02], n])
  }
  return Uint8Array.of(0x03, v ? 1 : 0)
}
const aad = (purpose, ...fields) => concat([purpose, 1, ...fields].map(field))

// FORMAT.md "AES-GCM envelope": 01 || iv (12) || ciphertext || tag (16).
async function envelope(key, iv, additional, plaintext) {
  const body = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additional }, key, plaintext))
  return concat([[0x01], iv, body])
}
const aesKey = (raw) => subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt'])
async function pbkdf2(passphrase, salt) {
  const material = await subtle.importKey('raw', utf8(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits'])
  return new Uint8Array(await subtle.deriveBits({ name: 'PBKDF2', salt, iterations: 600_000, hash: 'SHA-256' }, material, 256))
}

// FORMAT.md "Recovery code": Crockford base32, 27 random symbols and a Luhn mod 32 check symbol.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
function luhn32(symbols) {
  let sum = 0
  ;[...symbols].reverse().forEach((s, i) => {
    const p = ALPHABET.indexOf(s) * (i % 2 === 0 ? 2 : 1)
    sum += Math.floor(p / 32) + (p % 32)
  })
  return ALPHABET[(32 - (sum % 32)) % 32]
}

const vector = (purpose, keyFrom, iv, additional, plaintext, sealed) => ({
  purpose,
  key: keyFrom,
  ivHex: hex(iv),
  aadHex: hex(additional),
  plaintextHex: hex(plaintext),
  envelope: b64(sealed),
})

const RSA_PKCS8 =
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCay7CBJ87KxQniCkbIbFZfG8xBGjoxaAVRU5Fsdt4ksEjw5v4jSSFNZ3kEtN+WZ2XnhClq4NDcQ+u1XX7AylfWVET54Bklcc8Ymb3AsqremETDu2TMx7ix2/0ebWdksjqVRH4boKY3bw6HDUakRywn9cFafjLTHCfsSACf7N2ViuJmL9IBfsz3kM9+bCsMHuq+SlLLqNsDIEnkWilK2hMF3/p/8tV2Q+j6jEmJvalROjeKrdIFgLdMYVNdYuSzQg3e6OZDxuDWdPtvAxVkdYdui/G35vWAZUNyi5zt06uviyxYQ14Naw+4i9bhNK0x0C53/gRBZvKudUJIxuHxBO4jAgMBAAECggEARZtejVV3OdsMrKZuWeXNmQsI+CVxEZJzAbUQabOyBNF4m0tj8D4MSaBD3QfwmtN4EXlunm7lvIaWUYHvY4YZpXlTYwGQjTP2KlvH5gTxrRLPqSx1EVimBuSjl7EekztJ+KFKC+ZbmAXKhJRFtc2DX5y1C5pABIpesXNXRJLguUN84WU0oc8Mn2/osS+MhWULOzHi1OaziUJE3LNPkT5khv7xiq1gCgMd7NN4cON5w2ujYgOMQm1ccxpWSgfil2erDZLpH4HnjcT5JbLKSo9iuKCtt9OLmU+xvQj0t3f3JkKZEyBFIB8XEwN3mfSDiKytiDIGOb7YSbsY3ZVaijzsUQKBgQDa1J0KH7jGJQ4O+xLSghARppAoeTiQrPQ9dc0jb0Dy1yuuSOgju2m2WstIcwPs6Z7ZJk1us2nMvK0lgP0Wrp3sIAwDCikJ3jL2jAqmwM4SHxy8iMReRWU3IxoMrSwMzLE19t57bmvUDznGgnvwRdfxPcdJItocReeD0M3Fh8CopwKBgQC1FqeGTh46ig7nWddk1OPO5G4+EagSvc6qFr5B4PeJLSmiZDATdjL+qPwLzh86E9qeeA1/A6+Nl1dkW9TeaFiR7vh8+lDLxEEOOk7drfoTcdbffj5XZHWxZ8K3vTM/NS/l5TIm8rN9u3ilNvPUfMbckgqL1JTYslyxcy0TCHLCJQKBgQCl5LbknOXD+QVuX/KF+ana562zsSorq6JBEZQhf876ChsINiceJ47denlPhDn+maEduAbNnF/hoUuV+fJkBp6cCjNw/nvcCkISXFoazmGqpUFwwDI10WAI66hs4b9aOLdDVNKXOj+udJh1ICh7H0e0kAQLMsus0WXQrTPBwsdQUwKBgGrTe24CRVjZOqOF30fPQrg5D0O0XMb5i6HRGtl4Ie6dYtM2cRn5/2k1PMKmDMvRDIWxYpzMCtLnNZmxhqjRO3aTV6k6bVFXa909zmp9iGnSHSTor1QUok1OXZLQnRurf58KDwTk5bfFUQ19lmeCWDmkOW51sH0I8x+HR07UDAa1AoGAFnarZEfWxotA63iMZLXHufE/awxTKk23OE62DUVEH6vZlaRNQnC5BLtqWKoi/IvlE76Win0ffj38k0SgIAl2q+UUOhOh9m4cE8CM0zbK2fORoNYoQYQh2TzQHlbZEOV8PTu+6xroHrcHOcSdNu/L8JbtArYa7asY8aCOtKjGfHY='

async function main() {
  const passphrase = 'Tre\u0301s secret: a passphrase of the owner\u2019s' // an e and a combining accent: NFC makes it é
  const vaultSalt = run(0x00, 32)
  const passphraseKeyRaw = await pbkdf2(passphrase, vaultSalt)
  const passphraseKey = await aesKey(passphraseKeyRaw)
  const vaultKeyRaw = run(0x40, 32)
  const vaultKey = await aesKey(vaultKeyRaw)
  const dekRaw = run(0xa0, 32)
  const dek = await aesKey(dekRaw)

  const checkPlain = utf8('legacy-vault:passphrase-check:v1')
  const checkAad = aad('legacy-vault:passphrase-check')
  const checkIv = run(0x10, 12)
  const vaultKeyAad = aad('legacy-vault:vault-key-wrap', 2)
  const vaultKeyIv = run(0x20, 12)

  // The recovery code: 27 symbols from fixed bytes (low five bits each), then its check symbol.
  const random = [...run(0x61, 27)].map((b) => ALPHABET[b & 31]).join('')
  const symbols = random + luhn32(random)
  const recoveryCode = symbols.match(/.{4}/g).join('-')
  const recoverySalt = run(0x80, 32)
  const recoveryMaterial = await subtle.importKey('raw', utf8(random), 'HKDF', false, ['deriveBits'])
  const recoveryKeyRaw = new Uint8Array(
    await subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: recoverySalt, info: utf8('legacy-vault:recovery-code') }, recoveryMaterial, 256),
  )
  const recoveryAad = aad('legacy-vault:recovery-key-wrap', 2)
  const recoveryIv = run(0x30, 12)

  const dekAad = aad('legacy-vault:data-key-wrap')
  const dekIv = run(0x50, 12)

  // The vault signing key: ECDSA P-256 from a fixed private scalar, as PKCS#8 (what the wrap holds).
  const d = run(0x01, 32)
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(Buffer.from(d))
  const point = ecdh.getPublicKey()
  const jwk = { kty: 'EC', crv: 'P-256', d: Buffer.from(d).toString('base64url'), x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }
  const signingPrivate = await subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])
  const signingPkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', signingPrivate))
  const signingSpki = new Uint8Array(
    await subtle.exportKey('spki', await subtle.importKey('jwk', { ...jwk, d: undefined }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify'])),
  )
  const signingAad = aad('legacy-vault:signing-key-wrap')
  const signingIv = run(0x60, 12)
  const fingerprintOf = async (spki) =>
    hex(new Uint8Array(await subtle.digest('SHA-256', spki))).toUpperCase().match(/.{4}/g).join(' ')

  // The heir's key: RSA-OAEP-2048 (fixed above); its public half, fingerprint and a grant of the DEK.
  const rsaPrivate = await subtle.importKey('pkcs8', Buffer.from(RSA_PKCS8, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['decrypt'])
  const rsaJwk = await subtle.exportKey('jwk', rsaPrivate)
  const rsaPublic = await subtle.importKey('jwk', { kty: 'RSA', n: rsaJwk.n, e: rsaJwk.e, alg: 'RSA-OAEP-256', ext: true }, { name: 'RSA-OAEP', hash: 'SHA-256' }, true, ['encrypt'])
  const rsaSpki = new Uint8Array(await subtle.exportKey('spki', rsaPublic))
  const grant = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, rsaPublic, dekRaw))

  const heir = { ownerId: '3f2b8c1e-7d4a-4e9b-9a61-0c5d2e8f4b17', beneficiaryId: '5a1d6e0c-2b7f-4c39-8e14-9d3a7f2c6b58', keyVersion: 3 }
  const heirPassphrase = 'the heir\u2019s own passphrase'
  const heirSalt = run(0xc0, 32)
  const heirKeyRaw = await pbkdf2(heirPassphrase, heirSalt)
  const vaultFingerprint = await fingerprintOf(signingSpki)
  const heirPlain = utf8(JSON.stringify({ v: 1, pkcs8: RSA_PKCS8, vaultFingerprints: [vaultFingerprint] }))
  const heirAad = aad('legacy-vault:heir-key-backup', heir.ownerId, heir.beneficiaryId, heir.keyVersion)
  const heirIv = run(0x70, 12)

  const itemId = '9c1d7e52-4b8a-4f3e-8d21-6a0b5c9e7f34'
  const metadataPlain = utf8(JSON.stringify({ name: 'Testament \u2013 2026.pdf', mimeType: 'application/pdf', tags: ['legal'] }))
  const metadataAad = aad('legacy-vault:metadata', itemId)
  const metadataIv = run(0x90, 12)

  const chunks = [
    { itemId, index: 0, isLast: false, plain: utf8('The first chunk of the file. '), iv: run(0xb0, 12) },
    { itemId, index: 1, isLast: true, plain: utf8('The last chunk, marked last.'), iv: run(0xd0, 12) },
    // An empty file is one empty chunk, marked last.
    { itemId: '0badcafe-7777-4888-9999-aaaabbbbcccc', index: 0, isLast: true, plain: new Uint8Array(0), iv: run(0xe0, 12) },
  ]

  const out = {
    passphrase,
    vaultSaltB64: b64(vaultSalt),
    passphraseKeyHex: hex(passphraseKeyRaw),
    vaultKeyHex: hex(vaultKeyRaw),
    recoveryCode,
    recoverySaltB64: b64(recoverySalt),
    recoveryKeyHex: hex(recoveryKeyRaw),
    dekHex: hex(dekRaw),
    signingPublicKeyB64: b64(signingSpki),
    signingPkcs8B64: b64(signingPkcs8),
    vaultFingerprint,
    heirPkcs8B64: RSA_PKCS8,
    heirPublicKeyB64: b64(rsaSpki),
    heirFingerprint: await fingerprintOf(rsaSpki),
    heir: { ...heir, passphrase: heirPassphrase, saltB64: b64(heirSalt), keyHex: hex(heirKeyRaw) },
    itemId,
    grantB64: b64(grant),
    passphraseCheck: vector('legacy-vault:passphrase-check', 'passphrase key', checkIv, checkAad, checkPlain, await envelope(passphraseKey, checkIv, checkAad, checkPlain)),
    vaultKeyWrap: vector('legacy-vault:vault-key-wrap', 'passphrase key', vaultKeyIv, vaultKeyAad, vaultKeyRaw, await envelope(passphraseKey, vaultKeyIv, vaultKeyAad, vaultKeyRaw)),
    recoveryKeyWrap: vector(
      'legacy-vault:recovery-key-wrap',
      'recovery key',
      recoveryIv,
      recoveryAad,
      vaultKeyRaw,
      await envelope(await aesKey(recoveryKeyRaw), recoveryIv, recoveryAad, vaultKeyRaw),
    ),
    dataKeyWrap: vector('legacy-vault:data-key-wrap', 'vault key', dekIv, dekAad, dekRaw, await envelope(vaultKey, dekIv, dekAad, dekRaw)),
    signingKeyWrap: vector('legacy-vault:signing-key-wrap', 'vault key', signingIv, signingAad, signingPkcs8, await envelope(vaultKey, signingIv, signingAad, signingPkcs8)),
    heirKeyBackup: vector('legacy-vault:heir-key-backup', 'heir key', heirIv, heirAad, heirPlain, await envelope(await aesKey(heirKeyRaw), heirIv, heirAad, heirPlain)),
    metadata: vector('legacy-vault:metadata', 'data key', metadataIv, metadataAad, metadataPlain, await envelope(dek, metadataIv, metadataAad, metadataPlain)),
    chunks: await Promise.all(
      chunks.map(async (c) => {
        const additional = aad('legacy-vault:chunk', c.itemId, c.index, c.isLast)
        return { itemId: c.itemId, index: c.index, isLast: c.isLast, ...vector('legacy-vault:chunk', 'data key', c.iv, additional, c.plain, await envelope(dek, c.iv, additional, c.plain)) }
      }),
    ),
  }

  const json = JSON.stringify(out, null, 2)
  process.stdout.write(`// Generated by scripts/format-vectors.mjs from web/crypto/FORMAT.md alone (Node's WebCrypto, none
// of the app's code): \`node scripts/format-vectors.mjs > test/fixtures/format-vectors.ts\`. Do not edit
// by hand. Known-answer vectors for every purpose in FORMAT.md: fixed keys, IVs and AAD bytes, and the
// envelopes (01 || iv || ciphertext || tag, base64) they give; test/web/format-vectors.test.ts opens
// each with the product's code and seals each again with the fixed IV. The grant (RSA-OAEP) is
// randomised: it is checked by opening it only.

export interface FormatVector {
  purpose: string
  /** Which of the keys below seals it. */
  key: string
  ivHex: string
  aadHex: string
  plaintextHex: string
  /** base64 of 01 || iv || ciphertext || tag. */
  envelope: string
}

export const FORMAT_VECTORS = ${json} as const satisfies Record<string, unknown>
`)
}

await main()
