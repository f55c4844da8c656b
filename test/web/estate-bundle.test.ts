import { makeZip } from 'client-zip'
import { beforeAll, describe, expect, it } from 'vitest'
import { ESTATE_PAGE_MESSAGES, type EstateItem, type EstateItemFile, type EstateVaultFile } from '../../contract/estate-bundle'
import { contentDigestOf, digestOfBase64, itemManifest, keyFingerprint } from '../../contract/vault-statements'
import {
  chunkDigest,
  encryptBlob,
  encryptMetadata,
  generateBeneficiaryKeyPair,
  generateDataKey,
  generateSigningKeyPair,
  importBeneficiaryPublicKey,
  privateKeyToPem,
  signStatement,
  wrapDataKeyForBeneficiary,
  type BeneficiaryKeyPair,
  type SigningKeyPair,
} from '@/crypto'
import { estateFiles, estatePlan, unsealedCount } from '@/features/export/estate-bundle'
import { openEstateItem, readFolder, readKit, type FolderFile } from '@/estate/open-estate'
import { readZip, type ZipEntry } from './zip-reader'

// The estate bundle (0.3 · 5 of 7, item 4b): its layout (a folder per beneficiary with exactly the
// items granted to them, as stored, nothing decrypted) and the offline page's path through it (the
// kit's vault fingerprint, each seal, the grant, the metadata and chunks).

const OWNER_ID = '3f2b8c1e-7d4a-4e9b-9a61-0c5d2e8f4b17'
const ADA = { id: '5a1d6e0c-2b7f-4c39-8e14-9d3a7f2c6b58', fullName: 'Ada Lovelace' }
const BEN = { id: 'b7c4d2e1-8a9f-4e3d-a1b2-c3d4e5f6a7b8', fullName: 'Ben / Cousin' }
const CHUNK = 1000

let vault: SigningKeyPair
let other: SigningKeyPair
let ada: BeneficiaryKeyPair
let ben: BeneficiaryKeyPair

beforeAll(async () => {
  ;[vault, other, ada, ben] = await Promise.all([generateSigningKeyPair(), generateSigningKeyPair(), generateBeneficiaryKeyPair(), generateBeneficiaryKeyPair()])
})

const kitText = (pair: BeneficiaryKeyPair, signer = vault) => `Vault fingerprint: ${keyFingerprint(signer.publicKey)}\n${privateKeyToPem(pair.privateKeyPkcs8)}`

function pattern(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff
  return bytes
}

/** An item stored as the service stores it: chunks, metadata, grants and the vault's signed manifest. */
async function storedItem(id: string, plain: Uint8Array<ArrayBuffer>, filename: string, to: { id: string; pair: BeneficiaryKeyPair }[], type: EstateItem['type'] = 'doc') {
  const dek = await generateDataKey()
  const chunks = await encryptBlob(dek, id, plain, CHUNK)
  const encryptedMetadata = await encryptMetadata(dek, id, { filename, mimetype: 'application/pdf', size: plain.length, tags: [] })
  const grants = await Promise.all(
    to.map(async (b) => ({ beneficiaryId: b.id, keyVersion: 1, wrappedKey: await wrapDataKeyForBeneficiary(dek, await importBeneficiaryPublicKey(b.pair.publicKeySpki)) })),
  )
  const manifest = itemManifest({
    ownerId: OWNER_ID,
    itemId: id,
    type,
    plainSize: plain.length,
    chunkCount: chunks.length,
    contentDigest: contentDigestOf(await Promise.all(chunks.map(chunkDigest))),
    metadataDigest: digestOfBase64(encryptedMetadata),
    grants: grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: g.keyVersion, wrappedKeyDigest: digestOfBase64(g.wrappedKey) })),
  })
  const cipher = new Uint8Array(await new Blob(chunks).arrayBuffer())
  const item: EstateItem = {
    id,
    type,
    plainSize: plain.length,
    cipherSize: cipher.length,
    chunkBytes: CHUNK,
    encryptedMetadata,
    manifest,
    manifestSignature: await signStatement(vault.privateKey, manifest),
    grants,
  }
  return { item, cipher }
}

const WILL_ID = 'c0ffee00-1111-4222-8333-444455556666'
const DEEDS_ID = '0badcafe-7777-4888-9999-aaaabbbbcccc'

let lastItems: { will: EstateItem }
const bundleItems = async () => lastItems

async function bundle() {
  const will = pattern(3 * CHUNK + 17)
  const deeds = pattern(CHUNK, 7)
  const stored = [
    await storedItem(WILL_ID, will, 'Last will.pdf', [{ id: ADA.id, pair: ada }, { id: BEN.id, pair: ben }]),
    await storedItem(DEEDS_ID, deeds, 'deeds.pdf', [{ id: BEN.id, pair: ben }]),
  ]
  lastItems = { will: stored[0]!.item }
  const cipherOf = new Map(stored.map((s) => [s.item.id, s.cipher]))
  const plan = estatePlan(
    stored.map((s) => s.item),
    [ADA, BEN, { id: 'nobody', fullName: 'Nobody' }],
  )
  const files = estateFiles(plan, {
    ownerId: OWNER_ID,
    ownerName: 'Grace Owner',
    signingPublicKey: vault.publicKey,
    page: '<!doctype html><title>page</title>',
    format: '# format',
    ciphertext: (item) => new Blob([cipherOf.get(item.id)!]).stream(),
    now: new Date('2026-11-27T10:00:00Z'),
  })
  const zip = readZip(new Uint8Array(await new Response(makeZip(files, { buffersAreUTF8: true })).arrayBuffer()))
  return { zip, will, deeds, cipherOf, plan }
}

const folderOf = (zip: ZipEntry[], folder: string): FolderFile[] =>
  zip.filter((e) => e.name.startsWith(`${folder}/`)).map((e) => ({ name: e.name, blob: new Blob([e.bytes as Uint8Array<ArrayBuffer>]) }))
const text = (zip: ZipEntry[], name: string) => new TextDecoder().decode(zip.find((e) => e.name === name)!.bytes)

describe('the estate bundle’s layout', () => {
  it('has a folder per beneficiary holding exactly the items granted to them, as stored, with the vault key and the page', async () => {
    const { zip, cipherOf, plan } = await bundle()
    const names = zip.map((e) => e.name).sort()
    expect(names).toEqual(
      [
        'README.txt',
        'open-estate.html',
        'FORMAT.md',
        'vault-signing-key.txt',
        ...['Ada Lovelace', 'Ben _ Cousin'].flatMap((f) => [`${f}/vault.json`, `${f}/README.txt`, `${f}/open-estate.html`, `${f}/FORMAT.md`]),
        `Ada Lovelace/${WILL_ID}.json`,
        `Ada Lovelace/${WILL_ID}.bin`,
        `Ben _ Cousin/${WILL_ID}.json`,
        `Ben _ Cousin/${WILL_ID}.bin`,
        `Ben _ Cousin/${DEEDS_ID}.json`,
        `Ben _ Cousin/${DEEDS_ID}.bin`,
      ].sort(),
    )
    // The ciphertext byte for byte; only the folder's own grant; the seal verbatim.
    expect(Buffer.from(zip.find((e) => e.name === `Ada Lovelace/${WILL_ID}.bin`)!.bytes).equals(Buffer.from(cipherOf.get(WILL_ID)!))).toBe(true)
    const adaWill = JSON.parse(text(zip, `Ada Lovelace/${WILL_ID}.json`)) as EstateItemFile
    expect(adaWill.grant.beneficiaryId).toBe(ADA.id)
    // The manifest names every grant (signed verbatim); Ben's wrapped key itself is not in Ada's folder.
    const benGrant = (await bundleItems()).will.grants.find((g) => g.beneficiaryId === BEN.id)!
    expect(Object.keys(adaWill.grant)).toEqual(['beneficiaryId', 'keyVersion', 'wrappedKey'])
    expect(JSON.stringify(adaWill)).not.toContain(benGrant.wrappedKey)
    expect(adaWill).toMatchObject({ format: 'legacy-vault/estate-item', ownerId: OWNER_ID, itemId: WILL_ID, chunkBytes: CHUNK, plainSize: 3 * CHUNK + 17 })
    const vaultFile = JSON.parse(text(zip, 'Ada Lovelace/vault.json')) as EstateVaultFile
    expect(vaultFile).toMatchObject({ ownerId: OWNER_ID, signingPublicKey: vault.publicKey, fingerprint: keyFingerprint(vault.publicKey), beneficiary: { id: ADA.id, name: ADA.fullName } })
    expect(text(zip, 'README.txt')).toContain(keyFingerprint(vault.publicKey))
    expect(unsealedCount(plan)).toBe(0)
    expect(unsealedCount([{ ...plan[0]!, items: [{ ...plan[0]!.items[0]!, manifest: null, manifestSignature: null }] }])).toBe(1)
    // Nothing decrypted: no file name from the metadata appears anywhere in the ZIP.
    for (const e of zip) expect(new TextDecoder().decode(e.bytes)).not.toMatch(/Last will|deeds\.pdf/)
  })

  it('refuses ciphertext that is not exactly the stored size', async () => {
    const { item, cipher } = await storedItem(WILL_ID, pattern(50), 'a.pdf', [{ id: ADA.id, pair: ada }])
    const files = estateFiles(estatePlan([item], [ADA]), {
      ownerId: OWNER_ID,
      ownerName: 'G',
      signingPublicKey: vault.publicKey,
      page: '',
      format: '',
      ciphertext: () => new Blob([cipher.subarray(0, cipher.length - 1)]).stream(),
    })
    await expect(new Response(makeZip(files)).arrayBuffer()).rejects.toThrow()
  })
})

describe('the offline page’s path', () => {
  it('opens every item of the folder with the kit, byte for byte, under its real name', async () => {
    const { zip, will, deeds } = await bundle()
    const kit = (await readKit(kitText(ben)))!
    const folder = await readFolder(folderOf(zip, 'Ben _ Cousin'))
    expect(folder.items).toHaveLength(2)
    const opened = await Promise.all(folder.items.map((entry) => openEstateItem(kit, folder.vault!, entry)))
    const byName = new Map(opened.map((o) => [o.ok ? o.filename : o.reason, o]))
    const willOut = byName.get('Last will.pdf')
    const deedsOut = byName.get('deeds.pdf')
    expect(willOut?.ok && Buffer.from(await willOut.content.arrayBuffer()).equals(Buffer.from(will))).toBe(true)
    expect(deedsOut?.ok && Buffer.from(await deedsOut.content.arrayBuffer()).equals(Buffer.from(deeds))).toBe(true)
  })

  it('refuses an altered manifest, one signed by another key, altered ciphertext, and a kit naming another vault', async () => {
    const { zip } = await bundle()
    const kit = (await readKit(kitText(ada)))!
    const files = folderOf(zip, 'Ada Lovelace')
    const edit = async (change: (item: EstateItemFile) => Promise<void> | void) => {
      const folder = await readFolder(files)
      const entry = folder.items[0]!
      const item = structuredClone(entry.item)
      await change(item)
      return openEstateItem(kit, folder.vault!, { ...entry, item })
    }
    expect((await edit(() => undefined)).ok).toBe(true)
    expect(await edit((i) => void (i.manifest = i.manifest!.replace(/size \d+/, 'size 1')))).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.notSealed })
    expect(
      await edit(async (i) => {
        i.manifestSignature = await signStatement(other.privateKey, i.manifest!)
      }),
    ).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.notSealed })
    expect(await edit((i) => void ((i.manifest = null), (i.manifestSignature = null)))).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.notSealed })

    const folder = await readFolder(files)
    const cipher = new Uint8Array(await folder.items[0]!.cipher!.arrayBuffer())
    cipher[40] = cipher[40]! ^ 1
    expect(await openEstateItem(kit, folder.vault!, { ...folder.items[0]!, cipher: new Blob([cipher]) })).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.contentAltered })
    const cut = await openEstateItem(kit, folder.vault!, { ...folder.items[0]!, cipher: folder.items[0]!.cipher!.slice(0, CHUNK + 29) })
    expect(cut).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.contentAltered })

    // A vault.json naming another owner than the one the vault signed the manifest for.
    expect(await openEstateItem(kit, { ...folder.vault!, ownerId: BEN.id }, folder.items[0]!)).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.notSealed })

    const strangerKit = (await readKit(kitText(ada, other)))!
    expect(await openEstateItem(strangerKit, folder.vault!, folder.items[0]!)).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.wrongVault })
    // A vault.json swapped for one naming the other key: the kit still names the owner's.
    expect(await openEstateItem(kit, { ...folder.vault!, signingPublicKey: other.publicKey }, folder.items[0]!)).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.wrongVault })
  })

  it('gives a password entry back as a small text file', async () => {
    const entry = { site: 'credit-union.example', username: 'grace.owner.77', password: 'Tr0ub4dor&3-Velvet', notes: '' }
    const { item, cipher } = await storedItem(WILL_ID, new TextEncoder().encode(JSON.stringify(entry)) as Uint8Array<ArrayBuffer>, 'credit-union.example', [{ id: ADA.id, pair: ada }], 'password')
    const kit = (await readKit(kitText(ada)))!
    const files = estateFiles(estatePlan([item], [ADA]), { ownerId: OWNER_ID, ownerName: 'G', signingPublicKey: vault.publicKey, page: '', format: '', ciphertext: () => new Blob([cipher]).stream() })
    const zip = readZip(new Uint8Array(await new Response(makeZip(files)).arrayBuffer()))
    const folder = await readFolder(folderOf(zip, 'Ada Lovelace'))
    const opened = await openEstateItem(kit, folder.vault!, folder.items[0]!)
    expect(opened).toMatchObject({ ok: true, filename: 'credit-union.example.txt', mimetype: 'text/plain' })
    const body = opened.ok ? await opened.content.text() : ''
    for (const value of [entry.site, entry.username, entry.password]) expect(body).toContain(value)
  })

  it('does not open another beneficiary’s grant with this kit', async () => {
    const { zip } = await bundle()
    const kit = (await readKit(kitText(ada)))!
    const folder = await readFolder(folderOf(zip, 'Ben _ Cousin'))
    for (const entry of folder.items) expect(await openEstateItem(kit, folder.vault!, entry)).toMatchObject({ ok: false, reason: ESTATE_PAGE_MESSAGES.wrongKey })
    expect(await readKit('no key here')).toBeNull()
  })
})
