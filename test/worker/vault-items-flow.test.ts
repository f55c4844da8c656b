import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { cipherSize, partCount, partSize, type UploadSession, type VaultItem } from '../../contract/vault-items'
import { addBeneficiary, call, register, rsaOaepPublicKey } from './helpers'
import { completeRaw } from './vault-helpers'

const b64 = (s: string) => btoa(s)

async function putPart(token: string, itemId: string, n: number, size: number, fill = n) {
  return call(`/api/vault/uploads/${itemId}/parts/${n}`, {
    method: 'PUT',
    token,
    headers: { 'content-type': 'application/octet-stream' },
    rawBody: new Uint8Array(size).fill(fill) as unknown as string,
  })
}

describe('an upload, start to finish', () => {
  it('stores parts in any order, completes, counts, lists, serves and deletes', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const plainSize = 9 * 1024 * 1024 + 5 // two parts
    const start = await call('/api/vault/uploads', { token: owner.token, body: { type: 'doc', plainSize } })
    expect(start.status).toBe(201)
    const session = (await start.json()) as UploadSession
    expect(session.partCount).toBe(partCount(plainSize))
    expect(session.cipherSize).toBe(cipherSize(plainSize))

    expect((await putPart(owner.token, session.itemId, 2, partSize(2, plainSize))).status).toBe(200)
    expect((await putPart(owner.token, session.itemId, 1, 100)).status).toBe(400) // wrong size
    const early = await completeRaw(owner.token, session.itemId, { encryptedMetadata: b64('meta'), wrappedKey: b64('key'), policy: {}, grants: [{ beneficiaryId: beneficiary.id, wrappedKey: b64('g') }] })
    expect(early.status).toBe(400)
    expect((await putPart(owner.token, session.itemId, 1, partSize(1, plainSize))).status).toBe(200)
    const resumed = (await (await call(`/api/vault/uploads/${session.itemId}`, { token: owner.token })).json()) as UploadSession
    expect(resumed.uploadedParts).toEqual([1, 2])

    const done = await completeRaw(owner.token, session.itemId, { encryptedMetadata: b64('meta'), wrappedKey: b64('key'), policy: {}, grants: [{ beneficiaryId: beneficiary.id, wrappedKey: b64('g') }] })
    expect(done.status).toBe(201)
    const item = (await done.json()) as VaultItem
    expect(item.accessPolicy).toMatchObject({ name: 'Verified Death', protocol: 'VERIFIED_DEATH', requiresApprover: false })
    expect(item.beneficiaryIds).toEqual([beneficiary.id])

    const me = (await (await call('/api/auth/me', { token: owner.token })).json()) as { user: { storageUsed: number; vaultItemCount: number } }
    expect(me.user).toMatchObject({ storageUsed: cipherSize(plainSize), vaultItemCount: 1 })

    const list = (await (await call('/api/vault/items', { token: owner.token })).json()) as VaultItem[]
    expect(list.map((i) => i.id)).toEqual([item.id])
    expect(list[0]!.beneficiaryIds).toEqual([beneficiary.id]) // read back from item_grants
    const content = await call(`/api/vault/items/${item.id}/content`, { token: owner.token })
    const bytes = new Uint8Array(await content.arrayBuffer())
    expect(bytes.length).toBe(cipherSize(plainSize))
    expect(bytes[0]).toBe(1)
    expect(bytes[bytes.length - 1]).toBe(2)

    const other = await register()
    expect((await call(`/api/vault/items/${item.id}/content`, { token: other.token })).status).toBe(404)
    expect((await call(`/api/vault/items/${item.id}`, { method: 'DELETE', token: other.token })).status).toBe(404)

    expect((await call(`/api/vault/items/${item.id}`, { method: 'DELETE', token: owner.token })).status).toBe(200)
    const after = (await (await call('/api/auth/me', { token: owner.token })).json()) as { user: { storageUsed: number; vaultItemCount: number } }
    expect(after.user).toMatchObject({ storageUsed: 0, vaultItemCount: 0 })
    expect(await env.BLOBS.get(`items/${owner.user.id}/${item.id}`)).toBeNull()
  })
})

describe('a scheduled release', () => {
  it('must be in the future', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const session = (await (await call('/api/vault/uploads', { token: owner.token, body: { type: 'doc', plainSize: 1 } })).json()) as UploadSession
    await putPart(owner.token, session.itemId, 1, partSize(1, 1))
    const body = (scheduledAt: string) => ({
      encryptedMetadata: b64('m'),
      wrappedKey: b64('k'),
      policy: { protocol: 'SCHEDULED', scheduledAt },
      grants: [{ beneficiaryId: beneficiary.id, wrappedKey: b64('g') }],
    })
    const past = await completeRaw(owner.token, session.itemId, body('2020-01-01T00:00:00Z'))
    expect(past.status).toBe(400)
    expect(await past.text()).toContain('Schedule date must be in the future')
    const future = await completeRaw(owner.token, session.itemId, body('2099-01-01T00:00:00Z'))
    expect(future.status).toBe(201)
  })
})
