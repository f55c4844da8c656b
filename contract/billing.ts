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
  /** A change of plan happens only with this: without it the answer is what would change (`confirm_change`). */
  confirm: z.boolean({ error: 'confirm must be true or false' }).optional(),
  /** The moment the shown proration was computed for (epoch seconds, from `planChange`), so the charge is the one shown. */
  prorationDate: z.number({ error: 'prorationDate must be a time in seconds' }).int().positive().optional(),
})

/** POST /api/create-subscription-guest: the account is created after. */
export const guestSubscriptionBodySchema = subscriptionBodySchema.omit({ confirm: true, prorationDate: true }).extend({ email: emailField })

/** What a change of plan would do, before it is made (Stripe's preview of the next invoice). Cents. */
export interface PlanChangePreview {
  fromPlan: string
  toPlan: string
  /** The new plan's price each period. */
  newAmount: number
  /** Charged now: nothing while the prorations wait for the next invoice. */
  dueNow: number
  /** The next invoice with the change, and its date (ISO). */
  nextInvoiceAmount: number
  nextInvoiceDate: string | null
  /** The prorated part of the next invoice: negative when the rest of this period is credited. */
  prorationAmount: number
  currency: string
  /** Send back with `confirm` (epoch seconds). */
  prorationDate: number
}

// The spec's POST /api/create-payment-intent (a client-chosen amount for a 'Premium Plan' that granted
// nothing) is retired: /checkout leads to /subscribe, where the price is the plan's, set by the server.

/** GET /api/account/invoices: a page of the owner's invoices, newest first. */
export const invoicesQuerySchema = z.object({
  /** The last invoice of the page before (its id, from `nextCursor`). */
  after: z
    .string()
    .regex(/^in_[A-Za-z0-9_]{1,200}$/, 'after must be an invoice id from the page before')
    .optional(),
  limit: z.coerce.number().int().min(1, 'limit must be between 1 and 50').max(50, 'limit must be between 1 and 50').default(10),
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
  /**
   * `past_due`: the owner has a payment to fix first (`paymentDue`); `confirm_change`: a change of
   * plan waiting for the owner's Confirm (`planChange`); `cancellation_pending`: the subscription is
   * set to end and can be kept (POST /api/account/resume-subscription) rather than doubled. In all
   * three nothing was created or changed.
   */
  status: 'active' | 'trialing' | 'incomplete' | 'pending' | 'past_due' | 'confirm_change' | 'cancellation_pending'
  clientSecret: string | null
  subscriptionId: string
  customerId: string | null
  invoicePreview: InvoicePreview
  /** False on a server without billing: plans are granted without payment, and the UI says so. */
  billingEnabled: boolean
  /** With status `past_due`: what is owed, and how to pay it. */
  paymentDue?: PaymentDue | null
  /** With status `confirm_change`: what the change does and costs. */
  planChange?: PlanChangePreview | null
  /** With status `cancellation_pending`: when the subscription ends (ISO). */
  endsAt?: string | null
}

/** An unpaid invoice of the owner's current subscription (a payment issue). Cents. */
export interface PaymentDue {
  invoiceId: string
  amountDue: number
  currency: string
  /** Stripe's page for paying this invoice (it handles any authentication the bank asks for). */
  hostedInvoiceUrl: string | null
  /** When the payment-issue grace ends (ISO), if one is running. */
  graceUntil: string | null
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
  /** The unpaid invoice of a payment issue, when Stripe has one open. */
  paymentDue: PaymentDue | null
  /** Whether the payment method can be changed here (billing on, and a Stripe customer to change it for). */
  canUpdatePaymentMethod: boolean
}

/** POST /api/account/payment-method: Stripe's page for changing the card, then back to /account. */
export interface PaymentMethodSession {
  url: string
}

/** POST /api/account/pay-invoice: the open invoice, charged again now to the payment method on file. */
export interface PayInvoiceResult {
  message: string
  subscription: AccountSubscription
}

/** A refund of (part of) an invoice's payment. Cents. */
export interface InvoiceRefund {
  id: string
  amount: number
  created: number
  /** Stripe's: succeeded, pending, requires_action, failed, canceled. */
  status: string
}

/** One invoice of the billing history (amounts in cents, `created` in epoch seconds). */
export interface BillingInvoice {
  id: string
  /** The number printed on the invoice (e.g. "A1B2C3-0001"). */
  number: string | null
  status: string
  created: number
  amount_due: number
  amount_paid: number
  currency: string
  hosted_invoice_url: string | null
  invoice_pdf: string | null
  /** The payment's receipt (Stripe's), which also lists its refunds. */
  receipt_url: string | null
  refunds: InvoiceRefund[]
}

/** GET /api/account/invoices */
export interface InvoicePage {
  invoices: BillingInvoice[]
  /** Pass as `after` for the next page; null on the last. */
  nextCursor: string | null
  billingEnabled: boolean
}

/** GET /api/billing/config */
export interface BillingConfig {
  billingEnabled: boolean
  /** Stripe's publishable key when billing is on (for the Payment Element). */
  publishableKey: string | null
}
