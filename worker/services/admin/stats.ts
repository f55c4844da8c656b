import { DAY_MS } from '../../../contract/constants'
import { sql } from 'drizzle-orm'
import type { AdminAnalytics, AdminDashboardData } from '../../../contract/admin'
import type { Db } from '../../db/client'

// The back office's figures, from the rows themselves (all times UTC):
// - totalUsers: every account, administrators included.
// - newSignupsThisMonth: accounts created since the 1st of this calendar month, 00:00 UTC.
// - activeSubscriptions: non-admin accounts that give access now (hasActiveSubscription: not
//   paused, and active or trialing, or past due within its payment grace).
// - upgradesThisMonth: subscriptions made this month on a plan above basic (premium or
//   enterprise). A Stripe plan change rewrites its subscription row's plan without a new row, so
//   it counts only if that subscription was made this month too: we keep no plan history.
// - monthlyRevenue: revenue_days (Stripe's invoice.paid, by the day it was paid) this month, cents.
//   Without billing nothing is paid: 0.
// - refundsThisMonth: refunds recorded this month that did not fail, cents.
// - storageUsedGB: the sum of the directory's vault_bytes (what each owner's object reports of
//   its active items) / 1024^3, to 2 decimals; storageUsedBytes the same sum unrounded (3 MB is
//   0.00 GB, and the card showed it as nothing).

const WEEK_MS = 7 * DAY_MS
const GB = 1024 ** 3

export function monthStart(now: number): number {
  const d = new Date(now)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

/** Monday 00:00 UTC of the ISO week holding `now`. */
export function isoWeekStart(now: number): number {
  const d = new Date(now)
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())
  const sinceMonday = (d.getUTCDay() + 6) % 7
  return midnight - sinceMonday * DAY_MS
}

/** hasActiveSubscription (worker/services/users.ts) as SQL over `users`, administrators excluded. */
const activeNow = (now: number) => sql`role <> 'admin' and paused_at is null and (
  subscription_status in ('active', 'trialing') or (subscription_status = 'past_due' and payment_grace_until > ${now}))`

export async function dashboardData(db: Db, now = Date.now()): Promise<AdminDashboardData> {
  const from = monthStart(now)
  const [row] = await db.all<{
    totalUsers: number
    newSignups: number
    active: number
    upgrades: number
    revenue: number
    refunded: number
    storage: number
  }>(sql`select
      (select count(*) from users) as totalUsers,
      (select count(*) from users where created_at >= ${from}) as newSignups,
      (select count(*) from users where ${activeNow(now)}) as active,
      (select count(*) from subscriptions where created_at >= ${from} and plan in ('premium', 'enterprise')) as upgrades,
      (select coalesce(sum(amount_paid), 0) from revenue_days where day >= ${Math.floor(from / DAY_MS)}) as revenue,
      (select coalesce(sum(amount), 0) from refunds where status <> 'failed' and created_at >= ${from}) as refunded,
      (select coalesce(sum(vault_bytes), 0) from users) as storage`)
  return {
    totalUsers: Number(row?.totalUsers ?? 0),
    newSignupsThisMonth: Number(row?.newSignups ?? 0),
    activeSubscriptions: Number(row?.active ?? 0),
    upgradesThisMonth: Number(row?.upgrades ?? 0),
    monthlyRevenue: Number(row?.revenue ?? 0),
    refundsThisMonth: Number(row?.refunded ?? 0),
    storageUsedGB: Math.round((Number(row?.storage ?? 0) / GB) * 100) / 100,
    storageUsedBytes: Number(row?.storage ?? 0),
  }
}

export const ANALYTICS_WEEKS = 12

/**
 * The last 12 ISO weeks (this one included), oldest first. Signups and revenue are exact (users
 * by their creation, revenue by the day it was paid). Active subscriptions at the end of each week are an
 * APPROXIMATION, since no subscription history is kept: a non-admin account counts from its first
 * subscription (or, with none recorded, from its creation: without billing every account gets a
 * plan at once) until now if it gives access today, or until its subscription_period_end if not;
 * accounts that never had a status never count. Past pauses, payment issues and deleted accounts
 * are not seen. The current week's point is "so far" (its end is capped at now).
 */
export async function analytics(db: Db, now = Date.now()): Promise<AdminAnalytics> {
  const first = isoWeekStart(now) - (ANALYTICS_WEEKS - 1) * WEEK_MS
  const bucket = (column: string) => sql.raw(`cast((${column} - ${first}) / ${WEEK_MS} as integer)`)
  const [signups, revenue, subscribers] = await Promise.all([
    db.all<{ w: number; n: number }>(sql`select ${bucket('created_at')} as w, count(*) as n from users where created_at >= ${first} group by w`),
    db.all<{ w: number; n: number }>(
      sql`select ${bucket(`day * ${DAY_MS}`)} as w, coalesce(sum(amount_paid), 0) as n from revenue_days where day >= ${first / DAY_MS} group by w`,
    ),
    db.all<{ since: number; active: number; periodEnd: number | null }>(sql`select
        coalesce((select min(s.created_at) from subscriptions s where s.user_id = u.id), u.created_at) as since,
        (case when ${activeNow(now)} then 1 else 0 end) as active,
        u.subscription_period_end as periodEnd
      from users u where u.role <> 'admin' and u.subscription_status is not null`),
  ])
  const byWeek = (rows: { w: number; n: number }[]) => new Map(rows.map((r) => [Number(r.w), Number(r.n)]))
  const signupsBy = byWeek(signups)
  const revenueBy = byWeek(revenue)
  const weeks: AdminAnalytics['weeks'] = []
  for (let i = 0; i < ANALYTICS_WEEKS; i++) {
    const start = first + i * WEEK_MS
    const end = Math.min(start + WEEK_MS, now)
    const activeSubscriptions = subscribers.filter(
      (s) => s.since < end && (s.active === 1 || (s.periodEnd !== null && s.periodEnd >= end)),
    ).length
    weeks.push({ weekStart: new Date(start).toISOString(), signups: signupsBy.get(i) ?? 0, activeSubscriptions, revenue: revenueBy.get(i) ?? 0 })
  }
  return { weeks }
}
