import type Stripe from 'stripe'
import { PAID_PLANS, type PaidPlan } from '../../contract/plans'

// Reading Stripe's objects the same way everywhere: ids that may come expanded, a subscription's
// period and plan, an invoice's subscription (older and newer API versions alike).

/** Statuses in which Stripe still asks for an unpaid invoice of the subscription. */
export const PAYMENT_DUE_STATUSES = new Set(['past_due', 'unpaid'])

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id

export function planOfPrice(prices: Record<PaidPlan, string>, priceId: string | null | undefined): PaidPlan | null {
  return PAID_PLANS.find((plan) => prices[plan] === priceId) ?? null
}

/** Period bounds in epoch ms: on the subscription (older API versions) or on its first item (newer). */
export function periodOf(sub: Stripe.Subscription): { start: number | null; end: number | null } {
  const loose = sub as unknown as { current_period_start?: number; current_period_end?: number }
  const item = sub.items?.data?.[0] as unknown as { current_period_start?: number; current_period_end?: number } | undefined
  const start = loose.current_period_start ?? item?.current_period_start
  const end = loose.current_period_end ?? item?.current_period_end
  return { start: start ? start * 1000 : null, end: end ? end * 1000 : null }
}

/** What a subscription means for its owner, the same for the immediate answer and the webhooks. */
export function subscriptionState(prices: Record<PaidPlan, string>, sub: Stripe.Subscription, deleted = false) {
  const period = periodOf(sub)
  return {
    status: deleted ? 'canceled' : sub.status,
    plan: planOfPrice(prices, sub.items?.data?.[0]?.price?.id),
    periodStart: period.start,
    periodEnd: period.end,
    cancelAtPeriodEnd: deleted ? false : sub.cancel_at_period_end,
  }
}

/** What is still owed on an invoice (cents). */
export const owedOn = (invoice: Stripe.Invoice): number => invoice.amount_remaining ?? invoice.amount_due ?? 0

/** The oldest open invoice of the subscription with something owed on it (the one Stripe retries), or null. */
export function oldestOwed(invoices: Stripe.Invoice[], subscriptionId: string): Stripe.Invoice | null {
  const owed = invoices.filter((inv) => inv.status === 'open' && owedOn(inv) > 0 && subscriptionOfInvoice(inv) === subscriptionId)
  return owed.sort((a, b) => a.created - b.created)[0] ?? null
}

/** The subscription an invoice belongs to (parent.subscription_details on newer API versions). */
export function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const loose = invoice as unknown as {
    subscription?: string | { id: string } | null
    parent?: { subscription_details?: { subscription?: string | { id: string } | null } | null } | null
  }
  return idOf(loose.parent?.subscription_details?.subscription) ?? idOf(loose.subscription)
}
