import { runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES, ROTATION_PAGE_SIZE, type Beneficiary, type RotationStarted } from '../../contract/circle'
import { DAY_MS } from '../../contract/constants'
import { addBeneficiary, call, messageOf, register, rsaOaepPublicKey } from './helpers'
import { ownerExec, ownerRow, ownerRows, vaultOf } from './owner-helpers'
import { grantsSignatureFor, ownerIdOf, signedRotation, statedBy, WELL_FORMED_SIGNATURE } from './vault-signing'

// A lost kit replaced for a beneficiary with many items (0.2 · 4 of 7, point 2): the re-wrapped
// grants go up in pages within the body limits, and the switch to the new key is one transaction
// at the end; until then the old key and grants stay in force.

const N = 1000
/** A real grant's size: a 256-byte RSA-OAEP ciphertext is 344 characters of base64. */
const grantFor = (i: number, tag: string) => btoa(`${tag}:${i}:`.padEnd(256, '.'))

/** An owner and a beneficiary with `n` items granted to them, seeded in the owner's database. */
async function heirWithItems(n: number) {
  const owner = await register()
  const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
  const itemIds = Array.from({ length: n }, () => crypto.randomUUID())
  const now = Date.now()
  const statements: Array<[string, ...unknown[]]> = []
  for (const [i, id] of itemIds.entries()) {
    statements.push(
      [`insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, created_at, completed_at) values (?, 'doc', 'active', 1, 30, 8388608, 1, ?, ?, ?)`, id, `items/${owner.user.id}/${id}`, now, now],
      ['insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, ?, 1, 1, ?)', id, heir.id, grantFor(i, 'old'), now],
    )
  }
  for (let i = 0; i < statements.length; i += 200) await ownerExec(owner.user.id, ...statements.slice(i, i + 200))
  return { owner, heir, itemIds }
}

async function start(token: string, heir: Beneficiary, publicKey: string, replacesKeyVersion = heir.keyVersion) {
  const stated = await statedBy(token, { beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email, keyVersion: replacesKeyVersion + 1, publicKey })
  return call(`/api/beneficiaries/${heir.id}/rotations`, { token, body: { publicKey, ...stated, replacesKeyVersion } })
}

async function sendPages(token: string, heirId: string, rotationId: string, itemIds: string[], tag = 'new') {
  let received = 0
  for (let i = 0; i < itemIds.length; i += ROTATION_PAGE_SIZE) {
    const grants = itemIds.slice(i, i + ROTATION_PAGE_SIZE).map((itemId) => ({ itemId, wrappedKey: grantFor(itemIds.indexOf(itemId), tag) }))
    const res = await call(`/api/beneficiaries/${heirId}/rotations/${rotationId}/grants`, { method: 'PUT', token, body: { grants } })
    expect(res.status).toBe(200)
    received = ((await res.json()) as { received: number }).received
  }
  return received
}

/** The vault's signature over every grant staged for the rotation, as the owner's browser signs what it sent. */
async function stagedSignature(token: string, heirId: string, rotationId: string): Promise<string> {
  const ownerId = ownerIdOf(token)
  const version = await ownerRow<{ key_version: number }>(ownerId, 'select key_version from key_rotations where id = ?', rotationId)
  const staged = await ownerRows<{ item_id: string; wrapped_key: string }>(ownerId, 'select item_id, wrapped_key from rotation_grants where rotation_id = ?', rotationId)
  return grantsSignatureFor(token, staged.map((g) => ({ itemId: g.item_id, wrappedKey: g.wrapped_key, beneficiaryId: heirId, keyVersion: version?.key_version ?? 2 })))
}

const commit = async (token: string, heirId: string, rotationId: string, grantsSignature?: string) =>
  call(`/api/beneficiaries/${heirId}/rotations/${rotationId}/commit`, { token, body: { grantsSignature: grantsSignature ?? (await stagedSignature(token, heirId, rotationId)) } })

async function grantState(ownerId: string, heirId: string) {
  return (await ownerRow<{ n: number; old: number; v2: number }>(
    ownerId,
    `select count(*) as n, sum(case when wrapped_key like ? then 1 else 0 end) as old, sum(case when key_version = 2 then 1 else 0 end) as v2 from item_grants where beneficiary_id = ?`,
    `${btoa('old:').slice(0, 4)}%`,
    heirId,
  ))!
}

describe('a key rotation in pages', () => {
  it(`replaces the key of a beneficiary with ${N} items: grants in pages, one switch at the end`, async () => {
    const { owner, heir, itemIds } = await heirWithItems(N)
    const fresh = await rsaOaepPublicKey()
    const started = await start(owner.token, heir, fresh)
    expect(started.status).toBe(201)
    const { rotationId, grantedItems } = (await started.json()) as RotationStarted
    expect(grantedItems).toBe(N)
    expect(await sendPages(owner.token, heir.id, rotationId, itemIds)).toBe(N)
    // Nothing has changed yet: the old key and every old grant are in force.
    expect((await ownerRow<{ public_key: string; key_version: number }>(owner.user.id, 'select public_key, key_version from beneficiaries where id = ?', heir.id))).toEqual({ public_key: heir.publicKey, key_version: 1 })
    expect(await grantState(owner.user.id, heir.id)).toEqual({ n: N, old: N, v2: 0 })

    const done = await commit(owner.token, heir.id, rotationId)
    expect(done.status).toBe(200)
    expect((await done.json()) as Beneficiary).toMatchObject({ publicKey: fresh, keyVersion: 2 })
    expect(await grantState(owner.user.id, heir.id)).toEqual({ n: N, old: 0, v2: N })
    const sample = await ownerRow<{ wrapped_key: string }>(owner.user.id, 'select wrapped_key from item_grants where item_id = ? and beneficiary_id = ?', itemIds[517], heir.id)
    expect(sample!.wrapped_key).toBe(grantFor(517, 'new'))
    expect(await ownerRows(owner.user.id, 'select * from key_rotations')).toEqual([])
    expect(await ownerRows(owner.user.id, 'select * from rotation_grants')).toEqual([])
    // Spent: committing again finds nothing.
    expect((await commit(owner.token, heir.id, rotationId)).status).toBe(404)
  })

  it('refuses to switch while any granted item lacks its new grant, and switches once it is sent', async () => {
    const { owner, heir, itemIds } = await heirWithItems(40)
    const { rotationId } = (await (await start(owner.token, heir, await rsaOaepPublicKey())).json()) as RotationStarted
    await sendPages(owner.token, heir.id, rotationId, itemIds.slice(0, 39))
    const short = await commit(owner.token, heir.id, rotationId)
    expect(short.status).toBe(409)
    expect(await messageOf(short)).toBe(CIRCLE_MESSAGES.rotationIncomplete)
    expect(await grantState(owner.user.id, heir.id)).toEqual({ n: 40, old: 40, v2: 0 })
    await sendPages(owner.token, heir.id, rotationId, itemIds.slice(39))
    expect((await commit(owner.token, heir.id, rotationId)).status).toBe(200)
  })

  it('is overtaken by another change of the key, and refuses a stale or unsigned start', async () => {
    const { owner, heir, itemIds } = await heirWithItems(3)
    const { rotationId } = (await (await start(owner.token, heir, await rsaOaepPublicKey())).json()) as RotationStarted
    await sendPages(owner.token, heir.id, rotationId, itemIds)
    // Another tab replaced the key in one request meanwhile.
    const other = await rsaOaepPublicKey()
    const quick = await call(`/api/beneficiaries/${heir.id}/rotate-key`, {
      token: owner.token,
      body: await signedRotation(owner.token, heir.id, { publicKey: other, grants: itemIds.map((itemId, i) => ({ itemId, wrappedKey: grantFor(i, 'other') })) }),
    })
    expect(quick.status).toBe(200)
    const late = await commit(owner.token, heir.id, rotationId)
    expect(late.status).toBe(409)
    expect(await messageOf(late)).toBe(CIRCLE_MESSAGES.keyChangedMeanwhile)
    expect((await ownerRow<{ public_key: string }>(owner.user.id, 'select public_key from beneficiaries where id = ?', heir.id))!.public_key).toBe(other)

    const stale = await start(owner.token, heir, await rsaOaepPublicKey(), 1)
    expect(stale.status).toBe(409)
    const unsigned = await call(`/api/beneficiaries/${heir.id}/rotations`, { token: owner.token, body: { publicKey: await rsaOaepPublicKey(), replacesKeyVersion: 2 } })
    expect(unsigned.status).toBe(400)
  })

  it('is swept when left for a day, and is nobody else’s to touch', async () => {
    const { owner, heir, itemIds } = await heirWithItems(2)
    const { rotationId } = (await (await start(owner.token, heir, await rsaOaepPublicKey())).json()) as RotationStarted
    const stranger = await register()
    const page = { grants: [{ itemId: itemIds[0], wrappedKey: grantFor(0, 'x') }] }
    expect((await call(`/api/beneficiaries/${heir.id}/rotations/${rotationId}/grants`, { method: 'PUT', token: stranger.token, body: page })).status).toBe(404)
    expect((await commit(stranger.token, heir.id, rotationId)).status).toBe(404)
    expect((await call(`/api/beneficiaries/${heir.id}/rotations`, { token: stranger.token, body: { publicKey: await rsaOaepPublicKey(), keySignature: WELL_FORMED_SIGNATURE, statementSequence: 1, replacesKeyVersion: 1 } })).status).toBe(404)

    await sendPages(owner.token, heir.id, rotationId, itemIds)
    await ownerExec(owner.user.id, ['update key_rotations set created_at = ?', Date.now() - DAY_MS - 60_000])
    expect(await runDurableObjectAlarm(vaultOf(owner.user.id))).toBe(true)
    expect(await ownerRows(owner.user.id, 'select * from key_rotations')).toEqual([])
    expect(await ownerRows(owner.user.id, 'select * from rotation_grants')).toEqual([])
    expect((await commit(owner.token, heir.id, rotationId)).status).toBe(404)
    expect(await grantState(owner.user.id, heir.id)).toEqual({ n: 2, old: 2, v2: 0 })
  })
})
