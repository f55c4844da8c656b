import { describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES, type Beneficiary, type RotationStarted } from '../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { addBeneficiary, call, messageOf, outboxFor, postBeneficiary, register, rsaOaepPublicKey, uniqueEmail } from './helpers'
import { ownerExec, ownerRow, ownerRows, ownerState } from './owner-helpers'
import { grantsSignatureFor, signedRotation, signedUpdate, statedBy, statementSignatureFor, WELL_FORMED_SIGNATURE } from './vault-signing'

// Beneficiary statements only move forward (0.3 · 3 of 7, point 3), and a rotation's grants are the
// vault's (point 4). Each attack of the outside pass, replayed with a session token alone: the vault's
// signatures it holds are ones the owner's browser made earlier (they pass over the wire, so a
// session's holder, or the server, can keep them). Each is refused and nothing changes.

const b64 = (s: string) => btoa(s)
type Row = Record<string, unknown>

async function heirRow(ownerId: string, id: string) {
  return ownerRow<Row>(ownerId, 'select full_name, relationship, email, public_key, key_version, key_signature, statement_sequence, kit_has_vault_fingerprint from beneficiaries where id = ?', id)
}

const list = async (token: string) => (await (await call('/api/beneficiaries', { token })).json()) as Beneficiary[]

/** The highest sequence the owner's object accepted. */
const highest = (ownerId: string) => ownerState<number>(ownerId, 'statementSequence')

/** Items granted to `heirId`, seeded in the owner's database. */
async function seedGrants(ownerId: string, heirId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => crypto.randomUUID())
  const now = Date.now()
  await ownerExec(
    ownerId,
    ...ids.flatMap((id): Array<[string, ...unknown[]]> => [
      [`insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, created_at, completed_at) values (?, 'doc', 'active', 1, 30, 8388608, 1, ?, ?, ?)`, id, `items/${ownerId}/${id}`, now, now],
      ['insert into item_grants (item_id, beneficiary_id, wrapped_key, key_version, direct, created_at) values (?, ?, ?, 1, 1, ?)', id, heirId, b64(`old ${id}`), now],
    ]),
  )
  return ids
}

describe('a retired statement never comes back', () => {
  it('refuses a deleted beneficiary added again with their old key and its old statement (409), and stores nothing', async () => {
    const owner = await register()
    // The body the owner's browser sent when it added them, as a session's holder could have kept it.
    const id = crypto.randomUUID()
    const oldKey = await rsaOaepPublicKey()
    const email = uniqueEmail('heir')
    const stated = await statedBy(owner.token, { beneficiaryId: id, fullName: 'Bea Heir', relationship: 'Daughter', email, keyVersion: 1, publicKey: oldKey })
    const original = { id, fullName: 'Bea Heir', relationship: 'Daughter', email, publicKey: oldKey, ...stated }
    expect((await call('/api/beneficiaries', { token: owner.token, body: original })).status).toBe(201)
    // The kit was lost: the owner replaced the key (version 2).
    const rotated = await call(`/api/beneficiaries/${id}/rotate-key`, { token: owner.token, body: await signedRotation(owner.token, id, { publicKey: await rsaOaepPublicKey(), grants: [] }) })
    expect(rotated.status).toBe(200)
    const newest = (await highest(owner.user.id))!

    // The session deletes them and adds them again with the retired key and its statement.
    expect((await call(`/api/beneficiaries/${id}`, { token: owner.token, method: 'DELETE' })).status).toBe(200)
    const again = await call('/api/beneficiaries', { token: owner.token, body: original })
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ message: KEY_SIGNING_MESSAGES.statementOutdated, statementSequence: newest })
    // Nor under a new id, or at a higher sequence: the statement names the id and the sequence.
    for (const body of [{ ...original, id: crypto.randomUUID() }, { ...original, statementSequence: newest + 1 }]) {
      const res = await call('/api/beneficiaries', { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe(`keySignature: ${KEY_SIGNING_MESSAGES.signatureInvalid}`)
    }
    expect(await list(owner.token)).toEqual([])
    expect(await highest(owner.user.id)).toBe(newest)
  })

  it('refuses an earlier address replayed (409): the address, its verification and the mail stay as they are', async () => {
    const owner = await register()
    const first = uniqueEmail('first')
    const id = crypto.randomUUID()
    const key = await rsaOaepPublicKey()
    const stated = await statedBy(owner.token, { beneficiaryId: id, fullName: 'Ben Heir', relationship: 'Son', email: first, keyVersion: 1, publicKey: key })
    expect((await call('/api/beneficiaries', { token: owner.token, body: { id, fullName: 'Ben Heir', relationship: 'Son', email: first, publicKey: key, ...stated } })).status).toBe(201)
    const second = uniqueEmail('second')
    const moved = await call(`/api/beneficiaries/${id}`, { method: 'PUT', token: owner.token, body: await signedUpdate(owner.token, id, { email: second }) })
    expect(moved.status).toBe(200)
    const before = await heirRow(owner.user.id, id)
    const mailToFirst = (await outboxFor(first)).length

    // The statement of the first address is over exactly the row a move back would make.
    const back = await call(`/api/beneficiaries/${id}`, { method: 'PUT', token: owner.token, body: { email: first, ...stated } })
    expect(back.status).toBe(409)
    expect(((await back.json()) as { statementSequence: number }).statementSequence).toBe(await highest(owner.user.id))
    expect(await heirRow(owner.user.id, id)).toEqual(before)
    expect((await outboxFor(first)).length).toBe(mailToFirst)
  })

  it('refuses a name swap: unsigned, or with the other person’s statement (400), and nothing changes', async () => {
    const owner = await register()
    const alice = await addBeneficiary(owner.token, await rsaOaepPublicKey(), { fullName: 'Alice Heir', relationship: 'Daughter' })
    const bob = await addBeneficiary(owner.token, await rsaOaepPublicKey(), { fullName: 'Bob Heir', relationship: 'Son' })
    const before = await ownerRows(owner.user.id, 'select * from beneficiaries order by id')
    const refused = `keySignature: ${KEY_SIGNING_MESSAGES.signatureInvalid}`
    const put = (id: string, body: Record<string, unknown>) => call(`/api/beneficiaries/${id}`, { method: 'PUT', token: owner.token, body })

    for (const body of [{ fullName: 'Bob Heir' }, { relationship: 'Son' }, { fullName: 'Bob Heir', relationship: 'Son' }]) {
      const res = await put(alice.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await messageOf(res)).toBe(refused)
    }
    // Bob's statement, as the list shows it, says "Bob Heir" — for Bob's id and key, not Alice's.
    const withBobs = await put(alice.id, { fullName: bob.fullName, relationship: bob.relationship, keySignature: bob.keySignature, statementSequence: bob.statementSequence })
    expect(withBobs.status).toBe(400)
    expect(await messageOf(withBobs)).toBe(refused)
    // A statement without its sequence (or the other way round) is not even read.
    expect((await put(alice.id, { fullName: 'Bob Heir', keySignature: bob.keySignature })).status).toBe(400)
    expect(await ownerRows(owner.user.id, 'select * from beneficiaries order by id')).toEqual(before)
  })
})

describe('the sequence only grows', () => {
  it('refuses a statement at the highest sequence taken, names the highest, and takes the same change signed above it', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const top = (await highest(owner.user.id))!
    expect(heir.statementSequence).toBe(top)
    const fields = { beneficiaryId: heir.id, fullName: 'Bea Renamed', relationship: heir.relationship, email: heir.email, keyVersion: 1, publicKey: heir.publicKey }
    const atTop = await call(`/api/beneficiaries/${heir.id}`, {
      method: 'PUT',
      token: owner.token,
      body: { fullName: 'Bea Renamed', keySignature: await statementSignatureFor(owner.token, { ...fields, sequence: top }), statementSequence: top },
    })
    expect(atTop.status).toBe(409)
    expect(await atTop.json()).toEqual({ message: KEY_SIGNING_MESSAGES.statementOutdated, statementSequence: top })
    expect((await heirRow(owner.user.id, heir.id))!.full_name).toBe('Bea Beneficiary')
    // What the browser does with the answer: sign once more, above it.
    const above = await call(`/api/beneficiaries/${heir.id}`, {
      method: 'PUT',
      token: owner.token,
      body: { fullName: 'Bea Renamed', keySignature: await statementSignatureFor(owner.token, { ...fields, sequence: top + 1 }), statementSequence: top + 1 },
    })
    expect(above.status).toBe(200)
    expect((await above.json()) as Beneficiary).toMatchObject({ fullName: 'Bea Renamed', statementSequence: top + 1 })
    expect(await highest(owner.user.id)).toBe(top + 1)
  })

  it('keeps each write’s sequence on its row, the kit flag on new keys only, and needs no statement for the notification switches', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    expect(await heirRow(owner.user.id, heir.id)).toMatchObject({ statement_sequence: heir.statementSequence, kit_has_vault_fingerprint: 1 })
    // A row from before 0.3: a v1 statement and a kit without the vault's fingerprint.
    await ownerExec(owner.user.id, ['update beneficiaries set statement_sequence = null, kit_has_vault_fingerprint = 0 where id = ?', heir.id])

    const quiet = await call(`/api/beneficiaries/${heir.id}`, { method: 'PUT', token: owner.token, body: { delayNotifications: true, sendAssetNotifications: false } })
    expect(quiet.status).toBe(200)
    expect(await heirRow(owner.user.id, heir.id)).toMatchObject({ statement_sequence: null, kit_has_vault_fingerprint: 0 })

    // Restated as v2 (the browser does this at unlock): same kit, so the flag stays.
    const restate = await statedBy(owner.token, { beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email, keyVersion: 1, publicKey: heir.publicKey })
    expect((await call(`/api/beneficiaries/${heir.id}/key-signature`, { token: owner.token, body: restate })).status).toBe(200)
    expect(await heirRow(owner.user.id, heir.id)).toMatchObject({ statement_sequence: restate.statementSequence, key_signature: restate.keySignature, kit_has_vault_fingerprint: 0 })

    const renamed = await call(`/api/beneficiaries/${heir.id}`, { method: 'PUT', token: owner.token, body: await signedUpdate(owner.token, heir.id, { fullName: 'Bea Renamed', email: uniqueEmail('moved') }) })
    expect(renamed.status).toBe(200)
    const afterRename = (await heirRow(owner.user.id, heir.id))!
    expect(afterRename.statement_sequence).toBeGreaterThan(restate.statementSequence)
    expect(afterRename.kit_has_vault_fingerprint).toBe(0)

    const rotated = await call(`/api/beneficiaries/${heir.id}/rotate-key`, { token: owner.token, body: await signedRotation(owner.token, heir.id, { publicKey: await rsaOaepPublicKey(), grants: [] }) })
    expect(rotated.status).toBe(200)
    expect((await rotated.json()) as Beneficiary).toMatchObject({ keyVersion: 2, kitHasVaultFingerprint: true, statementSequence: (afterRename.statement_sequence as number) + 1 })
  })

  it('refuses an id already taken (409)', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const taken = await postBeneficiary(owner.token, await rsaOaepPublicKey(), { id: heir.id })
    expect(taken.status).toBe(409)
    expect(await messageOf(taken)).toBe(CIRCLE_MESSAGES.beneficiaryIdTaken)
    expect(await list(owner.token)).toHaveLength(1)
  })
})

describe('a rotation’s grant set is the vault’s', () => {
  async function stagedRotation(n: number) {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const items = await seedGrants(owner.user.id, heir.id, n)
    const publicKey = await rsaOaepPublicKey()
    const stated = await statedBy(owner.token, { beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email, keyVersion: 2, publicKey })
    const started = await call(`/api/beneficiaries/${heir.id}/rotations`, { token: owner.token, body: { publicKey, ...stated, replacesKeyVersion: 1 } })
    expect(started.status).toBe(201)
    const { rotationId } = (await started.json()) as RotationStarted
    const base = `/api/beneficiaries/${heir.id}/rotations/${rotationId}`
    const real = items.map((itemId) => ({ itemId, wrappedKey: b64(`new ${itemId}`) }))
    expect((await call(`${base}/grants`, { method: 'PUT', token: owner.token, body: { grants: real } })).status).toBe(200)
    // What the owner's browser signs at commit: what it sent, each at the new version.
    const signature = await grantsSignatureFor(owner.token, real.map((g) => ({ ...g, beneficiaryId: heir.id, keyVersion: 2 })))
    return { owner, heir, items, base, real, signature, rotationId }
  }

  const grantsOf = (ownerId: string, heirId: string) => ownerRows(ownerId, 'select item_id, wrapped_key, key_version from item_grants where beneficiary_id = ? order by item_id', heirId)

  it('refuses a commit whose staged grants were replaced by garbage (400 naming grantsSignature), signed over the real set or not at all', async () => {
    const { owner, heir, items, base, real, signature } = await stagedRotation(3)
    const grantsBefore = await grantsOf(owner.user.id, heir.id)
    const rowBefore = await heirRow(owner.user.id, heir.id)
    // The session replaces what was staged: the heir would lose access.
    const garbage = items.map((itemId) => ({ itemId, wrappedKey: b64('garbage') }))
    expect((await call(`${base}/grants`, { method: 'PUT', token: owner.token, body: { grants: garbage } })).status).toBe(200)

    const signedReal = await call(`${base}/commit`, { token: owner.token, body: { grantsSignature: signature } })
    expect(signedReal.status).toBe(400)
    expect(await messageOf(signedReal)).toBe(`grantsSignature: ${KEY_SIGNING_MESSAGES.grantsSignatureInvalid}`)
    for (const body of [{}, { grantsSignature: WELL_FORMED_SIGNATURE }]) {
      const res = await call(`${base}/commit`, { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toMatch(/^grantsSignature: /)
    }
    // One garbage grant among real ones is as bad.
    expect((await call(`${base}/grants`, { method: 'PUT', token: owner.token, body: { grants: [...real.slice(1), garbage[0]!] } })).status).toBe(200)
    expect((await call(`${base}/commit`, { token: owner.token, body: { grantsSignature: signature } })).status).toBe(400)
    expect(await grantsOf(owner.user.id, heir.id)).toEqual(grantsBefore)
    expect(await heirRow(owner.user.id, heir.id)).toEqual(rowBefore)

    // The owner's set, staged again, commits.
    expect((await call(`${base}/grants`, { method: 'PUT', token: owner.token, body: { grants: real } })).status).toBe(200)
    const done = await call(`${base}/commit`, { token: owner.token, body: { grantsSignature: signature } })
    expect(done.status).toBe(200)
    expect((await done.json()) as Beneficiary).toMatchObject({ keyVersion: 2, kitHasVaultFingerprint: true })
    expect(await grantsOf(owner.user.id, heir.id)).toEqual(real.map((g) => ({ item_id: g.itemId, wrapped_key: g.wrappedKey, key_version: 2 })).sort((a, b) => (a.item_id < b.item_id ? -1 : 1)))
  })

  it('refuses a commit once the row was restated after the rotation started (its statement would roll the row back)', async () => {
    const { owner, heir, base, signature } = await stagedRotation(1)
    const restate = await statedBy(owner.token, { beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email, keyVersion: 1, publicKey: heir.publicKey })
    expect((await call(`/api/beneficiaries/${heir.id}/key-signature`, { token: owner.token, body: restate })).status).toBe(200)
    const res = await call(`${base}/commit`, { token: owner.token, body: { grantsSignature: signature } })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.keyChangedMeanwhile)
    expect(await heirRow(owner.user.id, heir.id)).toMatchObject({ key_version: 1, statement_sequence: restate.statementSequence })
    // And stays refused: the rotation is overtaken for good (and swept after a day).
    expect((await call(`${base}/commit`, { token: owner.token, body: { grantsSignature: signature } })).status).toBe(409)
  })

  it('refuses a rotation in one request whose grants are not the ones the vault signed', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const [item] = await seedGrants(owner.user.id, heir.id, 1)
    const grantsBefore = await grantsOf(owner.user.id, heir.id)
    const body = await signedRotation(owner.token, heir.id, { publicKey: await rsaOaepPublicKey(), grants: [{ itemId: item, wrappedKey: b64('real') }] })
    const swapped = await call(`/api/beneficiaries/${heir.id}/rotate-key`, { token: owner.token, body: { ...body, grants: [{ itemId: item, wrappedKey: b64('garbage') }] } })
    expect(swapped.status).toBe(400)
    expect(await messageOf(swapped)).toBe(`grantsSignature: ${KEY_SIGNING_MESSAGES.grantsSignatureInvalid}`)
    const { grantsSignature: _dropped, ...unsigned } = body
    const missing = await call(`/api/beneficiaries/${heir.id}/rotate-key`, { token: owner.token, body: unsigned })
    expect(missing.status).toBe(400)
    expect(await messageOf(missing)).toMatch(/^grantsSignature: /)
    expect(await grantsOf(owner.user.id, heir.id)).toEqual(grantsBefore)
    expect((await call(`/api/beneficiaries/${heir.id}/rotate-key`, { token: owner.token, body })).status).toBe(200)
  })
})
