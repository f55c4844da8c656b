import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { RELEASE_MESSAGES, type ReleasedAsset } from '../../contract/releases'
import { itemManifest, keyFingerprint, parseItemManifest } from '../../contract/vault-statements'
import {
  encryptStream,
  generateBeneficiaryKeyPair,
  generateSigningKeyPair,
  importBeneficiaryPrivateKey,
  privateKeyToPem,
  signStatement,
  type BeneficiaryKeyPair,
  type BeneficiaryPrivateKey,
  type SigningKeyPair,
} from '@/crypto'
import type { SaveFilePicker } from '@/features/vault/items/download'
import { accessKitText } from '@/features/circle/access-kit'
import { assetCardModel, downloadErrorText, downloadReleasedAsset, loadPrivateKey, mayOpen, sealsAndNames } from '@/features/releases/portal'
import { checkSeal, ContentNotSealedError, kitVaultFingerprints, sealVerdict, vaultTrust, type SealCheck, type VaultTrust } from '@/features/releases/seals'
import { CHUNK, FakePortalApi, LINK, once, OWNER_ID, pattern } from './released-fake-api'

// The heir's check that an item is the owner's before anything of it is decrypted (0.3 · 3 of 7):
// the kit's vault fingerprint, each item's manifest and signature, and the content's digests.

let alice: BeneficiaryKeyPair
let aliceKey: BeneficiaryPrivateKey
let vault: SigningKeyPair
let attacker: SigningKeyPair
const owner = () => ({ ownerId: OWNER_ID, privateKey: vault.privateKey })

beforeAll(async () => {
  alice = await generateBeneficiaryKeyPair()
  aliceKey = await importBeneficiaryPrivateKey(privateKeyToPem(alice.privateKeyPkcs8))
  ;[vault, attacker] = await Promise.all([generateSigningKeyPair(), generateSigningKeyPair()])
})

const meta = (filename: string, size: number) => ({ filename, mimetype: 'application/pdf', size, tags: [] })

/** A sealed item and a fake API serving it, and a second sealed item of the same owner to borrow from. */
async function sealedPair() {
  const api = new FakePortalApi()
  const will = await api.add('a1', 'doc', pattern(3 * CHUNK + 11), meta('will.pdf', 3 * CHUNK + 11), alice.publicKey, owner())
  const deeds = await api.add('a2', 'doc', pattern(2 * CHUNK, 9), meta('deeds.pdf', 2 * CHUNK), alice.publicKey, owner())
  return { api, will, deeds }
}

const withItem = (asset: ReleasedAsset, changes: Partial<ReleasedAsset['vaultItem']>): ReleasedAsset => ({ ...asset, vaultItem: { ...asset.vaultItem, ...changes } })

/** The asset's manifest with `edit` applied to its fields, re-signed by `signer` (the vault unless given). */
async function resealed(asset: ReleasedAsset, edit: (text: string) => string, signer = vault) {
  const manifest = edit(asset.vaultItem.manifest!)
  return withItem(asset, { manifest, manifestSignature: await signStatement(signer.privateKey, manifest) })
}

describe("an item's seal", () => {
  it('passes for a manifest the vault signed over exactly this item', async () => {
    const { will } = await sealedPair()
    const check = await checkSeal(will.vaultItem, vault.publicKey)
    expect(check).toEqual({ sealed: true, manifest: parseItemManifest(will.vaultItem.manifest!) })
  })

  it('is missing when the item carries no manifest (stored before sealing, not yet sealed)', async () => {
    const api = new FakePortalApi()
    const old = await api.add('a3', 'doc', pattern(10), meta('old.pdf', 10), alice.publicKey)
    expect(await checkSeal(old.vaultItem, vault.publicKey)).toEqual({ sealed: false, reason: 'missing' })
  })

  it.each<[string, (s: Awaited<ReturnType<typeof sealedPair>>) => Promise<ReleasedAsset> | ReleasedAsset]>([
    ['signed by another key (the attack: a server or session sealing its own item)', ({ will }) => resealed(will, (t) => t, attacker)],
    ['naming another item', ({ will }) => resealed(will, (t) => t.replace(`item ${will.vaultItem.id}`, 'item item-a2'))],
    ["borrowed from another item of the owner's, signature and all", ({ will, deeds }) => withItem(will, { manifest: deeds.vaultItem.manifest, manifestSignature: deeds.vaultItem.manifestSignature })],
    ['over other metadata (a planted name)', ({ will, deeds }) => withItem(will, { encryptedMetadata: deeds.vaultItem.encryptedMetadata })],
    ['with another size', ({ will }) => withItem(will, { plainSize: will.vaultItem.plainSize + 1 })],
    ['with another type', ({ will }) => withItem(will, { type: 'password' })],
    ['truncated', ({ will }) => withItem(will, { manifest: will.vaultItem.manifest!.split('\n').slice(0, 6).join('\n') })],
    ['edited after signing', ({ will }) => withItem(will, { manifest: will.vaultItem.manifest!.replace(/^size \d+$/m, 'size 1') })],
    ['edited and re-signed by the vault, but not canonical', ({ will }) => resealed(will, (t) => `${t}\n`)],
    ['with a signature but no manifest', ({ will }) => withItem(will, { manifest: null })],
    ['with a manifest but no signature', ({ will }) => withItem(will, { manifestSignature: null })],
    ['with a signature that is not base64', ({ will }) => withItem(will, { manifestSignature: '!'.repeat(88) })],
  ])('fails when %s', async (_, forge) => {
    const forged = await forge(await sealedPair())
    expect(await checkSeal(forged.vaultItem, vault.publicKey)).toEqual({ sealed: false, reason: 'invalid' })
  })

  it('fails against another vault key, or none', async () => {
    const { will } = await sealedPair()
    expect(await checkSeal(will.vaultItem, attacker.publicKey)).toEqual({ sealed: false, reason: 'invalid' })
    expect(await checkSeal(will.vaultItem, null)).toEqual({ sealed: false, reason: 'invalid' })
  })
})

describe("the vault fingerprint the heir's kit brings", () => {
  const kit = (vaultFingerprint: string) =>
    accessKitText({
      fullName: 'Ada Heir',
      email: 'ada@example.com',
      ownerName: 'Grace Owner',
      createdAt: new Date('2026-11-27'),
      fingerprint: 'AAAA',
      vaultFingerprint,
      portalUrl: 'https://example.com/beneficiary-portal',
      privateKeyPem: privateKeyToPem(alice.privateKeyPkcs8),
    })

  it('is read from a whole kit, from the pasted block, and however it was copied', async () => {
    const fp = keyFingerprint(vault.publicKey)
    expect(kitVaultFingerprints(kit(fp))).toEqual([fp])
    const block = `Vault fingerprint: ${fp}\n${privateKeyToPem(alice.privateKeyPkcs8)}`
    expect(kitVaultFingerprints(block)).toEqual([fp])
    const retyped = `Vault fingerprint:\n${fp.toLowerCase().replace(/ /g, '').replace(/(.{20})/g, '$1\n  ')}\n-----BEGIN PRIVATE KEY-----`
    expect(kitVaultFingerprints(retyped)).toEqual([fp])
    // One group short, or one too many, is no fingerprint at all.
    expect(kitVaultFingerprints(`Vault fingerprint: ${fp.slice(0, -5)}\n`)).toEqual([])
    expect(kitVaultFingerprints(`Vault fingerprint: ${fp} ABCD\n`)).toEqual([])
    // loadPrivateKey hands it over with the key.
    const loaded = await loadPrivateKey(block)
    expect(loaded.ok && loaded.vaultFingerprints).toEqual([fp])
  })

  it('is absent from a kit printed before kits carried it, and from a bare key', async () => {
    const older = kit('').replace(/^Vault fingerprint:.*$/gm, '')
    expect(kitVaultFingerprints(older)).toEqual([])
    expect(kitVaultFingerprints(privateKeyToPem(alice.privateKeyPkcs8))).toEqual([])
    const loaded = await loadPrivateKey(privateKeyToPem(alice.privateKeyPkcs8))
    expect(loaded.ok && loaded.vaultFingerprints).toEqual([])
  })

  it("trusts the served key only when the kit names it", () => {
    const fp = keyFingerprint(vault.publicKey)
    expect(vaultTrust([fp], vault.publicKey)).toEqual({ kind: 'kit', fingerprint: fp })
    expect(vaultTrust([fp], attacker.publicKey)).toEqual({ kind: 'mismatch' })
    expect(vaultTrust([fp], null)).toEqual({ kind: 'mismatch' })
    // A kit whose two statements of the fingerprint disagree is not trusted either.
    expect(vaultTrust([fp, keyFingerprint(attacker.publicKey)], vault.publicKey)).toEqual({ kind: 'mismatch' })
    expect(vaultTrust([], vault.publicKey)).toEqual({ kind: 'unchecked', fingerprint: fp })
    expect(vaultTrust([], null)).toEqual({ kind: 'unchecked', fingerprint: null })
  })
})

describe('what the portal does with each item', () => {
  const sealed: SealCheck = { sealed: true, manifest: parseItemManifest(itemManifest({ ownerId: 'o', itemId: 'i', type: 'doc', plainSize: 1, chunkCount: 1, contentDigest: '0'.repeat(64), metadataDigest: '0'.repeat(64), grants: [] }))! }
  const missing: SealCheck = { sealed: false, reason: 'missing' }
  const invalid: SealCheck = { sealed: false, reason: 'invalid' }
  const kit: VaultTrust = { kind: 'kit', fingerprint: 'F' }
  const older: VaultTrust = { kind: 'unchecked', fingerprint: 'F' }
  const mismatch: VaultTrust = { kind: 'mismatch' }

  it.each([
    ['a new kit', kit, ['sealed', 'refused', 'refused']],
    ['an older kit', older, ['sealed', 'unsealed', 'refused']],
    ['a kit naming another vault key', mismatch, ['refused', 'refused', 'refused']],
  ] as const)('with %s: opens sealed items, and never a failed seal', (_, trust, expected) => {
    expect([sealed, missing, invalid].map((check) => sealVerdict(check, trust).state)).toEqual(expected)
  })

  it('refuses by name, opens an unsealed item only once the heir chooses to, and marks sealed ones', async () => {
    const { will } = await sealedPair()
    const when = new Date(will.releasedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    const refused = assetCardModel(will, { name: null, ownerName: 'Grace', seal: { verdict: { state: 'refused' }, trust: kit, opened: false } })
    expect(refused).toMatchObject({ title: `A document (2.9 KB, released ${when})`, canDownload: false, canOpenUnsealed: false, seal: { tone: 'refused' } })
    expect(refused.blockedReason).toBe(RELEASE_MESSAGES.sealRefused('Grace', `A document (2.9 KB, released ${when})`))
    expect(refused.blockedReason).toContain('was not sealed by Grace’s vault, so it may not be theirs. It has not been opened.')

    const unsealed = { verdict: { state: 'unsealed' } as const, trust: older, opened: false }
    expect(mayOpen(unsealed)).toBe(false)
    expect(assetCardModel(will, { ownerName: 'Grace', seal: unsealed })).toMatchObject({
      canDownload: false,
      canOpenUnsealed: true,
      seal: { tone: 'unsealed', label: RELEASE_MESSAGES.notSealed, detail: RELEASE_MESSAGES.notSealedBody('Grace') },
    })
    expect(assetCardModel(will, { name: 'will.pdf', ownerName: 'Grace', seal: { ...unsealed, opened: true } })).toMatchObject({ title: 'will.pdf', canDownload: true, canOpenUnsealed: false })

    const verdict = sealVerdict(await checkSeal(will.vaultItem, vault.publicKey), kit)
    expect(assetCardModel(will, { name: 'will.pdf', ownerName: 'Grace', seal: { verdict, trust: kit, opened: false } })).toMatchObject({
      title: 'will.pdf',
      canDownload: true,
      seal: { tone: 'sealed', label: 'Sealed by Grace’s vault' },
    })
    expect(assetCardModel(will, { name: 'will.pdf', ownerName: 'Grace', seal: { verdict, trust: older, opened: false } }).seal?.label).toBe(RELEASE_MESSAGES.sealedByFingerprint('Grace'))
  })
})

describe('the listed items, once the kit is loaded', () => {
  afterEach(() => vi.restoreAllMocks())

  /** The owner's sealed will, an item planted under the attacker's own data key with no manifest, and one with the attacker's seal. */
  async function listed() {
    const api = new FakePortalApi()
    const will = await api.add('a1', 'doc', pattern(20), meta('will.pdf', 20), alice.publicKey, owner())
    const planted = await api.add('a2', 'doc', pattern(20, 3), meta('Last will and testament.txt', 20), alice.publicKey)
    const forged = await api.add('a3', 'doc', pattern(20, 4), meta('Bank details.txt', 20), alice.publicKey, { ownerId: OWNER_ID, privateKey: attacker.privateKey })
    return [will, planted, forged]
  }

  it('with a new kit: names the sealed item only, and never unwraps a key for the others', async () => {
    const list = await listed()
    const unwrap = vi.spyOn(globalThis.crypto.subtle, 'unwrapKey')
    const result = await sealsAndNames(list, aliceKey, vaultTrust([keyFingerprint(vault.publicKey)], vault.publicKey), vault.publicKey)
    expect(result.names).toEqual({ a1: 'will.pdf', a2: null, a3: null })
    expect(Object.values(result.verdicts).map((v) => v.state)).toEqual(['sealed', 'refused', 'refused'])
    expect(result.mismatch).toBe(false)
    // One grant unwrapped: the sealed item's. The planted ones were not touched.
    expect(unwrap).toHaveBeenCalledTimes(1)
  })

  it('with an older kit: names the unsealed item only once the heir chooses to open it, never the forged one', async () => {
    const list = await listed()
    const older = vaultTrust([], vault.publicKey)
    expect((await sealsAndNames(list, aliceKey, older, vault.publicKey)).names).toEqual({ a1: 'will.pdf', a2: null, a3: null })
    const chosen = await sealsAndNames(list, aliceKey, older, vault.publicKey, new Set(['a2', 'a3']))
    expect(chosen.names).toEqual({ a1: 'will.pdf', a2: 'Last will and testament.txt', a3: null })
  })

  it('with a kit naming another vault key: opens nothing at all', async () => {
    const list = await listed()
    const unwrap = vi.spyOn(globalThis.crypto.subtle, 'unwrapKey')
    const result = await sealsAndNames(list, aliceKey, vaultTrust([keyFingerprint(attacker.publicKey)], vault.publicKey), vault.publicKey, new Set(['a2']))
    expect(result).toEqual({ verdicts: { a1: { state: 'refused' }, a2: { state: 'refused' }, a3: { state: 'refused' } }, names: { a1: null, a2: null, a3: null }, mismatch: false })
    expect(unwrap).not.toHaveBeenCalled()
  })

  it("says the key fits nothing only when it opened none of what it was tried on", async () => {
    const list = await listed()
    const bobKey = await importBeneficiaryPrivateKey(privateKeyToPem((await generateBeneficiaryKeyPair()).privateKeyPkcs8))
    expect((await sealsAndNames(list, bobKey, vaultTrust([keyFingerprint(vault.publicKey)], vault.publicKey), vault.publicKey)).mismatch).toBe(true)
  })

  it('does not say the key fits nothing when it opened one item and failed on another', async () => {
    const api = new FakePortalApi()
    const will = await api.add('a1', 'doc', pattern(20), meta('will.pdf', 20), alice.publicKey, owner())
    // Sealed by the owner's vault, but its grant is wrapped for someone else's key.
    const other = await api.add('a4', 'doc', pattern(20, 5), meta('deeds.pdf', 20), (await generateBeneficiaryKeyPair()).publicKey, owner())
    const result = await sealsAndNames([will, other], aliceKey, vaultTrust([keyFingerprint(vault.publicKey)], vault.publicKey), vault.publicKey)
    expect(result.names).toEqual({ a1: 'will.pdf', a4: null })
    expect(result.mismatch).toBe(false)
  })
})

describe("a sealed item's download", () => {
  const manifestOf = (asset: ReleasedAsset) => parseItemManifest(asset.vaultItem.manifest!)!

  it('completes when the content is the sealed ciphertext', async () => {
    const { api, will } = await sealedPair()
    const saved: Blob[] = []
    const outcome = await downloadReleasedAsset(LINK, will, aliceKey, { fetch: api.fetch, picker: null, save: (b) => void saved.push(b), seal: manifestOf(will) })
    expect(outcome).toMatchObject({ kind: 'saved', filename: 'will.pdf' })
    expect(new Uint8Array(await saved[0]!.arrayBuffer())).toEqual(pattern(3 * CHUNK + 11))
  })

  it('is not completed when the content differs, even if it decrypts (the last piece is held back)', async () => {
    const { api, will } = await sealedPair()
    const stored = api.stored.get('a1')!
    // Other content under the same data key and item id: every chunk authenticates, the digests do not match.
    const chunks: Uint8Array[] = []
    for await (const c of encryptStream(stored.dek, stored.itemId, once(pattern(3 * CHUNK + 11, 99)), CHUNK)) chunks.push(c)
    stored.cipher = new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer())
    const events: string[] = []
    const picker: SaveFilePicker = async () => ({
      createWritable: async () => ({
        write: async (piece) => void events.push(`write ${piece.length}`),
        close: async () => void events.push('close'),
        abort: async () => void events.push('abort'),
      }),
    })
    const error = await downloadReleasedAsset(LINK, will, aliceKey, { fetch: api.fetch, picker, seal: manifestOf(will) }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ContentNotSealedError)
    expect(downloadErrorText(error, 'Grace')).toBe(RELEASE_MESSAGES.contentNotSealed('Grace'))
    // Three whole chunks were written; the last (11 bytes) never was, and the file was not closed.
    expect(events).toEqual([`write ${CHUNK}`, `write ${CHUNK}`, `write ${CHUNK}`, 'abort'])
  })

  it('stops at a chunk more than the manifest counts, and refuses a download answer that states another item', async () => {
    const { api, will, deeds } = await sealedPair()
    const saved: Blob[] = []
    const options = { fetch: api.fetch, picker: null, save: (b: Blob) => void saved.push(b) }
    const twoChunks = { ...manifestOf(will), chunkCount: 2 }
    await expect(downloadReleasedAsset(LINK, will, aliceKey, { ...options, seal: twoChunks })).rejects.toBeInstanceOf(ContentNotSealedError)

    api.stored.get('a1')!.download.item.encryptedMetadata = deeds.vaultItem.encryptedMetadata
    const before = api.requests.length
    await expect(downloadReleasedAsset(LINK, will, aliceKey, { ...options, seal: manifestOf(will) })).rejects.toBeInstanceOf(ContentNotSealedError)
    // The ticket was asked for, the content never fetched.
    expect(api.requests.slice(before)).toEqual([`GET /api/beneficiaries/ben-1/assets/a1/download?token=${LINK.token}`])
    expect(saved).toEqual([])
  })
})
