import { beforeAll, describe, expect, it } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { sealItemBodySchema, type SealPage, type UnsealedItem } from '../../contract/vault-items'
import { digestOfBase64, itemManifest } from '../../contract/vault-statements'
import {
  deriveMasterKey,
  encryptMetadata,
  generateBeneficiaryKeyPair,
  generateDataKey,
  generateVaultSalt,
  importBeneficiaryPrivateKey,
  privateKeyToPem,
  unwrapDataKeyForBeneficiary,
  verifyStatement,
  wrapDataKey,
  type BeneficiaryKeyPair,
  type MasterKey,
} from '@/crypto'
import type { FetchLike } from '@/features/vault/items/http'
import { sealStoredItems } from '@/features/vault/seal-items'
import { testVault } from './vault-items-fake-api'

// Sealing items stored before manifests (web/features/vault/seal-items.ts) against an in-memory API
// that checks a seal as the server does: the grant set exactly the item's, and the vault's
// signature over the manifest rebuilt from the item as stored and the new wraps.

const ADA = '11111111-1111-4111-8111-111111111111'
const BEN = '22222222-2222-4222-8222-222222222222'
const CONTENT_DIGEST = 'ab'.repeat(32)

let master: MasterKey
let vault: Awaited<ReturnType<typeof testVault>>
const pairs = new Map<string, BeneficiaryKeyPair>()
beforeAll(async () => {
  master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
  vault = await testVault()
  for (const id of [ADA, BEN]) pairs.set(id, await generateBeneficiaryKeyPair())
})

let next = 1
async function oldItem(grantedTo: string[], owner: MasterKey = master): Promise<UnsealedItem> {
  const id = `00000000-0000-4000-8000-${String(next++).padStart(12, '0')}`
  const dek = await generateDataKey()
  return {
    id,
    type: 'doc',
    plainSize: 10,
    chunkCount: 1,
    contentDigest: CONTENT_DIGEST,
    encryptedMetadata: await encryptMetadata(dek, id, { filename: 'will.pdf', mimetype: 'application/pdf', size: 10, tags: [] }),
    wrappedKey: await wrapDataKey(dek, owner),
    grants: grantedTo.map((beneficiaryId) => ({ beneficiaryId, keyVersion: 1 })),
  }
}

const person = (id: string, keySignature: string | null = 'signed'): Beneficiary =>
  ({ id, fullName: `Person ${id.slice(0, 2)}`, email: `${id.slice(0, 2)}@example.com`, keyVersion: 1, publicKey: pairs.get(id)!.publicKeySpki, keySignature }) as unknown as Beneficiary

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function fakeApi(pages: SealPage[], people: Beneficiary[]) {
  const sealed = new Map<string, { grants: Array<{ beneficiaryId: string; wrappedKey: string }>; manifest: string }>()
  const items = new Map(pages.flatMap((p) => p.items).map((i) => [i.id, i]))
  const afters: Array<string | null> = []
  const fetch: FetchLike = async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase()
    if (method === 'GET' && url.startsWith('/api/vault/seal')) {
      const after = new URL(url, 'http://x').searchParams.get('after')
      afters.push(after)
      return json(200, after ? pages[pages.findIndex((p) => p.next === after) + 1]! : pages[0]!)
    }
    if (method === 'GET' && url === '/api/beneficiaries') return json(200, people)
    const match = url.match(/^\/api\/vault\/items\/([^/]+)\/seal$/)
    if (method === 'POST' && match) {
      const item = items.get(match[1]!)!
      const body = sealItemBodySchema.parse(JSON.parse(init.body as string))
      const ids = body.grants.map((g) => g.beneficiaryId).sort()
      if (JSON.stringify(ids) !== JSON.stringify(item.grants.map((g) => g.beneficiaryId).sort())) return json(409, { message: 'grants changed' })
      const manifest = itemManifest({
        ownerId: vault.ownerId,
        itemId: item.id,
        type: item.type,
        plainSize: item.plainSize,
        chunkCount: item.chunkCount,
        contentDigest: item.contentDigest,
        metadataDigest: digestOfBase64(item.encryptedMetadata),
        grants: body.grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: 1, wrappedKeyDigest: digestOfBase64(g.wrappedKey) })),
      })
      if (!(await verifyStatement(vault.publicKey, manifest, body.manifestSignature))) return json(400, { message: 'manifestSignature: not sealed' })
      sealed.set(item.id, { grants: body.grants, manifest })
      return json(200, { ...item, sealed: true })
    }
    return json(404, { message: `No route for ${method} ${url}` })
  }
  return { fetch, sealed, afters }
}

const trustSigned = async (people: Beneficiary[]) => {
  const untrusted = people.find((p) => (p as unknown as { keySignature: string | null }).keySignature === null)
  if (untrusted) throw new Error(`${untrusted.fullName}: not signed`)
}

describe('sealStoredItems', () => {
  it('seals the owner’s items page by page, with new wraps for the same beneficiaries that open the item', async () => {
    const a = await oldItem([ADA, BEN])
    const b = await oldItem([])
    const c = await oldItem([BEN])
    const api = fakeApi(
      [
        { items: [a, b], missing: [], next: b.id },
        { items: [c], missing: ['00000000-0000-4000-8000-0000000000ff'], next: null },
      ],
      [person(ADA), person(BEN)],
    )
    const outcome = await sealStoredItems({ fetch: api.fetch, master, signer: vault.signer, assertTrusted: trustSigned })
    expect(outcome).toEqual({ sealed: 3, skipped: 0, missing: 1 })
    expect(api.afters).toEqual([null, b.id])
    const grant = api.sealed.get(a.id)!.grants.find((g) => g.beneficiaryId === BEN)!
    const key = await importBeneficiaryPrivateKey(privateKeyToPem(pairs.get(BEN)!.privateKeyPkcs8))
    await expect(unwrapDataKeyForBeneficiary(grant.wrappedKey, key)).resolves.toBeDefined()
    expect(api.sealed.get(b.id)!.manifest.split('\n')).toHaveLength(7)
  })

  it('skips, without a word, an item its master key does not open, one granted to an untrusted key, and one whose grantee changed', async () => {
    const other = await deriveMasterKey('another passphrase entirely 7!', generateVaultSalt())
    const planted = await oldItem([ADA], other)
    const untrusted = await oldItem([BEN])
    const changed = await oldItem([ADA])
    changed.grants[0]!.keyVersion = 2
    const fine = await oldItem([ADA])
    const api = fakeApi([{ items: [planted, untrusted, changed, fine], missing: [], next: null }], [person(ADA), person(BEN, null)])
    const outcome = await sealStoredItems({ fetch: api.fetch, master, signer: vault.signer, assertTrusted: trustSigned })
    expect(outcome).toEqual({ sealed: 1, skipped: 3, missing: 0 })
    expect([...api.sealed.keys()]).toEqual([fine.id])
  })
})
