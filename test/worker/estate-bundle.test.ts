import { describe, expect, it } from 'vitest'
import type { EstateItem } from '../../contract/estate-bundle'
import { addBeneficiary, call, register } from './helpers'
import { grantRows, itemRow, ownerWithBeneficiary, publicKey, uploadItem } from './vault-helpers'

// The estate bundle (0.3 · 5 of 7, item 4b) is packed in the owner's browser from GET /api/vault/estate:
// each item's seal and every grant of it, exactly as stored; never another owner's.

const estate = async (token: string | undefined) => call('/api/vault/estate', { token })

describe('GET /api/vault/estate', () => {
  it('lists every item with its manifest, signature and each grant as stored', async () => {
    const { token, ownerId, beneficiary } = await ownerWithBeneficiary()
    const { item: granted } = await uploadItem(token, [beneficiary.id], 300)
    const other = await addBeneficiary(token, await publicKey())
    const { item: kept } = await uploadItem(token, [other.id], 50)
    const res = await estate(token)
    expect(res.status).toBe(200)
    const items = (await res.json()) as EstateItem[]
    expect(items.map((i) => i.id).sort()).toEqual([granted.id, kept.id].sort())
    const row = (await itemRow(ownerId, granted.id)) as unknown as Record<string, unknown>
    const [grant] = await grantRows(ownerId, granted.id)
    const listed = items.find((i) => i.id === granted.id)!
    expect(listed).toMatchObject({
      type: 'doc',
      plainSize: 300,
      cipherSize: row.cipher_size,
      chunkBytes: row.chunk_bytes,
      encryptedMetadata: row.encrypted_metadata,
      manifest: row.manifest,
      manifestSignature: row.manifest_signature,
    })
    expect(listed.manifest).toContain(`item ${granted.id}`)
    expect(listed.grants).toEqual([{ beneficiaryId: beneficiary.id, keyVersion: grant!.key_version, wrappedKey: grant!.wrapped_key }])
    expect(items.find((i) => i.id === kept.id)!.grants.map((g) => g.beneficiaryId)).toEqual([other.id])
  })

  it('shows another owner nothing of this vault, and a caller without a session 401', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    await uploadItem(token, [beneficiary.id], 10)
    const other = await register()
    const res = await estate(other.token)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual([])
    expect((await estate(undefined)).status).toBe(401)
  })
})
