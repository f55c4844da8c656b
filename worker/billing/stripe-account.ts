import { mirrorAccount } from '../owner/account'
import Stripe from 'stripe'
import { ADMIN_MESSAGES } from '../../contract/admin'
import { BILLING_MESSAGES, type BillingInvoice, type InvoicePage, type PaymentDue } from '../../contract/billing'
import { DAY_MS } from '../../contract/constants'
import type { PaidPlan } from '../../contract/plans'
import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { users, type UserRow } from '../db/schema'
import { ApiError, conflict } from '../lib/errors'
import { applyPaidInvoice } from './stripe-events'
import { idOf, oldestOwed, owedOn, PAYMENT_DUE_STATUSES, subscriptionState } from './stripe-objects'

// What an owner fixes alone with Stripe (issue 0.2 · 7 of 7): the card (Stripe's customer portal,
// so no card is typed into our pages), the open invoice paid again with it, the whole billing
// history with its refunds; and an administrator's extension, as a later trial end (no charge).

type Ctx = Pick<ExecutionContext, 'waitUntil'>
type Call = <T>(run: () => Promise<T>) => Promise<T>


/** An open invoice as what is owed by the owner's payment issue. */
export function paymentDueOf(invoice: Stripe.Invoice, user: UserRow, now = Date.now()): PaymentDue {
  return {
    invoiceId: invoice.id ?? '',
    amountDue: owedOn(invoice),
    currency: invoice.currency ?? 'usd',
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
    graceUntil: user.paymentGraceUntil !== null && user.paymentGraceUntil > now ? new Date(user.paymentGraceUntil).toISOString() : null,
  }
}

/** Whether the owner's current subscription may have an invoice to pay now. */
export const mayOwe = (user: UserRow, now = Date.now()) =>
  user.billingProvider === 'stripe' &&
  !!user.stripeSubscriptionId &&
  (PAYMENT_DUE_STATUSES.has(user.subscriptionStatus ?? '') || (user.paymentGraceUntil !== null && user.paymentGraceUntil > now))

export function stripeAccount(env: Env, stripe: Stripe, call: Call, prices: Record<PaidPlan, string>) {
  const state = (sub: Stripe.Subscription) => subscriptionState(prices, sub)

  /** The oldest open invoice of the owner's current subscription (what Stripe retries), or null. */
  async function openInvoice(user: UserRow): Promise<Stripe.Invoice | null> {
    if (!user.stripeCustomerId || !user.stripeSubscriptionId) return null
    const open = await call(() =>
      stripe.invoices.list({ customer: user.stripeCustomerId!, subscription: user.stripeSubscriptionId!, status: 'open', limit: 10 }),
    )
    return oldestOwed(open.data, user.stripeSubscriptionId)
  }

  return {
    openInvoice,

    /** Stripe's customer portal, opened on the card update, returning to /account. */
    async paymentMethodSession(user: UserRow): Promise<{ url: string }> {
      if (!user.stripeCustomerId) throw conflict(BILLING_MESSAGES.noCustomer)
      const session = await call(() =>
        stripe.billingPortal.sessions.create({
          customer: user.stripeCustomerId!,
          return_url: `${env.APP_ORIGIN}/account`,
          flow_data: {
            type: 'payment_method_update',
            after_completion: { type: 'redirect', redirect: { return_url: `${env.APP_ORIGIN}/account?payment=updated` } },
          },
        }),
      )
      return { url: session.url }
    },

    /**
     * The open invoice charged now to the customer's default card (the one just saved in the
     * portal), which also becomes the subscription's card for the renewals after. The amount is
     * Stripe's invoice: nothing the browser sends sets it. A paid invoice is applied at once, as
     * its webhook would (and only once, whichever comes first).
     */
    async payOpenInvoice(db: Db, ctx: Ctx, user: UserRow): Promise<{ paid: boolean }> {
      const invoice = await openInvoice(user)
      if (!invoice?.id) throw conflict(BILLING_MESSAGES.noPaymentDue)
      const [customer, sub] = await Promise.all([
        call(() => stripe.customers.retrieve(user.stripeCustomerId!)),
        call(() => stripe.subscriptions.retrieve(user.stripeSubscriptionId!)),
      ])
      const card = 'deleted' in customer ? null : idOf(customer.invoice_settings?.default_payment_method)
      if (card && idOf(sub.default_payment_method) !== card) {
        await call(() => stripe.subscriptions.update(sub.id, { default_payment_method: card }))
      }
      let result: Stripe.Invoice
      try {
        result = await stripe.invoices.pay(invoice.id, card ? { payment_method: card } : {})
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === 'invoice_payment_intent_requires_action') {
          throw new ApiError(400, BILLING_MESSAGES.authenticationRequired)
        }
        return call(() => Promise.reject(error))
      }
      if (result.status !== 'paid') return { paid: false }
      await applyPaidInvoice(env, ctx, db, result)
      return { paid: true }
    },

    /** A page of the owner's invoices, newest first, each with the refunds of its payment. */
    async invoices(user: UserRow, page: { after?: string; limit: number }): Promise<InvoicePage> {
      if (!user.stripeCustomerId) return { invoices: [], nextCursor: null, billingEnabled: true }
      const list = await call(() =>
        stripe.invoices.list({
          customer: user.stripeCustomerId!,
          limit: page.limit,
          ...(page.after ? { starting_after: page.after } : {}),
          expand: ['data.payments'],
        }),
      )
      const paid = list.data.filter((inv) => inv.amount_paid > 0)
      const charges = paid.length
        ? await call(() =>
            stripe.charges.list({
              customer: user.stripeCustomerId!,
              // The charges of this page's invoices: none is older than its oldest invoice.
              created: { gte: Math.min(...paid.map((inv) => inv.created)) - DAY_MS / 1000 },
              limit: 100,
              expand: ['data.refunds'],
            }),
          )
        : null
      const chargeOf = (inv: Stripe.Invoice): Stripe.Charge | null => {
        for (const p of inv.payments?.data ?? []) {
          const byCharge = idOf(p.payment?.charge)
          const byIntent = idOf(p.payment?.payment_intent)
          const found = charges?.data.find((ch) => ch.id === byCharge || (byIntent !== null && idOf(ch.payment_intent) === byIntent))
          if (found) return found
        }
        return null
      }
      const invoices: BillingInvoice[] = list.data.map((inv) => {
        const charge = chargeOf(inv)
        return {
          id: inv.id ?? '',
          number: inv.number ?? null,
          status: inv.status ?? 'draft',
          created: inv.created,
          amount_due: inv.amount_due,
          amount_paid: inv.amount_paid,
          currency: inv.currency,
          hosted_invoice_url: inv.hosted_invoice_url ?? null,
          invoice_pdf: inv.invoice_pdf ?? null,
          receipt_url: charge?.receipt_url ?? null,
          refunds: (charge?.refunds?.data ?? []).map((r) => ({ id: r.id, amount: r.amount, created: r.created, status: r.status ?? 'pending' })),
        }
      })
      const last = list.data[list.data.length - 1]
      return { invoices, nextCursor: list.has_more && last?.id ? last.id : null, billingEnabled: true }
    },

    /**
     * An administrator's extension of a Stripe subscription: its trial end moves `days` past the
     * later of now and the paid period's end, so Stripe charges nothing until then. A repeated
     * request over the same period (a double click) reaches Stripe with the same idempotency key.
     */
    async extend(db: Db, target: UserRow, days: number, now = Date.now()): Promise<UserRow> {
      const sub = await call(() => stripe.subscriptions.retrieve(target.stripeSubscriptionId!))
      if (sub.status !== 'active' && sub.status !== 'trialing') throw conflict(ADMIN_MESSAGES.extendPaymentDue)
      const from = Math.max(now, state(sub).periodEnd ?? now, (sub.trial_end ?? 0) * 1000)
      const trialEnd = Math.floor((from + days * DAY_MS) / 1000)
      const updated = await call(() =>
        stripe.subscriptions.update(sub.id, { trial_end: trialEnd, proration_behavior: 'none' }, { idempotencyKey: `extend-${sub.id}-${Math.floor(from / 1000)}-${days}` }),
      )
      const after = state(updated)
      const [row] = await db
        .update(users)
        .set({ subscriptionStatus: after.status, subscriptionPeriodEnd: after.periodEnd ?? trialEnd * 1000, updatedAt: now })
        .where(and(eq(users.id, target.id), eq(users.stripeSubscriptionId, sub.id)))
        .returning()
      if (!row) throw conflict(ADMIN_MESSAGES.subscriptionChanged)
      await mirrorAccount(row.id, row)
      return row
    },
  }
}
