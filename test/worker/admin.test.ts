import { mirrorAccount } from '../../worker/owner/account'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { DEFAULT_PLAN } from '../../contract/plans'
import { describe, expect, it } from 'vitest'
import { app } from '../../worker/app'
import {
  ADMIN_MESSAGES,
  type AdminAction,
  type AdminAnalytics,
  type AdminDashboardData,
  type AdminPromoCode,
  type AdminRefund,
  type AdminUser,
  type AdminUserPage,
} from '../../contract/admin'
import { AUTH_ERRORS } from '../../contract/messages'
import { createTrigger } from './engine-helpers'
import { call, env, login, me, messageOf, register, uniqueEmail, ownerSessions } from './helpers'
import { ownerRow, seedVaultUsage } from './owner-helpers'
import { ownerWithBeneficiary, uploadItem } from './vault-helpers'

// The back office (/api/admin/*): the admin guard, the dashboard's figures, user management,
// promotion codes, refunds, analytics and the administrators' trail. Storage is per file, so the
// figures are compared before and after seeding.

const DAY_MS = 86_400_000

async function admin() {
  const a = await register({ email: uniqueEmail('admin'), displayName: 'Ada Admin' })
  await env.DB.prepare(`update users set role = 'admin' where id = ?`).bind(a.user.id).run()
  await mirrorAccount(a.user.id)
  return a
}

async function json<T>(res: Response, status = 200): Promise<T> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`)
  return (await res.json()) as T
}

const dashboard = async (token: string) => json<AdminDashboardData>(await call('/api/admin/dashboard', { token }))
const usersPage = async (token: string, query: { q?: string; cursor?: string; limit?: number } = {}) => {
  const params = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])))
  const res = await call(`/api/admin/users?${params}`, { token })
  const rowsRead = Number(res.headers.get('x-d1-rows-read'))
  return { ...(await json<AdminUserPage>(res)), rowsRead }
}
/** Every page of a listing, walked with `limit`. */
async function allPages(token: string, query: { q?: string; limit?: number } = {}, between?: () => Promise<void>) {
  const seen: AdminUser[] = []
  let cursor: string | undefined
  for (let i = 0; i < 1000; i++) {
    const page = await usersPage(token, { ...query, cursor })
    seen.push(...page.users)
    if (page.nextCursor === null) return seen
    cursor = page.nextCursor
    await between?.()
  }
  throw new Error('the pages never end')
}
const users = async (token: string, q?: string) => allPages(token, { q, limit: 100 })
const actions = async (token: string) => json<AdminAction[]>(await call('/api/admin/actions', { token }))

const SOME_ID = '00000000-0000-4000-8000-000000000000'
const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/admin/dashboard'],
  ['GET', '/api/admin/analytics'],
  ['GET', '/api/admin/actions'],
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/users?q=a&limit=5'],
  ['POST', `/api/admin/users/${SOME_ID}/pause`, { reason: 'x' }],
  ['POST', `/api/admin/users/${SOME_ID}/resume`],
  ['POST', `/api/admin/users/${SOME_ID}/extend`, { days: 5 }],
  ['DELETE', `/api/admin/users/${SOME_ID}`],
  ['GET', '/api/admin/promo-codes'],
  ['POST', '/api/admin/promo-codes', { code: 'NOPE' }],
  ['DELETE', `/api/admin/promo-codes/${SOME_ID}`],
  ['GET', '/api/admin/refunds'],
  ['POST', '/api/admin/refunds', { userId: SOME_ID, amount: 1, reason: 'x' }],
]


/** A paid invoice as Stripe's invoice.paid webhook records it: added to its day's revenue. */
const paidOn = (at: number, cents: number) =>
  env.DB.prepare('insert into revenue_days (day, amount_paid) values (?, ?) on conflict (day) do update set amount_paid = amount_paid + excluded.amount_paid').bind(
    Math.floor(at / 86_400_000),
    cents,
  )

describe('the admin guard', () => {
  it('answers 401 without a token, 403 for an owner, and lets an admin (by the database role) through', async () => {
    const owner = await register()
    const a = await admin()
    for (const [method, path, body] of ROUTES) {
      const anonymous = await call(path, { method, body })
      expect(anonymous.status, `${method} ${path} anonymous`).toBe(401)
      const asOwner = await call(path, { method, body, token: owner.token })
      expect(asOwner.status, `${method} ${path} owner`).toBe(403)
      expect(await messageOf(asOwner)).toBe(ADMIN_MESSAGES.adminOnly)
      const asAdmin = await call(path, { method, body, token: a.token })
      expect([401, 403], `${method} ${path} admin`).not.toContain(asAdmin.status)
    }
    expect((await call('/api/admin/dashboard', { token: 'not-a-token' })).status).toBe(401)
    // The role is read from the database on each call: demoted, the same token is refused.
    await env.DB.prepare(`update users set role = 'owner' where id = ?`).bind(a.user.id).run()
    await mirrorAccount(a.user.id)
    expect((await call('/api/admin/dashboard', { token: a.token })).status).toBe(403)
  })
})

describe('the dashboard', () => {
  it('counts users, signups, active subscriptions, upgrades, revenue, refunds and storage from the rows', async () => {
    const a = await admin()
    const before = await dashboard(a.token)
    const now = Date.now()
    const thisMonth = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1) + 1000
    const lastMonth = thisMonth - 40 * DAY_MS

    const [u1, u2, u3] = [await register(), await register(), await register()]
    // One signup dated last month; one paused (no longer active).
    await env.DB.prepare('update users set created_at = ? where id = ?').bind(lastMonth, u3.user.id).run()
    await mirrorAccount(u3.user.id)
    await env.DB.prepare('update users set paused_at = ? where id = ?').bind(now, u2.user.id).run()
    await mirrorAccount(u2.user.id)
    // Storage is what each owner's object reports to the directory.
    await seedVaultUsage(u1.user.id, { items: 2, bytes: 3 * 1024 ** 3 })
    await seedVaultUsage(u2.user.id, { items: 1, bytes: 512 * 1024 ** 2 })
    // Upgrades: premium and enterprise count, basic does not.
    expect((await call('/api/create-subscription', { token: u1.token, body: { plan: 'premium' } })).status).toBe(200)
    expect((await call('/api/create-subscription', { token: u3.token, body: { plan: 'enterprise' } })).status).toBe(200)
    await env.DB.batch([paidOn(thisMonth, 2999), paidOn(now, 999), paidOn(lastMonth, 5000)])
    const insertRefund = env.DB.prepare(
      `insert into refunds (id, user_id, user_email, user_plan, amount, reason, status, created_by, created_at) values (?, ?, 'x@example.com', 'basic', ?, 'r', ?, ?, ?)`,
    )
    await env.DB.batch([
      insertRefund.bind(crypto.randomUUID(), u1.user.id, 500, 'completed', a.user.id, now),
      insertRefund.bind(crypto.randomUUID(), u1.user.id, 700, 'failed', a.user.id, now),
      insertRefund.bind(crypto.randomUUID(), u1.user.id, 900, 'completed', a.user.id, lastMonth),
    ])

    const after = await dashboard(a.token)
    expect(after.totalUsers - before.totalUsers).toBe(3)
    expect(after.newSignupsThisMonth - before.newSignupsThisMonth).toBe(2)
    // u1 and u3 active (without billing every account has a plan); u2 paused; admins never count.
    expect(after.activeSubscriptions - before.activeSubscriptions).toBe(2)
    expect(after.upgradesThisMonth - before.upgradesThisMonth).toBe(2)
    expect(after.monthlyRevenue - before.monthlyRevenue).toBe(2999 + 999)
    expect(after.refundsThisMonth - before.refundsThisMonth).toBe(500)
    expect(Math.round((after.storageUsedGB - before.storageUsedGB) * 100) / 100).toBe(3.5)
    expect(after.storageUsedBytes - before.storageUsedBytes).toBe(3.5 * 1024 ** 3)
  })

  it('storage: a few megabytes uploaded show as their bytes on the dashboard and the user row, not as nothing', async () => {
    const a = await admin()
    const before = await dashboard(a.token)
    const { token, beneficiary, owner } = await ownerWithBeneficiary()
    await uploadItem(token, [beneficiary.id], 3_250_000)
    const after = await dashboard(a.token)
    const row = (await users(a.token, owner.email)).find((u) => u.id === owner.user.id)!
    // What the owner's object reported to the directory: the ciphertext, a little over the 3.1 MB.
    expect(row.storageUsed).toBeGreaterThan(3_250_000)
    expect(row.storageUsed).toBeLessThan(3_400_000)
    expect(row.vaultItemCount).toBe(1)
    expect(after.storageUsedBytes - before.storageUsedBytes).toBe(row.storageUsed)
    // The gigabytes alone round 3 MB away: the card reads the bytes.
    expect(after.storageUsedGB - before.storageUsedGB).toBeLessThan(0.01)
  })

  it('analytics: 12 ISO weeks from a Monday, oldest first, with signups and revenue', async () => {
    const a = await admin()
    const before = await json<AdminAnalytics>(await call('/api/admin/analytics', { token: a.token }))
    await register()
    await paidOn(Date.now(), 1234).run()
    const after = await json<AdminAnalytics>(await call('/api/admin/analytics', { token: a.token }))
    expect(after.weeks).toHaveLength(12)
    for (const [i, w] of after.weeks.entries()) {
      const start = new Date(w.weekStart)
      expect(start.getUTCDay()).toBe(1)
      expect(start.getUTCHours() + start.getUTCMinutes()).toBe(0)
      if (i > 0) expect(start.getTime() - new Date(after.weeks[i - 1]!.weekStart).getTime()).toBe(7 * DAY_MS)
    }
    const last = after.weeks[11]!
    const lastBefore = before.weeks[11]!
    expect(Date.now() - new Date(last.weekStart).getTime()).toBeLessThan(7 * DAY_MS)
    expect(last.signups - lastBefore.signups).toBe(1)
    expect(last.revenue - lastBefore.revenue).toBe(1234)
    expect(last.activeSubscriptions - lastBefore.activeSubscriptions).toBe(1)
  })
})

describe('users', () => {
  it('lists every account with its admin fields, and searches e-mail and display name', async () => {
    const a = await admin()
    const u = await register({ displayName: 'Zebediah Searchable' })
    const list = await users(a.token)
    const row = list.find((x) => x.id === u.user.id)!
    expect(row).toMatchObject({
      email: u.email,
      displayName: 'Zebediah Searchable',
      planTier: 'basic',
      status: 'active',
      hasActiveSubscription: true,
      pausedAt: null,
      pauseReason: null,
      storageUsed: 0,
      vaultItemCount: 0,
    })
    expect(row.subscriptionPeriodEnd).not.toBeNull()
    expect(list.find((x) => x.id === a.user.id)).toMatchObject({ planTier: 'admin', status: 'admin' })
    expect((await users(a.token, 'zebediah SEARCH')).map((x) => x.id)).toEqual([u.user.id])
    expect((await users(a.token, u.email.toUpperCase())).map((x) => x.id)).toEqual([u.user.id])
    expect(await users(a.token, 'no-such-person-%_')).toEqual([])
  })

  it('pause revokes the sessions and refuses sign-in, leaves triggers alone; resume lets the owner in again', async () => {
    const a = await admin()
    const u = await register()
    const trigger = await createTrigger(u.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })

    const missingReason = await call(`/api/admin/users/${u.user.id}/pause`, { token: a.token, body: { reason: '  ' } })
    expect(missingReason.status).toBe(400)
    expect(await messageOf(missingReason)).toContain(ADMIN_MESSAGES.reasonRequired)

    const paused = await json<AdminUser>(await call(`/api/admin/users/${u.user.id}/pause`, { token: a.token, body: { reason: 'Chargeback' } }))
    expect(paused).toMatchObject({ planTier: 'paused', status: 'paused', pauseReason: 'Chargeback', hasActiveSubscription: false })
    expect((await me(u.token)).status).toBe(401)
    const refused = await login(u.email, u.password)
    expect(refused.status).toBe(403)
    expect(await messageOf(refused)).toBe(AUTH_ERRORS.accountPaused)
    const row = await ownerRow<{ status: string }>(u.user.id, 'select status from triggers where id = ?', trigger.id)
    expect(row?.status).toBe('active')

    const again = await call(`/api/admin/users/${u.user.id}/pause`, { token: a.token, body: { reason: 'again' } })
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(ADMIN_MESSAGES.alreadyPaused)
    const pauseAdmin = await call(`/api/admin/users/${a.user.id}/pause`, { token: a.token, body: { reason: 'x' } })
    expect(pauseAdmin.status).toBe(409)
    expect(await messageOf(pauseAdmin)).toBe(ADMIN_MESSAGES.cannotPauseAdmin)

    const resumed = await json<AdminUser>(await call(`/api/admin/users/${u.user.id}/resume`, { token: a.token, method: 'POST' }))
    expect(resumed).toMatchObject({ pausedAt: null, pauseReason: null, planTier: 'basic', hasActiveSubscription: true })
    expect((await login(u.email, u.password)).status).toBe(200)
    const notPaused = await call(`/api/admin/users/${u.user.id}/resume`, { token: a.token, method: 'POST' })
    expect(notPaused.status).toBe(409)
    expect(await messageOf(notPaused)).toBe(ADMIN_MESSAGES.notPaused)
  })

  it('extend moves the period end forward from the later of now and the end, and restarts an ended subscription', async () => {
    const a = await admin()
    const u = await register()
    const end = (await env.DB.prepare('select subscription_period_end as e from users where id = ?').bind(u.user.id).first<{ e: number }>())!.e
    const extended = await json<AdminUser>(await call(`/api/admin/users/${u.user.id}/extend`, { token: a.token, body: { days: 10 } }))
    expect(Date.parse(extended.subscriptionPeriodEnd!)).toBe(end + 10 * DAY_MS)

    await env.DB.prepare(`update users set subscription_status = 'canceled', subscription_period_end = ? where id = ?`)
      .bind(Date.now() - 5 * DAY_MS, u.user.id)
      .run()
    await mirrorAccount(u.user.id)
    const t0 = Date.now()
    const restarted = await json<AdminUser>(await call(`/api/admin/users/${u.user.id}/extend`, { token: a.token, body: { days: 3 } }))
    expect(restarted).toMatchObject({ status: 'active', hasActiveSubscription: true })
    const newEnd = Date.parse(restarted.subscriptionPeriodEnd!)
    expect(newEnd).toBeGreaterThanOrEqual(t0 + 3 * DAY_MS)
    expect(newEnd).toBeLessThan(t0 + 3 * DAY_MS + 60_000)

    for (const days of [0, -1, 1.5, 'x']) {
      const bad = await call(`/api/admin/users/${u.user.id}/extend`, { token: a.token, body: { days } })
      expect(bad.status).toBe(400)
      expect(await messageOf(bad)).toContain(ADMIN_MESSAGES.daysPositive)
    }
  })

  it('extending an account that never had a plan starts it on the default plan, not left on free', async () => {
    const a = await admin()
    const u = await register()
    await env.DB.prepare(`update users set plan_tier = 'free', subscription_status = null, subscription_period_end = null where id = ?`).bind(u.user.id).run()
    await mirrorAccount(u.user.id)
    const restarted = await json<AdminUser>(await call(`/api/admin/users/${u.user.id}/extend`, { token: a.token, body: { days: 30 } }))
    expect(restarted).toMatchObject({ status: 'active', hasActiveSubscription: true, planTier: DEFAULT_PLAN })
    expect(await env.DB.prepare('select plan_tier from users where id = ?').bind(u.user.id).first()).toEqual({ plan_tier: DEFAULT_PLAN })
  })

  it('will not extend a subscription Stripe bills: 409, and its period end is left as Stripe set it', async () => {
    const a = await admin()
    const u = await register()
    await env.DB.prepare(`update users set billing_provider = 'stripe', stripe_subscription_id = 'sub_by_stripe' where id = ?`).bind(u.user.id).run()
    const before = await env.DB.prepare('select subscription_period_end as e from users where id = ?').bind(u.user.id).first()
    const res = await call(`/api/admin/users/${u.user.id}/extend`, { token: a.token, body: { days: 10 } })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(ADMIN_MESSAGES.extendThroughStripe)
    expect(await env.DB.prepare('select subscription_period_end as e from users where id = ?').bind(u.user.id).first()).toEqual(before)
  })

  it('the dashboard counts an owner with a payment issue as a subscriber only while their grace runs', async () => {
    const a = await admin()
    const before = await dashboard(a.token)
    const [inGrace, lapsed] = [await register(), await register()]
    const pastDue = env.DB.prepare(`update users set subscription_status = 'past_due', payment_grace_until = ? where id = ?`)
    await env.DB.batch([pastDue.bind(Date.now() + 3 * DAY_MS, inGrace.user.id), pastDue.bind(Date.now() - 1000, lapsed.user.id)])
    const after = await dashboard(a.token)
    expect(after.activeSubscriptions - before.activeSubscriptions).toBe(1)
  })

  it('answers 404 User not found for unknown and malformed ids', async () => {
    const a = await admin()
    for (const id of [SOME_ID, 'not-a-uuid']) {
      for (const [method, suffix, body] of [
        ['POST', '/pause', { reason: 'x' }],
        ['POST', '/resume', undefined],
        ['POST', '/extend', { days: 1 }],
        ['DELETE', '', undefined],
      ] as const) {
        const res = await call(`/api/admin/users/${id}${suffix}`, { token: a.token, method, body })
        expect(res.status, `${method} ${suffix} ${id}`).toBe(404)
        expect(await messageOf(res)).toBe(ADMIN_MESSAGES.userNotFound)
      }
    }
  })

  it('delete purges the account as its own deletion does, and an admin cannot delete themselves here', async () => {
    const a = await admin()
    const u = await register()
    const self = await call(`/api/admin/users/${a.user.id}`, { token: a.token, method: 'DELETE' })
    expect(self.status).toBe(409)
    expect(await messageOf(self)).toBe(ADMIN_MESSAGES.cannotDeleteSelf)

    const res = await json<{ message: string; deletedUserEmail: string }>(await call(`/api/admin/users/${u.user.id}`, { token: a.token, method: 'DELETE' }))
    expect(res).toEqual({ message: ADMIN_MESSAGES.userDeleted, deletedUserEmail: u.email })
    expect(await env.DB.prepare('select id from users where id = ?').bind(u.user.id).first()).toBeNull()
    expect(await ownerSessions(u.user.id, 'select id from sessions').first()).toBeNull()
    expect((await me(u.token)).status).toBe(401)
    expect((await call(`/api/admin/users/${u.user.id}`, { token: a.token, method: 'DELETE' })).status).toBe(404)
  })
})

/** `n` accounts in one statement, created at `at + i` (1 ms apart), e-mails `${tag}-<i>@example.com`, names `${name} <i>`. */
async function seedAccounts(tag: string, n: number, at: number, name = 'Seeded Person') {
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1)
     insert into users (id, email, password_hash, display_name, created_at, updated_at)
     select lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       ?2 || '-' || printf('%04d', i) || '@example.com', 'x', ?3 || ' ' || printf('%04d', i), ?4 + i, ?4 + i from n`,
  )
    .bind(n, tag, name, at)
    .run()
}

describe('the users list in pages', () => {
  it('pages newest first by a cursor, stable while accounts are added between pages, ties broken by id', async () => {
    const a = await admin()
    // Far in the future, so these are the newest accounts whatever else the file made.
    const at = Date.UTC(2200, 0, 1)
    await seedAccounts('paging', 9, at)
    // Three accounts with one creation time, across a page boundary (pages of 2: 9 8 | 7 t | t t).
    await env.DB.prepare('update users set created_at = ? where email in (?, ?)').bind(at + 6, 'paging-0004@example.com', 'paging-0005@example.com').run()
    const expected = await env.DB.prepare('select id from users order by created_at desc, id desc').all<{ id: string }>()
    let added = 0
    const walked = await allPages(a.token, { limit: 2 }, async () => {
      // Newer accounts arrive while the admin reads: they do not shift the pages being read.
      added++
      await seedAccounts(`paging-late${added}`, 1, at + 1000 + added)
    })
    expect(walked.map((u) => u.id)).toEqual(expected.results.map((r) => r.id))
    expect(new Set(walked.map((u) => u.id)).size).toBe(walked.length)
    expect(new Set(walked.slice(0, 9).map((u) => u.email))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `paging-000${i}@example.com`)))
    const times = walked.map((u) => Date.parse(u.createdAt))
    expect(times.every((t, i) => i === 0 || t <= times[i - 1]!)).toBe(true)
    // The tie: the larger id first, whichever page each fell on.
    const tied = walked.filter((u) => Date.parse(u.createdAt) === at + 6).map((u) => u.id)
    expect(tied).toHaveLength(3)
    expect(tied).toEqual([...tied].sort().reverse())
    // The first page still starts with the newest: the late ones.
    const first = await usersPage(a.token, { limit: 3 })
    expect(first.users.map((u) => u.email)).toEqual([added, added - 1, added - 2].map((i) => `paging-late${i}-0001@example.com`))
  })

  it('takes 1 to 100 at a time (50 unless asked), and an empty parameter is no parameter', async () => {
    const a = await admin()
    await seedAccounts('bounds', 120, Date.UTC(2100, 0, 1))
    expect((await usersPage(a.token)).users).toHaveLength(50)
    expect((await json<AdminUserPage>(await call('/api/admin/users?cursor=&limit=&q=', { token: a.token }))).users).toHaveLength(50)
    const hundred = await usersPage(a.token, { limit: 100 })
    expect(hundred.users).toHaveLength(100)
    expect(hundred.nextCursor).not.toBeNull()
    expect((await usersPage(a.token, { limit: 1 })).users).toHaveLength(1)
    for (const limit of ['0', '101', '-1', '2.5', 'ten']) {
      const res = await call(`/api/admin/users?limit=${limit}`, { token: a.token })
      expect(res.status, limit).toBe(400)
      expect(await messageOf(res)).toContain(ADMIN_MESSAGES.badPageSize)
    }
  })

  it('searches by the start of an e-mail or a name, any case, on the server, in pages; not by the middle', async () => {
    const a = await admin()
    const tag = `srch${crypto.randomUUID().slice(0, 6)}`
    await seedAccounts(tag, 5, Date.UTC(2150, 0, 1), 'Quillon Vantress')
    // One matched by its name only, one by both (listed once).
    const byName = await register({ displayName: `${tag.toUpperCase()} Hollis` })
    const both = await register({ email: `${tag}-zz@example.com`, displayName: `${tag} Zed` })
    const found = await allPages(a.token, { q: tag.toUpperCase(), limit: 2 })
    // Each under the first of what matched, A to Z: "<tag> hollis", "<tag> zed" (its name comes
    // before its address), then the addresses ('<space>' sorts before '-').
    expect(found.map((u) => u.email)).toEqual([byName.email, both.email, ...[1, 2, 3, 4, 5].map((i) => `${tag}-000${i}@example.com`)])
    expect(found.filter((u) => u.id === both.user.id)).toHaveLength(1)
    // By the name's start, any case; a word in the middle finds nothing.
    expect((await users(a.token, 'quillon VANT')).filter((u) => u.email.startsWith(tag))).toHaveLength(5)
    expect((await users(a.token, 'Vantress')).filter((u) => u.email.startsWith(tag))).toHaveLength(0)
    expect(await users(a.token, `${tag}-0003@EXAMPLE.com`)).toHaveLength(1)
    expect(await users(a.token, 'no-such-person-%_')).toEqual([])
    // Wildcards are letters like any other.
    expect(await users(a.token, `${tag.slice(0, 3)}%`)).toEqual([])
  })

  it('reads about one page of rows per page, not the table', async () => {
    const a = await admin()
    await seedAccounts('rows', 400, Date.UTC(2050, 0, 1), 'Rowan Reader')
    const total = Number((await env.DB.prepare('select count(*) as n from users').first<{ n: number }>())!.n)
    expect(total).toBeGreaterThan(400)
    const first = await usersPage(a.token, { limit: 20 })
    expect(first.rowsRead).toBeGreaterThan(0)
    expect(first.rowsRead).toBeLessThanOrEqual(3 * 21)
    let deep = first
    for (let i = 0; i < 10; i++) deep = await usersPage(a.token, { limit: 20, cursor: deep.nextCursor! })
    expect(deep.users).toHaveLength(20)
    expect(deep.rowsRead).toBeLessThanOrEqual(3 * 21)
    const search = await usersPage(a.token, { limit: 20, q: 'rows-01' })
    expect(search.users.map((u) => u.email)).toEqual(Array.from({ length: 20 }, (_, i) => `rows-01${String(i).padStart(2, '0')}@example.com`))
    expect(search.rowsRead).toBeLessThanOrEqual(4 * 21)
    const byName = await usersPage(a.token, { limit: 20, q: 'rowan reader 02', cursor: undefined })
    expect(byName.users).toHaveLength(20)
    expect(byName.rowsRead).toBeLessThanOrEqual(4 * 21)
  })

  it('tells how many rows a page read only locally, never from a deployed worker', async () => {
    const a = await admin()
    expect((await call('/api/admin/users?limit=1', { token: a.token })).headers.get('x-d1-rows-read')).toMatch(/^\d+$/)
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request('http://localhost/api/admin/users?limit=1', { headers: { authorization: `Bearer ${a.token}` } }),
      { ...env, ENVIRONMENT: 'production' },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-d1-rows-read')).toBeNull()
  })

  it('refuses a cursor it did not give, or one from another listing, in plain words', async () => {
    const a = await admin()
    await seedAccounts('cursor', 3, Date.UTC(2120, 0, 1))
    const plain = await usersPage(a.token, { limit: 1 })
    const searched = await usersPage(a.token, { limit: 1, q: 'cursor-' })
    expect(plain.nextCursor).not.toBeNull()
    expect(searched.nextCursor).not.toBeNull()
    const flipped = (c: string) => `${c.slice(0, 5)}${c[5] === 'A' ? 'B' : 'A'}${c.slice(6)}`
    const decoded = JSON.parse(atob(plain.nextCursor!.replace(/-/g, '+').replace(/_/g, '/')))
    const forged = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    const bad = [
      'not-a-cursor',
      flipped(plain.nextCursor!),
      forged([decoded[0], 'yesterday', decoded[2]]),
      forged([decoded[0], decoded[1], 'not-an-id']),
      forged({ after: 1 }),
      `${plain.nextCursor}@@`,
    ]
    for (const cursor of bad) {
      const res = await call(`/api/admin/users?cursor=${encodeURIComponent(cursor)}`, { token: a.token })
      expect(res.status, cursor).toBe(400)
      expect(await messageOf(res)).toBe(ADMIN_MESSAGES.badCursor)
    }
    // A search's cursor in the plain list, and the plain list's in a search.
    for (const url of [`/api/admin/users?cursor=${searched.nextCursor}`, `/api/admin/users?q=cursor-&cursor=${plain.nextCursor}`]) {
      const res = await call(url, { token: a.token })
      expect(res.status, url).toBe(400)
      expect(await messageOf(res)).toBe(ADMIN_MESSAGES.badCursor)
    }
  })
})

describe('promotion codes', () => {
  it('creates upper-cased with defaults, refuses duplicates, deletes only unused codes', async () => {
    const a = await admin()
    const code = `spring${crypto.randomUUID().slice(0, 6)}`
    const created = await json<AdminPromoCode>(await call('/api/admin/promo-codes', { token: a.token, body: { code } }), 201)
    expect(created).toMatchObject({
      code: code.toUpperCase(),
      description: '',
      type: 'percentage',
      value: 0,
      maxUses: 100,
      usedCount: 0,
      validUntil: null,
      isActive: true,
    })
    const dup = await call('/api/admin/promo-codes', { token: a.token, body: { code: code.toUpperCase() } })
    expect(dup.status).toBe(409)
    expect(await messageOf(dup)).toBe(ADMIN_MESSAGES.promoExists)
    expect((await call('/api/admin/promo-codes', { token: a.token, body: { code: '' } })).status).toBe(400)

    const dated = await json<AdminPromoCode>(
      await call('/api/admin/promo-codes', {
        token: a.token,
        body: { code: `${code}b`, type: 'fixed_amount', value: 5, maxUses: 3, validUntil: '2099-12-31', description: 'Five off' },
      }),
      201,
    )
    expect(dated).toMatchObject({ type: 'fixed_amount', value: 5, maxUses: 3, validUntil: '2099-12-31', description: 'Five off' })
    const list = await json<AdminPromoCode[]>(await call('/api/admin/promo-codes', { token: a.token }))
    expect(list.map((p) => p.id)).toEqual(expect.arrayContaining([created.id, dated.id]))

    // Used once (through a subscription), it stays.
    const owner = await register()
    expect((await call('/api/create-subscription', { token: owner.token, body: { plan: 'premium', promoCode: dated.code } })).status).toBe(200)
    const inUse = await call(`/api/admin/promo-codes/${dated.id}`, { token: a.token, method: 'DELETE' })
    expect(inUse.status).toBe(409)
    expect(await messageOf(inUse)).toBe(ADMIN_MESSAGES.promoInUse)

    expect((await call(`/api/admin/promo-codes/${created.id}`, { token: a.token, method: 'DELETE' })).status).toBe(200)
    const gone = await call(`/api/admin/promo-codes/${created.id}`, { token: a.token, method: 'DELETE' })
    expect(gone.status).toBe(404)
    expect(await messageOf(gone)).toBe(ADMIN_MESSAGES.promoNotFound)
  })
})

describe('refunds', () => {
  it('takes dollars, stores and lists cents (newest first), and refuses bad amounts and reasons', async () => {
    const a = await admin()
    const u = await register()
    const refund = await json<AdminRefund>(
      await call('/api/admin/refunds', { token: a.token, body: { userId: u.user.id, amount: 12.34, reason: 'Double charge', subscriptionId: 'manual_refund' } }),
      201,
    )
    expect(refund).toMatchObject({ amount: 1234, reason: 'Double charge', status: 'completed', user: { id: u.user.id, email: u.email, planTier: 'basic' } })
    const stored = await env.DB.prepare('select amount, created_by as by from refunds where id = ?').bind(refund.id).first<{ amount: number; by: string }>()
    expect(stored).toEqual({ amount: 1234, by: a.user.id })

    const second = await json<AdminRefund>(await call('/api/admin/refunds', { token: a.token, body: { userId: u.user.id, amount: 1, reason: 'Goodwill' } }), 201)
    const list = await json<AdminRefund[]>(await call('/api/admin/refunds', { token: a.token }))
    const ours = list.filter((r) => r.user.id === u.user.id)
    expect(ours.map((r) => [r.id, r.amount])).toEqual([
      [second.id, 100],
      [refund.id, 1234],
    ])

    for (const body of [
      { userId: u.user.id, amount: 0, reason: 'x' },
      { userId: u.user.id, amount: -5, reason: 'x' },
      { userId: u.user.id, amount: 5 },
      { userId: u.user.id, amount: 5, reason: '   ' },
      { userId: u.user.id, reason: 'x' },
      { userId: u.user.id, amount: 10_000.01, reason: 'x' },
    ]) {
      expect((await call('/api/admin/refunds', { token: a.token, body })).status, JSON.stringify(body)).toBe(400)
    }
    const unknown = await call('/api/admin/refunds', { token: a.token, body: { userId: SOME_ID, amount: 1, reason: 'x' } })
    expect(unknown.status).toBe(404)
    expect(await messageOf(unknown)).toBe(ADMIN_MESSAGES.userNotFound)
  })
})

describe('the admin trail', () => {
  it('records pause, resume, extend, refund, delete and promo create/delete, newest first, without reasons or e-mails', async () => {
    const a = await admin()
    const u = await register()
    const post = (path: string, body?: unknown) => call(path, { token: a.token, method: 'POST', body })
    expect((await post(`/api/admin/users/${u.user.id}/pause`, { reason: 'Secret reason' })).status).toBe(200)
    expect((await post(`/api/admin/users/${u.user.id}/resume`)).status).toBe(200)
    expect((await post(`/api/admin/users/${u.user.id}/extend`, { days: 2 })).status).toBe(200)
    expect((await post('/api/admin/refunds', { userId: u.user.id, amount: 2.5, reason: 'Secret reason' })).status).toBe(201)
    const promo = await json<AdminPromoCode>(await post('/api/admin/promo-codes', { code: `trail${crypto.randomUUID().slice(0, 6)}` }), 201)
    expect((await call(`/api/admin/promo-codes/${promo.id}`, { token: a.token, method: 'DELETE' })).status).toBe(200)
    expect((await call(`/api/admin/users/${u.user.id}`, { token: a.token, method: 'DELETE' })).status).toBe(200)

    const trail = (await actions(a.token)).filter((x) => x.adminId === a.user.id)
    expect(trail.map((x) => x.action)).toEqual(['user.delete', 'promo.delete', 'promo.create', 'refund.create', 'user.extend', 'user.resume', 'user.pause'])
    expect(trail.every((x) => x.adminEmail === a.email)).toBe(true)
    expect(trail.find((x) => x.action === 'refund.create')).toMatchObject({ targetUserId: u.user.id, details: { amount: 250 } })
    expect(trail.find((x) => x.action === 'user.extend')?.details.days).toBe(2)
    expect(trail.find((x) => x.action === 'user.delete')?.targetUserId).toBe(u.user.id)
    const text = JSON.stringify(trail)
    expect(text).not.toContain('Secret reason')
    expect(text).not.toContain(u.email)
  })
})
