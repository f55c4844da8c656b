import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createHeirKeyBackup,
  createPassphraseCheck,
  decryptChunk,
  decryptMetadata,
  deriveMasterKey,
  derivePassphraseKey,
  deriveRecoveryKey,
  encryptChunk,
  encryptMetadata,
  fromBase64,
  generateRecoveryCode,
  openHeirKeyBackup,
  publicKeyFingerprint,
  signingKeyMatches,
  toBase64,
  unwrapDataKey,
  unwrapDataKeyForBeneficiary,
  unwrapSigningKey,
  unwrapVaultKey,
  unwrapVaultKeyWithRecovery,
  verifyPassphrase,
  wrapDataKey,
  wrapSigningKey,
  wrapVaultKey,
  wrapVaultKeyForRecovery,
  type DataKey,
  type MasterKey,
  type SigningPrivateKey,
} from '@/crypto'
import { AAD_PURPOSE, buildAad } from '@/crypto/aad'
import { parseRecoveryCode } from '../../contract/vault-recovery'
import { FORMAT_VECTORS as V, type FormatVector } from '../fixtures/format-vectors'

// The crypto format's known-answer vectors (test/fixtures/format-vectors.ts, made from FORMAT.md
// alone by scripts/format-vectors.mjs): the product's own code opens every purpose's envelope from
// the fixed keys, and, with the fixed IVs (and salts) put where the browser's random source would
// give them, seals each one to exactly the same bytes. A changed purpose tag, a dropped or moved
// version byte, another AAD layout or another key derivation fails here.

const hex = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('hex')
const fromHex = (h: string) => new Uint8Array(Buffer.from(h, 'hex'))
const rawOf = async (key: CryptoKey) => hex(await crypto.subtle.exportKey('raw', key))
const binding = { ownerId: V.heir.ownerId, beneficiaryId: V.heir.beneficiaryId, keyVersion: V.heir.keyVersion }

/** The browser's random source answers these bytes, in this order, one array per call. */
function randomAnswers(...answers: string[]) {
  const queue = answers.map(fromHex)
  vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    const next = queue.shift()
    if (!next || !array || next.length !== array.byteLength) throw new Error(`unexpected random request of ${array?.byteLength} bytes`)
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(next)
    return array
  })
  return () => expect(queue).toEqual([])
}

afterEach(() => {
  vi.restoreAllMocks()
})

/** Every AES-GCM vector: the envelope is version 1, its IV, then ciphertext and tag. */
const aesVectors: Array<[string, FormatVector]> = [
  ['passphrase check', V.passphraseCheck],
  ['vault key wrap', V.vaultKeyWrap],
  ['recovery wrap', V.recoveryKeyWrap],
  ['data key wrap', V.dataKeyWrap],
  ['signing key wrap', V.signingKeyWrap],
  ['heir key backup', V.heirKeyBackup],
  ['metadata', V.metadata],
  ...V.chunks.map((c, i): [string, FormatVector] => [`chunk ${i}`, c]),
]

// The keys as the product derives them from the vector's secrets (each derivation is slow: once).
const keys = (() => {
  let made: Promise<{ passphraseKey: Awaited<ReturnType<typeof derivePassphraseKey>>; vaultKey: MasterKey; dek: DataKey }> | undefined
  return () =>
    (made ??= (async () => {
      const passphraseKey = await derivePassphraseKey(V.passphrase, V.vaultSaltB64)
      const vaultKey = await unwrapVaultKey(V.vaultKeyWrap.envelope, passphraseKey, true)
      const dek = await unwrapDataKey(V.dataKeyWrap.envelope, vaultKey)
      return { passphraseKey, vaultKey, dek }
    })())
})()

describe('the crypto format: known-answer vectors for every purpose in FORMAT.md (test/fixtures/format-vectors.ts)', () => {
  it('every envelope is version 1, its IV, then the ciphertext and the 16-byte tag; every AAD is the purpose, version 1 and its fields, byte for byte', () => {
    for (const [name, v] of aesVectors) {
      const bytes = fromBase64(v.envelope)
      expect(bytes[0], name).toBe(1)
      expect(hex(bytes.subarray(1, 13)), name).toBe(v.ivHex)
      expect(bytes.length, name).toBe(1 + 12 + v.plaintextHex.length / 2 + 16)
    }
    const aads: Array<[Uint8Array, FormatVector]> = [
      [buildAad(AAD_PURPOSE.passphraseCheck), V.passphraseCheck],
      [buildAad(AAD_PURPOSE.vaultKeyWrap, 2), V.vaultKeyWrap],
      [buildAad(AAD_PURPOSE.recoveryKeyWrap, 2), V.recoveryKeyWrap],
      [buildAad(AAD_PURPOSE.dataKeyWrap), V.dataKeyWrap],
      [buildAad(AAD_PURPOSE.signingKeyWrap), V.signingKeyWrap],
      [buildAad(AAD_PURPOSE.heirKeyBackup, binding.ownerId, binding.beneficiaryId, binding.keyVersion), V.heirKeyBackup],
      [buildAad(AAD_PURPOSE.metadata, V.itemId), V.metadata],
      ...V.chunks.map((c): [Uint8Array, FormatVector] => [buildAad(AAD_PURPOSE.chunk, c.itemId, c.index, c.isLast), c]),
    ]
    for (const [aad, v] of aads) expect(hex(aad), v.purpose).toBe(v.aadHex)
    // FORMAT.md's own worked bytes for the vault key wrap's AAD.
    expect(V.vaultKeyWrap.aadHex).toBe(`010000001b${hex(new TextEncoder().encode('legacy-vault:vault-key-wrap'))}02000000010200000002`)
  })

  it("the product's code opens every purpose from the fixed keys: check, vault key, recovery code, data key, signing key, heir backup, grant, metadata, chunks", async () => {
    // The passphrase (NFC-normalised) through PBKDF2: format 2's passphrase key, format 1's master key alike.
    const { passphraseKey, vaultKey, dek } = await keys()
    expect(await verifyPassphrase(passphraseKey, V.passphraseCheck.envelope)).toBe(true)
    expect(await verifyPassphrase(await deriveMasterKey(V.passphrase.normalize('NFD'), V.vaultSaltB64), V.passphraseCheck.envelope)).toBe(true)
    expect(await rawOf(vaultKey)).toBe(V.vaultKeyHex)
    expect(await rawOf(dek)).toBe(V.dekHex)

    // The recovery code: its check symbol, its key (HKDF) and its wrap of the same vault key.
    expect(parseRecoveryCode(V.recoveryCode).ok).toBe(true)
    const recoveryKey = await deriveRecoveryKey(V.recoveryCode, V.recoverySaltB64)
    expect(await rawOf(await unwrapVaultKeyWithRecovery(V.recoveryKeyWrap.envelope, recoveryKey, true))).toBe(V.vaultKeyHex)

    // The signing key wrapped under the vault key is the private half of the stored public key.
    expect(await signingKeyMatches(await unwrapSigningKey(V.signingKeyWrap.envelope, vaultKey), V.signingPublicKeyB64)).toBe(true)
    expect(await publicKeyFingerprint(V.signingPublicKeyB64)).toBe(V.vaultFingerprint)

    // The heir's backup opens to their key and the kit's fingerprints; that key opens the grant to the DEK.
    const opened = await openHeirKeyBackup({ backup: V.heirKeyBackup.envelope, salt: V.heir.saltB64 }, V.heir.passphrase, binding, V.heirPublicKeyB64)
    expect(opened.vaultFingerprints).toEqual([V.vaultFingerprint])
    expect(await publicKeyFingerprint(V.heirPublicKeyB64)).toBe(V.heirFingerprint)
    const heirDek = await unwrapDataKeyForBeneficiary(V.grantB64, opened.key)

    // Metadata and chunks, by the owner's DEK and by the heir's.
    for (const key of [dek, heirDek]) {
      const metadata = await decryptMetadata(key, V.itemId, V.metadata.envelope)
      expect(hex(new TextEncoder().encode(JSON.stringify(metadata)))).toBe(V.metadata.plaintextHex)
      for (const c of V.chunks) expect(hex(await decryptChunk(key, c.itemId, c.index, c.isLast, fromBase64(c.envelope)))).toBe(c.plaintextHex)
    }
  }, 60_000)

  it('sealed again with the fixed IVs and salts, the product gives exactly the vector bytes, for every purpose', async () => {
    const { passphraseKey, vaultKey, dek } = await keys()
    const seal = async (iv: string, make: () => Promise<string | Uint8Array>) => {
      const done = randomAnswers(iv)
      const out = await make()
      done()
      return typeof out === 'string' ? out : toBase64(out)
    }
    expect(await seal(V.passphraseCheck.ivHex, () => createPassphraseCheck(passphraseKey))).toBe(V.passphraseCheck.envelope)
    expect(await seal(V.vaultKeyWrap.ivHex, () => wrapVaultKey(vaultKey, passphraseKey))).toBe(V.vaultKeyWrap.envelope)
    const recoveryKey = await deriveRecoveryKey(V.recoveryCode, V.recoverySaltB64)
    expect(await seal(V.recoveryKeyWrap.ivHex, () => wrapVaultKeyForRecovery(vaultKey, recoveryKey))).toBe(V.recoveryKeyWrap.envelope)
    expect(await seal(V.dataKeyWrap.ivHex, () => wrapDataKey(dek, vaultKey))).toBe(V.dataKeyWrap.envelope)
    const signing = (await crypto.subtle.importKey('pkcs8', fromBase64(V.signingPkcs8B64), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])) as SigningPrivateKey
    expect(await seal(V.signingKeyWrap.ivHex, () => wrapSigningKey(signing, vaultKey))).toBe(V.signingKeyWrap.envelope)
    expect(await seal(V.metadata.ivHex, () => encryptMetadata(dek, V.itemId, JSON.parse(new TextDecoder().decode(fromHex(V.metadata.plaintextHex)))))).toBe(V.metadata.envelope)
    for (const c of V.chunks) {
      expect(await seal(c.ivHex, () => encryptChunk(dek, c.itemId, c.index, c.isLast, fromHex(c.plaintextHex)))).toBe(c.envelope)
    }
    // The heir's backup draws its salt, then its IV.
    const done = randomAnswers(hex(fromBase64(V.heir.saltB64)), V.heirKeyBackup.ivHex)
    const backup = await createHeirKeyBackup(V.heirPkcs8B64, [V.vaultFingerprint], V.heir.passphrase, binding, V.heirPublicKeyB64)
    done()
    expect(backup).toEqual({ backup: V.heirKeyBackup.envelope, salt: V.heir.saltB64 })
    // A new recovery code is its 27 random symbols (each byte's low five bits) and the check symbol.
    const drawn = randomAnswers(Array.from({ length: 27 }, (_, i) => (0x61 + i).toString(16).padStart(2, '0')).join(''))
    expect(generateRecoveryCode()).toBe(V.recoveryCode)
    drawn()
  }, 60_000)

  it('each envelope opens only as its own purpose: put in the place of another, it is refused', async () => {
    const { passphraseKey, vaultKey } = await keys()
    // The vault key wrap and the passphrase check share a key; the data key and signing key wraps share another.
    expect(await verifyPassphrase(passphraseKey, V.vaultKeyWrap.envelope)).toBe(false)
    await expect(unwrapVaultKey(V.passphraseCheck.envelope, passphraseKey)).rejects.toThrow()
    await expect(unwrapDataKey(V.signingKeyWrap.envelope, vaultKey)).rejects.toThrow()
    await expect(unwrapSigningKey(V.dataKeyWrap.envelope, vaultKey)).rejects.toThrow()
  }, 60_000)
})
