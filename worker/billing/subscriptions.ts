import { mirrorAccount } from '../owner/account'
import { DAY_MS } from '../../contract/constants'
import { and, eq, lte, sql } from 'drizzle-orm'
import {
  BILLING_MESSAGES,
  BILLING_PERIOD,
  BILLING_PERIOD_DAYS,
  type AccountSubscription,
  type SubscriptionResult,
} from '../../contract/billing'
import { PLANS, type PaidPlan } from '../../contract/plans'
import type { Db } from '../db/client'
import { batch } from '../db/raw'
import { users, type UserRow } from '../db/schema'
import { badRequest, conflict } from '../lib/errors'
import { effectivePlanTier, hasActiveSubscription } from '../services/users'
import { invoicePreview } from './invoice'
import { redeemStatement, usablePromo, type PromoRow } from './promo'

// Subscriptions on a server without billing (ARCHITECTURE §6: the embedded default): choosing a
// plan grants it at once, for notional 30-day periods that renew until cancelled. The Stripe
// provider replaces the granting with Stripe's own subscription and its webhooks.

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

interface Request {
  plan: PaidPlan
  promoCode?: string
}

/** The promotion (if any) and the first invoice, or a 400 naming promotion codes. */
export async function priced(db: Db, req: Request, now: number): Promise<{ promo: PromoRow | null; preview: ReturnType<typeof invoicePreview> }> {
  const promo = req.promoCode ? await usablePromo(db, req.promoCode, now) : null
  return { promo, preview: invoicePreview(req.plan, promo) }
}

/**
 * Records the subscription, counting the promotion in the same transaction: the insert happens
 * only if the count did (`changes()` of the statement before), so a code is never used beyond
 * its maximum however many subscribe at once. `then` runs after the insert in the same batch.
 */
export async function record(
  env: Env,
  // A guest's address (until claimed); an owner's subscription needs none (the account has it).
  sub: { id: string; email: string | null; userId: string | null; plan: PaidPlan; status: string; promo: PromoRow | null; trialDays: number | null },
  now: number,
  then: ReturnType<typeof sql>[] = [],
): Promise<void> {
  const insert = sql`insert into subscriptions (id, email, user_id, plan, status, promo_code_id, trial_days, created_at, claimed_at)
    select ${sub.id}, ${sub.email}, ${sub.userId}, ${sub.plan}, ${sub.status}, ${sub.promo?.id ?? null}, ${sub.trialDays}, ${now}, ${sub.userId ? now : null}
    where ${sub.promo ? sql`changes() > 0` : sql`1`}`
  const results = await batch(env, [...(sub.promo ? [redeemStatement(sub.promo.id, now)] : []), insert, ...then])
  const inserted = results[sub.promo ? 1 : 0]
  if ((inserted?.meta.changes ?? 0) === 0) throw badRequest(BILLING_MESSAGES.promoInvalid)
}

function grant(userId: string, subscriptionId: string, plan: PaidPlan, status: string, trialDays: number | null, now: number) {
  const end = now + (trialDays ?? BILLING_PERIOD_DAYS) * DAY_MS
  return sql`update users set plan_tier = ${plan}, subscription_status = ${status}, billing_provider = 'none',
      subscription_period_start = ${now}, subscription_period_end = ${end}, cancel_at_period_end = 0,
      stripe_subscription_id = null, updated_at = ${now}
    where id = ${userId} and exists (select 1 from subscriptions where id = ${subscriptionId} and user_id = ${userId})`
}

export async function subscribeOwner(env: Env, db: Db, owner: UserRow, req: Request, now = Date.now()): Promise<SubscriptionResult> {
  if (hasActiveSubscription(owner, now) && owner.planTier === req.plan && !owner.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadySubscribed)
  const { promo, preview } = await priced(db, req, now)
  const id = `nb_sub_${crypto.randomUUID()}`
  const status = preview.trialDays ? 'trialing' : 'active'
  await record(env, { id, email: null, userId: owner.id, plan: req.plan, status, promo, trialDays: preview.trialDays }, now, [
    grant(owner.id, id, req.plan, status, preview.trialDays, now),
  ])
  await mirrorAccount(owner.id)
  return { status, clientSecret: null, subscriptionId: id, customerId: null, invoicePreview: preview, billingEnabled: false }
}

/** A guest's subscription, held until the registration that names it (and its e-mail) claims it. */
export async function subscribeGuest(env: Env, db: Db, req: Request & { email: string }, now = Date.now()): Promise<SubscriptionResult> {
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, req.email))
  if (taken) throw conflict(BILLING_MESSAGES.guestEmailTaken)
  const { promo, preview } = await priced(db, req, now)
  const id = `nb_sub_${crypto.randomUUID()}`
  await record(env, { id, email: req.email, userId: null, plan: req.plan, status: preview.trialDays ? 'trialing' : 'active', promo, trialDays: preview.trialDays }, now)
  return { status: 'pending', clientSecret: null, subscriptionId: id, customerId: null, invoicePreview: preview, billingEnabled: false }
}

/** At registration: the guest subscription named in the request, if it was made for this e-mail and is unclaimed. */
export async function claimGuestSubscription(env: Env, user: UserRow, subscriptionId: string, now = Date.now()): Promise<boolean> {
  // A guest's Stripe subscription (made by the Stripe provider, named by Stripe's id) goes on
  // being driven by Stripe's webhooks, which find the owner by this subscription id.
  const stripe = subscriptionId.startsWith('sub_')
  const [claimed] = await batch(env, [
    sql`update subscriptions set user_id = ${user.id}, claimed_at = ${now}, email = null
      where id = ${subscriptionId} and user_id is null and claimed_at is null and lower(email) = lower(${user.email})`,
    sql`update users set plan_tier = (select plan from subscriptions where id = ${subscriptionId}),
        subscription_status = (select status from subscriptions where id = ${subscriptionId}),
        billing_provider = ${stripe ? 'stripe' : 'none'}, stripe_subscription_id = ${stripe ? subscriptionId : null}, stripe_event_at = null,
        subscription_period_start = ${now},
        subscription_period_end = ${now} + coalesce((select trial_days from subscriptions where id = ${subscriptionId}), ${BILLING_PERIOD_DAYS}) * ${DAY_MS},
        cancel_at_period_end = 0, updated_at = ${now}
      where id = ${user.id} and exists (select 1 from subscriptions where id = ${subscriptionId} and user_id = ${user.id} and claimed_at = ${now})`,
  ])
  return (claimed?.meta.changes ?? 0) > 0
}

export function accountView(user: UserRow, now = Date.now()): AccountSubscription {
  const plan = user.planTier in PLANS ? PLANS[user.planTier as PaidPlan] : null
  const secs = (at: number | null) => (at === null ? null : Math.floor(at / 1000))
  return {
    planTier: effectivePlanTier(user),
    hasActiveSubscription: hasActiveSubscription(user, now),
    billingEnabled: false,
    subscription:
      user.subscriptionStatus && plan
        ? {
            status: user.subscriptionStatus,
            plan: { amount: plan.priceCents, currency: 'usd', interval: BILLING_PERIOD },
            current_period_start: secs(user.subscriptionPeriodStart),
            current_period_end: secs(user.subscriptionPeriodEnd),
            cancel_at_period_end: user.cancelAtPeriodEnd,
          }
        : null,
    customer: null,
    invoices: [],
    paymentGraceUntil: user.paymentGraceUntil !== null && user.paymentGraceUntil > now ? iso(user.paymentGraceUntil) : null,
    paymentDue: null,
    canUpdatePaymentMethod: false,
  }
}

/** Access continues until the period ends; the sweep ends it then. */
export async function cancelAtPeriodEnd(db: Db, user: UserRow, now = Date.now()): Promise<UserRow> {
  if (!hasActiveSubscription(user, now) || user.role === 'admin') throw conflict(BILLING_MESSAGES.noSubscription)
  if (user.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadyCancelling)
  const [row] = await db
    .update(users)
    .set({ cancelAtPeriodEnd: true, subscriptionPeriodEnd: user.subscriptionPeriodEnd ?? now + BILLING_PERIOD_DAYS * DAY_MS, updatedAt: now })
    .where(and(eq(users.id, user.id), eq(users.cancelAtPeriodEnd, false)))
    .returning()
  if (!row) throw conflict(BILLING_MESSAGES.alreadyCancelling)
  return row
}

/** Undoes cancelAtPeriodEnd while the period runs: it renews as before. */
export async function keepSubscription(db: Db, user: UserRow, now = Date.now()): Promise<UserRow> {
  if (!hasActiveSubscription(user, now) || !user.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.notCancelling)
  const [row] = await db
    .update(users)
    .set({ cancelAtPeriodEnd: false, updatedAt: now })
    .where(and(eq(users.id, user.id), eq(users.cancelAtPeriodEnd, true)))
    .returning()
  if (!row) throw conflict(BILLING_MESSAGES.notCancelling)
  return row
}

/** Cron: periods without billing renew; cancelled ones end at their period's end. */
export async function sweepSubscriptions(db: Db, now = Date.now()): Promise<{ subscriptionsEnded: number; subscriptionsRenewed: number }> {
  const ended = await db
    .update(users)
    .set({ subscriptionStatus: 'canceled', updatedAt: now })
    .where(and(eq(users.billingProvider, 'none'), eq(users.cancelAtPeriodEnd, true), lte(users.subscriptionPeriodEnd, now), sql`${users.subscriptionStatus} != 'canceled'`))
    .returning({ id: users.id })
  const renewed = await db
    .update(users)
    .set({
      subscriptionStatus: 'active',
      subscriptionPeriodStart: users.subscriptionPeriodEnd,
      subscriptionPeriodEnd: sql`${users.subscriptionPeriodEnd} + ${BILLING_PERIOD_DAYS * DAY_MS}`,
      updatedAt: now,
    })
    .where(
      and(
        eq(users.billingProvider, 'none'),
        eq(users.cancelAtPeriodEnd, false),
        lte(users.subscriptionPeriodEnd, now),
        sql`${users.subscriptionStatus} in ('active', 'trialing')`,
      ),
    )
    .returning({ id: users.id })
  for (const { id } of [...ended, ...renewed]) await mirrorAccount(id)
  return { subscriptionsEnded: ended.length, subscriptionsRenewed: renewed.length }
}
