import { mirrorAccount } from '../../worker/owner/account'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { ReleasedAsset } from '../../contract/releases'
import { runSweeps } from '../../worker/cron'
import { getDb } from '../../worker/db/client'
import { accountOf, type Account } from '../../worker/owner/account'
import { directoryNeedsWrite, heirAddressKey, ownersNamingHeir, writeDirectory } from '../../worker/owner/directory'
import type { OwnerExport } from '../../worker/owner/export'
import type { Unit } from '../../worker/owner/unit'
import { HOST_OF, type OwnerVault } from '../../worker/host/vault-object'
import { findUserByEmail } from '../../worker/services/users'
import { createTrigger, manualReleaseOk, ownerWithItem, policyCovering, portalToken, verifiedApprover } from './engine-helpers'
import { addBeneficiary, call, env, register, rsaOaepPublicKey, sessionFor, uniqueEmail } from './helpers'
import { ownerRow, ownerRows, ownerState, vaultOf } from './owner-helpers'
import { content } from './vault-helpers'
import { signedUpdate } from './vault-signing'

// What the owner's object promises by itself (worker/owner/): an act, its audit entry and its mail
// are one transaction; D1's directory follows what the object holds; the vault exports and imports
// whole.

async function accountFor(email: string): Promise<Account> {
  return accountOf((await findUserByEmail(getDb(env), email))!)
}

/** Runs `run` as an act inside the owner's object (its private act machinery), and returns what it gave or threw. */
function actInside<T>(ownerId: string, account: Account, run: (u: Unit) => T): Promise<{ value?: T; error?: string }> {
  return runInDurableObject(vaultOf(ownerId), async (instance: OwnerVault) => {
    try {
      return { value: await instance[HOST_OF].act(account, run) }
    } catch (error) {
      return { error: (error as Error).message }
    }
  })
}

const rowCounts = async (ownerId: string) => ({
  approvers: (await ownerRow<{ n: number }>(ownerId, 'select count(*) as n from approvers'))!.n,
  audit: (await ownerRow<{ n: number }>(ownerId, 'select count(*) as n from audit'))!.n,
  pendingMail: (await ownerRow<{ n: number }>(ownerId, 'select count(*) as n from pending_mail'))!.n,
  head: await ownerState<{ seq: number }>(ownerId, 'auditHead'),
})

describe('one act, one transaction', () => {
  it('an act that fails after writing, auditing and mailing leaves none of it', async () => {
    const owner = await register()
    const account = await accountFor(owner.email)
    const before = await rowCounts(owner.user.id)
    const outboxBefore = (await env.DB.prepare('select count(*) as n from email_outbox').first<{ n: number }>())!.n
    const result = await actInside(owner.user.id, account, (u) => {
      u.db.run(`insert into approvers (id, full_name, email, role, created_at, updated_at) values ('a1', 'Half Written', 'half@example.com', 'Notary', 0, 0)`)
      u.audit({ actor: 'user', action: 'circle.approver_added', details: { approverId: 'a1' } })
      u.mail('half@example.com', 'test', { subject: 'Half', text: 'Half', html: '<p>Half</p>' })
      throw new Error('the act fails here')
    })
    expect(result.error).toBe('the act fails here')
    expect(await rowCounts(owner.user.id)).toEqual(before)
    expect((await env.DB.prepare('select count(*) as n from email_outbox').first<{ n: number }>())!.n).toBe(outboxBefore)
    // The chain is intact and goes on from where it was.
    expect((await call('/api/approvers', { token: owner.token, body: { fullName: 'Whole Approver', email: uniqueEmail('whole'), role: 'Notary' } })).status).toBe(201)
    expect(await vaultOf(owner.user.id).audit().verifyAudit()).toMatchObject({ valid: true, headMatches: true })
  })

  it('an act that commits has its audit entry and its mail, handed to the outbox once', async () => {
    const owner = await register()
    const before = await rowCounts(owner.user.id)
    const email = uniqueEmail('approver')
    expect((await call('/api/approvers', { token: owner.token, body: { fullName: 'Ada Approver', email, role: 'Notary' } })).status).toBe(201)
    const after = await rowCounts(owner.user.id)
    expect(after).toMatchObject({ approvers: before.approvers + 1, audit: before.audit + 1, pendingMail: 0 })
    const [entry] = (await vaultOf(owner.user.id).audit().listAudit(1)) as AuditEntry[]
    expect(entry).toMatchObject({ action: 'circle.approver_added', seq: after.head!.seq })
    const mails = await env.DB.prepare('select kind from email_outbox where to_address = ?').bind(email).all<{ kind: string }>()
    expect(mails.results).toEqual([{ kind: 'approver_invitation' }])
  })

  it("mail D1 cannot take stays with the act, and the object's alarm hands it over later", async () => {
    const owner = await register()
    const account = await accountFor(owner.email)
    const email = uniqueEmail('later')
    const result = await runInDurableObject(vaultOf(owner.user.id), async (instance: OwnerVault) => {
      const object = instance as unknown as { env: Env }
      const real = object.env
      const down = new Proxy(real.DB, {
        get: (target, name) => (name === 'batch' ? async () => Promise.reject(new Error('D1 is unreachable')) : Reflect.get(target, name)),
      })
      object.env = { ...real, DB: down }
      try {
        await instance[HOST_OF].act(account, (u) => u.mail(email, 'test', { subject: 'Later', text: 'Later', html: '<p>Later</p>' }))
      } finally {
        object.env = real
      }
      return 'committed'
    })
    expect(result).toBe('committed')
    expect((await rowCounts(owner.user.id)).pendingMail).toBe(1)
    expect(await env.DB.prepare('select id from email_outbox where to_address = ?').bind(email).first()).toBeNull()
    // The alarm is armed for the retry.
    const alarmAt = await ownerState<number>(owner.user.id, 'alarmAt')
    expect(alarmAt! - Date.now()).toBeLessThanOrEqual(60_000)
    expect(await runDurableObjectAlarm(vaultOf(owner.user.id))).toBe(true)
    expect((await rowCounts(owner.user.id)).pendingMail).toBe(0)
    expect(await env.DB.prepare('select kind from email_outbox where to_address = ?').bind(email).first()).toEqual({ kind: 'test' })
  })
})

describe("D1's directory", () => {
  const directory = (ownerId: string) =>
    env.DB.prepare('select next_due_at, vault_items as items, vault_bytes as storage_bytes, vault_beneficiaries as beneficiaries, vault_revision as revision from users where id = ?')
      .bind(ownerId)
      .first<Record<string, number | string | null>>()
  const heirKeys = async (ownerId: string) =>
    (await env.DB.prepare("select address_key as k from heir_index where hex(owner_id) = upper(replace(?, '-', '')) order by k").bind(ownerId).all<{ k: number }>()).results.map((r) => r.k)

  it('a check-in leaves an alarm that rings in time and writes no directory row for a later due time; the early wake puts both right', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await createTrigger(s.token, { type: 'inactivity' })
    const first = await vaultOf(s.ownerId).clockView()
    const before = Number((await directory(s.ownerId))!.next_due_at)
    expect(before).toBe(first.nextAlarmAt)
    await new Promise((resolve) => setTimeout(resolve, 5))
    const ping = async () => expect((await call('/api/inactivity/ping', { method: 'POST', token: s.token })).status).toBe(200)
    await ping()
    // The clock moved on; the alarm set for the old time stays (it can only ring early), and so does the row.
    const after = await vaultOf(s.ownerId).clockView()
    expect(after.nextCheckInAt).toBeGreaterThan(first.nextCheckInAt!)
    expect(after.nextAlarmAt).toBe(before)
    expect(Number((await directory(s.ownerId))!.next_due_at)).toBe(before)
    // It rings early: nothing is due, and the tick sets the alarm and the row to the new time.
    expect(await runDurableObjectAlarm(vaultOf(s.ownerId))).toBe(true)
    const rung = await vaultOf(s.ownerId).clockView()
    expect(rung.nextAlarmAt).toBeGreaterThan(before)
    expect(rung.phase).toBe('ok')
    expect(Number((await directory(s.ownerId))!.next_due_at)).toBe(rung.nextAlarmAt)

    // With the alarm lost, a check-in sets it again; the row keeps its earlier time (written only
    // for an earlier one), which wakes the object early, and that tick writes the time it holds.
    await runInDurableObject(vaultOf(s.ownerId), async (_i: OwnerVault, state) => state.storage.deleteAlarm())
    await new Promise((resolve) => setTimeout(resolve, 5))
    await ping()
    const rearmed = await runInDurableObject(vaultOf(s.ownerId), async (_i: OwnerVault, state) => state.storage.getAlarm())
    expect(rearmed).toBeGreaterThan(rung.nextAlarmAt!)
    expect(Number((await directory(s.ownerId))!.next_due_at)).toBe(rung.nextAlarmAt)
    await vaultOf(s.ownerId).tick()
    expect(Number((await directory(s.ownerId))!.next_due_at)).toBe((await vaultOf(s.ownerId).clockView()).nextAlarmAt)
  })

  it('after a check-in the directory is still written for an earlier due time or any other change', () => {
    const entry = { nextDueAt: 2_000, items: 1, storageBytes: 10, beneficiaries: 1, heirKeys: [7] }
    expect(directoryNeedsWrite(null, entry)).toBe(true)
    expect(directoryNeedsWrite(entry, { ...entry, nextDueAt: 3_000 })).toBe(false)
    expect(directoryNeedsWrite(entry, { ...entry })).toBe(false)
    expect(directoryNeedsWrite(entry, { ...entry, nextDueAt: 1_000 })).toBe(true)
    expect(directoryNeedsWrite(entry, { ...entry, nextDueAt: null })).toBe(true)
    expect(directoryNeedsWrite({ ...entry, nextDueAt: null }, entry)).toBe(true)
    expect(directoryNeedsWrite(entry, { ...entry, nextDueAt: 3_000, items: 2 })).toBe(true)
    expect(directoryNeedsWrite(entry, { ...entry, nextDueAt: 3_000, heirKeys: [8] })).toBe(true)
  })

  it('follows what the object holds: counts, the next due time (its alarm), and keyed hashes of heir addresses', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await createTrigger(s.token, { type: 'inactivity' })
    const row = await directory(s.ownerId)
    expect(row).toMatchObject({ items: 1, beneficiaries: 1, storage_bytes: s.item.cipherSize })
    expect(row!.next_due_at).toBe((await vaultOf(s.ownerId).clockView()).nextAlarmAt)
    expect(await heirKeys(s.ownerId)).toEqual([heirAddressKey(env, s.beneficiary.email)])
    // Keyed: not a plain digest of the address anyone could compute.
    const plain = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s.beneficiary.email)))
    const plainKey = Number.parseInt([...plain.slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join(''), 16)
    expect(await heirKeys(s.ownerId)).not.toContain(plainKey)
    // An address leads to its owners (any case, any spacing); another address leads nowhere.
    expect(await ownersNamingHeir(env, ` ${s.beneficiary.email.toUpperCase()} `)).toEqual([s.ownerId])
    expect(await ownersNamingHeir(env, uniqueEmail('nobody'))).toEqual([])

    // A changed address moves its key; a removed beneficiary takes theirs away.
    const newEmail = uniqueEmail('moved')
    expect((await call(`/api/beneficiaries/${s.beneficiary.id}`, { method: 'PUT', token: s.token, body: await signedUpdate(s.token, s.beneficiary.id, { email: newEmail }) })).status).toBe(200)
    expect(await heirKeys(s.ownerId)).toEqual([heirAddressKey(env, newEmail)])
    const second = await addBeneficiary(s.token, await rsaOaepPublicKey())
    expect((await heirKeys(s.ownerId)).sort()).toEqual([heirAddressKey(env, newEmail), heirAddressKey(env, second.email)].sort())
    expect((await call(`/api/beneficiaries/${second.id}`, { method: 'DELETE', token: s.token })).status).toBe(200)
    expect(await heirKeys(s.ownerId)).toEqual([heirAddressKey(env, newEmail)])
    expect(await directory(s.ownerId)).toMatchObject({ beneficiaries: 1 })
  })

  it("removing a beneficiary takes away only this owner's entry: another owner naming the same address still finds the heir", async () => {
    const a = await register()
    const b = await register()
    const email = uniqueEmail('shared-heir')
    const heirOfA = await addBeneficiary(a.token, await rsaOaepPublicKey(), { email })
    await addBeneficiary(b.token, await rsaOaepPublicKey(), { email })
    expect((await ownersNamingHeir(env, email)).sort()).toEqual([a.user.id, b.user.id].sort())
    expect((await call(`/api/beneficiaries/${heirOfA.id}`, { method: 'DELETE', token: a.token })).status).toBe(200)
    expect(await ownersNamingHeir(env, email)).toEqual([b.user.id])
  })

  it('never rewinds: an older write arriving late does not replace a newer one', async () => {
    const s = await ownerWithItem()
    const before = (await directory(s.ownerId))!
    const late = { nextDueAt: null, items: 99, storageBytes: 99, beneficiaries: 99, heirKeys: [] }
    await writeDirectory(env, s.ownerId, late, late, Number(before.revision) - 1)
    expect(await directory(s.ownerId)).toEqual(before)
    await writeDirectory(env, s.ownerId, late, late, Number(before.revision) + 1)
    expect(await directory(s.ownerId)).toMatchObject({ items: 99, beneficiaries: 99 })
  })

  it('the sweep reads only the rows that are due, among 10 000 owners', async () => {
    const now = Date.now()
    // 10 000 owners whose object next runs in a week, seeded in SQL; three whose alarm was lost.
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 10000)
       insert into users (id, email, password_hash, display_name, created_at, updated_at)
       select 'seeded-' || i, 'seeded-' || i || '@example.com', 'x', 'Seeded', ?1, ?1 from n`,
    )
      .bind(now)
      .run()
    await env.DB.prepare(`update users set next_due_at = ?1 where id like 'seeded-%'`).bind(now + 7 * 86_400_000).run()
    const lost = [await register(), await register(), await register()]
    for (const o of lost) await env.DB.prepare('update users set next_due_at = ? where id = ?').bind(now - 10 * 60_000, o.user.id).run()

    const result = await runSweeps(env, now)
    expect(result.ownersWoken).toBe(3)
    // The partial index holds due owners only: far fewer rows read than owners.
    expect(result.directoryRowsRead).toBeLessThan(100)
    // Each woken object wrote its own next due time back.
    for (const o of lost) expect((await directory(o.user.id))!.next_due_at).not.toBe(now - 10 * 60_000)
  })
})

describe('export and import', () => {
  it("round-trips an owner's whole vault: lists, the audit chain, the vault's wrapped keys, a released asset's download", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await verifiedApprover(s.token)
    await policyCovering(s.token, s.beneficiary.id, [s.item.id])
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const token = await portalToken(s.beneficiary.email)
    const views = async (token = s.token) =>
      Object.fromEntries(
        await Promise.all(
          ['/api/vault/items', '/api/beneficiaries', '/api/approvers', '/api/policies', '/api/triggers', '/api/audit', '/api/audit/verify'].map(
            async (path) => [path, await (await call(path, { token })).json()] as const,
          ),
        ),
      )
    const before = await views()
    const vaultFields = async (token: string) => {
      const { user } = (await (await call('/api/auth/me', { token })).json()) as { user: { vaultSetup: boolean; vaultSalt: string | null; vaultCheck: string | null } }
      return { setup: user.vaultSetup, salt: user.vaultSalt, check: user.vaultCheck }
    }
    const keysBefore = await vaultFields(s.token)
    expect(keysBefore.setup).toBe(true)
    const vault = vaultOf(s.ownerId)
    const data = (await vault.exportVault()) as OwnerExport
    expect(data).toMatchObject({ format: 'legacy-vault/owner-export', version: 1, ownerId: s.ownerId })
    expect(data.tables.vault_items).toHaveLength(1)
    expect(data.tables.pending_mail).toBeUndefined()
    // Ciphertext and metadata only: nothing in it is a key that opens anything.
    expect(JSON.stringify(data)).not.toMatch(/PRIVATE KEY|pkcs8|passphrase/i)

    // Into an object that holds something: refused. Another owner's export: refused.
    expect(await vault.importVault(data)).toMatchObject({ ok: false, status: 400 })
    const other = await register()
    expect(await vaultOf(other.user.id).importVault(data)).toMatchObject({ ok: false, status: 400 })

    await vault.purge()
    expect(await ownerRows(s.ownerId, "select name from sqlite_master where type = 'table' and name = 'vault_items'")).toEqual([])
    expect(await vault.importVault(data)).toEqual({ ok: true, value: undefined })
    // Sessions are not part of the vault: the emptied object forgot them, and its owner signs in again.
    expect((await call('/api/vault/items', { token: s.token })).status).toBe(401)
    const again = await sessionFor(s.ownerId)
    expect(await views(again)).toEqual(before)
    // The vault's wrapped keys came back with it: the same passphrase still opens it.
    expect(await vaultFields(again)).toEqual(keysBefore)
    expect((await content(again, s.item.id)).status).toBe(200)
    const [asset] = (await (await call(`/api/beneficiaries/${s.beneficiary.id}/assets?token=${encodeURIComponent(token)}`)).json()) as ReleasedAsset[]
    expect((await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${asset!.id}/download?token=${encodeURIComponent(token)}`)).status).toBe(200)
  })

  it('support can export a vault through the back office; the owner sees it in their audit log', async () => {
    const s = await ownerWithItem()
    const admin = await register()
    await env.DB.prepare(`update users set role = 'admin' where id = ?`).bind(admin.user.id).run()
    await mirrorAccount(admin.user.id)
    const res = await call(`/api/admin/users/${s.ownerId}/vault-export`, { token: admin.token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('attachment')
    const data = (await res.json()) as OwnerExport
    expect(data.tables.vault_items).toHaveLength(1)
    const audit = (await (await call('/api/audit', { token: s.token })).json()) as AuditEntry[]
    expect(audit[0]).toMatchObject({ action: 'account.vault_exported', actor: 'system' })
    const actions = (await (await call('/api/admin/actions', { token: admin.token })).json()) as Array<{ action: string; targetUserId: string }>
    expect(actions[0]).toMatchObject({ action: 'user.vault_export', targetUserId: s.ownerId })
    expect((await call(`/api/admin/users/${s.ownerId}/vault-export`, { token: s.token })).status).toBe(403)
  })
})
