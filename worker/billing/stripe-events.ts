import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { DAY_MS, PAYMENT_GRACE_DAYS } from '../../contract/constants'
import type { Db } from '../db/client'
import { ownerVault } from '../owner/client'
import { revenueDays, stripeEvents, subscriptions, users, type UserRow } from '../db/schema'
import { sendEmail } from '../mail'
import { paymentIssueEmail } from './emails'
import { subscriptionState, type StripeSettings } from './stripe'

// What Stripe's webhooks change (seeds 000 §4 'Payment lifecycle'). The route has verified the
// signature and recorded the event, so each arrives here once.

const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due'])

/** Stripe retries a delivery for up to 3 days, and lets an event be fetched and sent again for 30. */
export const STRIPE_RETRY_MS = 3 * DAY_MS
export const STRIPE_RESEND_MS = 30 * DAY_MS

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id

/**
 * The owner of a Stripe customer or subscription: by customer id (indexed), or through our record
 * of the subscription (by its id: an owner's, or a guest's once claimed). Never a scan of accounts.
 */
async function ownerOf(db: Db, customerId: string | null, subscriptionId: string | null): Promise<UserRow | undefined> {
  if (customerId) {
    const [byCustomer] = await db.select().from(users).where(eq(users.stripeCustomerId, customerId))
    if (byCustomer) return byCustomer
  }
  if (!subscriptionId) return undefined
  const [ours] = await db
    .select({ user: users })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(subscriptions.id, subscriptionId))
  return ours?.user
}

/** The subscription an invoice belongs to (parent.subscription_details on newer API versions). */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const loose = invoice as unknown as {
    subscription?: string | { id: string } | null
    parent?: { subscription_details?: { subscription?: string | { id: string } | null } | null } | null
  }
  return idOf(loose.parent?.subscription_details?.subscription) ?? idOf(loose.subscription)
}

export async function applyStripeEvent(
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  db: Db,
  settings: StripeSettings,
  event: Stripe.Event,
  now = Date.now(),
): Promise<void> {
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionChanged(db, settings, event.data.object, event.type === 'customer.subscription.deleted', event.created * 1000, now)
    case 'invoice.payment_failed':
      return paymentFailed(env, ctx, db, event.data.object, now)
    case 'invoice.paid':
      return invoicePaid(env, db, event.data.object, now)
    default:
      return
  }
}

/**
 * A subscription's status, plan (from its price), period and cancellation. Stripe does not deliver
 * events in order: one older (by `event.created`) than the last applied to the owner's current
 * subscription (`users.stripe_event_at`) changes nothing.
 */
async function subscriptionChanged(db: Db, settings: StripeSettings, sub: Stripe.Subscription, deleted: boolean, eventAt: number, now: number) {
  const customerId = idOf(sub.customer)
  const owner = await ownerOf(db, customerId, sub.id)
  const current = owner?.stripeSubscriptionId === sub.id
  if (owner && current && owner.stripeEventAt !== null && eventAt < owner.stripeEventAt) return
  const state = subscriptionState(settings, sub, deleted)
  // Our record of it (a guest's, before its registration claims it, takes the status from here).
  await db
    .update(subscriptions)
    .set({ status: state.status, ...(state.plan ? { plan: state.plan } : {}) })
    .where(eq(subscriptions.id, sub.id))
  if (!owner) return
  // Another subscription of the same customer (an abandoned, incomplete one, or an old one ending)
  // never takes the place of the owner's current one.
  if (!current && (deleted || !LIVE_STATUSES.has(state.status))) {
    if (!owner.stripeCustomerId && customerId) await db.update(users).set({ stripeCustomerId: customerId }).where(eq(users.id, owner.id))
    return
  }
  await db
    .update(users)
    .set({
      subscriptionStatus: state.status,
      ...(state.plan ? { planTier: state.plan } : {}),
      billingProvider: 'stripe',
      stripeCustomerId: customerId ?? owner.stripeCustomerId,
      stripeSubscriptionId: sub.id,
      subscriptionPeriodStart: state.periodStart ?? owner.subscriptionPeriodStart,
      subscriptionPeriodEnd: state.periodEnd ?? owner.subscriptionPeriodEnd,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      stripeEventAt: eventAt,
      updatedAt: now,
    })
    // Checked again as it is written: a newer event applied meanwhile wins.
    .where(
      and(
        eq(users.id, owner.id),
        or(sql`${users.stripeSubscriptionId} is not ${sub.id}`, isNull(users.stripeEventAt), lte(users.stripeEventAt, eventAt)),
      ),
    )
}

/**
 * A renewal's payment failed: the subscription is past due and a grace of PAYMENT_GRACE_DAYS starts
 * (unless one is running), with one e-mail. During it the vault stays usable and triggers are held.
 */
async function paymentFailed(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, db: Db, invoice: Stripe.Invoice, now: number) {
  const subscriptionId = subscriptionOfInvoice(invoice)
  const owner = await ownerOf(db, idOf(invoice.customer), subscriptionId)
  if (!owner) {
    if (subscriptionId) await db.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.id, subscriptionId))
    return
  }
  // A first invoice that fails is the subscribe page's declined card (the subscription stays
  // incomplete), and a failure on another subscription is not the owner's current plan.
  if (invoice.billing_reason === 'subscription_create' || (subscriptionId && owner.stripeSubscriptionId !== subscriptionId)) return
  const graceUntil = now + PAYMENT_GRACE_DAYS * DAY_MS
  const [started] = await db
    .update(users)
    .set({ subscriptionStatus: 'past_due', paymentGraceUntil: graceUntil, updatedAt: now })
    .where(and(eq(users.id, owner.id), or(isNull(users.paymentGraceUntil), lte(users.paymentGraceUntil, now))))
    .returning()
  if (!started) {
    // Already within a grace: it keeps its end, and no second e-mail.
    await db.update(users).set({ subscriptionStatus: 'past_due', updatedAt: now }).where(eq(users.id, owner.id))
    return
  }
  await sendEmail(env, ctx, db, {
    to: started.email,
    kind: 'payment_failed',
    ...paymentIssueEmail({ displayName: started.displayName, graceUntil, accountUrl: `${env.APP_ORIGIN}/account` }),
  })
}

/** Payment restored (or a first payment made): the grace ends and the subscription is active. */
async function invoicePaid(env: Env, db: Db, invoice: Stripe.Invoice, now: number) {
  const subscriptionId = subscriptionOfInvoice(invoice)
  const owner = await ownerOf(db, idOf(invoice.customer), subscriptionId)
  await recordPaidInvoice(db, invoice, now)
  if (!owner) {
    if (subscriptionId) {
      await db
        .update(subscriptions)
        .set({ status: 'active' })
        .where(and(eq(subscriptions.id, subscriptionId), isNull(subscriptions.userId)))
    }
    return
  }
  const current = !subscriptionId || owner.stripeSubscriptionId === subscriptionId
  // A paid invoice of another subscription takes over only from one that no longer gives access.
  if (!current && LIVE_STATUSES.has(owner.subscriptionStatus ?? '')) return
  const [ours] = !current && subscriptionId ? await db.select({ plan: subscriptions.plan }).from(subscriptions).where(eq(subscriptions.id, subscriptionId)) : []
  await db
    .update(users)
    .set({
      paymentGraceUntil: null,
      subscriptionStatus: current && owner.subscriptionStatus === 'trialing' ? 'trialing' : 'active',
      billingProvider: 'stripe',
      ...(ours ? { planTier: ours.plan } : {}),
      // Taking over: the event order of the subscription before no longer applies.
      ...(subscriptionId ? { stripeSubscriptionId: subscriptionId } : {}),
      ...(current ? {} : { stripeEventAt: null }),
      updatedAt: now,
    })
    .where(eq(users.id, owner.id))
  // The hold is over now, not at the grace's old end: the owner's engine looks again at once, so
  // what came due during the grace fires now (its alarm and the sweep's copy still say the old end).
  if (owner.paymentGraceUntil !== null && owner.paymentGraceUntil > now) await ownerVault(env, owner.id).tick(now)
}

/** The paid invoice's amount (cents), added to its day's revenue for the back office (the route applies it once). */
async function recordPaidInvoice(db: Db, invoice: Stripe.Invoice, now: number) {
  const amount = invoice.amount_paid ?? 0
  if (amount === 0) return
  const paidAt = invoice.status_transitions?.paid_at
  const day = Math.floor((paidAt ? paidAt * 1000 : now) / DAY_MS)
  await db
    .insert(revenueDays)
    .values({ day, amountPaid: amount })
    .onConflictDoUpdate({ target: revenueDays.day, set: { amountPaid: sql`${revenueDays.amountPaid} + excluded.amount_paid` } })
}

/** Forgets the events Stripe will no longer deliver (worker/routes/stripe-webhook.ts keeps each that long). */
export async function pruneStripeEvents(db: Db, now = Date.now()): Promise<number> {
  const gone = await db.delete(stripeEvents).where(lt(stripeEvents.keepUntil, now)).returning({ id: stripeEvents.id })
  return gone.length
}
