import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import type { OwnerVault } from '../../worker/host/vault-object'
import { addBeneficiary, call, messageOf, outboxFor, register, rsaOaepPublicKey, uniqueEmail, waitFor } from './helpers'
import { ownerExec, ownerRow, ownerRows, vaultOf } from './owner-helpers'
import { uploadItem } from './vault-helpers'
import { beneficiaryStatement } from '../../contract/vault-statements'
import {
  keySignatureFor,
  nextSequence,
  signedRotation,
  signedUpdate,
  signingKeyPair,
  signTextWith,
  signWith,
  statedBy,
  vaultSetupBody,
  vaultSigner,
  WELL_FORMED_SIGNATURE,
  WRAPPED_SIGNING_KEY_STANDIN,
  type StatedFields,
} from './vault-signing'

// Beneficiary keys that only the owner's vault can change (0.2 · 4 of 7, point 1). The attack an
// attack test of 0.1 found, replayed: a stolen session token (no passphrase) swaps an heir's key and
// address. Each key must carry the vault signing key's signature over the beneficiary statement
// (owner, sequence, id, name, relationship, e-mail, key version, key: contract/vault-statements.ts);
// the server checks it before it stores anything.

const b64 = (s: string) => btoa(s)
const refused = `keySignature: ${KEY_SIGNING_MESSAGES.signatureInvalid}`

/** A v2 statement signed by `privateKey` (the vault's, or an attacker's), for `ownerId`. */
const stateWith = (privateKey: CryptoKey, ownerId: string, fields: StatedFields) => signTextWith({ privateKey }, beneficiaryStatement({ ownerId, ...fields }))

async function itemFor(token: string, beneficiaryId: string): Promise<string> {
  return (await uploadItem(token, [beneficiaryId])).item.id
}

async function heirRow(ownerId: string, id: string) {
  return ownerRow<{ email: string; public_key: string; key_version: number; key_signature: string | null }>(ownerId, 'select email, public_key, key_version, key_signature from beneficiaries where id = ?', id)
}

describe('the stolen-session attack of 0.1, replayed', () => {
  it('a session token alone cannot swap an heir’s key or address: nothing changes, the grants stay', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const item = await itemFor(owner.token, heir.id)
    const before = await heirRow(owner.user.id, heir.id)
    const grantsBefore = await ownerRows(owner.user.id, 'select * from item_grants where beneficiary_id = ?', heir.id)

    // The attacker has the session token, not the passphrase, so not the vault's signing key.
    const attacker = await signingKeyPair()
    const attackerKey = await rsaOaepPublicKey()
    const statementSequence = nextSequence(owner.token)
    const stated = { sequence: statementSequence, beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email }
    const forged = await stateWith(attacker.privateKey, owner.user.id, { ...stated, keyVersion: 2, publicKey: attackerKey })
    const rotate = await call(`/api/beneficiaries/${heir.id}/rotate-key`, {
      token: owner.token,
      body: { publicKey: attackerKey, keySignature: forged, statementSequence, grantsSignature: WELL_FORMED_SIGNATURE, grants: [{ itemId: item, wrappedKey: b64('junk') }] },
    })
    expect(rotate.status).toBe(400)
    expect(await messageOf(rotate)).toBe(refused)
    const unsigned = await call(`/api/beneficiaries/${heir.id}/rotate-key`, {
      token: owner.token,
      body: { publicKey: attackerKey, statementSequence, grantsSignature: WELL_FORMED_SIGNATURE, grants: [{ itemId: item, wrappedKey: b64('junk') }] },
    })
    expect(unsigned.status).toBe(400)
    expect(await messageOf(unsigned)).toContain('keySignature')

    const attackerAddress = uniqueEmail('attacker')
    const move = await call(`/api/beneficiaries/${heir.id}`, {
      method: 'PUT',
      token: owner.token,
      body: { email: attackerAddress, statementSequence, keySignature: await stateWith(attacker.privateKey, owner.user.id, { ...stated, email: attackerAddress, keyVersion: 1, publicKey: heir.publicKey }) },
    })
    expect(move.status).toBe(400)
    expect(await messageOf(move)).toBe(refused)
    const moveUnsigned = await call(`/api/beneficiaries/${heir.id}`, { method: 'PUT', token: owner.token, body: { email: attackerAddress } })
    expect(moveUnsigned.status).toBe(400)

    // Nor can it put its own signing key in the vault's place.
    const swapSigningKey = await call('/api/vault/signing-key', { token: owner.token, body: { signingPublicKey: attacker.publicKey, wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN } })
    expect(swapSigningKey.status).toBe(409)
    expect(await messageOf(swapSigningKey)).toBe(KEY_SIGNING_MESSAGES.signingKeyExists)

    expect(await heirRow(owner.user.id, heir.id)).toEqual(before)
    expect(await ownerRows(owner.user.id, 'select * from item_grants where beneficiary_id = ?', heir.id)).toEqual(grantsBefore)
    expect(await outboxFor(attackerAddress)).toEqual([])
  })

  it('the owner’s own vault changes the address: the owner and the old address are told', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey(), { fullName: 'Ben Heir' })
    const newAddress = uniqueEmail('moved')
    const res = await call(`/api/beneficiaries/${heir.id}`, {
      method: 'PUT',
      token: owner.token,
      body: await signedUpdate(owner.token, heir.id, { email: newAddress }),
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as Beneficiary).email).toBe(newAddress)
    const toOwner = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === 'The e-mail address of Ben Heir was changed'))
    expect(toOwner.text).toContain('If you did not make this change')
    await waitFor(async () => (await outboxFor(heir.email)).find((m) => m.subject.includes('changed your details')))
  })

  it('the owner’s own vault replaces the key: the owner and the beneficiary’s address are told', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey(), { fullName: 'Ben Heir' })
    const item = await itemFor(owner.token, heir.id)
    const fresh = await rsaOaepPublicKey()
    const res = await call(`/api/beneficiaries/${heir.id}/rotate-key`, {
      token: owner.token,
      body: await signedRotation(owner.token, heir.id, { publicKey: fresh, grants: [{ itemId: item, wrappedKey: b64('new') }] }),
    })
    expect(res.status).toBe(200)
    expect((await heirRow(owner.user.id, heir.id))).toMatchObject({ public_key: fresh, key_version: 2 })
    await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === 'The key of Ben Heir was changed'))
    const toHeir = await waitFor(async () => (await outboxFor(heir.email)).find((m) => m.subject.includes('changed your details')))
    expect(toHeir.text).toContain('Beneficiary Access Kit')
  })
})

describe('the server checks every key signature', () => {
  it('refuses a wrong key, a wrong statement and a v1 statement, storing nothing', async () => {
    const owner = await register()
    const signer = await vaultSigner(owner.token)
    const publicKey = await rsaOaepPublicKey()
    const email = uniqueEmail('heir')
    const id = crypto.randomUUID()
    const sequence = nextSequence(owner.token)
    const fields: StatedFields = { sequence, beneficiaryId: id, fullName: 'Bea Heir', relationship: 'Daughter', email, keyVersion: 1, publicKey }
    const post = (body: Record<string, unknown>) =>
      call('/api/beneficiaries', { token: owner.token, body: { id, fullName: 'Bea Heir', email, relationship: 'Daughter', publicKey, statementSequence: sequence, ...body } })
    const other = await signingKeyPair()
    const state = (change: Partial<StatedFields>) => stateWith(signer.privateKey, owner.user.id, { ...fields, ...change })
    const cases: Array<[string, string]> = [
      ['another signing key', await stateWith(other.privateKey, owner.user.id, fields)],
      ['another owner', await stateWith(signer.privateKey, crypto.randomUUID(), fields)],
      ['another sequence', await state({ sequence: sequence + 1 })],
      ['another beneficiary id', await state({ beneficiaryId: crypto.randomUUID() })],
      ['another name', await state({ fullName: 'Eve Heir' })],
      ['another relationship', await state({ relationship: 'Son' })],
      ['another address', await state({ email: uniqueEmail('else') })],
      ['another key version', await state({ keyVersion: 2 })],
      ['another public key', await state({ publicKey: await rsaOaepPublicKey() })],
      ['the v1 statement of the same key', await signWith(signer, { email, keyVersion: 1, publicKey })],
      ['garbage of the right shape', WELL_FORMED_SIGNATURE],
    ]
    for (const [name, keySignature] of cases) {
      const res = await post({ keySignature })
      expect(res.status, name).toBe(400)
      expect(await messageOf(res), name).toBe(refused)
    }
    const missing = await post({})
    expect(missing.status).toBe(400)
    expect(await messageOf(missing)).toBe(`keySignature: ${KEY_SIGNING_MESSAGES.signatureInvalid}`)
    expect(await (await call('/api/beneficiaries', { token: owner.token })).json()).toEqual([])
    // The right one is taken, and listed with its signature and sequence for the browser to check again.
    const ok = await post({ email: email.toUpperCase(), keySignature: await state({}) })
    expect(ok.status).toBe(201)
    expect((await ok.json()) as Beneficiary).toMatchObject({ id, statementSequence: sequence, kitHasVaultFingerprint: true, keySignature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/) })
  })

  it('refuses a rotation signed for the version it replaces (a replayed statement)', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    const fresh = await rsaOaepPublicKey()
    const replayed = await statedBy(owner.token, { beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email, keyVersion: 1, publicKey: fresh })
    const res = await call(`/api/beneficiaries/${heir.id}/rotate-key`, { token: owner.token, body: await signedRotation(owner.token, heir.id, { publicKey: fresh, ...replayed, grants: [] }) })
    expect(res.status).toBe(400)
    expect((await heirRow(owner.user.id, heir.id))!.key_version).toBe(1)
  })

  it('takes no beneficiary key while the vault has no signing key, and lets an older vault add its one once', async () => {
    const owner = await register()
    // A vault set up before signing keys: its stored keys hold a salt and a check only.
    const setup = await vaultSetupBody(owner.token)
    expect((await call('/api/vault/setup', { token: owner.token, body: setup })).status).toBe(200)
    await removeSigningKey(owner.user.id)
    const heirKey = await rsaOaepPublicKey()
    const email = uniqueEmail('heir')
    const id = crypto.randomUUID()
    const heirBody = async () => ({
      id,
      fullName: 'Bea Heir',
      email,
      relationship: 'Daughter',
      publicKey: heirKey,
      ...(await statedBy(owner.token, { beneficiaryId: id, fullName: 'Bea Heir', relationship: 'Daughter', email, keyVersion: 1, publicKey: heirKey })),
    })
    const before = await call('/api/beneficiaries', { token: owner.token, body: await heirBody() })
    expect(before.status).toBe(409)
    expect(await messageOf(before)).toBe(KEY_SIGNING_MESSAGES.signingKeyMissing)
    const added = await call('/api/vault/signing-key', { token: owner.token, body: { signingPublicKey: setup.signingPublicKey, wrappedSigningKey: setup.wrappedSigningKey } })
    expect(added.status).toBe(200)
    expect(((await added.json()) as { user: { vaultSigningKey: unknown } }).user.vaultSigningKey).toEqual({ publicKey: setup.signingPublicKey, wrapped: setup.wrappedSigningKey })
    const after = await call('/api/beneficiaries', { token: owner.token, body: await heirBody() })
    expect(after.status).toBe(201)
  })

  it('signs a key stored before signing keys once the owner confirms it, and only with the vault’s key', async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await rsaOaepPublicKey())
    await ownerExec(owner.user.id, ['update beneficiaries set key_signature = null, statement_sequence = null where id = ?', heir.id])
    const url = `/api/beneficiaries/${heir.id}/key-signature`
    const other = await signingKeyPair()
    const statementSequence = nextSequence(owner.token)
    const fields: StatedFields = { sequence: statementSequence, beneficiaryId: heir.id, fullName: heir.fullName, relationship: heir.relationship, email: heir.email, keyVersion: 1, publicKey: heir.publicKey }
    const wrong = await call(url, { token: owner.token, body: { keySignature: await stateWith(other.privateKey, owner.user.id, fields), statementSequence } })
    expect(wrong.status).toBe(400)
    const v1 = await call(url, { token: owner.token, body: { keySignature: await keySignatureFor(owner.token, { email: heir.email, keyVersion: 1, publicKey: heir.publicKey }), statementSequence } })
    expect(v1.status).toBe(400)
    expect((await heirRow(owner.user.id, heir.id))!.key_signature).toBeNull()
    const right = await stateWith((await vaultSigner(owner.token)).privateKey, owner.user.id, fields)
    const res = await call(url, { token: owner.token, body: { keySignature: right, statementSequence } })
    expect(res.status).toBe(200)
    expect((await res.json()) as Beneficiary).toMatchObject({ keySignature: right, statementSequence })
    const stranger = await register()
    expect((await call(url, { token: stranger.token, body: { keySignature: right, statementSequence } })).status).toBe(404)
  })
})

async function removeSigningKey(ownerId: string) {
  await runInDurableObject(vaultOf(ownerId), async (_i: OwnerVault, state) => {
    const { signing: _gone, ...rest } = state.storage.kv.get<Record<string, unknown>>('vaultKeys')!
    state.storage.kv.put('vaultKeys', rest)
  })
}
