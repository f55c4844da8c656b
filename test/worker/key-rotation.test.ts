import { describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES, type Beneficiary } from '../../contract/circle'
import { partSize, type UploadSession } from '../../contract/vault-items'
import { addBeneficiary, call, messageOf, register, rsaOaepPublicKey } from './helpers'
import { completeRaw } from './vault-helpers'
import { ownerRows } from './owner-helpers'
import { signedRotation } from './vault-signing'

const b64 = (s: string) => btoa(s)

async function itemFor(token: string, beneficiaryId: string): Promise<string> {
  const session = (await (await call('/api/vault/uploads', { token, body: { type: 'doc', plainSize: 3 } })).json()) as UploadSession
  await call(`/api/vault/uploads/${session.itemId}/parts/1`, {
    method: 'PUT',
    token,
    headers: { 'content-type': 'application/octet-stream' },
    rawBody: new Uint8Array(partSize(1, 3)) as unknown as string,
  })
  const res = await completeRaw(token, session.itemId, { encryptedMetadata: b64('m'), wrappedKey: b64('k'), policy: {}, grants: [{ beneficiaryId, wrappedKey: b64('old') }] })
  expect(res.status).toBe(201)
  return session.itemId
}

async function grantsOf(ownerId: string, beneficiaryId: string) {
  return ownerRows<{ item_id: string; wrapped_key: string; key_version: number }>(
    ownerId,
    'SELECT item_id, wrapped_key, key_version FROM item_grants WHERE beneficiary_id = ? ORDER BY item_id',
    beneficiaryId,
  )
}

/** POST …/rotate-key, the new key signed by the owner's vault at the next version (unless the body signs). */
async function rotateKey(token: string, id: string, body: Record<string, unknown>) {
  return call(`/api/beneficiaries/${id}/rotate-key`, { token, body: await signedRotation(token, id, body) })
}

describe('beneficiary key rotation', () => {
  it('replaces the key and every grant at once, or nothing', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const items = [await itemFor(owner.token, beneficiary.id), await itemFor(owner.token, beneficiary.id)].sort()
    const newKey = await rsaOaepPublicKey()

    const partial = await rotateKey(owner.token, beneficiary.id, { publicKey: newKey, grants: [{ itemId: items[0], wrappedKey: b64('new0') }] })
    expect(partial.status).toBe(409)
    expect(await messageOf(partial)).toBe(CIRCLE_MESSAGES.rotationIncomplete)
    expect((await grantsOf(owner.user.id, beneficiary.id)).map((g) => g.wrapped_key)).toEqual([b64('old'), b64('old')])

    const withPrivate = await rotateKey(owner.token, beneficiary.id, { publicKey: newKey, privateKey: 'x', grants: items.map((itemId) => ({ itemId, wrappedKey: b64('n') })) })
    expect(withPrivate.status).toBe(400)

    const res = await rotateKey(owner.token, beneficiary.id, { publicKey: newKey, grants: items.map((itemId, i) => ({ itemId, wrappedKey: b64(`new${i}`) })) })
    expect(res.status).toBe(200)
    const rotated = (await res.json()) as Beneficiary
    expect(rotated.keyVersion).toBe(2)
    expect(rotated.publicKey).toBe(newKey)
    expect(rotated.publicKeyFingerprint).not.toBe(beneficiary.publicKeyFingerprint)
    expect(await grantsOf(owner.user.id, beneficiary.id)).toEqual(
      items.map((item_id, i) => ({ item_id, wrapped_key: b64(`new${i}`), key_version: 2 })),
    )

    const stranger = await register()
    const foreign = await rotateKey(stranger.token, beneficiary.id, { publicKey: newKey, grants: [] })
    expect(foreign.status).toBe(404)
  })

  it('is refused when its grants name as many items as the heir holds but not the same ones, and nothing changes', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const other = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const items = [await itemFor(owner.token, beneficiary.id), await itemFor(owner.token, beneficiary.id)].sort()
    // An item of the owner's that this heir is not granted, in place of one they are.
    const elsewhere = await itemFor(owner.token, other.id)
    const swapped = [items[0]!, elsewhere].map((itemId, i) => ({ itemId, wrappedKey: b64(`new${i}`) }))
    const res = await rotateKey(owner.token, beneficiary.id, { publicKey: await rsaOaepPublicKey(), grants: swapped })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.rotationIncomplete)
    expect(await grantsOf(owner.user.id, beneficiary.id)).toEqual(items.map((item_id) => ({ item_id, wrapped_key: b64('old'), key_version: 1 })))
    expect(await grantsOf(owner.user.id, other.id)).toEqual([{ item_id: elsewhere, wrapped_key: b64('old'), key_version: 1 }])
  })

  it('lets only one of two concurrent rotations of the same key win', async () => {
    const owner = await register()
    const beneficiary = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const item = await itemFor(owner.token, beneficiary.id)
    const [a, b] = [await rsaOaepPublicKey(), await rsaOaepPublicKey()]
    const results = await Promise.all(
      [a, b].map((publicKey, i) =>
        rotateKey(owner.token, beneficiary.id, { publicKey, replacesKeyVersion: 1, grants: [{ itemId: item, wrappedKey: b64(`k${i}`) }] }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    expect(await messageOf(results.find((r) => r.status === 409)!)).toBe(CIRCLE_MESSAGES.keyChangedMeanwhile)
    const winner = results.findIndex((r) => r.status === 200)
    const [grant] = await grantsOf(owner.user.id, beneficiary.id)
    expect(grant).toEqual({ item_id: item, wrapped_key: b64(`k${winner}`), key_version: 2 })
  })
})
