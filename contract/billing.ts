import { z } from 'zod'
import { emailField } from './auth'
import { BILLING_MESSAGES, BILLING_PERIOD, BILLING_PERIOD_DAYS, PROMO_TYPES, type PromoType } from './billing-constants'
import { PAID_PLANS } from './plans'

// Subscriptions, promotion codes and the account's billing view (seeds 000 §2 'Subscribe page',
// §3, §4, §5, §7, §8; seeds 001 §3 promo code). Amounts are cents unless named otherwise.

export { BILLING_MESSAGES, BILLING_PERIOD, BILLING_PERIOD_DAYS, PROMO_TYPES, type PromoType }

const promoCode = z
  .string()
  .trim()
  .max(64, 'Promo code is too long')
  .transform((v) => v.toUpperCase())
  .optional()
  .transform((v) => (v ? v : undefined))

/** POST /api/create-subscription (signed in). */
export const subscriptionBodySchema = z.object({
  plan: z.enum(PAID_PLANS, { error: 'plan must be basic, premium or enterprise' }).default('basic'),
  promoCode,
})

/** POST /api/create-subscription-guest: the account is created after. */
export const guestSubscriptionBodySchema = subscriptionBodySchema.extend({ email: emailField })

/** POST /api/create-payment-intent (the checkout page): amount in dollars, as the spec's client sends it. */
export const paymentIntentBodySchema = z.object({
  amount: z.number({ error: 'amount must be a number of dollars' }).positive('amount must be more than 0').max(100_000),
  description: z.string().trim().min(1).max(200),
})

export interface InvoicePreview {
  planName: string
  baseAmount: number
  billingPeriod: typeof BILLING_PERIOD
  promoCodeApplied: string | null
  discountAmount: number
  finalAmount: number
  /** Days free before the first charge (a free-subscription code). */
  trialDays: number | null
}

export interface SubscriptionResult {
  status: 'active' | 'trialing' | 'incomplete' | 'pending'
  clientSecret: string | null
  subscriptionId: string
  customerId: string | null
  invoicePreview: InvoicePreview
  /** False on a server without billing: plans are granted without payment, and the UI says so. */
  billingEnabled: boolean
}

/** GET /api/account/subscription (seeds 000 §3 'Account subscription response'). */
export interface AccountSubscription {
  planTier: string
  hasActiveSubscription: boolean
  billingEnabled: boolean
  subscription: {
    status: string
    plan: { amount: number; currency: string; interval: string }
    current_period_start: number | null
    current_period_end: number | null
    cancel_at_period_end: boolean
  } | null
  customer: { default_source: { brand: string; last4: string; exp_month: number; exp_year: number } | null } | null
  invoices: Array<{ id: string; status: string; created: number; amount_paid: number; invoice_pdf: string | null }>
  /** During a payment issue's grace: when it ends (ISO). */
  paymentGraceUntil: string | null
}

/** GET /api/billing/config */
export interface BillingConfig {
  billingEnabled: boolean
  /** Stripe's publishable key when billing is on (for the Payment Element). */
  publishableKey: string | null
}
