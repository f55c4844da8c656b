import { mirrorAccount } from '../owner/account'
import { DAY_MS } from '../../contract/constants'
import { and, eq, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import { ADMIN_MESSAGES } from '../../contract/admin'
import { BILLING_MESSAGES, BILLING_PERIOD, type AccountSubscription, type PlanChangePreview, type SubscriptionResult } from '../../contract/billing'
import { PLANS, type PaidPlan } from '../../contract/plans'
import type { Db } from '../db/client'
import { users, type UserRow } from '../db/schema'
import { batch } from '../db/raw'
import { ApiError, badRequest, conflict } from '../lib/errors'
import { isDevelopment } from '../lib/environment'
import { extendUser } from '../services/admin/users'
import { hasActiveSubscription } from '../services/users'
import { invoicePreview } from './invoice'
import { mayOwe, paymentDueOf, stripeAccount } from './stripe-account'
import { idOf, oldestOwed, periodOf, subscriptionState } from './stripe-objects'
import type { BillingProvider, SubscribeRequest } from './provider'
import type { PromoRow } from './promo'
import { accountView as localAccountView, cancelAtPeriodEnd, keepSubscription, priced, record } from './subscriptions'

// The Stripe provider (ARCHITECTURE §6): Stripe's own subscriptions, paid through the Payment
// Element with the client secret of the first invoice; webhooks (stripe-events.ts) then drive
// the owner's status, plan, period and the payment-issue grace.

export interface StripeSettings {
  secretKey: string
  webhookSecret: string
  publishableKey: string
  prices: Record<PaidPlan, string>
  /** Locally only (ENVIRONMENT=development): another address for Stripe's API, e.g. a test's stand-in. */
  apiBase: URL | null
}

const REQUIRED = ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_PRICE_BASIC', 'STRIPE_PRICE_PREMIUM', 'STRIPE_PRICE_ENTERPRISE'] as const

/** Stripe's settings when STRIPE_SECRET_KEY is set (null: no billing). Half a configuration is an error, never free plans. */
export function stripeSettings(env: Env): StripeSettings | null {
  if (!env.STRIPE_SECRET_KEY) return null
  const missing = REQUIRED.filter((name) => !env[name])
  if (missing.length > 0) throw new Error(`STRIPE_SECRET_KEY is set but ${missing.join(', ')} is not: Stripe billing is misconfigured`)
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY!,
    prices: { basic: env.STRIPE_PRICE_BASIC!, premium: env.STRIPE_PRICE_PREMIUM!, enterprise: env.STRIPE_PRICE_ENTERPRISE! },
    // Never in a deployment: there the secret key only ever goes to api.stripe.com.
    apiBase: env.STRIPE_API_BASE && isDevelopment(env) ? new URL(env.STRIPE_API_BASE) : null,
  }
}

export function stripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase
  return new Stripe(settings.secretKey, {
    ...(base
      ? { host: base.hostname, port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? 'https' : 'http' }
      : {}),
    // The global fetch at call time (not at construction), through the SDK's fetch client.
    httpClient: Stripe.createFetchHttpClient(((input, init) => fetch(input, init)) as typeof fetch),
  })
}

/** Stripe's answer to a call, or an ApiError: its own message for a refused request, 502 when unreachable. */
async function stripeCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError) {
      throw new ApiError(400, error.message)
    }
    console.error('Stripe call failed:', error)
    throw new ApiError(502, BILLING_MESSAGES.providerUnavailable)
  }
}

/**
 * The client secret for the Payment Element: the first invoice's (confirmation_secret, or an older
 * API's payment_intent), or during a free first period the pending SetupIntent's (`seti_…`), which
 * saves the card for when the trial ends.
 */
function clientSecretOf(sub: Stripe.Subscription): string | null {
  return invoiceSecretOf(sub) ?? setupSecretOf(sub)
}

function setupSecretOf(sub: Stripe.Subscription): string | null {
  const intent = sub.pending_setup_intent
  return intent && typeof intent === 'object' ? (intent.client_secret ?? null) : null
}

/** A payment to confirm after a plan change: only an invoice still open (never a paid one's secret). */
function paymentToConfirm(sub: Stripe.Subscription): string | null {
  const invoice = sub.latest_invoice
  return invoice && typeof invoice === 'object' && invoice.status === 'open' ? invoiceSecretOf(sub) : null
}

function invoiceSecretOf(sub: Stripe.Subscription): string | null {
  const invoice = sub.latest_invoice
  if (!invoice || typeof invoice === 'string') return null
  const loose = invoice as unknown as {
    confirmation_secret?: { client_secret?: string } | null
    payment_intent?: string | { client_secret?: string | null } | null
  }
  if (loose.confirmation_secret?.client_secret) return loose.confirmation_secret.client_secret
  if (loose.payment_intent && typeof loose.payment_intent === 'object') return loose.payment_intent.client_secret ?? null
  return null
}

const ACCESS_STATUSES = new Set(['active', 'trialing'])
/** How long a shown proration is honoured when confirmed (seconds): after that the change is priced at its own moment. */
const PRORATION_SHOWN_FOR_S = 60 * 60
const resultStatus = (status: string): SubscriptionResult['status'] =>
  status === 'active' ? 'active' : status === 'trialing' ? 'trialing' : 'incomplete'

export function stripeBilling(env: Env, settings: StripeSettings): BillingProvider {
  const stripe = stripeClient(settings)
  const account = stripeAccount(env, stripe, stripeCall, settings.prices)

  async function ensureCustomer(db: Db, owner: UserRow): Promise<string> {
    if (owner.stripeCustomerId) return owner.stripeCustomerId
    const customer = await stripeCall(() => stripe.customers.create({ email: owner.email, name: owner.displayName, metadata: { userId: owner.id } }))
    await db.update(users).set({ stripeCustomerId: customer.id, updatedAt: Date.now() }).where(eq(users.id, owner.id))
    return customer.id
  }

  /** The subscription on the plan's price; our promotion as a one-off Stripe coupon or a trial. */
  async function createSubscription(customerId: string, req: SubscribeRequest, promo: PromoRow | null, trialDays: number | null, metadata: Record<string, string>) {
    let couponId: string | null = null
    if (promo?.type === 'percentage' || promo?.type === 'fixed_amount') {
      const off =
        promo.type === 'percentage'
          ? { percent_off: Math.min(100, Math.max(0, promo.value)) }
          : { amount_off: Math.max(0, promo.value) * 100, currency: 'usd' }
      const coupon = await stripeCall(() =>
        stripe.coupons.create({ ...off, duration: 'once', max_redemptions: 1, name: promo.code, metadata: { promoCodeId: promo.id } }),
      )
      couponId = coupon.id
    }
    return stripeCall(() =>
      stripe.subscriptions.create({
        customer: customerId,
        items: [{ price: settings.prices[req.plan] }],
        payment_behavior: 'default_incomplete',
        // The card is saved on the subscription; during a free first period Stripe collects it
        // through the pending SetupIntent, for the first charge when the trial ends.
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.confirmation_secret', 'pending_setup_intent'],
        metadata: { ...metadata, plan: req.plan, ...(promo ? { promoCode: promo.code } : {}) },
        ...(couponId ? { discounts: [{ coupon: couponId }] } : {}),
        ...(trialDays ? { trial_period_days: trialDays } : {}),
      }),
    )
  }

  /** Our record of a subscription Stripe accepted, counting the promotion now; if it cannot count, Stripe's is cancelled. */
  async function recordAccepted(sub: Stripe.Subscription, row: Parameters<typeof record>[1], then: Parameters<typeof record>[3], now: number) {
    try {
      await record(env, row, now, then)
    } catch (error) {
      await stripe.subscriptions.cancel(sub.id).catch((e: unknown) => console.error(`could not cancel Stripe subscription ${sub.id}:`, e))
      throw error
    }
  }

  /**
   * A change of plan on the owner's current subscription: its item switches to the new price, the
   * difference prorated on the next invoice. Null when Stripe's subscription no longer gives access
   * (a new one is made instead). Promotion codes are for new subscriptions only.
   */
  async function changePlan(db: Db, owner: UserRow, req: SubscribeRequest, now: number): Promise<SubscriptionResult | null> {
    const current = await stripeCall(() => stripe.subscriptions.retrieve(owner.stripeSubscriptionId!))
    if (!ACCESS_STATUSES.has(current.status)) return null
    const item = current.items.data[0]
    const price = settings.prices[req.plan]
    if (!item || item.price.id === price) throw conflict(BILLING_MESSAGES.alreadySubscribed)
    if (req.promoCode) throw badRequest(BILLING_MESSAGES.promoPlanChange)
    // The proration the owner was shown, if it is recent; otherwise now's.
    const nowSecs = Math.floor(now / 1000)
    const prorationDate = req.prorationDate && req.prorationDate <= nowSecs && req.prorationDate > nowSecs - PRORATION_SHOWN_FOR_S ? req.prorationDate : nowSecs
    if (!req.confirm) return previewChange(owner, current, item.id, req.plan, prorationDate)
    const sub = await stripeCall(() =>
      stripe.subscriptions.update(current.id, {
        items: [{ id: item.id, price }],
        proration_behavior: 'create_prorations',
        proration_date: prorationDate,
        metadata: { plan: req.plan },
        expand: ['latest_invoice.confirmation_secret'],
      }),
    )
    const state = subscriptionState(settings.prices, sub)
    // What Stripe confirms, written as the customer.subscription.updated webhook will write it.
    if (state.plan) {
      await batch(env, [
        sql`update users set plan_tier = ${state.plan}, subscription_status = ${state.status},
            subscription_period_start = coalesce(${state.periodStart}, subscription_period_start),
            subscription_period_end = coalesce(${state.periodEnd}, subscription_period_end),
            cancel_at_period_end = ${state.cancelAtPeriodEnd ? 1 : 0}, updated_at = ${now}
          where id = ${owner.id} and stripe_subscription_id = ${sub.id}`,
        sql`update subscriptions set plan = ${state.plan}, status = ${state.status} where id = ${sub.id}`,
      ])
      await mirrorAccount(owner.id)
    }
    const preview = invoicePreview(req.plan, null)
    // During a free first period nothing is due now: the new price is charged when it ends.
    if (sub.status === 'trialing' && state.periodEnd !== null) {
      Object.assign(preview, { discountAmount: preview.baseAmount, finalAmount: 0, trialDays: Math.max(1, Math.ceil((state.periodEnd - now) / DAY_MS)) })
    }
    return {
      status: resultStatus(sub.status),
      clientSecret: paymentToConfirm(sub),
      subscriptionId: sub.id,
      customerId: idOf(sub.customer) ?? owner.stripeCustomerId,
      invoicePreview: preview,
      billingEnabled: true,
    }
  }

  /** What the change would do: Stripe's preview of the next invoice with the new price; nothing changes. */
  async function previewChange(owner: UserRow, current: Stripe.Subscription, itemId: string, plan: PaidPlan, prorationDate: number): Promise<SubscriptionResult> {
    const preview = await stripeCall(() =>
      stripe.invoices.createPreview({
        customer: idOf(current.customer) ?? owner.stripeCustomerId!,
        subscription: current.id,
        subscription_details: { items: [{ id: itemId, price: settings.prices[plan] }], proration_behavior: 'create_prorations', proration_date: prorationDate },
      }),
    )
    const isProration = (line: Stripe.InvoiceLineItem) => line.parent?.subscription_item_details?.proration === true
    const from = subscriptionState(settings.prices, current).plan ?? (owner.planTier in PLANS ? (owner.planTier as PaidPlan) : null)
    const nextAt = preview.next_payment_attempt ?? preview.period_end ?? null
    const planChange: PlanChangePreview = {
      fromPlan: from ? PLANS[from].name : owner.planTier,
      toPlan: PLANS[plan].name,
      newAmount: PLANS[plan].priceCents,
      dueNow: 0,
      nextInvoiceAmount: preview.amount_due,
      nextInvoiceDate: nextAt ? new Date(nextAt * 1000).toISOString() : null,
      prorationAmount: preview.lines.data.filter(isProration).reduce((sum, line) => sum + line.amount, 0),
      currency: preview.currency ?? 'usd',
      prorationDate,
    }
    return {
      status: 'confirm_change',
      clientSecret: null,
      subscriptionId: current.id,
      customerId: idOf(current.customer) ?? owner.stripeCustomerId,
      invoicePreview: invoicePreview(plan, null),
      billingEnabled: true,
      planChange,
    }
  }

  const provider: BillingProvider = {
    enabled: true,
    publishableKey: settings.publishableKey,

    async subscribeOwner(db, owner, req) {
      const now = Date.now()
      // An owner with a payment to fix is led to it: no second subscription, no plan change, until it is paid.
      if (mayOwe(owner, now)) {
        const open = await account.openInvoice(owner)
        if (open) {
          return {
            status: 'past_due',
            clientSecret: null,
            subscriptionId: owner.stripeSubscriptionId!,
            customerId: owner.stripeCustomerId,
            invoicePreview: invoicePreview(req.plan, null),
            billingEnabled: true,
            paymentDue: paymentDueOf(open, owner, now),
          }
        }
      }
      // Set to end: a second subscription would overlap it. The owner is offered to keep this one instead.
      if (owner.billingProvider === 'stripe' && owner.stripeSubscriptionId && hasActiveSubscription(owner, now) && owner.cancelAtPeriodEnd) {
        return {
          status: 'cancellation_pending',
          clientSecret: null,
          subscriptionId: owner.stripeSubscriptionId,
          customerId: owner.stripeCustomerId,
          invoicePreview: invoicePreview(req.plan, null),
          billingEnabled: true,
          endsAt: owner.subscriptionPeriodEnd ? new Date(owner.subscriptionPeriodEnd).toISOString() : null,
        }
      }
      if (owner.billingProvider === 'stripe' && owner.stripeSubscriptionId && hasActiveSubscription(owner, now) && !owner.cancelAtPeriodEnd) {
        // Another plan switches the subscription's price; the same plan, or one with a payment
        // issue running (past due), stays a 409.
        if (owner.planTier === req.plan || !ACCESS_STATUSES.has(owner.subscriptionStatus ?? '')) throw conflict(BILLING_MESSAGES.alreadySubscribed)
        const changed = await changePlan(db, owner, req, now)
        if (changed) return changed
      }
      const { promo, preview } = await priced(db, req, now)
      const customerId = await ensureCustomer(db, owner)
      const sub = await createSubscription(customerId, req, promo, preview.trialDays, { userId: owner.id })
      const period = periodOf(sub)
      // Access at once only when Stripe grants it (a trial, or nothing to pay); otherwise the
      // webhooks grant it once the first invoice is paid.
      const grant = ACCESS_STATUSES.has(sub.status)
        ? [
            sql`update users set plan_tier = ${req.plan}, subscription_status = ${sub.status}, billing_provider = 'stripe',
                stripe_customer_id = ${customerId}, stripe_subscription_id = ${sub.id}, subscription_period_start = ${period.start},
                subscription_period_end = ${period.end}, cancel_at_period_end = 0, stripe_event_at = null, updated_at = ${now}
              where id = ${owner.id} and exists (select 1 from subscriptions where id = ${sub.id} and user_id = ${owner.id})`,
          ]
        : []
      await recordAccepted(
        sub,
        { id: sub.id, email: null, userId: owner.id, plan: req.plan, status: sub.status, promo, trialDays: preview.trialDays },
        grant,
        now,
      )
      if (grant.length) await mirrorAccount(owner.id)
      return { status: resultStatus(sub.status), clientSecret: clientSecretOf(sub), subscriptionId: sub.id, customerId, invoicePreview: preview, billingEnabled: true }
    },

    async subscribeGuest(db, req) {
      const now = Date.now()
      const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, req.email))
      if (taken) throw conflict(BILLING_MESSAGES.guestEmailTaken)
      const { promo, preview } = await priced(db, req, now)
      const customer = await stripeCall(() => stripe.customers.create({ email: req.email, metadata: { guest: 'true' } }))
      const sub = await createSubscription(customer.id, req, promo, preview.trialDays, { guestEmail: req.email })
      await recordAccepted(
        sub,
        { id: sub.id, email: req.email, userId: null, plan: req.plan, status: sub.status, promo, trialDays: preview.trialDays },
        [],
        now,
      )
      // A guest never goes to the dashboard: they register next (and claim this subscription).
      const status: SubscriptionResult['status'] = sub.status === 'trialing' ? 'trialing' : clientSecretOf(sub) ? 'incomplete' : 'pending'
      return { status, clientSecret: clientSecretOf(sub), subscriptionId: sub.id, customerId: customer.id, invoicePreview: preview, billingEnabled: true }
    },

    paymentMethodSession: (user) => account.paymentMethodSession(user),
    payOpenInvoice: (db, ctx, user) => account.payOpenInvoice(db, ctx, user),
    invoices: (user, page) => account.invoices(user, page),
    extend(db, target, days) {
      // A plan granted without billing (before billing was turned on) is extended as it would be without.
      if (target.billingProvider !== 'stripe' || !target.stripeSubscriptionId) return extendUser(db, target, days)
      return account.extend(db, target, days)
    },

    async accountView(_db, user) {
      const now = Date.now()
      const view: AccountSubscription = { ...localAccountView(user, now), billingEnabled: true, canUpdatePaymentMethod: !!user.stripeCustomerId }
      if (user.billingProvider !== 'stripe' || (!user.stripeSubscriptionId && !user.stripeCustomerId)) return view
      const sub = user.stripeSubscriptionId
        ? await stripeCall(() => stripe.subscriptions.retrieve(user.stripeSubscriptionId!, { expand: ['default_payment_method'] }))
        : null
      const customerId = user.stripeCustomerId ?? idOf(sub?.customer)
      view.canUpdatePaymentMethod = !!customerId
      if (sub) {
        const price = sub.items.data[0]?.price
        const period = periodOf(sub)
        view.subscription = {
          status: sub.status,
          plan: { amount: price?.unit_amount ?? 0, currency: price?.currency ?? 'usd', interval: price?.recurring?.interval ?? BILLING_PERIOD },
          current_period_start: period.start === null ? null : period.start / 1000,
          current_period_end: period.end === null ? null : period.end / 1000,
          cancel_at_period_end: sub.cancel_at_period_end,
        }
      }
      if (!customerId) return view
      const [customer, invoices] = await Promise.all([
        stripeCall(() => stripe.customers.retrieve(customerId, { expand: ['invoice_settings.default_payment_method'] })),
        stripeCall(() => stripe.invoices.list({ customer: customerId, limit: 5 })),
      ])
      const asMethod = (pm: string | Stripe.PaymentMethod | null | undefined) => (pm && typeof pm === 'object' ? pm : null)
      // The customer's default first: it is the card the owner last chose (Stripe's portal sets it),
      // which the subscription follows once the customer.updated webhook has pointed it there.
      let card =
        ('deleted' in customer ? null : asMethod(customer.invoice_settings?.default_payment_method)?.card) ??
        asMethod(sub?.default_payment_method)?.card ??
        null
      if (!card) {
        const methods = await stripeCall(() => stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 1 }))
        card = methods.data[0]?.card ?? null
      }
      view.customer = { default_source: card ? { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year } : null }
      if (mayOwe(user, now)) {
        const open = oldestOwed(invoices.data, user.stripeSubscriptionId!)
        view.paymentDue = open ? paymentDueOf(open, user, now) : null
      }
      view.invoices = invoices.data.slice(0, 5).map((inv) => ({
        id: inv.id ?? '',
        status: inv.status ?? 'draft',
        created: inv.created,
        amount_paid: inv.amount_paid,
        invoice_pdf: inv.invoice_pdf ?? null,
      }))
      return view
    },

    async cancel(db, user) {
      const now = Date.now()
      // A plan granted before billing was turned on ends as it would have without billing.
      if (user.billingProvider !== 'stripe' || !user.stripeSubscriptionId) {
        const row = await cancelAtPeriodEnd(db, user, now)
        return { user: row, view: await provider.accountView(db, row) }
      }
      if (!hasActiveSubscription(user, now) || user.role === 'admin') throw conflict(BILLING_MESSAGES.noSubscription)
      if (user.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadyCancelling)
      const sub = await stripeCall(() => stripe.subscriptions.update(user.stripeSubscriptionId!, { cancel_at_period_end: true }))
      const period = periodOf(sub)
      const [row] = await db
        .update(users)
        .set({ cancelAtPeriodEnd: sub.cancel_at_period_end, subscriptionPeriodEnd: period.end ?? user.subscriptionPeriodEnd, updatedAt: now })
        .where(and(eq(users.id, user.id), eq(users.cancelAtPeriodEnd, false)))
        .returning()
      if (!row) throw conflict(BILLING_MESSAGES.alreadyCancelling)
      return { user: row, view: await provider.accountView(db, row) }
    },

    async resume(db, user) {
      const now = Date.now()
      if (user.billingProvider !== 'stripe' || !user.stripeSubscriptionId) {
        const row = await keepSubscription(db, user, now)
        return { user: row, view: await provider.accountView(db, row) }
      }
      if (!hasActiveSubscription(user, now) || !user.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.notCancelling)
      const sub = await stripeCall(() => stripe.subscriptions.update(user.stripeSubscriptionId!, { cancel_at_period_end: false }))
      const [row] = await db
        .update(users)
        .set({ cancelAtPeriodEnd: sub.cancel_at_period_end, updatedAt: now })
        .where(and(eq(users.id, user.id), eq(users.cancelAtPeriodEnd, true)))
        .returning()
      if (!row) throw conflict(BILLING_MESSAGES.notCancelling)
      return { user: row, view: await provider.accountView(db, row) }
    },

    async cancelOnDelete(user) {
      if (user.billingProvider !== 'stripe' || !user.stripeSubscriptionId) return
      if (user.subscriptionStatus === 'canceled' || user.subscriptionStatus === 'incomplete_expired') return
      try {
        await stripe.subscriptions.cancel(user.stripeSubscriptionId)
      } catch (error) {
        // Already gone at Stripe: nothing left to bill.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return
        console.error(`cancelling Stripe subscription ${user.stripeSubscriptionId} on account deletion failed:`, error)
        throw new ApiError(503, BILLING_MESSAGES.cancelOnDeleteFailed)
      }
    },

    async refund(user, req) {
      // A plan granted without billing (before billing was turned on) was never paid: nothing to return.
      if (!user.stripeCustomerId) return { status: 'completed', providerRef: null }
      // The latest paid charge with enough left unrefunded.
      const charges = await stripeCall(() => stripe.charges.list({ customer: user.stripeCustomerId!, limit: 10 }))
      const charge = charges.data.find((ch) => ch.paid && ch.status === 'succeeded' && ch.amount - ch.amount_refunded >= req.amountCents)
      if (!charge) throw conflict(ADMIN_MESSAGES.noChargeToRefund)
      const refund = await stripeCall(() =>
        stripe.refunds.create(
          { charge: charge.id, amount: req.amountCents, reason: 'requested_by_customer', metadata: { userId: user.id } },
          { idempotencyKey: `admin-refund-${req.idempotencyKey}` },
        ),
      )
      const status = refund.status === 'succeeded' ? 'completed' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending'
      return { status, providerRef: refund.id }
    },
  }
  return provider
}
