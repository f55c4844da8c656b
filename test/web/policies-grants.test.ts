import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES, ROTATION_PAGE_SIZE, rotationGrantsBodySchema, rotationStartBodySchema, type Beneficiary, type RotationStartBody } from '../../contract/circle'
import { itemGrantsBodySchema, policyItemsBodySchema } from '../../contract/policies'
import type { ItemMetadata, ItemType, VaultItem } from '../../contract/vault-items'
import type { StatedGrant } from '../../contract/vault-statements'
import {
  decryptMetadata,
  DecryptionError,
  deriveMasterKey,
  encryptMetadata,
  generateBeneficiaryKeyPair,
  generateDataKey,
  generateVaultSalt,
  importBeneficiaryPrivateKey,
  importBeneficiaryPublicKey,
  publicKeyFingerprint,
  unwrapDataKeyForBeneficiary,
  verifyStatement,
  wrapDataKey,
  wrapDataKeyForBeneficiary,
  type BeneficiaryKeyPair,
  type MasterKey,
} from '@/crypto'
import { applyPolicyGrants, rotateBeneficiaryKey, rotationGrants } from '@/features/policies/grants'
import type { FetchLike } from '@/features/vault/items/http'
import { VaultLockedError } from '@/features/vault/vault-session'
import { UntrustedKeyError } from '@/features/circle/trusted-keys'
import { grantsStatement } from '../../contract/vault-statements'
import { testVault } from './vault-items-fake-api'

// The grants a policy makes for existing items, and the re-wrapping of a key rotation, against an
// in-memory API that stores what it is sent the way worker/services/vault-items.ts does.

const ADA = '11111111-1111-4111-8111-111111111111'
const BEN = '22222222-2222-4222-8222-222222222222'
/** The vault's signature over the new key, as the dialog makes it: sent as given. */
const SIGNATURE = `${'S'.repeat(86)}==`
const CY = '33333333-3333-4333-8333-333333333333'

/** Stands in for the vault signing each commit's grant set: records what it was asked to sign. */
const grantsSigner = {
  signed: [] as StatedGrant[][],
  async sign(grants: StatedGrant[]) {
    grantsSigner.signed.push(grants)
    return `${'G'.repeat(86)}==`
  },
}
beforeEach(() => {
  grantsSigner.signed = []
})

let master: MasterKey
let vault: Awaited<ReturnType<typeof testVault>>
const pairs = new Map<string, BeneficiaryKeyPair>()
beforeAll(async () => {
  master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
  vault = await testVault()
  for (const id of [ADA, BEN, CY]) pairs.set(id, await generateBeneficiaryKeyPair())
})

const recipient = (id: string) => ({ id, publicKey: pairs.get(id)!.publicKeySpki, keyVersion: 1 })
/** Every recipient's key counts as one this vault signed (trusted-keys.test.ts tests the check itself). */
const signedKeys = async () => {}

let nextItem = 1
/** A stored item as the server returns it, with its grants (wrapped for real) kept beside it. */
async function makeItem(type: ItemType, tags: string[], grantedTo: string[]) {
  const id = `00000000-0000-4000-8000-${String(nextItem++).padStart(12, '0')}`
  const dek = await generateDataKey()
  const metadata: ItemMetadata = { filename: `file-${id}.pdf`, mimetype: 'application/pdf', size: 10, tags }
  const item: VaultItem = {
    id,
    type,
    plainSize: 10,
    cipherSize: 39,
    chunkBytes: 1024,
    createdAt: new Date().toISOString(),
    encryptedMetadata: await encryptMetadata(dek, id, metadata),
    wrappedKey: await wrapDataKey(dek, master),
    accessPolicy: { name: 'Verified Death', protocol: 'VERIFIED_DEATH', requiresApprover: false, approverContact: null, scheduledAt: null },
    beneficiaryIds: [...grantedTo],
    sealed: true,
  }
  const grants = new Map<string, string>()
  for (const b of grantedTo) grants.set(b, await wrapDataKeyForBeneficiary(dek, await importBeneficiaryPublicKey(pairs.get(b)!.publicKeySpki)))
  return { item, grants }
}

const POLICY = '7d1f0a52-3c55-4c1b-9a43-0f3f0e2b6a11'

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

class FakeApi {
  readonly requests: Array<{ method: string; url: string; body?: unknown }> = []
  readonly items = new Map<string, VaultItem>()
  readonly grants = new Map<string, Map<string, string>>()
  /** Items whose PUT grants answers 500. */
  failGrantsFor = new Set<string>()
  /** Called before a rotation's commit is judged: lets a test add an item "meanwhile". */
  beforeRotate: (() => Promise<void>) | null = null
  /** Commits asked for. */
  rotations = 0
  /** Staged rotations: the start body and the grants received so far. */
  readonly staged = new Map<string, { beneficiaryId: string; start: RotationStartBody; grants: Map<string, string> }>()
  /** Items each policy was recorded to cover (PUT /api/policies/:id/items). */
  readonly coverage = new Map<string, Set<string>>()

  add(entry: { item: VaultItem; grants: Map<string, string> }) {
    this.items.set(entry.item.id, entry.item)
    this.grants.set(entry.item.id, entry.grants)
  }

  readonly fetch: FetchLike = async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase()
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined
    this.requests.push({ method, url, body })
    let match: RegExpMatchArray | null
    if (method === 'GET' && url === '/api/vault/items') {
      return json(200, [...this.items.values()].map((i) => ({ ...i, beneficiaryIds: [...this.grants.get(i.id)!.keys()] })))
    }
    if (method === 'PUT' && (match = url.match(/^\/api\/policies\/([^/]+)\/items$/))) {
      const parsed = policyItemsBodySchema.safeParse(body)
      if (!parsed.success) return json(400, { message: parsed.error.issues[0]!.message })
      const set = this.coverage.get(match[1]!) ?? new Set<string>()
      parsed.data.itemIds.forEach((id) => set.add(id))
      this.coverage.set(match[1]!, set)
      return json(200, { itemCount: set.size })
    }
    if (method === 'PUT' && (match = url.match(/^\/api\/vault\/items\/([^/]+)\/grants$/))) {
      const id = match[1]!
      if (this.failGrantsFor.has(id)) return json(500, { message: 'Something went wrong' })
      const parsed = itemGrantsBodySchema.safeParse(body)
      if (!parsed.success) return json(400, { message: parsed.error.issues[0]!.message })
      const held = this.grants.get(id)
      if (!held) return json(404, { message: 'Vault item not found.' })
      // As the server: the vault's signature over exactly these grants, each at its key version (1 here).
      const statement = grantsStatement(vault.ownerId, parsed.data.grants.map((g) => ({ itemId: id, beneficiaryId: g.beneficiaryId, keyVersion: 1, wrappedKey: g.wrappedKey })))
      if (!(await verifyStatement(vault.publicKey, statement, parsed.data.grantsSignature))) return json(400, { message: 'grantsSignature: not the vault’s' })
      for (const g of parsed.data.grants) held.set(g.beneficiaryId, g.wrappedKey)
      return json(200, { beneficiaryIds: [...held.keys()] })
    }
    if (method === 'POST' && (match = url.match(/^\/api\/beneficiaries\/([^/]+)\/rotations$/))) {
      const parsed = rotationStartBodySchema.safeParse(body)
      if (!parsed.success) return json(400, { message: parsed.error.issues[0]!.message })
      const rotationId = crypto.randomUUID()
      this.staged.set(rotationId, { beneficiaryId: match[1]!, start: parsed.data, grants: new Map() })
      return json(201, { rotationId, grantedItems: [...this.grants.values()].filter((g) => g.has(match![1]!)).length })
    }
    if (method === 'PUT' && (match = url.match(/^\/api\/beneficiaries\/([^/]+)\/rotations\/([^/]+)\/grants$/))) {
      const rotation = this.staged.get(match[2]!)
      if (!rotation) return json(404, { message: CIRCLE_MESSAGES.rotationNotFound })
      const parsed = rotationGrantsBodySchema.safeParse(body)
      if (!parsed.success) return json(400, { message: parsed.error.issues[0]!.message })
      for (const g of parsed.data.grants) rotation.grants.set(g.itemId, g.wrappedKey)
      return json(200, { received: rotation.grants.size })
    }
    if (method === 'POST' && (match = url.match(/^\/api\/beneficiaries\/([^/]+)\/rotations\/([^/]+)\/commit$/))) {
      const id = match[1]!
      const rotation = this.staged.get(match[2]!)
      if (!rotation) return json(404, { message: CIRCLE_MESSAGES.rotationNotFound })
      this.rotations++
      if (this.beforeRotate) {
        const run = this.beforeRotate
        this.beforeRotate = null
        await run()
      }
      const wanted = [...this.grants.entries()].filter(([, g]) => g.has(id)).map(([itemId]) => itemId)
      if (wanted.some((itemId) => !rotation.grants.has(itemId))) return json(409, { message: CIRCLE_MESSAGES.rotationIncomplete })
      for (const itemId of wanted) this.grants.get(itemId)!.set(id, rotation.grants.get(itemId)!)
      this.staged.delete(match[2]!)
      const beneficiary: Partial<Beneficiary> = {
        id,
        fullName: 'Ben Heir',
        email: 'ben@example.com',
        publicKey: rotation.start.publicKey,
        publicKeyFingerprint: await publicKeyFingerprint(rotation.start.publicKey),
        keyVersion: 2,
      }
      return json(200, beneficiary)
    }
    return json(404, { message: `No route for ${method} ${url}` })
  }
}

/** The grant opens with the beneficiary's private key to the item's own data key. */
async function expectGrantOpensItem(wrapped: string, privateKeyPkcs8: string, item: VaultItem, tags: string[]) {
  const privateKey = await importBeneficiaryPrivateKey(privateKeyPkcs8)
  const dek = await unwrapDataKeyForBeneficiary(wrapped, privateKey)
  const metadata = await decryptMetadata<ItemMetadata>(dek, item.id, item.encryptedMetadata)
  expect(metadata.tags).toEqual(tags)
}

describe('applyPolicyGrants', () => {
  it('adds only the missing grants, to matching items only, and each opens with the beneficiary’s key', async () => {
    const api = new FakeApi()
    const taxesForAda = await makeItem('doc', ['Taxes', '2024'], [ADA])
    const taxesForBoth = await makeItem('doc', ['taxes'], [ADA, BEN])
    const photos = await makeItem('doc', ['photos'], [ADA])
    const taxesPhoto = await makeItem('photo', ['taxes'], [ADA])
    for (const e of [taxesForAda, taxesForBoth, photos, taxesPhoto]) api.add(e)
    const before = new Map([...api.grants].map(([id, g]) => [id, new Map(g)]))
    const items = (await (await api.fetch('/api/vault/items')).json()) as VaultItem[]

    const result = await applyPolicyGrants({
      policyId: POLICY,
      selectors: { types: ['doc'], tags: ['TAXES'] },
      recipients: [recipient(BEN), recipient(CY)],
      items,
      master,
      fetch: api.fetch,
      signer: vault.signer,
      assertTrusted: signedKeys,
    })

    expect(result.matchedItemIds).toEqual([taxesForAda.item.id, taxesForBoth.item.id])
    expect(result.updatedItemIds).toEqual([taxesForAda.item.id, taxesForBoth.item.id])
    expect(result.newGrants).toBe(3) // Ben and Cy on the first, Cy alone on the second
    expect(result.failed).toEqual([])
    // The release engine learns which items the policy covers.
    expect([...api.coverage.get(POLICY)!]).toEqual([taxesForAda.item.id, taxesForBoth.item.id])

    const puts = api.requests.filter((r) => r.method === 'PUT' && r.url.endsWith('/grants'))
    expect(puts).toHaveLength(2)
    const sentFor = (id: string) => (puts.find((p) => p.url.includes(id))!.body as { grants: Array<{ beneficiaryId: string }> }).grants.map((g) => g.beneficiaryId)
    expect(sentFor(taxesForAda.item.id)).toEqual([BEN, CY])
    expect(sentFor(taxesForBoth.item.id)).toEqual([CY])

    // Existing grants untouched; items that do not match got nothing.
    expect(api.grants.get(taxesForAda.item.id)!.get(ADA)).toBe(before.get(taxesForAda.item.id)!.get(ADA))
    expect(api.grants.get(taxesForBoth.item.id)!.get(BEN)).toBe(before.get(taxesForBoth.item.id)!.get(BEN))
    expect([...api.grants.get(photos.item.id)!.keys()]).toEqual([ADA])
    expect([...api.grants.get(taxesPhoto.item.id)!.keys()]).toEqual([ADA])

    await expectGrantOpensItem(api.grants.get(taxesForAda.item.id)!.get(BEN)!, pairs.get(BEN)!.privateKeyPkcs8, taxesForAda.item, ['Taxes', '2024'])
    await expectGrantOpensItem(api.grants.get(taxesForAda.item.id)!.get(CY)!, pairs.get(CY)!.privateKeyPkcs8, taxesForAda.item, ['Taxes', '2024'])
    await expectGrantOpensItem(api.grants.get(taxesForBoth.item.id)!.get(CY)!, pairs.get(CY)!.privateKeyPkcs8, taxesForBoth.item, ['taxes'])
    // And not with someone else's key.
    await expect(
      unwrapDataKeyForBeneficiary(api.grants.get(taxesForAda.item.id)!.get(BEN)!, await importBeneficiaryPrivateKey(pairs.get(CY)!.privateKeyPkcs8)),
    ).rejects.toBeInstanceOf(DecryptionError)

    // Running it again changes nothing.
    const again = await applyPolicyGrants({
      policyId: POLICY,
      selectors: { types: ['doc'], tags: ['taxes'] },
      recipients: [recipient(BEN), recipient(CY)],
      items: (await (await api.fetch('/api/vault/items')).json()) as VaultItem[],
      master,
      fetch: api.fetch,
      signer: vault.signer,
      assertTrusted: signedKeys,
    })
    expect(again).toMatchObject({ updatedItemIds: [], newGrants: 0 })
    expect(again.matchedItemIds).toHaveLength(2)
    expect(api.requests.filter((r) => r.method === 'PUT' && r.url.endsWith('/grants'))).toHaveLength(2)
  })

  it('with no tags covers every item of the types, without opening any metadata', async () => {
    const api = new FakeApi()
    const a = await makeItem('photo', [], [ADA])
    const b = await makeItem('photo', ['x'], [ADA])
    const c = await makeItem('video', [], [ADA])
    for (const e of [a, b, c]) api.add(e)
    // Metadata that cannot be opened does not matter when no tags are asked for.
    const items = [a.item, { ...b.item, encryptedMetadata: a.item.encryptedMetadata }, c.item]
    const result = await applyPolicyGrants({ policyId: POLICY, selectors: { types: ['photo'], tags: [] }, recipients: [recipient(BEN)], items, master, fetch: api.fetch, signer: vault.signer, assertTrusted: signedKeys })
    expect(result.matchedItemIds).toEqual([a.item.id, b.item.id])
    expect(result.newGrants).toBe(2)
  })

  it('one failing item is reported and the others are still done', async () => {
    const api = new FakeApi()
    const a = await makeItem('doc', ['taxes'], [ADA])
    const b = await makeItem('doc', ['taxes'], [ADA])
    const c = await makeItem('doc', ['taxes'], [ADA])
    for (const e of [a, b, c]) api.add(e)
    api.failGrantsFor.add(b.item.id)
    const items = [a.item, b.item, { ...c.item, wrappedKey: a.item.wrappedKey }]
    const result = await applyPolicyGrants({ policyId: POLICY, selectors: { types: ['doc'], tags: ['taxes'] }, recipients: [recipient(BEN)], items, master, fetch: api.fetch, signer: vault.signer, assertTrusted: signedKeys })
    expect(result.updatedItemIds).toEqual([a.item.id])
    expect(result.failed.map((f) => f.itemId).sort()).toEqual([b.item.id, c.item.id].sort())
    expect(result.newGrants).toBe(1)
  })

  it('an item joins the policy only once every heir’s key wrap for it is stored: items whose grants failed are left out of its coverage', async () => {
    const api = new FakeApi()
    const a = await makeItem('doc', ['taxes'], [ADA])
    const b = await makeItem('doc', ['taxes'], [ADA])
    for (const e of [a, b]) api.add(e)
    api.failGrantsFor.add(b.item.id)
    const result = await applyPolicyGrants({ policyId: POLICY, selectors: { types: ['doc'], tags: ['taxes'] }, recipients: [recipient(BEN)], items: [a.item, b.item], master, fetch: api.fetch, signer: vault.signer, assertTrusted: signedKeys })
    expect(result.matchedItemIds).toEqual([a.item.id, b.item.id])
    expect([...(api.coverage.get(POLICY) ?? [])]).toEqual([a.item.id])
  })

  it('wraps item keys only to beneficiary keys the vault has signed: an unsigned key stops it before anything is wrapped or sent', async () => {
    const api = new FakeApi()
    const a = await makeItem('doc', [], [ADA])
    api.add(a)
    const asked: string[][] = []
    const refuse = async (recipients: readonly { id: string }[]) => {
      asked.push(recipients.map((r) => r.id))
      throw new UntrustedKeyError('Ben', true)
    }
    await expect(
      applyPolicyGrants({ policyId: POLICY, selectors: { types: ['doc'], tags: [] }, recipients: [recipient(BEN), recipient(CY)], items: [a.item], master, fetch: api.fetch, signer: vault.signer, assertTrusted: refuse }),
    ).rejects.toThrow(UntrustedKeyError)
    expect(asked).toEqual([[BEN, CY]])
    expect(api.requests).toEqual([])
  })

  it('a recipient key that cannot be used fails before anything is sent', async () => {
    const api = new FakeApi()
    const a = await makeItem('doc', [], [ADA])
    api.add(a)
    await expect(
      applyPolicyGrants({ policyId: POLICY, selectors: { types: ['doc'], tags: [] }, recipients: [{ id: BEN, publicKey: 'AAAA', keyVersion: 1 }], items: [a.item], master, fetch: api.fetch, signer: vault.signer, assertTrusted: signedKeys }),
    ).rejects.toThrow()
    expect(api.requests).toEqual([])
  })
})

describe('key rotation', () => {
  it('re-wraps every item granted to the beneficiary, sends only the public key, and the new grants open with the new key', async () => {
    const api = new FakeApi()
    const one = await makeItem('doc', ['taxes'], [ADA, BEN])
    const two = await makeItem('photo', ['photos'], [BEN])
    const other = await makeItem('doc', [], [ADA])
    for (const e of [one, two, other]) api.add(e)
    const fresh = await generateBeneficiaryKeyPair()

    const result = await rotateBeneficiaryKey({ beneficiaryId: BEN, replacesKeyVersion: 1, publicKeySpki: fresh.publicKeySpki, keySignature: SIGNATURE, statementSequence: 7, signGrants: grantsSigner.sign, master, fetch: api.fetch })
    expect(result.itemCount).toBe(2)
    expect(result.beneficiary.publicKeyFingerprint).toBe(await publicKeyFingerprint(fresh.publicKeySpki))

    // Started with the public key and the vault's signature, the grants in a page, then one commit.
    const post = api.requests.find((r) => r.method === 'POST' && r.url.endsWith('/rotations'))!
    expect(Object.keys(post.body as object).sort()).toEqual(['keySignature', 'publicKey', 'replacesKeyVersion', 'statementSequence'])
    expect(post.body).toMatchObject({ keySignature: SIGNATURE, statementSequence: 7 })
    const puts = api.requests.filter((r) => r.method === 'PUT').map((r) => (r.body as { grants: Array<{ itemId: string; wrappedKey: string }> }).grants)
    expect(puts.map((g) => g.length)).toEqual([2])
    // The commit carries the vault's signature over exactly what was sent, each grant at the new version.
    expect(grantsSigner.signed).toEqual([puts[0]!.map((g) => ({ ...g, beneficiaryId: BEN, keyVersion: 2 }))])
    expect(api.requests.find((r) => r.url.endsWith('/commit'))!.body).toEqual({ grantsSignature: `${'G'.repeat(86)}==` })
    const sent = JSON.stringify(api.requests.map((r) => r.body))
    expect(sent).not.toContain(fresh.privateKeyPkcs8.slice(0, 64))
    expect(sent).not.toContain('PRIVATE KEY')

    await expectGrantOpensItem(api.grants.get(one.item.id)!.get(BEN)!, fresh.privateKeyPkcs8, one.item, ['taxes'])
    await expectGrantOpensItem(api.grants.get(two.item.id)!.get(BEN)!, fresh.privateKeyPkcs8, two.item, ['photos'])
    // The old key opens none of them any more; Ada's grant is untouched.
    await expect(
      unwrapDataKeyForBeneficiary(api.grants.get(two.item.id)!.get(BEN)!, await importBeneficiaryPrivateKey(pairs.get(BEN)!.privateKeyPkcs8)),
    ).rejects.toBeInstanceOf(DecryptionError)
    expect(api.grants.get(one.item.id)!.get(ADA)).toBe(one.grants.get(ADA))
  })

  it('on 409 (an item was granted meanwhile) fetches the items again and retries once', async () => {
    const api = new FakeApi()
    const first = await makeItem('doc', [], [BEN])
    api.add(first)
    const late = await makeItem('doc', [], [BEN])
    api.beforeRotate = async () => api.add(late)
    const fresh = await generateBeneficiaryKeyPair()
    const result = await rotateBeneficiaryKey({ beneficiaryId: BEN, replacesKeyVersion: 1, publicKeySpki: fresh.publicKeySpki, keySignature: SIGNATURE, statementSequence: 7, signGrants: grantsSigner.sign, master, fetch: api.fetch })
    expect(result.itemCount).toBe(2)
    expect(api.rotations).toBe(2)
    expect(api.requests.filter((r) => r.method === 'GET')).toHaveLength(2)
    // Signed again at the second commit, over the whole set: the first grant and the late one.
    expect(grantsSigner.signed.map((set) => set.map((g) => g.itemId))).toEqual([[first.item.id], [first.item.id, late.item.id]])
    await expectGrantOpensItem(api.grants.get(late.item.id)!.get(BEN)!, fresh.privateKeyPkcs8, late.item, [])
  })

  it('gives up after the second 409 with the server’s message', async () => {
    const api = new FakeApi()
    api.add(await makeItem('doc', [], [BEN]))
    const lateOnes = [await makeItem('doc', [], [BEN]), await makeItem('doc', [], [BEN])]
    let n = 0
    const original = api.fetch
    const fetch: FetchLike = async (url, init) => {
      if (init?.method === 'POST' && url.endsWith('/commit') && n < lateOnes.length) api.add(lateOnes[n++]!)
      return original(url, init)
    }
    const fresh = await generateBeneficiaryKeyPair()
    await expect(rotateBeneficiaryKey({ beneficiaryId: BEN, replacesKeyVersion: 1, publicKeySpki: fresh.publicKeySpki, keySignature: SIGNATURE, statementSequence: 7, signGrants: grantsSigner.sign, master, fetch })).rejects.toMatchObject({
      status: 409,
      detail: CIRCLE_MESSAGES.rotationIncomplete,
    })
    expect(api.rotations).toBe(2)
  })

  it('needs the vault key when there is something to re-wrap', async () => {
    const fresh = await generateBeneficiaryKeyPair()
    const { item } = await makeItem('doc', [], [BEN])
    await expect(rotationGrants(BEN, fresh.publicKeySpki, [item], null)).rejects.toBeInstanceOf(VaultLockedError)
    expect(await rotationGrants(CY, fresh.publicKeySpki, [item], null)).toEqual([])
  })
})

describe('key rotation in pages', () => {
  it(`sends the grants of ${ROTATION_PAGE_SIZE + 5} items in two pages and commits once`, async () => {
    const api = new FakeApi()
    const entry = await makeItem('doc', [], [BEN])
    // The same item listed under many ids: enough grants for two pages, each re-wrapped.
    const ids = Array.from({ length: ROTATION_PAGE_SIZE + 5 }, () => crypto.randomUUID())
    for (const id of ids) api.add({ item: { ...entry.item, id }, grants: new Map(entry.grants) })
    const fresh = await generateBeneficiaryKeyPair()
    const result = await rotateBeneficiaryKey({ beneficiaryId: BEN, replacesKeyVersion: 1, publicKeySpki: fresh.publicKeySpki, keySignature: SIGNATURE, statementSequence: 7, signGrants: grantsSigner.sign, master, fetch: api.fetch })
    expect(result.itemCount).toBe(ids.length)
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => (r.body as { grants: unknown[] }).grants.length)).toEqual([ROTATION_PAGE_SIZE, 5])
    expect(api.rotations).toBe(1)
    await expectGrantOpensItem(api.grants.get(ids.at(-1)!)!.get(BEN)!, fresh.privateKeyPkcs8, entry.item, [])
  })
})
