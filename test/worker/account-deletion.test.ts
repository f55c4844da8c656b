import { mirrorAccount } from '../../worker/owner/account'
import { DELETION_GRACE_MS, DELETION_MESSAGES } from '../../contract/account-deletion'
import { runInDurableObject } from 'cloudflare:test'
import { exports } from 'cloudflare:workers'
import { is } from 'drizzle-orm'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from '../../contract/messages'
import { partSize } from '../../contract/vault-items'
import { runSweeps } from '../../worker/cron'
import { getDb } from '../../worker/db/client'
import * as schema from '../../worker/db/schema'
import type { OwnerVault } from '../../worker/host/vault-object'
import { ACCOUNT_DELETION_MESSAGES, deleteAccount, ownerBlobPrefixes, purgeDueDeletions } from '../../worker/services/account-deletion'
import { createTrigger, guard, manualReleaseOk, ownerWithItem, policyCovering, verifiedApprover } from './engine-helpers'
import { call, callSettled, env, freshIp, linkTokenIn, login, me, messageOf, outboxFor, register, waitFor } from './helpers'
import { ownerExec } from './owner-helpers'
import { blobOf, content, itemRow, multipartIsOpen, putPart, setAccount, startUpload, uploadItem } from './vault-helpers'

// --- Every D1 table, and how a row of it belongs to an owner --------------------------------------
// Tables reached from `users` through foreign keys are found from the schema itself; the others
// need a rule here. A new table with neither makes the coverage test fail, so it cannot be forgotten.

interface Owner {
  id: string
  email: string
}
type Row = Record<string, unknown>

/** Tables without a foreign-key path to users that still hold an owner's data: how to find it. */
const BY_VALUE: Record<string, (o: Owner) => [string, unknown[]]> = {
  email_outbox: (o) => ['lower(to_address) = ?', [o.email.toLowerCase()]],
  blob_deletions: (o) => ['substr(r2_key, 1, ?) = ? or substr(r2_key, 1, ?) = ?', ownerBlobPrefixes(o.id).flatMap((p) => [p.length, p])],
  heir_index: (o) => ["hex(owner_id) = upper(replace(?, '-', ''))", [o.id]],
  sign_in_failures: (o) => ['email = ?', [o.email.toLowerCase()]],
  // What the mail provider reported of the owner's own address.
  mail_bounces: (o) => ['address = ?', [o.email.toLowerCase()]],
}
/** Tables an owner's rows reach only while their account is being deleted (and after, if R2 failed). */
const FILLED_BY_DELETION = ['blob_deletions']
/** Tables that hold nothing of any owner. */
const NOT_OWNED: Record<string, string> = {
  engine_state: 'engine-wide facts (the last sweep time)',
  promo_codes: 'admin-made codes; an owner’s subscription points at one, not the other way',
  stripe_events: 'Stripe webhook event ids and times; no owner data',
  revenue_days: 'revenue summed by day; no owner data',
  admin_actions: 'the administrators’ trail: plain-text ids, amounts, days and codes; no e-mail, name or reason',
}

interface Fk {
  table: string
  column: string
  parent: string
  parentColumn: string
}
const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable)).map((t) => getTableConfig(t))
const tableNames = tables.map((t) => t.name)
const fks: Fk[] = tables.flatMap((t) =>
  t.foreignKeys.flatMap((fk) => {
    const ref = fk.reference()
    return ref.columns.map((col, i) => ({ table: t.name, column: col.name, parent: getTableConfig(ref.foreignTable).name, parentColumn: ref.foreignColumns[i]!.name }))
  }),
)

/** Tables reachable from users through foreign keys. */
function reachableFromUsers(): Set<string> {
  const seen = new Set(['users'])
  for (let grew = true; grew; ) {
    grew = false
    for (const fk of fks) if (seen.has(fk.parent) && !seen.has(fk.table)) (seen.add(fk.table), (grew = true))
  }
  return seen
}

async function select(table: string, where: string, params: unknown[]): Promise<Row[]> {
  return (await env.DB.prepare(`select * from ${table} where ${where}`).bind(...params).all<Row>()).results
}

/**
 * Every row of every table that belongs to the owner: users by id, the by-value tables by their
 * rule, and then, to a fixed point, every row whose foreign key names a row already found. With
 * `from` (a snapshot taken before deletion) the foreign keys are matched against that snapshot,
 * so rows left behind by a missing cascade are found even though their parents are gone.
 */
async function ownedRows(owner: Owner, from?: Map<string, Row[]>): Promise<Map<string, Row[]>> {
  const owned = new Map<string, Map<string, Row>>(tableNames.map((n) => [n, new Map()]))
  const add = (table: string, rows: Row[]) => {
    let added = false
    for (const row of rows) {
      const key = JSON.stringify(row)
      if (!owned.get(table)!.has(key)) (owned.get(table)!.set(key, row), (added = true))
    }
    return added
  }
  add('users', await select('users', 'id = ?', [owner.id]))
  for (const [table, rule] of Object.entries(BY_VALUE)) add(table, await select(table, ...rule(owner)))
  for (let grew = true; grew; ) {
    grew = false
    for (const fk of fks) {
      const parents = [...owned.get(fk.parent)!.values(), ...(from?.get(fk.parent) ?? [])]
      const values = [...new Set(parents.map((r) => r[fk.parentColumn]).filter((v) => v !== null))]
      for (let i = 0; i < values.length; i += 90) {
        const chunk = values.slice(i, i + 90)
        if (add(fk.table, await select(fk.table, `${fk.column} in (${chunk.map(() => '?').join(', ')})`, chunk))) grew = true
      }
    }
  }
  return new Map([...owned].map(([t, rows]) => [t, [...rows.values()]]))
}

const counts = (owned: Map<string, Row[]>) => Object.fromEntries([...owned].map(([t, rows]) => [t, rows.length]))

// --- Helpers ------------------------------------------------------------------------------------

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

function uploadForm(path: string, token: string, fields: Record<string, string | Blob>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  return exports.default.fetch(
    new Request(`http://localhost${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': freshIp() }, body: form }),
  )
}

const deleteAccountCall = (options: { token?: string; cookie?: string } = {}) => call('/api/account/delete', { method: 'DELETE', ...options })

async function blobsUnder(ownerId: string): Promise<string[]> {
  const keys: string[] = []
  for (const prefix of ownerBlobPrefixes(ownerId)) keys.push(...(await env.BLOBS.list({ prefix })).objects.map((o) => o.key))
  return keys
}

/** What the owner's object stores: kv keys, rows of every table that has any (internal tables aside), alarm. */
async function guardStorage(ownerId: string) {
  return runInDurableObject(guard(ownerId), async (_i: OwnerVault, state) => {
    const kv = [...state.storage.kv.list()].map(([k]) => k)
    const tables = state.storage.sql
      .exec<{ name: string }>(`select name from sqlite_master where type = 'table' and name not like '\\_cf\\_%' escape '\\' and name not like 'sqlite\\_%' escape '\\'`)
      .toArray()
      .map((r) => r.name)
    const rows = Object.fromEntries(
      tables.map((t) => [t, state.storage.sql.exec<{ n: number }>(`select count(*) as n from "${t}"`).one().n] as const).filter(([, n]) => n > 0),
    )
    return { kv, rows, alarm: await state.storage.getAlarm() }
  })
}

/** An owner with something in every owner table, four R2 objects, an open upload and an audit chain. */
async function fullOwner() {
  const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
  const ownerId = s.ownerId
  const approver = await verifiedApprover(s.token)
  await policyCovering(s.token, s.beneficiary.id, [s.item.id])

  // Identity document (front and back in R2), reviewed by the approver through their link.
  const doc = await uploadForm('/api/identity-documents', s.token, {
    beneficiaryId: s.beneficiary.id,
    documentType: 'national_id',
    frontImage: new File([PNG], 'front.png', { type: 'image/png' }),
    backImage: new File([PNG], 'back.png', { type: 'image/png' }),
  })
  expect(doc.status).toBe(201)
  const review = await waitFor(async () => (await outboxFor(approver.email)).find((m) => m.text.includes('/review-identity')))
  const reviewed = await call('/api/identity-verifications', {
    body: { token: linkTokenIn(review, '/review-identity'), status: 'approved', verificationNotes: 'Photo matches.' },
  })
  expect(reviewed.status).toBe(200)

  // A second item that waits for an approver's sign-off, then a manual release of both.
  await uploadItem(s.token, [s.beneficiary.id], 100, {
    policy: { protocol: 'MANUAL_RELEASE', requiresApprover: true, approverContact: `signer-${crypto.randomUUID().slice(0, 8)}@example.com` },
  })
  const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
  await manualReleaseOk(s.token, trigger.id)
  await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
  await guard(ownerId).tick()

  // An upload left open (multipart in R2, a part row), a biometric failure, a death report, a reset
  // (its token is issued after the answer: waited for).
  const open = await startUpload(s.token, 100)
  expect((await putPart(s.token, open.itemId, 1, new Uint8Array(partSize(1, 100)))).status).toBeLessThan(300)
  const openRow = (await itemRow(ownerId, open.itemId))!
  expect((await call('/api/trigger-engine/biometric-failure', { token: s.token, body: { kind: 'vault_unlock' } })).status).toBeLessThan(300)
  await ownerExec(ownerId, [
    `insert into death_reports (approver_id, certificate_number, date_of_death, issuing_authority, created_at) values (?, 'C-1', '2030-01-01', 'Registry', ?)`,
    approver.id,
    Date.now(),
  ])
  expect((await callSettled('/api/auth/forgot-password', { body: { email: s.owner.email } })).status).toBe(200)
  // A failed sign-in, counted against the account's address.
  expect((await call('/api/auth/login', { body: { email: s.owner.email, password: 'not the password' } })).status).toBe(401)
  // The mail provider reported the owner's address bouncing (POST /api/mail/events records these).
  await env.DB.prepare(`insert into mail_bounces (address, bounced_at, reason) values (?, ?, 'Mailbox full')`).bind(s.owner.email.toLowerCase(), Date.now()).run()
  // A subscription of the owner's (billing creates these; with billing off, none is made here).
  await env.DB.prepare(`insert into subscriptions (id, email, user_id, plan, status, created_at) values (?, ?, ?, 'basic', 'active', ?)`)
    .bind(crypto.randomUUID(), s.owner.email, ownerId, Date.now())
    .run()
  // A renewal invoice that failed (billing records these; with billing off, none is made here).
  await env.DB.prepare(`insert into payment_issues (invoice_id, user_id, invoice_created_at, grace_until, failed_at) values (?, ?, ?, ?, ?)`)
    .bind(`in_${crypto.randomUUID().slice(0, 8)}`, ownerId, Date.now(), Date.now() + 7 * 86_400_000, Date.now())
    .run()
  // A security key (its row as registration stores it) and a registration still in progress.
  await env.DB.prepare(
    `insert into webauthn_credentials (id, user_id, name, public_key, counter, transports, device_type, backed_up, created_at) values (?, ?, 'Key', 'pQECAyYgASFYIA', 0, '["usb"]', 'singleDevice', 0, ?)`,
  )
    .bind(crypto.randomUUID().replace(/-/g, ''), ownerId, Date.now())
    .run()
  expect((await call('/api/auth/webauthn/register/options', { token: s.token, body: {} })).status).toBe(200)
  // An authenticator app with its recovery codes (as confirming one stores them).
  await env.DB.batch([
    env.DB.prepare('insert into authenticators (user_id, secret, confirmed_at, last_step) values (?, ?, ?, 1)').bind(ownerId, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', Date.now()),
    env.DB.prepare('insert into recovery_codes (user_id, hash) values (?, ?)').bind(ownerId, 'a'.repeat(64)),
  ])
  // A blob deletion an earlier item delete left to the object's alarm.
  await ownerExec(ownerId, ['insert into blob_deletions (r2_key, created_at, attempts) values (?, ?, 1)', `items/${ownerId}/${crypto.randomUUID()}`, Date.now()])
  // Registration's and sign-in's reports to the DO have landed.
  await waitFor(async () => (await guard(ownerId).state()).lastActivity !== null)
  return { ...s, owner: s.owner, approver, openRow }
}

// --- Tests ---------------------------------------------------------------------------------------

describe('DELETE /api/account/delete', () => {
  it('covers every table of the schema', () => {
    const reachable = reachableFromUsers()
    const uncovered = tableNames.filter((t) => !reachable.has(t) && !(t in BY_VALUE) && !(t in NOT_OWNED))
    expect(uncovered).toEqual([])
  })

  it('purges the owner everywhere (D1, R2, Durable Object) and leaves another owner untouched', async () => {
    const s = await fullOwner()
    const owner = { id: s.ownerId, email: s.owner.email }
    // The back office's row: a refund (kept, user_id set null).
    const refundId = crypto.randomUUID()
    await env.DB.batch([
      env.DB.prepare(
        `insert into refunds (id, user_id, user_email, user_plan, amount, reason, status, created_by, created_at) values (?, ?, ?, 'basic', 100, 'r', 'completed', 'admin', ?)`,
      ).bind(refundId, owner.id, owner.email, Date.now()),
    ])
    const other = await ownerWithItem()
    const otherOwner = { id: other.ownerId, email: other.owner.email }
    await waitFor(async () => (await guard(other.ownerId).state()).lastActivity !== null)

    const before = await ownedRows(owner)
    // Every owner table holds something, so the purge is tested on each.
    const empty = Object.entries(counts(before)).filter(([t, n]) => n === 0 && !(t in NOT_OWNED) && !FILLED_BY_DELETION.includes(t))
    expect(empty).toEqual([])
    expect((await blobsUnder(owner.id)).length).toBe(4) // two items, an identity front and back
    expect(await multipartIsOpen(s.openRow.r2_key, s.openRow.upload_id!)).toBe(true)
    expect((await guard(owner.id).audit().listAudit()).length).toBeGreaterThan(3)
    expect(await guard(owner.id).audit().verifyAudit()).toMatchObject({ valid: true })
    const otherBefore = counts(await ownedRows(otherOwner))
    const otherAudit = await guard(other.ownerId).audit().listAudit()

    const requestedAt = Date.now()
    const res = await deleteAccountCall({ token: s.token })
    expect(res.status).toBe(200)
    const answer = (await res.json()) as { message: string; deletionScheduledFor: string; deletedUserEmail: string }
    const deleteAt = Date.parse(answer.deletionScheduledFor)
    // Seven days, written out: the grace the e-mail and the page promise.
    expect(deleteAt - requestedAt).toBeGreaterThanOrEqual(7 * 24 * 60 * 60_000)
    expect(deleteAt - requestedAt).toBeLessThan(7 * 24 * 60 * 60_000 + 60_000)
    expect(answer).toEqual({ message: DELETION_MESSAGES.scheduled(deleteAt), deletionScheduledFor: answer.deletionScheduledFor, deletedUserEmail: s.owner.email })
    expect(res.headers.get('set-cookie')).toMatch(/^auth_token=;.*Max-Age=0/)
    // Every session ends at once; the account waits out its grace, whole, then the sweep deletes it.
    expect((await me(s.token)).status).toBe(401)
    expect((await purgeDueDeletions(env, getDb(env), deleteAt - 1000)).accountsDeleted).toBe(0)
    expect(await blobsUnder(owner.id)).toHaveLength(4)
    expect((await purgeDueDeletions(env, getDb(env), deleteAt + 1000)).accountsDeleted).toBeGreaterThanOrEqual(1)

    // D1: no row of any table refers to the owner, through any of the ids it had.
    const after = await ownedRows(owner, before)
    expect(Object.entries(counts(after)).filter(([, n]) => n > 0)).toEqual([])

    // R2: nothing under the owner's prefixes, and the open upload is aborted.
    expect(await blobsUnder(owner.id)).toEqual([])
    expect(await env.DB.prepare('select user_id from refunds where id = ?').bind(refundId).first()).toEqual({ user_id: null })
    expect(await multipartIsOpen(s.openRow.r2_key, s.openRow.upload_id!)).toBe(false)

    // The owner's object: no storage, no alarm.
    expect(await guardStorage(owner.id)).toEqual({ kv: [], rows: {}, alarm: null })
    // A late tick for the deleted owner (a lost-alarm sweep, say) finds no owner and stores nothing.
    await guard(owner.id).tick()
    expect(await guardStorage(owner.id)).toEqual({ kv: [], rows: {}, alarm: null })
    expect(counts(await ownedRows(owner, before))).toEqual(counts(after))
    // The password too (a failed sign-in at that address is counted like any other, and forgotten by the sweep).
    expect((await login(s.owner.email, s.owner.password)).status).toBe(401)

    // The other owner: every row, the item's blob and content, and the audit chain as they were.
    expect(counts(await ownedRows(otherOwner))).toEqual(otherBefore)
    expect(await blobOf(other.ownerId, other.item.id)).not.toBeNull()
    expect((await content(other.token, other.item.id)).status).toBe(200)
    expect((await guard(other.ownerId).audit().listAudit()).slice(-otherAudit.length)).toEqual(otherAudit)
    expect(await guard(other.ownerId).audit().verifyAudit()).toMatchObject({ valid: true })
  })

  it("forgets only the deleted owner's failed sign-ins: another account's failures stay", async () => {
    const leaving = await register()
    const other = await register()
    expect((await login(other.email, 'a wrong password')).status).toBe(401)
    const failures = () => env.DB.prepare('select failures from sign_in_failures where email = ?').bind(other.email.toLowerCase()).first<{ failures: number }>()
    expect(await failures()).toEqual({ failures: 1 })
    const res = await deleteAccountCall({ token: leaving.token })
    expect(res.status).toBe(200)
    const deleteAt = Date.parse(((await res.json()) as { deletionScheduledFor: string }).deletionScheduledFor)
    expect((await purgeDueDeletions(env, getDb(env), deleteAt + 1000)).accountsDeleted).toBeGreaterThanOrEqual(1)
    expect(await env.DB.prepare('select id from users where id = ?').bind(leaving.user.id).first()).toBeNull()
    expect(await failures()).toEqual({ failures: 1 })
  })

  it("drops only the mail waiting for the deleted owner: mail waiting for anyone else still goes", async () => {
    const leaving = await register()
    const other = await register()
    const pending = (id: string, to: string) =>
      env.DB.prepare("insert into email_outbox (id, to_address, subject, text, html, kind, status, created_at) values (?, ?, 'Waiting', 'x', 'x', 'notice', 'pending', ?)").bind(id, to, Date.now()).run()
    const leavingMail = `leaving-${leaving.user.id}`
    const otherMail = `other-${other.user.id}`
    await pending(leavingMail, leaving.email.toUpperCase())
    await pending(otherMail, other.email)
    const res = await deleteAccountCall({ token: leaving.token })
    expect(res.status).toBe(200)
    const deleteAt = Date.parse(((await res.json()) as { deletionScheduledFor: string }).deletionScheduledFor)
    expect((await purgeDueDeletions(env, getDb(env), deleteAt + 1000)).accountsDeleted).toBeGreaterThanOrEqual(1)
    const left = async (id: string) => env.DB.prepare('select status from email_outbox where id = ?').bind(id).first<{ status: string }>()
    expect(await left(leavingMail)).toBeNull()
    expect(await left(otherMail)).toEqual({ status: 'pending' })
  })

  it('refuses a second deletion and a call without a session with 401', async () => {
    const account = await register()
    expect((await deleteAccountCall()).status).toBe(401)
    const res = await deleteAccountCall({ cookie: `auth_token=${account.token}` })
    expect(res.status).toBe(200)
    const again = await deleteAccountCall({ token: account.token })
    expect(again.status).toBe(401)
    expect(await messageOf(again)).toBe(AUTH_ERRORS.sessionExpired)
  })

  it('lets an admin delete themselves, unless they are the last admin', async () => {
    await env.DB.prepare(`update users set role = 'owner' where role = 'admin'`).run()
    const first = await register()
    await setAccount(first.user.id, { role: 'admin' })
    const refused = await deleteAccountCall({ token: first.token })
    expect(refused.status).toBe(409)
    expect(await messageOf(refused)).toBe(ACCOUNT_DELETION_MESSAGES.lastAdmin)
    expect((await me(first.token)).status).toBe(200)

    const second = await register()
    await setAccount(second.user.id, { role: 'admin' })
    expect((await deleteAccountCall({ token: first.token })).status).toBe(200)
    // Now the second is the last one staying: the first is waiting out its deletion.
    expect((await deleteAccountCall({ token: second.token })).status).toBe(409)
    expect((await me(second.token)).status).toBe(200)
  })

  it('deletes nothing when billing cannot be cancelled: the sweep tries again', async () => {
    const s = await ownerWithItem()
    await env.DB.prepare(`update users set billing_provider = 'stripe' where id = ?`).bind(s.ownerId).run()
    await mirrorAccount(s.ownerId)
    expect((await deleteAccountCall({ token: s.token })).status).toBe(200)
    const later = Date.now() + DELETION_GRACE_MS + 1000
    await purgeDueDeletions(env, getDb(env), later)
    expect(await env.DB.prepare('select deletion_requested_at from users where id = ?').bind(s.ownerId).first()).not.toBeNull()
    expect(await blobOf(s.ownerId, s.item.id)).not.toBeNull()
  })

  it('leaves blobs R2 failed to delete to the sweep, which deletes them', async () => {
    const s = await ownerWithItem()
    const user = (await getDb(env).query.users.findFirst({ where: (u, { eq }) => eq(u.id, s.ownerId) }))!
    const failingBlobs = {
      list: (options?: R2ListOptions) => env.BLOBS.list(options),
      resumeMultipartUpload: (key: string, id: string) => env.BLOBS.resumeMultipartUpload(key, id),
      delete: async () => {
        throw new Error('R2 is down')
      },
    } as unknown as R2Bucket
    await deleteAccount({ ...env, BLOBS: failingBlobs }, getDb(env), user)
    const left = async () => (await select('blob_deletions', '1', [])).map((r) => r.r2_key)
    // The prefix whose objects R2 did not delete stays recorded, so nothing under it is forgotten.
    const items = `items/${s.ownerId}/`
    expect(await left()).toContain(items)
    expect(await blobOf(s.ownerId, s.item.id)).not.toBeNull()
    expect((await runSweeps(env)).blobPrefixesDeleted).toBeGreaterThanOrEqual(1)
    expect(await blobOf(s.ownerId, s.item.id)).toBeNull()
    expect(await left()).not.toContain(items)
  })
})
