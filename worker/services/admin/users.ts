import { DAY_MS } from '../../../contract/constants'
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import { z } from 'zod'
import { ADMIN_MESSAGES, type AdminUser, type AdminUserPage } from '../../../contract/admin'
import { DEFAULT_PLAN } from '../../../contract/plans'
import type { Db } from '../../db/client'
import { batch, statement } from '../../db/raw'
import { users, type UserRow } from '../../db/schema'
import { mirrorAccount } from '../../owner/account'
import { ownerVault } from '../../owner/client'
import { fromBase64Url, toBase64Url } from '../../lib/crypto'
import { badRequest, conflict, notFound } from '../../lib/errors'
import { effectivePlanTier, hasActiveSubscription } from '../users'

// The back office's user management. Pausing revokes every session (sign-in is then refused by
// worker/routes/auth.ts) but leaves the owner's triggers alone: they keep monitoring.

const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired', 'unpaid', 'ended'])
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

/** The status badge (seeds 001 §4): paused, admin, the subscription status, 'active' for a paid plan, else 'free'. */
function statusOf(user: Pick<UserRow, 'role' | 'pausedAt' | 'subscriptionStatus' | 'planTier'>): string {
  if (user.role === 'admin') return 'admin'
  if (user.pausedAt) return 'paused'
  if (user.subscriptionStatus) return user.subscriptionStatus
  return user.planTier !== 'free' ? 'active' : 'free'
}

/** The columns the back office shows of an account. */
export type AdminUserSource = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'displayName'
  | 'role'
  | 'planTier'
  | 'subscriptionStatus'
  | 'pausedAt'
  | 'pauseReason'
  | 'paymentGraceUntil'
  | 'vaultBytes'
  | 'vaultItems'
  | 'subscriptionPeriodEnd'
  | 'createdAt'
>

/** One account as the back office shows it, with the directory's counts (kept on the row). */
export function toAdminUser(user: AdminUserSource, now = Date.now()): AdminUser {
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

const SOURCE_COLUMNS = sql.raw(`id, email, display_name as displayName, role, plan_tier as planTier,
  subscription_status as subscriptionStatus, paused_at as pausedAt, pause_reason as pauseReason,
  payment_grace_until as paymentGraceUntil, vault_bytes as vaultBytes, vault_items as vaultItems,
  subscription_period_end as subscriptionPeriodEnd, created_at as createdAt`)

// The list's position: the last row's sort key and id. Newest first ('t': created_at), or with a
// search the matched text ('q'). Opaque to the client; anything else is a 400.
const cursorSchema = z.union([
  z.tuple([z.literal('t'), z.number().int().nonnegative(), z.uuid()]),
  z.tuple([z.literal('q'), z.string().max(254), z.uuid()]),
])
type Cursor = z.infer<typeof cursorSchema>

const encodeCursor = (cursor: Cursor): string => toBase64Url(new TextEncoder().encode(JSON.stringify(cursor)))

function decodeCursor(value: string): Cursor {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(fromBase64Url(value))))
    if (parsed.success) return parsed.data
  } catch {
    // Not base64url, not UTF-8 or not JSON: the same answer as a wrong shape.
  }
  throw badRequest(ADMIN_MESSAGES.badCursor)
}

/** Above every text with this prefix in SQLite's byte order (U+10FFFF is the largest UTF-8 character). */
const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`
/** SQLite's lower() folds A to Z only; the display name index is built with it, so the search folds alike. */
const sqliteLower = (text: string) => text.replace(/[A-Z]+/g, (run) => run.toLowerCase())

export interface UserPageRequest {
  cursor?: string
  limit: number
  q?: string
}

/**
 * One page of accounts. Without `q`: newest first, by (created_at, id) on users_created_idx. With
 * `q`: the accounts whose e-mail (stored lower-cased: users_email_unique) or lower-cased display
 * name (users_name_search_idx) starts with it, each by the first of the two that matched, A to Z.
 * Each part reads one range of its index from the cursor on, so a page reads a small multiple of
 * `limit` rows however many accounts there are (the indexes hold no id: rows sharing a key are
 * sorted by id after reading, so a page also reads the rest of a tie). `rowsRead`: D1's count.
 */
export async function listUsers(env: Env, request: UserPageRequest, now = Date.now()): Promise<AdminUserPage & { rowsRead: number }> {
  const cursor = request.cursor === undefined ? null : decodeCursor(request.cursor)
  const q = request.q?.trim() ?? ''
  const take = request.limit + 1
  let query
  if (q === '') {
    if (cursor !== null && cursor[0] !== 't') throw badRequest(ADMIN_MESSAGES.badCursor)
    query = sql`select ${SOURCE_COLUMNS}, created_at as k from users
      ${cursor ? sql`where (created_at, id) < (${cursor[1]}, ${cursor[2]})` : sql``}
      order by created_at desc, id desc limit ${take}`
  } else {
    if (cursor !== null && cursor[0] !== 'q') throw badRequest(ADMIN_MESSAGES.badCursor)
    const email = { from: q.toLowerCase(), to: prefixEnd(q.toLowerCase()) }
    const name = { from: sqliteLower(q), to: prefixEnd(sqliteLower(q)) }
    const emailMatches = sql`(email >= ${email.from} and email < ${email.to})`
    const nameMatches = sql`(lower(display_name) >= ${name.from} and lower(display_name) < ${name.to})`
    // An account matched by both comes once, under the smaller of the two.
    query = sql`select * from (select ${SOURCE_COLUMNS}, email as k from users
        where ${emailMatches} and not (${nameMatches} and lower(display_name) < email)
        ${cursor ? sql`and (email, id) > (${cursor[1]}, ${cursor[2]})` : sql``}
        order by email, id limit ${take})
      union all
      select * from (select ${SOURCE_COLUMNS}, lower(display_name) as k from users
        where ${nameMatches} and not (${emailMatches} and email <= lower(display_name))
        ${cursor ? sql`and (lower(display_name), id) > (${cursor[1]}, ${cursor[2]})` : sql``}
        order by lower(display_name), id limit ${take})
      order by k, id limit ${take}`
  }
  const { results, meta } = await statement(env, query).all<AdminUserSource & { k: number | string }>()
  const page = results.slice(0, request.limit)
  const last = page.at(-1)
  const nextCursor =
    results.length > request.limit && last
      ? encodeCursor(q === '' ? ['t', Number(last.k), last.id] : ['q', String(last.k), last.id])
      : null
  return { users: page.map((row) => toAdminUser(row, now)), nextCursor, rowsRead: meta.rows_read }
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
  // The pause only if not paused meanwhile, and not an admin.
  const [paused] = await batch(env, [
    sql`update users set paused_at = ${now}, pause_reason = ${reason}, updated_at = ${now}
      where id = ${target.id} and paused_at is null and role <> 'admin'`,
  ])
  if ((paused?.meta.changes ?? 0) === 0) throw conflict(ADMIN_MESSAGES.alreadyPaused)
  // Its sessions end where they are checked, and the object holds the paused account.
  await ownerVault(env, target.id).revokeSessions()
  await mirrorAccount(target.id)
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
  await mirrorAccount(row.id, row)
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
  await mirrorAccount(row.id, row)
  return row
}

async function reload(db: Db, id: string): Promise<UserRow> {
  const row = await db.query.users.findFirst({ where: eq(users.id, id) })
  if (!row) throw notFound(ADMIN_MESSAGES.userNotFound)
  return row
}

