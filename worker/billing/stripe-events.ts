import { mirrorAccount } from '../owner/account'
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { DAY_MS } from '../../contract/constants'
import type { Db } from '../db/client'
import { ownerVault } from '../owner/client'
import { revenueDays, stripeEvents, subscriptions, users, type UserRow } from '../db/schema'
import { invoiceFailed, invoiceSettled, invoiceWasPaid, paidInvoiceKey, sendRecovery } from './dunning'
import { STRIPE_RESEND_MS, STRIPE_RETRY_MS } from './stripe-constants'
import { stripeClient, type StripeSettings } from './stripe'
import { idOf, owedOn, PAYMENT_DUE_STATUSES, subscriptionOfInvoice, subscriptionState } from './stripe-objects'

// What Stripe's webhooks change (seeds 000 §4 'Payment lifecycle'). The route has verified the
// signature and recorded the event, so each arrives here once.

const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due'])

export { STRIPE_RESEND_MS, STRIPE_RETRY_MS }

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
      return paymentFailed(env, ctx, db, event.data.object, event.created * 1000, now)
    case 'invoice.paid':
      return invoicePaid(env, ctx, db, event.data.object, event.created * 1000, now)
    case 'customer.updated':
      return customerUpdated(db, settings, event.data.object, event.data.previous_attributes)
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
  const state = subscriptionState(settings.prices, sub, deleted)
  // Stripe said past due before the invoice was paid (by the owner from /account, whose payment is
  // applied at once): a payment we know of is not undone by an event about the moment before it.
  const latest = idOf(sub.latest_invoice)
  if (PAYMENT_DUE_STATUSES.has(state.status) && latest && (await invoiceWasPaid(db, latest))) state.status = 'active'
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
  await mirrorAccount(owner.id)
}

/**
 * The customer's default card changed (Stripe's portal sets only the customer's): the owner's
 * subscription, which holds the card it was started with, is pointed at the new one, so the
 * renewals after are charged to the card the owner chose.
 */
async function customerUpdated(db: Db, settings: StripeSettings, customer: Stripe.Customer, previous: Partial<Stripe.Customer> | undefined) {
  if (!previous || !('invoice_settings' in previous)) return
  const card = idOf(customer.invoice_settings?.default_payment_method)
  if (!card) return
  const owner = await ownerOf(db, customer.id, null)
  if (!owner?.stripeSubscriptionId || owner.billingProvider !== 'stripe') return
  if (['canceled', 'incomplete_expired'].includes(owner.subscriptionStatus ?? '')) return
  await stripeClient(settings).subscriptions.update(owner.stripeSubscriptionId, { default_payment_method: card })
}

/**
 * A renewal's payment failed: the subscription is past due, and the invoice's first failure starts
 * the grace (worker/billing/dunning.ts). During it the vault stays usable and triggers are held.
 */
async function paymentFailed(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, db: Db, invoice: Stripe.Invoice, eventAt: number, now: number) {
  const subscriptionId = subscriptionOfInvoice(invoice)
  const owner = await ownerOf(db, idOf(invoice.customer), subscriptionId)
  if (!owner) {
    if (subscriptionId) await db.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.id, subscriptionId))
    return
  }
  // A first invoice that fails is the subscribe page's declined card (the subscription stays
  // incomplete), and a failure on another subscription is not the owner's current plan.
  if (invoice.billing_reason === 'subscription_create' || (subscriptionId && owner.stripeSubscriptionId !== subscriptionId)) return
  // An attempt's failure delivered after the invoice was paid (Stripe keeps no order): nothing is due.
  if (!invoice.id || (await invoiceWasPaid(db, invoice.id))) return
  await invoiceFailed(env, ctx, db, owner, invoiceFacts(invoice, eventAt), now)
}

/** What dunning needs of an invoice (Stripe's `created` in ms; the event's time if it is missing). */
function invoiceFacts(invoice: Stripe.Invoice, eventAt: number) {
  return {
    id: invoice.id!,
    createdAt: invoice.created ? invoice.created * 1000 : eventAt,
    amountDue: owedOn(invoice),
    currency: invoice.currency ?? 'usd',
  }
}

/**
 * Applies a paid invoice once, whoever tells it first: its webhook (the route records the key) or
 * the owner's own payment from /account (`once` records it here). False if it was applied before.
 */
export async function applyPaidInvoice(
  env: Env,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  db: Db,
  invoice: Stripe.Invoice,
  now = Date.now(),
): Promise<boolean> {
  if (!invoice.id) return false
  const fresh = await db
    .insert(stripeEvents)
    .values({ id: paidInvoiceKey(invoice.id), keepUntil: now + STRIPE_RESEND_MS })
    .onConflictDoNothing()
    .returning()
  if (fresh.length === 0) return false
  try {
    await invoicePaid(env, ctx, db, invoice, now, now)
  } catch (error) {
    await db.delete(stripeEvents).where(eq(stripeEvents.id, paidInvoiceKey(invoice.id)))
    throw error
  }
  return true
}

/**
 * Payment restored (or a first payment made). The revenue, which adds up, is written last: a
 * handling that fails before it is undone by nothing, and Stripe's retry (or the owner's) counts it once.
 */
async function invoicePaid(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, db: Db, invoice: Stripe.Invoice, eventAt: number, now: number) {
  await paymentRestored(env, ctx, db, invoice, eventAt, now)
  await recordPaidInvoice(db, invoice, now)
}

/** The grace ends and the subscription is active (each write may be made again on a retry). */
async function paymentRestored(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, db: Db, invoice: Stripe.Invoice, eventAt: number, now: number) {
  const subscriptionId = subscriptionOfInvoice(invoice)
  const owner = await ownerOf(db, idOf(invoice.customer), subscriptionId)
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
  // Paying an older invoice leaves the issue of a newer unpaid one (and its grace) as it is.
  const over = await invoiceSettled(db, owner, invoice.id ?? null, invoice.created ? invoice.created * 1000 : eventAt, now)
  if (!over) return
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
  await mirrorAccount(owner.id)
  await sendRecovery(env, ctx, db, owner, now)
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
