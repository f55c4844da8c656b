import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { UPLOAD_CHUNK_BYTES, VAULT_ITEM_MESSAGES, type SealPage, type UploadSession, type VaultItem } from '../../contract/vault-items'
import { contentDigestOf, digestOfBase64, grantsStatement, itemManifest, parseItemManifest, type ItemManifestFields } from '../../contract/vault-statements'
import type { OwnerVault } from '../../worker/host/vault-object'
import { addBeneficiary, call, messageOf } from './helpers'
import { ownerExec, ownerRow, ownerRows, vaultOf } from './owner-helpers'
import {
  blobOf,
  counters,
  grantRows,
  itemKey,
  itemRow,
  listItems,
  ownerWithBeneficiary,
  putAllParts,
  signedGrantsBody,
  startUpload,
  vaultSign,
} from './vault-helpers'
import { signingKeyPair } from './vault-signing'

// 0.3 · 3 of 7, Deliver 1: every item is sealed by the owner's vault. The attack it stops: with a
// session token alone, an item sealed under a key of the attacker's own, metadata naming it "Last
// will and testament.txt", wrapped to the heir's public key. The server now takes an item only with
// the vault's signature over the manifest it rebuilds from what it holds.

const TIMEOUT = 30_000
const b64 = (text: string) => btoa(text)
const bytesB64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)))

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
}

/** The forger's completion body: their own "sealed" metadata and wraps, as the attack sent them. */
function forgedBody(beneficiaryId: string) {
  return {
    encryptedMetadata: b64(JSON.stringify({ filename: 'Last will and testament.txt' })),
    wrappedKey: b64('a data key of the forger'),
    policy: { protocol: 'MANUAL_RELEASE' as const },
    grants: [{ beneficiaryId, wrappedKey: b64('the forger data key, wrapped to the heir') }],
  }
}

/** An owner with a beneficiary and one upload whose parts are all sent, and the fields of its honest manifest. */
async function uploadReady(plainSize = 100) {
  const s = await ownerWithBeneficiary()
  const session: UploadSession = await startUpload(s.token, plainSize)
  const parts = await putAllParts(s.token, session, plainSize)
  const body = forgedBody(s.beneficiary.id)
  const fields: ItemManifestFields = {
    ownerId: s.ownerId,
    itemId: session.itemId,
    type: 'doc',
    plainSize,
    chunkCount: session.partCount,
    contentDigest: contentDigestOf(await Promise.all(parts.map(sha256))),
    metadataDigest: digestOfBase64(body.encryptedMetadata),
    grants: [{ beneficiaryId: s.beneficiary.id, keyVersion: 1, wrappedKeyDigest: digestOfBase64(body.grants[0]!.wrappedKey) }],
  }
  return { ...s, session, parts, body, fields }
}

const complete = (token: string, itemId: string, body: unknown) => call(`/api/vault/uploads/${itemId}/complete`, { token, body })

/** Nothing of the refused completion is stored: no item, no grant, usage unchanged, no object; the upload is left open. */
async function expectNothingStored(s: Awaited<ReturnType<typeof uploadReady>>) {
  expect(await listItems(s.token)).toEqual([])
  expect(await grantRows(s.ownerId, s.session.itemId)).toEqual([])
  expect(await counters(s.token)).toEqual({ storageUsed: 0, vaultItemCount: 0 })
  expect(await itemRow(s.ownerId, s.session.itemId)).toMatchObject({ status: 'uploading' })
  expect(await blobOf(s.ownerId, s.session.itemId)).toBeNull()
}

describe("the heir's reading of a signed item manifest", () => {
  it('reads every grant line: the canonical text naming each heir\'s grant reads back whole, the first grant included', () => {
    const fields: ItemManifestFields = {
      ownerId: '11111111-1111-4111-8111-111111111111',
      itemId: '22222222-2222-4222-8222-222222222222',
      type: 'doc',
      plainSize: 10,
      chunkCount: 1,
      contentDigest: 'a'.repeat(64),
      metadataDigest: 'b'.repeat(64),
      grants: [
        { beneficiaryId: '33333333-3333-4333-8333-333333333333', keyVersion: 1, wrappedKeyDigest: 'c'.repeat(64) },
        { beneficiaryId: '44444444-4444-4444-8444-444444444444', keyVersion: 2, wrappedKeyDigest: 'd'.repeat(64) },
      ],
    }
    expect(parseItemManifest(itemManifest(fields))).toEqual(fields)
    expect(parseItemManifest(itemManifest({ ...fields, grants: [fields.grants[0]!] }))?.grants).toEqual([fields.grants[0]])
    expect(parseItemManifest(`${itemManifest(fields)}\nextra`)).toBeNull()
  })
})

describe('an upload is completed only with the vault’s signed manifest', { timeout: TIMEOUT }, () => {
  it('refuses the forged upload made with a session token alone: no signature, or one by another key', async () => {
    const s = await uploadReady()
    const unsigned = await complete(s.token, s.session.itemId, s.body)
    expect(unsigned.status).toBe(400)
    expect(await messageOf(unsigned)).toMatch(/^manifestSignature: /)
    await expectNothingStored(s)

    // The forger's own P-256 key over exactly the manifest the server would rebuild.
    const forger = await signingKeyPair()
    const signature = bytesB64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, forger.privateKey, new TextEncoder().encode(itemManifest(s.fields))))
    const foreign = await complete(s.token, s.session.itemId, { ...s.body, manifestSignature: signature })
    expect(foreign.status).toBe(400)
    expect(await messageOf(foreign)).toBe(`manifestSignature: ${VAULT_ITEM_MESSAGES.manifestInvalid}`)
    await expectNothingStored(s)
  })

  it('refuses a real vault signature over a manifest whose content, metadata, grants, size, type or item differ from what was sent', async () => {
    const s = await uploadReady()
    const other = '0'.repeat(64)
    const variants: Array<[string, ItemManifestFields]> = [
      ['content digest', { ...s.fields, contentDigest: other }],
      ['metadata digest', { ...s.fields, metadataDigest: other }],
      ['grant wrap', { ...s.fields, grants: [{ ...s.fields.grants[0]!, wrappedKeyDigest: other }] }],
      ['grant key version', { ...s.fields, grants: [{ ...s.fields.grants[0]!, keyVersion: 2 }] }],
      ['no grants', { ...s.fields, grants: [] }],
      ['size', { ...s.fields, plainSize: s.fields.plainSize + 1 }],
      ['type', { ...s.fields, type: 'photo' }],
      ['item', { ...s.fields, itemId: crypto.randomUUID() }],
    ]
    for (const [what, fields] of variants) {
      const res = await complete(s.token, s.session.itemId, { ...s.body, manifestSignature: await vaultSign(s.token, itemManifest(fields)) })
      expect(res.status, what).toBe(400)
      expect(await messageOf(res), what).toBe(`manifestSignature: ${VAULT_ITEM_MESSAGES.manifestInvalid}`)
    }
    await expectNothingStored(s)

    // The same upload, honestly signed, then goes through: the refusals left it open.
    const done = await complete(s.token, s.session.itemId, { ...s.body, manifestSignature: await vaultSign(s.token, itemManifest(s.fields)) })
    expect(done.status).toBe(201)
    expect(((await done.json()) as VaultItem).sealed).toBe(true)
  })

  it('stores the honest upload with its manifest, signature and the content digest of the bytes sent', async () => {
    const s = await uploadReady(UPLOAD_CHUNK_BYTES + 7)
    expect(s.session.partCount).toBe(2)
    const manifest = itemManifest(s.fields)
    const manifestSignature = await vaultSign(s.token, manifest)
    const res = await complete(s.token, s.session.itemId, { ...s.body, grants: [{ ...s.body.grants[0]!, keyVersion: 1 }], manifestSignature })
    expect(res.status).toBe(201)
    const stored = await ownerRow<{ manifest: string; manifest_signature: string; content_digest: string }>(
      s.ownerId,
      'select manifest, manifest_signature, content_digest from vault_items where id = ?',
      s.session.itemId,
    )
    expect(stored).toEqual({ manifest, manifest_signature: manifestSignature, content_digest: s.fields.contentDigest })
    expect((await listItems(s.token)).map((i) => [i.id, i.sealed])).toEqual([[s.session.itemId, true]])
  })

  it('answers 409 when a beneficiary’s key version changed after the browser signed, and stores nothing', async () => {
    const s = await uploadReady()
    const manifestSignature = await vaultSign(s.token, itemManifest(s.fields))
    await ownerExec(s.ownerId, ['update beneficiaries set key_version = 2 where id = ?', s.beneficiary.id])
    const res = await complete(s.token, s.session.itemId, { ...s.body, grants: [{ ...s.body.grants[0]!, keyVersion: 1 }], manifestSignature })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(VAULT_ITEM_MESSAGES.keyChangedMeanwhile)
    await expectNothingStored(s)
  })

  it('answers 409 for a vault without a signing key', async () => {
    const s = await uploadReady()
    const manifestSignature = await vaultSign(s.token, itemManifest(s.fields))
    await runInDurableObject(vaultOf(s.ownerId), async (_i: OwnerVault, state) => {
      const { signing: _dropped, ...rest } = state.storage.kv.get<Record<string, unknown>>('vaultKeys')!
      state.storage.kv.put('vaultKeys', rest)
    })
    const res = await complete(s.token, s.session.itemId, { ...s.body, manifestSignature })
    expect(res.status).toBe(409)
    await expectNothingStored(s)
  })
})

/** An owner's honest item (two beneficiaries) and what it was signed with. */
async function sealedItem() {
  const s = await uploadReady()
  const second = await addBeneficiary(s.token, s.beneficiary.publicKey)
  const body = { ...s.body, grants: [...s.body.grants, { beneficiaryId: second.id, wrappedKey: b64('wrapped to the second heir') }] }
  const fields = { ...s.fields, grants: [...s.fields.grants, { beneficiaryId: second.id, keyVersion: 1, wrappedKeyDigest: digestOfBase64(body.grants[1]!.wrappedKey) }] }
  const res = await complete(s.token, s.session.itemId, { ...body, manifestSignature: await vaultSign(s.token, itemManifest(fields)) })
  expect(res.status).toBe(201)
  return { ...s, second, body, fields, itemId: s.session.itemId }
}

describe('grants added later carry the vault’s signature', { timeout: TIMEOUT }, () => {
  const put = (token: string, itemId: string, body: unknown) => call(`/api/vault/items/${itemId}/grants`, { method: 'PUT', token, body })

  it('refuses grants without a signature, by another key, or over other wraps (garbage replacing good ones), and keeps the grants as they were', async () => {
    const s = await sealedItem()
    const third = await addBeneficiary(s.token, s.beneficiary.publicKey)
    const before = await grantRows(s.ownerId, s.itemId)
    const good = [{ beneficiaryId: third.id, wrappedKey: b64('wrapped to the third heir') }]

    const unsigned = await put(s.token, s.itemId, { grants: good })
    expect(unsigned.status).toBe(400)
    expect(await messageOf(unsigned)).toMatch(/^grantsSignature: /)

    const forger = await signingKeyPair()
    const statement = grantsStatement(s.ownerId, [{ itemId: s.itemId, beneficiaryId: third.id, keyVersion: 1, wrappedKey: good[0]!.wrappedKey }])
    const foreign = bytesB64(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, forger.privateKey, new TextEncoder().encode(statement)))
    const byForger = await put(s.token, s.itemId, { grants: good, grantsSignature: foreign })
    expect(byForger.status).toBe(400)
    expect(await messageOf(byForger)).toBe(`grantsSignature: ${VAULT_ITEM_MESSAGES.grantsSignatureInvalid}`)

    // The vault signed a good wrap for the first heir; the request swaps in garbage for it.
    const signed = await signedGrantsBody(s.token, s.itemId, [{ beneficiaryId: s.beneficiary.id, wrappedKey: b64('a good re-wrap') }])
    const garbage = await put(s.token, s.itemId, { ...signed, grants: [{ beneficiaryId: s.beneficiary.id, wrappedKey: b64('garbage') }] })
    expect(garbage.status).toBe(400)
    // Or adds a grant the vault did not sign beside the one it did.
    const extra = await put(s.token, s.itemId, { ...signed, grants: [...signed.grants, ...good] })
    expect(extra.status).toBe(400)
    expect(await grantRows(s.ownerId, s.itemId)).toEqual(before)

    const ok = await put(s.token, s.itemId, await signedGrantsBody(s.token, s.itemId, good))
    expect(ok.status).toBe(200)
    expect((await grantRows(s.ownerId, s.itemId)).map((g) => g.beneficiary_id).sort()).toEqual([s.beneficiary.id, s.second.id, third.id].sort())
  })

  it('gives another owner 404 for the item, even with their own vault’s signature', async () => {
    const s = await sealedItem()
    const other = await ownerWithBeneficiary()
    const res = await put(other.token, s.itemId, await signedGrantsBody(other.token, s.itemId, [{ beneficiaryId: other.beneficiary.id, wrappedKey: b64('x') }]))
    expect(res.status).toBe(404)
  })
})

describe('sealing items stored before manifests', { timeout: TIMEOUT }, () => {
  /** The item as one stored before manifests: no manifest, no signature, no content digest. */
  const unseal = (ownerId: string, itemId: string) =>
    ownerExec(ownerId, ['update vault_items set manifest = null, manifest_signature = null, content_digest = null where id = ?', itemId])
  const sealPage = async (token: string, after?: string) => {
    const res = await call(`/api/vault/seal${after ? `?after=${after}` : ''}`, { token })
    expect(res.status).toBe(200)
    return (await res.json()) as SealPage
  }
  const seal = (token: string, itemId: string, body: unknown) => call(`/api/vault/items/${itemId}/seal`, { token, body })

  it('offers an old item with the content digest computed from its stored chunks, and seals it with new wraps in one act', async () => {
    const s = await uploadReady(2 * UPLOAD_CHUNK_BYTES + 3)
    expect(s.session.partCount).toBe(3)
    const res = await complete(s.token, s.session.itemId, { ...s.body, manifestSignature: await vaultSign(s.token, itemManifest(s.fields)) })
    expect(res.status).toBe(201)
    await unseal(s.ownerId, s.session.itemId)
    expect((await listItems(s.token))[0]!.sealed).toBe(false)

    const page = await sealPage(s.token)
    expect(page).toEqual({
      items: [
        {
          id: s.session.itemId,
          type: 'doc',
          plainSize: s.fields.plainSize,
          chunkCount: 3,
          contentDigest: s.fields.contentDigest,
          encryptedMetadata: s.body.encryptedMetadata,
          wrappedKey: s.body.wrappedKey,
          grants: [{ beneficiaryId: s.beneficiary.id, keyVersion: 1 }],
        },
      ],
      missing: [],
      next: null,
    })
    // Computed once: the object keeps it.
    expect(await ownerRow(s.ownerId, 'select content_digest from vault_items where id = ?', s.session.itemId)).toEqual({ content_digest: s.fields.contentDigest })

    const rewrapped = [{ beneficiaryId: s.beneficiary.id, wrappedKey: b64('re-wrapped by the owner browser') }]
    const fields = { ...s.fields, grants: [{ beneficiaryId: s.beneficiary.id, keyVersion: 1, wrappedKeyDigest: digestOfBase64(rewrapped[0]!.wrappedKey) }] }
    const manifestSignature = await vaultSign(s.token, itemManifest(fields))

    // A signature over other wraps than those sent is refused, and nothing changes.
    const swapped = await seal(s.token, s.session.itemId, { grants: [{ ...rewrapped[0]!, wrappedKey: b64('garbage') }], manifestSignature })
    expect(swapped.status).toBe(400)
    expect(await messageOf(swapped)).toBe(`manifestSignature: ${VAULT_ITEM_MESSAGES.manifestInvalid}`)
    expect((await grantRows(s.ownerId, s.session.itemId))[0]!.wrapped_key).toBe(s.body.grants[0]!.wrappedKey)

    const sealed = await seal(s.token, s.session.itemId, { grants: rewrapped, manifestSignature })
    expect(sealed.status).toBe(200)
    expect(((await sealed.json()) as VaultItem).sealed).toBe(true)
    expect((await grantRows(s.ownerId, s.session.itemId)).map((g) => g.wrapped_key)).toEqual([rewrapped[0]!.wrappedKey])
    expect(await ownerRow(s.ownerId, 'select manifest, manifest_signature from vault_items where id = ?', s.session.itemId)).toEqual({
      manifest: itemManifest(fields),
      manifest_signature: manifestSignature,
    })
    expect((await sealPage(s.token)).items).toEqual([])
    expect((await seal(s.token, s.session.itemId, { grants: rewrapped, manifestSignature })).status).toBe(409)
  })

  it('refuses a seal whose grants are not exactly the item’s current ones (409), and gives another owner 404', async () => {
    const s = await sealedItem()
    await unseal(s.ownerId, s.itemId)
    await sealPage(s.token)
    const signedOver = async (grants: Array<{ beneficiaryId: string; wrappedKey: string }>) => ({
      grants,
      manifestSignature: await vaultSign(
        s.token,
        itemManifest({ ...s.fields, grants: grants.map((g) => ({ beneficiaryId: g.beneficiaryId, keyVersion: 1, wrappedKeyDigest: digestOfBase64(g.wrappedKey) })) }),
      ),
    })
    const first = { beneficiaryId: s.beneficiary.id, wrappedKey: b64('new wrap 1') }
    const second = { beneficiaryId: s.second.id, wrappedKey: b64('new wrap 2') }
    const third = await addBeneficiary(s.token, s.beneficiary.publicKey)

    const fewer = await seal(s.token, s.itemId, await signedOver([first]))
    expect(fewer.status).toBe(409)
    expect(await messageOf(fewer)).toBe(VAULT_ITEM_MESSAGES.sealGrantsChanged)
    expect((await seal(s.token, s.itemId, await signedOver([first, second, { beneficiaryId: third.id, wrappedKey: b64('w3') }]))).status).toBe(409)
    expect((await seal(s.token, s.itemId, await signedOver([first, { beneficiaryId: third.id, wrappedKey: b64('w3') }]))).status).toBe(409)
    expect((await listItems(s.token))[0]!.sealed).toBe(false)

    const other = await ownerWithBeneficiary()
    expect((await seal(other.token, s.itemId, await signedOver([first, second]))).status).toBe(404)
    expect((await sealPage(other.token)).items).toEqual([])

    expect((await seal(s.token, s.itemId, await signedOver([second, first]))).status).toBe(200)
  })

  it('reports an item whose stored object is longer than the item as missing: no digest is computed from bytes that are not the item', async () => {
    const s = await sealedItem()
    await unseal(s.ownerId, s.itemId)
    const stored = await env.BLOBS.get(itemKey(s.ownerId, s.itemId))
    const bytes = new Uint8Array(await stored!.arrayBuffer())
    await env.BLOBS.put(itemKey(s.ownerId, s.itemId), new Uint8Array([...bytes, 0]))
    const page = await sealPage(s.token)
    expect(page.items).toEqual([])
    expect(page.missing).toEqual([s.itemId])
  })

  it('pages by twenty: with 21 items to seal, the first page of 20 says where the next begins, and the next holds the last one', async () => {
    const s = await ownerWithBeneficiary()
    const ids = Array.from({ length: 21 }, () => crypto.randomUUID()).sort()
    await ownerExec(
      s.ownerId,
      ...ids.map((id): [string, ...unknown[]] => [
        `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, release_protocol, created_at, completed_at, wrapped_key, encrypted_metadata)
         values (?, 'doc', 'active', 1, 30, 8388608, 1, ?, 'VERIFIED_DEATH', 1, 1, 'd3JhcHBlZA==', 'bWV0YQ==')`,
        id,
        `items/none/${id}`,
      ]),
    )
    const first = await sealPage(s.token)
    expect(first.missing).toEqual(ids.slice(0, 20))
    expect(first.next).toBe(ids[19])
    const second = await sealPage(s.token, first.next!)
    expect(second.missing).toEqual([ids[20]])
    expect(second.next).toBeNull()
  })

  it('reports an item whose stored object is gone, leaves out items it could never seal, and pages by id', async () => {
    const s = await sealedItem()
    const gone = await startUpload(s.token, 10)
    await putAllParts(s.token, gone, 10)
    const goneFields = { ...s.fields, itemId: gone.itemId, plainSize: 10, chunkCount: 1, contentDigest: await uploadedDigest(s.ownerId, gone.itemId), grants: [s.fields.grants[0]!] }
    expect((await complete(s.token, gone.itemId, { ...s.body, grants: [s.body.grants[0]!], manifestSignature: await vaultSign(s.token, itemManifest(goneFields)) })).status).toBe(201)
    await unseal(s.ownerId, s.itemId)
    await unseal(s.ownerId, gone.itemId)
    await env.BLOBS.delete(itemKey(s.ownerId, gone.itemId))
    // An item with no data key of the owner's (the bench's empty items): nothing to prove, never offered.
    await ownerExec(s.ownerId, [
      `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, release_protocol, created_at, completed_at)
       values (?, 'doc', 'active', 1, 30, 8388608, 1, 'items/none', 'VERIFIED_DEATH', 1, 1)`,
      crypto.randomUUID(),
    ])
    const page = await sealPage(s.token)
    expect(page.items.map((i) => i.id)).toEqual([s.itemId])
    expect(page.missing).toEqual([gone.itemId])
    expect(page.next).toBeNull()
    const [first, second] = [s.itemId, gone.itemId].sort()
    expect((await sealPage(s.token, first)).items.map((i) => i.id)).toEqual(second === s.itemId ? [s.itemId] : [])
    expect((await call('/api/vault/seal?after=nope', { token: s.token })).status).toBe(400)
  })
})

/** The content digest of an upload's parts as the worker recorded them. */
async function uploadedDigest(ownerId: string, itemId: string): Promise<string> {
  const parts = await ownerRows<{ digest: string }>(ownerId, 'select digest from upload_parts where item_id = ? order by part_number', itemId)
  return contentDigestOf(parts.map((p) => Uint8Array.from(p.digest.match(/../g)!, (h) => parseInt(h, 16))))
}
