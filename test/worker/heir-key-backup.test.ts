import { describe, expect, it } from 'vitest'
import type { Beneficiary } from '../../contract/circle'
import { HEIR_BACKUP_MESSAGES, type HeirBackupContext, type PortalKeyBackup } from '../../contract/heir-key-backup'
import type { ReleaseReadiness } from '../../contract/readiness'
import { signLinkToken } from '../../worker/lib/link-tokens'
import { createTrigger, manualReleaseOk, ownerWithItem, portalToken } from './engine-helpers'
import { addBeneficiary, call, env, messageOf, rsaOaepPublicKey } from './helpers'
import { ownerExec, ownerRow } from './owner-helpers'
import { signedRotation } from './vault-signing'

// An heir's passphrase backup of their key (0.3 · 4 of 7): stored through the invitation's link,
// read through the portal's, for the key in force only, and gone when the key changes. The bytes
// are opaque to the server; what they hold is tested in test/web/heir-key-backup.test.ts.

const SALT = btoa('s'.repeat(32))
const BACKUP = btoa('an heir key wrapped under their own passphrase, opaque to the server')

const optInToken = (ownerId: string, beneficiaryId: string) => signLinkToken(env, 'beneficiaryNotifications', beneficiaryId, { owner: ownerId })

function store(token: string, body: Record<string, unknown> = {}) {
  return call('/api/beneficiary-key-backup', { method: 'PUT', body: { token, keyVersion: 1, backup: BACKUP, salt: SALT, ...body } })
}

async function context(token: string): Promise<HeirBackupContext> {
  const res = await call(`/api/beneficiary-key-backup?token=${encodeURIComponent(token)}`)
  expect(res.status).toBe(200)
  return (await res.json()) as HeirBackupContext
}

async function listed(ownerToken: string, id: string): Promise<Beneficiary> {
  return ((await (await call('/api/beneficiaries', { token: ownerToken })).json()) as Beneficiary[]).find((b) => b.id === id)!
}

async function kitOnly(ownerToken: string): Promise<string[]> {
  const r = (await (await call('/api/release-readiness', { token: ownerToken })).json()) as ReleaseReadiness
  return r.problems.filter((p) => p.kind === 'beneficiary_kit_only').map((p) => `${p.severity}:${p.subject.id}`)
}

describe("an heir's passphrase backup of their key", () => {
  it('is stored through the invitation link only, for the key in force, and the owner sees who has one', async () => {
    const s = await ownerWithItem()
    const token = optInToken(s.ownerId, s.beneficiary.id)
    expect(await context(token)).toEqual({
      ownerId: s.ownerId,
      beneficiaryId: s.beneficiary.id,
      keyVersion: 1,
      publicKey: s.beneficiary.publicKey,
      hasKeyBackup: false,
      released: false,
    })
    expect((await listed(s.token, s.beneficiary.id)).hasKeyBackup).toBe(false)

    // Not with the owner's session, nor for another key version, nor malformed.
    expect((await call('/api/beneficiary-key-backup', { method: 'PUT', token: s.token, body: { keyVersion: 1, backup: BACKUP, salt: SALT } })).status).toBe(400)
    const stale = await store(token, { keyVersion: 2 })
    expect(stale.status).toBe(409)
    expect(await messageOf(stale)).toBe(HEIR_BACKUP_MESSAGES.keyChanged)
    expect((await store(token, { salt: btoa('short') })).status).toBe(400)
    expect((await store(token, { backup: 'not base64!' })).status).toBe(400)
    expect(await ownerRow(s.ownerId, 'select key_backup from beneficiaries where id = ?', s.beneficiary.id)).toEqual({ key_backup: null })

    const ok = await store(token)
    expect(ok.status).toBe(200)
    expect(await ownerRow(s.ownerId, 'select key_backup, key_backup_salt, key_backup_version from beneficiaries where id = ?', s.beneficiary.id)).toEqual({
      key_backup: BACKUP,
      key_backup_salt: SALT,
      key_backup_version: 1,
    })
    expect((await context(token)).hasKeyBackup).toBe(true)
    expect((await listed(s.token, s.beneficiary.id)).hasKeyBackup).toBe(true)
  })

  it("holds the backup of an heir's 2048-bit key (about 2.4 kB of base64) with room to spare, and refuses one past 8 kB", async () => {
    const s = await ownerWithItem()
    const token = optInToken(s.ownerId, s.beneficiary.id)
    // The key's PKCS#8 in base64 inside JSON with the kit's fingerprints, sealed, then in base64.
    const backupOf = (bytes: number) => btoa('k'.repeat(bytes))
    expect((await store(token, { backup: backupOf(1_800) })).status).toBe(200)
    expect((await store(token, { backup: backupOf(6_000) })).status).toBe(200)
    const tooLong = await store(token, { backup: backupOf(6_200) })
    expect(tooLong.status).toBe(400)
    expect(await messageOf(tooLong)).toContain(HEIR_BACKUP_MESSAGES.backupInvalid)
    expect(await ownerRow(s.ownerId, 'select length(key_backup) as n from beneficiaries where id = ?', s.beneficiary.id)).toEqual({ n: 8_000 })
  })

  it("another owner's link, or a portal link for someone else, opens nothing", async () => {
    const [a, b] = await Promise.all([ownerWithItem(), ownerWithItem()])
    // A link naming owner B and A's beneficiary: B's object has no such person.
    const crossed = await store(optInToken(b.ownerId, a.beneficiary.id))
    expect(crossed.status).toBe(400)
    expect(await ownerRow(a.ownerId, 'select key_backup from beneficiaries where id = ?', a.beneficiary.id)).toEqual({ key_backup: null })

    expect((await store(optInToken(a.ownerId, a.beneficiary.id))).status).toBe(200)
    const trigger = await createTrigger(a.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(a.token, trigger.id)
    const portal = encodeURIComponent(await portalToken(a.beneficiary.email))
    const mine = await call(`/api/beneficiaries/${a.beneficiary.id}/key-backup?token=${portal}`)
    expect(mine.status).toBe(200)
    expect((await mine.json()) as PortalKeyBackup).toEqual({
      ownerId: a.ownerId,
      beneficiaryId: a.beneficiary.id,
      keyVersion: 1,
      publicKey: a.beneficiary.publicKey,
      backup: BACKUP,
      salt: SALT,
    })
    expect((await call(`/api/beneficiaries/${b.beneficiary.id}/key-backup?token=${portal}`)).status).toBe(403)
    // The invitation's link is not a portal link.
    expect((await call(`/api/beneficiaries/${a.beneficiary.id}/key-backup?token=${encodeURIComponent(optInToken(a.ownerId, a.beneficiary.id))}`)).status).toBe(400)
  })

  it('is fixed once items are released to them, and a portal without one says so', async () => {
    const s = await ownerWithItem()
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const late = await store(optInToken(s.ownerId, s.beneficiary.id))
    expect(late.status).toBe(409)
    expect(await messageOf(late)).toBe(HEIR_BACKUP_MESSAGES.alreadyReleased)
    const portal = encodeURIComponent(await portalToken(s.beneficiary.email))
    const none = await call(`/api/beneficiaries/${s.beneficiary.id}/key-backup?token=${portal}`)
    expect(none.status).toBe(404)
    expect(await messageOf(none)).toBe(HEIR_BACKUP_MESSAGES.noBackup)
  })

  it("stays open to an heir nothing was released to, though another heir of the same owner received theirs", async () => {
    const s = await ownerWithItem()
    const other = await addBeneficiary(s.token, await rsaOaepPublicKey(), { fullName: 'Otto Other' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    // The first heir received the item; the second was left nothing, and may still keep a backup.
    expect((await store(optInToken(s.ownerId, s.beneficiary.id))).status).toBe(409)
    const token = optInToken(s.ownerId, other.id)
    expect((await context(token)).released).toBe(false)
    expect((await store(token)).status).toBe(200)
    expect((await context(token)).hasKeyBackup).toBe(true)
  })

  it('is served to the heir only for their current key: a backup recorded for an older key is not offered', async () => {
    const s = await ownerWithItem()
    expect((await store(optInToken(s.ownerId, s.beneficiary.id))).status).toBe(200)
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const portal = encodeURIComponent(await portalToken(s.beneficiary.email))
    expect((await call(`/api/beneficiaries/${s.beneficiary.id}/key-backup?token=${portal}`)).status).toBe(200)
    // The heir's key moved on while the row kept the backup of the old one (a rotation clears it
    // too: this is the second of two guards).
    await ownerExec(s.ownerId, ['update beneficiaries set key_version = key_version + 1 where id = ?', s.beneficiary.id])
    const stale = await call(`/api/beneficiaries/${s.beneficiary.id}/key-backup?token=${portal}`)
    expect(stale.status).toBe(404)
    expect(await messageOf(stale)).toBe(HEIR_BACKUP_MESSAGES.noBackup)
  })

  it('is cleared when the key is replaced: a new kit needs a new backup', async () => {
    const s = await ownerWithItem()
    const token = optInToken(s.ownerId, s.beneficiary.id)
    expect((await store(token)).status).toBe(200)
    const rotated = await call(`/api/beneficiaries/${s.beneficiary.id}/rotate-key`, {
      token: s.token,
      body: await signedRotation(s.token, s.beneficiary.id, { publicKey: await rsaOaepPublicKey(), grants: [{ itemId: s.item.id, wrappedKey: btoa('rewrapped') }] }),
    })
    expect(rotated.status).toBe(200)
    expect(((await rotated.json()) as Beneficiary).hasKeyBackup).toBe(false)
    expect(await ownerRow(s.ownerId, 'select key_backup, key_backup_salt, key_backup_version, key_backup_at from beneficiaries where id = ?', s.beneficiary.id)).toEqual({
      key_backup: null,
      key_backup_salt: null,
      key_backup_version: null,
      key_backup_at: null,
    })
    expect(await context(token)).toMatchObject({ keyVersion: 2, hasKeyBackup: false })
    expect((await store(token)).status).toBe(409)
    expect((await store(token, { keyVersion: 2 })).status).toBe(200)
  })

  it('readiness warns, not errs, of an heir something is left to who has only the kit', async () => {
    const s = await ownerWithItem()
    // The beneficiary confirms their address, so their kit is what is left to warn of.
    await call('/api/beneficiaries/verify', { body: { token: signLinkToken(env, 'beneficiaryVerify', s.beneficiary.id, { owner: s.ownerId, nonce: (await ownerRow<{ n: string }>(s.ownerId, 'select verification_nonce as n from beneficiaries where id = ?', s.beneficiary.id))!.n }) } })
    expect(await kitOnly(s.token)).toEqual([`warning:${s.beneficiary.id}`])
    expect((await store(optInToken(s.ownerId, s.beneficiary.id))).status).toBe(200)
    expect(await kitOnly(s.token)).toEqual([])
  })
})
