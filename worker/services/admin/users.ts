import { DAY_MS } from '../../../contract/constants'
import { and, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import { ADMIN_MESSAGES, type AdminUser } from '../../../contract/admin'
import { DEFAULT_PLAN } from '../../../contract/plans'
import type { Db } from '../../db/client'
import { batch } from '../../db/raw'
import { users, type UserRow } from '../../db/schema'
import { conflict, notFound } from '../../lib/errors'
import { effectivePlanTier, hasActiveSubscription } from '../users'

// The back office's user management. Pausing revokes every session (sign-in is then refused by
// worker/routes/auth.ts) but leaves the owner's triggers alone: they keep monitoring.

const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired', 'unpaid', 'ended'])
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

/** The status badge (seeds 001 §4): paused, admin, the subscription status, 'active' for a paid plan, else 'free'. */
function statusOf(user: UserRow): string {
  if (user.role === 'admin') return 'admin'
  if (user.pausedAt) return 'paused'
  if (user.subscriptionStatus) return user.subscriptionStatus
  return user.planTier !== 'free' ? 'active' : 'free'
}

/** One account as the back office shows it, with the directory's counts (kept on the row). */
export function toAdminUser(user: UserRow, now = Date.now()): AdminUser {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    planTier: effectivePlanTier(user),
    status: statusOf(user),
    hasActiveSubscription: hasActiveSubscription(user, now),
    pausedAt: iso(user.pausedAt),
    pauseReason: user.pauseReason,
    storageUsed: user.vaultBytes,
    vaultItemCount: user.vaultItems,
    subscriptionPeriodEnd: iso(user.subscriptionPeriodEnd),
    createdAt: new Date(user.createdAt).toISOString(),
  }
}

/** Every account, newest first; `search` filters by e-mail or display name (case-insensitive substring). */
export async function listUsers(db: Db, search?: string): Promise<AdminUser[]> {
  const term = search?.trim().toLowerCase()
  const pattern = term ? `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null
  const rows = await db
    .select()
    .from(users)
    .where(
      pattern
        ? or(sql`lower(${users.email}) like ${pattern} escape '\\'`, sql`lower(${users.displayName}) like ${pattern} escape '\\'`)
        : undefined,
    )
    .orderBy(desc(users.createdAt), desc(users.id))
  const now = Date.now()
  return rows.map((row) => toAdminUser(row, now))
}

const uuid = z.uuid()

/** The account named by a route's id, or 404 'User not found' (a malformed id names nobody). */
export async function findTarget(db: Db, id: string): Promise<UserRow> {
  if (!uuid.safeParse(id).success) throw notFound(ADMIN_MESSAGES.userNotFound)
  const user = await db.query.users.findFirst({ where: eq(users.id, id) })
  if (!user) throw notFound(ADMIN_MESSAGES.userNotFound)
  return user
}

export async function pauseUser(env: Env, db: Db, target: UserRow, reason: string, now = Date.now()): Promise<UserRow> {
  if (target.role === 'admin') throw conflict(ADMIN_MESSAGES.cannotPauseAdmin)
  if (target.pausedAt) throw conflict(ADMIN_MESSAGES.alreadyPaused)
  // One transaction: the pause (only if not paused meanwhile, and not an admin) and its sessions' end.
  const [paused] = await batch(env, [
    sql`update users set paused_at = ${now}, pause_reason = ${reason}, updated_at = ${now}
      where id = ${target.id} and paused_at is null and role <> 'admin'`,
    sql`delete from sessions where user_id = ${target.id} and exists (select 1 from users where id = ${target.id} and paused_at = ${now})`,
  ])
  if ((paused?.meta.changes ?? 0) === 0) throw conflict(ADMIN_MESSAGES.alreadyPaused)
  return reload(db, target.id)
}

export async function resumeUser(db: Db, target: UserRow, now = Date.now()): Promise<UserRow> {
  if (!target.pausedAt) throw conflict(ADMIN_MESSAGES.notPaused)
  const [row] = await db
    .update(users)
    .set({ pausedAt: null, pauseReason: null, updatedAt: now })
    .where(and(eq(users.id, target.id), isNotNull(users.pausedAt)))
    .returning()
  if (!row) throw conflict(ADMIN_MESSAGES.notPaused)
  return row
}

/**
 * Moves the period's end forward by `days` from the later of now and the current end. An ended
 * subscription (or none) becomes active again (on the default plan if the account had none); a
 * cancellation at the period's end stays, at the new end. Only for subscriptions not billed by
 * Stripe: Stripe's own dates win there (409 'Extend through Stripe').
 */
export async function extendUser(db: Db, target: UserRow, days: number, now = Date.now()): Promise<UserRow> {
  if (target.billingProvider === 'stripe' && target.stripeSubscriptionId) throw conflict(ADMIN_MESSAGES.extendThroughStripe)
  const end = Math.max(now, target.subscriptionPeriodEnd ?? now) + days * DAY_MS
  const restart = !target.subscriptionStatus || ENDED_STATUSES.has(target.subscriptionStatus)
  const [row] = await db
    .update(users)
    .set({
      subscriptionPeriodEnd: end,
      ...(restart
        ? { subscriptionStatus: 'active', subscriptionPeriodStart: now, ...(target.planTier === 'free' ? { planTier: DEFAULT_PLAN } : {}) }
        : {}),
      updatedAt: now,
    })
    // Written only over what was read: a concurrent change (a webhook, another extension) wins, then a 409.
    .where(
      and(
        eq(users.id, target.id),
        target.subscriptionPeriodEnd === null ? isNull(users.subscriptionPeriodEnd) : eq(users.subscriptionPeriodEnd, target.subscriptionPeriodEnd),
      ),
    )
    .returning()
  if (!row) throw conflict(ADMIN_MESSAGES.subscriptionChanged)
  return row
}

async function reload(db: Db, id: string): Promise<UserRow> {
  const row = await db.query.users.findFirst({ where: eq(users.id, id) })
  if (!row) throw notFound(ADMIN_MESSAGES.userNotFound)
  return row
}

