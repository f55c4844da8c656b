import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { contentDigestOf, itemManifest } from '../../contract/vault-statements'
import { deriveMasterKey, generateBeneficiaryKeyPair, generateVaultSalt, type MasterKey } from '@/crypto'
import { uploadFile } from '@/features/vault/upload/upload-file'
import { checkItem, contentDigest, readManifest, wrappedKeyDigest } from './independent-manifest-check'
import { FakeVaultApi, testVault } from './vault-items-fake-api'

// FORMAT.md's "Item manifests" is enough to check an item: its worked example is exactly what the
// code writes, and a manifest made by the browser's upload verifies with a checker written from the
// document alone (independent-manifest-check.ts: node:crypto, nothing of this project).

const FORMAT = readFileSync(new URL('../../web/crypto/FORMAT.md', import.meta.url), 'utf8')
const section = FORMAT.slice(FORMAT.indexOf('## Item manifests'))
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest()

describe('FORMAT.md, "Item manifests"', () => {
  const blocks = [...section.matchAll(/```\n([\s\S]*?)\n```/g)].map((m) => m[1]!)
  const [chunkDigests, manifest] = blocks as [string, string]

  it('gives stand-in chunk digests that are what it says they are', () => {
    expect(chunkDigests.split('\n')).toEqual([0, 1, 2].map((i) => sha256(`chunk ${i}`).toString('hex')))
  })

  it('gives a worked example the code writes byte for byte, with the length and hash it states', () => {
    const fields = {
      ownerId: '3f2b8c1e-7d4a-4e9b-9a61-0c5d2e8f4b17',
      itemId: '9c1d7e52-4b8a-4f3e-8d21-6a0b5c9e7f34',
      type: 'doc',
      plainSize: 20_000_000,
      chunkCount: 3,
      contentDigest: contentDigestOf(chunkDigests.split('\n').map((h) => Uint8Array.from(Buffer.from(h, 'hex')))),
      metadataDigest: sha256(Buffer.from('AQIDBAUGBwgJCgsMDQ4PEA==', 'base64')).toString('hex'),
      grants: [
        { beneficiaryId: 'b7c4d2e1-8a9f-4e3d-a1b2-c3d4e5f6a7b8', keyVersion: 1, wrappedKeyDigest: wrappedKeyDigest('d3JhcHBlZCBmb3IgQmVu') },
        { beneficiaryId: '5a0e6f1c-2b3d-4c8e-9f71-1d2e3c4b5a69', keyVersion: 2, wrappedKeyDigest: wrappedKeyDigest('d3JhcHBlZCBmb3IgQW5uYQ==') },
      ],
    }
    expect(itemManifest(fields)).toBe(manifest)
    const stated = /(\d+) bytes of UTF-8, SHA-256 `([0-9a-f]{64})`/.exec(section)!
    expect(Buffer.byteLength(manifest, 'utf8')).toBe(Number(stated[1]))
    expect(sha256(manifest).toString('hex')).toBe(stated[2])
    expect(readManifest(manifest)).toMatchObject({ chunks: 3, size: 20_000_000, grants: [{ keyVersion: 2 }, { keyVersion: 1 }] })
  })
})

describe('an outside check of a manifest made by the browser', () => {
  const CHUNK = 1024
  let master: MasterKey
  let vault: Awaited<ReturnType<typeof testVault>>
  let made: { api: FakeVaultApi; itemId: string; beneficiary: string }
  beforeAll(async () => {
    master = await deriveMasterKey('correct horse battery staple 9!', generateVaultSalt())
    vault = await testVault()
    const api = new FakeVaultApi(CHUNK, vault)
    const beneficiary = '11111111-1111-4111-8111-111111111111'
    const publicKey = (await generateBeneficiaryKeyPair()).publicKeySpki
    const bytes = new TextEncoder().encode('FORGED: … transfer the estate funds to IBAN XX00 EVIL. '.repeat(60))
    const item = await uploadFile(
      {
        type: 'doc',
        content: new Blob([bytes]),
        metadata: { filename: 'Last will and testament.txt', mimetype: 'text/plain', size: bytes.length, tags: [] },
        policy: { protocol: 'VERIFIED_DEATH', requiresApprover: false },
        beneficiaries: [{ id: beneficiary, publicKey, keyVersion: 1 }],
      },
      { fetch: api.fetch, masterKey: master, backoffMs: () => 1, signer: vault.signer },
    )
    made = { api, itemId: item.id, beneficiary }
  })

  const inputOf = () => {
    const stored = made.api.completed.get(made.itemId)!
    return {
      signingPublicKey: vault.publicKey,
      manifest: made.api.manifests.get(made.itemId)!,
      signature: stored.body.manifestSignature,
      owner: vault.ownerId,
      item: made.itemId,
      ciphertext: stored.content,
      chunkBytes: CHUNK,
      encryptedMetadata: stored.body.encryptedMetadata,
    }
  }

  it('verifies: signature, form, ids, every chunk and the metadata, and names the heir’s grant', () => {
    const input = inputOf()
    expect(contentDigest(input.ciphertext, CHUNK).chunks).toBeGreaterThan(1)
    const verdict = checkItem(input)
    expect(verdict.ok).toBe(true)
    const grant = made.api.completed.get(made.itemId)!.body.grants[0]!
    expect(verdict.ok && verdict.facts.grants).toEqual([{ beneficiary: made.beneficiary, keyVersion: 1, wrappedKeyDigest: wrappedKeyDigest(grant.wrappedKey) }])
  })

  it('refuses a changed chunk, other metadata, another owner’s key, another item, or a manifest not in the exact form', async () => {
    const input = inputOf()
    const flipped = new Uint8Array(input.ciphertext)
    flipped[CHUNK + 40] = flipped[CHUNK + 40]! ^ 1
    expect(checkItem({ ...input, ciphertext: flipped })).toEqual({ ok: false, why: 'content' })
    expect(checkItem({ ...input, ciphertext: input.ciphertext.subarray(0, CHUNK + 29) })).toEqual({ ok: false, why: 'content' })
    expect(checkItem({ ...input, encryptedMetadata: Buffer.from('other').toString('base64') })).toEqual({ ok: false, why: 'metadata' })
    expect(checkItem({ ...input, signingPublicKey: (await testVault()).publicKey })).toEqual({ ok: false, why: 'signature' })
    expect(checkItem({ ...input, item: '00000000-0000-4000-8000-000000000000' })).toEqual({ ok: false, why: 'ids' })
    const loose = `${input.manifest}\n`
    expect(checkItem({ ...input, manifest: loose, signature: await vault.signer.signText(loose) })).toEqual({ ok: false, why: 'form' })
  })

  it('is written with node:crypto alone', () => {
    const source = readFileSync(new URL('./independent-manifest-check.ts', import.meta.url), 'utf8')
    expect([...source.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['node:crypto'])
  })
})
