import { z } from 'zod'
import {
  BILLING_MESSAGES,
  type AccountSubscription,
  type BillingInvoice,
  type InvoicePreview,
  type InvoiceRefund,
  type SubscriptionResult,
} from '../../../contract/billing'
import { formatCents, PAID_PLANS, PLANS, type PaidPlan } from '../../../contract/plans'
import { ApiRequestError, errorText } from '@/lib/api-client'
import { ACCOUNT_TOASTS, DELETE_CONFIRMATION_WORD, failureText, PAYMENT_ISSUE, SUBSCRIBE_TOASTS } from './copy'

export { checkoutRedirectSearch, hasPaymentIssue, showsPaymentIssueBanner } from './payment-rules'

// The billing screens' rules, kept free of React so they can be tested on their own
// (seeds 000 §2 Subscribe / Account, §3, §4, §5, §6, §8, §9).

/** Cents as dollars with two decimals: 2999 → "$29.99". */
export const formatAmount = (cents: number): string => formatCents(cents)

/** A promo code as the server will read it: trimmed, upper-case; blank is "none". */
export function normalisePromo(value: string | null | undefined): string {
  return (value ?? '').trim().toUpperCase()
}

/** The promo input upper-cases as the visitor types (spaces inside are left for the server to refuse). */
export function promoAsTyped(value: string): string {
  return value.toUpperCase()
}

export function planName(plan: string): string {
  if ((PAID_PLANS as readonly string[]).includes(plan)) return PLANS[plan as PaidPlan].name
  return plan ? plan.charAt(0).toUpperCase() + plan.slice(1) : 'None'
}

export interface SummaryLine {
  kind: 'base' | 'discount' | 'total'
  label: string
  amount: string
}

/** The Invoice Summary: the plan and its price per period, the discount with its code, the amount due today. */
export function invoiceSummaryLines(preview: InvoicePreview): SummaryLine[] {
  const lines: SummaryLine[] = [
    { kind: 'base', label: `${preview.planName} Plan`, amount: `${formatAmount(preview.baseAmount)}/${preview.billingPeriod}` },
  ]
  if (preview.promoCodeApplied && preview.discountAmount > 0) {
    lines.push({ kind: 'discount', label: `Discount (${preview.promoCodeApplied})`, amount: `-${formatAmount(preview.discountAmount)}` })
  }
  lines.push({ kind: 'total', label: 'Amount Due Today', amount: formatAmount(preview.finalAmount) })
  return lines
}

export function trialText(preview: InvoicePreview): string | null {
  return preview.trialDays ? `Trial period: ${preview.trialDays} days` : null
}

/**
 * What a subscription answer leads to (seeds 000 §4 'Subscribe flow'):
 * - `activated`: the plan is already on (signed in; status active, or trialing/active granted by a
 *   server without billing) → toast, refresh the user, /dashboard;
 * - `payment`: a client secret → the card form;
 * - `free`: a guest's subscription that needs no payment now (amount 0, or a server without
 *   billing) → store it as pending and go to /register;
 * - `payment-due`: the owner's last renewal failed (status `past_due`): nothing was created or
 *   changed, and the page leads to fixing the payment instead of a card form;
 * - `confirm-change`: another plan for an active subscription: nothing changed yet; what changes
 *   and what is charged are shown, and the change is made only on Confirm;
 * - `keep`: the subscription is set to end: keeping it is offered instead of a second one;
 * - `error`: nothing usable → 'Subscription Error'.
 */
export type SubscribeOutcome = 'activated' | 'payment' | 'free' | 'payment-due' | 'confirm-change' | 'keep' | 'error'

export function subscribeOutcome(result: SubscriptionResult, { signedIn }: { signedIn: boolean }): SubscribeOutcome {
  if (result.status === 'past_due') return 'payment-due'
  if (result.status === 'confirm_change') return result.planChange ? 'confirm-change' : 'error'
  if (result.status === 'cancellation_pending') return 'keep'
  if (signedIn && result.status === 'active') return 'activated'
  if (result.clientSecret) return 'payment'
  if (signedIn) return result.status === 'trialing' && (!result.billingEnabled || result.invoicePreview.finalAmount === 0) ? 'activated' : 'error'
  if (result.subscriptionId && (result.invoicePreview.finalAmount === 0 || (!result.billingEnabled && result.status === 'pending'))) return 'free'
  return 'error'
}

export type SetupFailure =
  | { kind: 'promotion'; title: string; description: string }
  | { kind: 'auth'; title: string; description: string }
  | { kind: 'other'; title: string; description: string }

/** A failed create-subscription call as its toast (seeds 000 §8). `auth` also means: to /login after 2 s. */
export function setupFailure(error: unknown): SetupFailure {
  const text = errorText(error, '')
  const status = error instanceof ApiRequestError ? error.status : null
  const full = error instanceof Error ? error.message : text
  if (/promotion/i.test(full)) return { kind: 'promotion', ...SUBSCRIBE_TOASTS.promoInvalid }
  if (status === 401 || /\b401\b|Authentication/.test(full)) return { kind: 'auth', ...SUBSCRIBE_TOASTS.authRequired }
  return { kind: 'other', ...failureText(SUBSCRIBE_TOASTS.setupFailed, text) }
}

// --- Pending subscription (seeds 000 §3: local storage, after a free guest signup) ---

export const PENDING_SUBSCRIPTION_KEY = 'pending_subscription'

const pendingSchema = z.object({
  subscriptionId: z.string().min(1).max(255),
  customerId: z.string().max(255).nullable().optional(),
  plan: z.string().max(32),
  email: z.string().max(254),
})
export type PendingSubscription = z.infer<typeof pendingSchema>

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
const browserStorage = (): KeyValueStore | undefined => globalThis.localStorage

export const pendingSubscriptionStore = {
  save(value: PendingSubscription, storage: KeyValueStore | undefined = browserStorage()): void {
    storage?.setItem(PENDING_SUBSCRIPTION_KEY, JSON.stringify(value))
  },
  /** The stored entry, or null when there is none or it is not one we wrote. */
  read(storage: KeyValueStore | undefined = browserStorage()): PendingSubscription | null {
    const raw = storage?.getItem(PENDING_SUBSCRIPTION_KEY)
    if (!raw) return null
    try {
      const parsed = pendingSchema.safeParse(JSON.parse(raw))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  },
  clear(storage: KeyValueStore | undefined = browserStorage()): void {
    storage?.removeItem(PENDING_SUBSCRIPTION_KEY)
  },
}

export function pendingFromResult(result: SubscriptionResult, email: string, plan: PaidPlan): PendingSubscription {
  return { subscriptionId: result.subscriptionId, customerId: result.customerId, plan, email }
}

/** The registration fields a pending subscription adds (the server trusts only its own records). */
export function registrationExtras(pending: PendingSubscription | null): { subscriptionId?: string; stripeCustomerId?: string } {
  if (!pending) return {}
  return { subscriptionId: pending.subscriptionId, ...(pending.customerId ? { stripeCustomerId: pending.customerId } : {}) }
}

// --- Account page (seeds 000 §2, §4, §6) ---

export type StatusLabel = 'Active' | 'Trialing' | 'Payment due' | 'Inactive'

export function statusLabel(status: string | null | undefined): StatusLabel {
  if (status === 'active') return 'Active'
  if (status === 'trialing') return 'Trialing'
  if (status === 'past_due') return 'Payment due'
  return 'Inactive'
}

/** An ISO time as a date, e.g. "November 8, 2026" (UTC, like `formatEpochDate`). */
export function formatIsoDate(iso: string | null | undefined): string | null {
  if (!iso) return null
  const at = Date.parse(iso)
  return Number.isNaN(at) ? null : formatEpochDate(Math.floor(at / 1000))
}

/** Epoch seconds as a date, e.g. "March 4, 2026" (UTC, so every viewer reads the same day). */
export function formatEpochDate(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null
  return new Date(seconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

/**
 * Current Plan's amount and date rows. Without billing nothing is charged: no price and no billing
 * date, but when the plan renews (for nothing) or ends.
 */
export function planTermsRows(account: Pick<AccountSubscription, 'billingEnabled' | 'subscription'>): { amount: string; dateLabel: string; date: string } | null {
  const sub = account.subscription
  if (!sub) return null
  if (!account.billingEnabled) {
    const on = formatEpochDate(sub.current_period_end) ?? '—'
    return sub.cancel_at_period_end ? { amount: NO_CHARGE, dateLabel: 'Ends on', date: on } : { amount: NO_CHARGE, dateLabel: 'Renews on', date: on }
  }
  return { amount: `${formatAmount(sub.plan.amount)}/${sub.plan.interval}`, dateLabel: 'Next billing date', date: nextBillingText(sub) }
}

export const NO_CHARGE = 'Nothing is charged'

export function nextBillingText(sub: AccountSubscription['subscription']): string {
  if (!sub) return '—'
  if (sub.cancel_at_period_end) return 'Cancelled'
  return formatEpochDate(sub.current_period_end) ?? '—'
}

/** The plan link's words: an owner with a subscription changes it; one without upgrades to one. */
export function changePlanLabel(account: Pick<AccountSubscription, 'hasActiveSubscription'>): 'Change Plan' | 'Upgrade Plan' {
  return account.hasActiveSubscription ? 'Change Plan' : 'Upgrade Plan'
}

/** Upgrade: without an active subscription, or an active one below Enterprise. Admins have no plan to change. */
export function canUpgrade(account: Pick<AccountSubscription, 'planTier' | 'hasActiveSubscription'>): boolean {
  if (account.planTier === 'admin') return false
  return !account.hasActiveSubscription || account.planTier !== 'enterprise'
}

/** Cancel: only an active subscription not already set to end. */
export function canCancel(account: Pick<AccountSubscription, 'planTier' | 'hasActiveSubscription' | 'subscription'>): boolean {
  if (account.planTier === 'admin' || !account.hasActiveSubscription || !account.subscription) return false
  const status = statusLabel(account.subscription.status)
  return (status === 'Active' || status === 'Trialing') && !account.subscription.cancel_at_period_end
}

/** "Keep my subscription" is offered only on a subscription set to end that is still active. */
export function canKeepSubscription(account: Pick<AccountSubscription, 'hasActiveSubscription' | 'subscription'>): boolean {
  return !!account.subscription?.cancel_at_period_end && account.hasActiveSubscription
}

/** The plan status badge: Inactive in red, Payment due in amber, Active and Trialing in green. */
export function statusBadgeVariant(status: StatusLabel): 'destructive' | 'warning' | 'success' {
  return status === 'Inactive' ? 'destructive' : status === 'Payment due' ? 'warning' : 'success'
}

/** "Update payment method" is offered only with billing on and a customer whose card can be changed. */
export function offersPaymentUpdate(account: Pick<AccountSubscription, 'billingEnabled' | 'canUpdatePaymentMethod'>): boolean {
  return account.billingEnabled && account.canUpdatePaymentMethod
}

/** The billing history says billing is off when the account says so, or the server's first page does. */
export function historyBillingOff(account: Pick<AccountSubscription, 'billingEnabled'>, firstPage: { billingEnabled?: boolean } | undefined): boolean {
  return !account.billingEnabled || firstPage?.billingEnabled === false
}

/** Deleting the account goes ahead only when the confirmation word is typed exactly, in capitals (spaces around it allowed). */
export function deletionConfirmed(typed: string): boolean {
  return typed.trim() === DELETE_CONFIRMATION_WORD
}

export function cardText(source: NonNullable<NonNullable<AccountSubscription['customer']>['default_source']>): { label: string; expiry: string } {
  const brand = source.brand ? source.brand.charAt(0).toUpperCase() + source.brand.slice(1) : 'Card'
  return { label: `${brand} •••• ${source.last4}`, expiry: `Expires ${String(source.exp_month).padStart(2, '0')}/${source.exp_year}` }
}

// --- Billing history (0.2 · 7 of 7: paged, with refunds) ---

export const invoiceIsPaid = (status: string): boolean => status === 'paid'

/** What an invoice shows as its amount: what was paid once paid, otherwise what is due. Cents. */
export function invoiceAmount(invoice: Pick<BillingInvoice, 'status' | 'amount_paid' | 'amount_due'>): number {
  return invoiceIsPaid(invoice.status) ? invoice.amount_paid : invoice.amount_due
}

/** An invoice's status in words (Stripe's draft, open, paid, uncollectible, void). */
export function invoiceStatusText(status: string): string {
  switch (status) {
    case 'paid':
      return 'Paid'
    case 'open':
      return 'Due'
    case 'draft':
      return 'Not issued yet'
    case 'void':
      return 'Cancelled'
    default:
      return 'Not paid'
  }
}

/** How an invoice is named to a screen reader: its number when it has one, and its date. */
export function invoiceName(invoice: Pick<BillingInvoice, 'number' | 'created'>): string {
  const date = formatEpochDate(invoice.created) ?? ''
  return invoice.number ? `invoice ${invoice.number} of ${date}` : `invoice of ${date}`
}

/** The accessible names of an invoice's links: each starts with the link's visible words and says which invoice. */
export function invoiceLinkLabels(invoice: Pick<BillingInvoice, 'number' | 'created'>): { view: string; pdf: string; receipt: string } {
  const name = invoiceName(invoice)
  return { view: `View ${name}`, pdf: `PDF of the ${name}`, receipt: `Receipt of the ${name}` }
}

/** A refund's line under its invoice: done (with its date), on its way, or not done. */
export function refundText(refund: Pick<InvoiceRefund, 'amount' | 'created' | 'status'>): string {
  const amount = formatAmount(refund.amount)
  switch (refund.status) {
    case 'succeeded':
      return `Refunded ${amount} on ${formatEpochDate(refund.created)}`
    case 'pending':
    case 'requires_action':
      return `Refund of ${amount} pending`
    case 'canceled':
      return `Refund of ${amount} cancelled`
    default:
      return `Refund of ${amount} failed`
  }
}

// --- Payment issue (0.2 · 7 of 7: payments a customer can fix alone) ---

type PaymentView = Pick<AccountSubscription, 'paymentDue' | 'paymentGraceUntil' | 'hasActiveSubscription'>

/** The account page's payment panel: an unpaid invoice, a grace running, or a past-due subscription. */
export function showsPaymentPanel(account: Pick<AccountSubscription, 'paymentDue' | 'paymentGraceUntil' | 'subscription'>): boolean {
  return !!account.paymentDue || !!account.paymentGraceUntil || account.subscription?.status === 'past_due'
}

/**
 * The panel's ways to fix it: changing the card needs somewhere to change it (billing on, a
 * customer); paying now needs an unpaid invoice; Stripe's invoice page needs its address.
 */
export function paymentActions(account: Pick<AccountSubscription, 'paymentDue' | 'canUpdatePaymentMethod'>): {
  update: boolean
  pay: boolean
  openInvoice: boolean
} {
  return {
    update: account.canUpdatePaymentMethod,
    pay: !!account.paymentDue,
    openInvoice: !!account.paymentDue?.hostedInvoiceUrl,
  }
}

/** The amount due, as shown: "$29.99", or null when no unpaid invoice is known. */
export function amountDueText(account: Pick<AccountSubscription, 'paymentDue'>): string | null {
  return account.paymentDue ? formatAmount(account.paymentDue.amountDue) : null
}

/**
 * Until when the vault stays fully usable: the invoice's grace, else the account's. Without a date,
 * the subscription still active means the vault is usable; not active, the grace is over.
 */
export function graceText(account: PaymentView): string {
  const until = formatIsoDate(account.paymentDue?.graceUntil ?? account.paymentGraceUntil)
  if (until) return PAYMENT_ISSUE.usableUntil(until)
  return account.hasActiveSubscription ? PAYMENT_ISSUE.usableDuring : PAYMENT_ISSUE.graceOver
}

/** The toast of a paid invoice: paid, or (the bank still deciding) being processed. */
export function payResultToast(message: string): { title: string; description: string; variant: 'success' | 'default' } {
  if (message === BILLING_MESSAGES.paymentPending) return { title: ACCOUNT_TOASTS.pending.title, description: message, variant: 'default' }
  return { title: ACCOUNT_TOASTS.paid.title, description: message, variant: 'success' }
}

export interface PayFailure {
  toast: { title: string; description: string; variant: 'destructive' | 'default' }
  /** Shown in the panel (the bank's reason), or null when there is nothing left to pay. */
  reason: string | null
  /** The bank wants the owner to confirm the payment: only Stripe's invoice page can. */
  confirmAtBank: boolean
}

/**
 * A failed "Pay now": nothing due any more (409, the panel is read again) is news, not a failure;
 * otherwise the bank's reason, in a toast and in the panel.
 */
export function payFailure(error: unknown): PayFailure {
  const reason = errorText(error, '')
  if (error instanceof ApiRequestError && error.status === 409) {
    return { toast: { title: ACCOUNT_TOASTS.nothingDue.title, description: reason || BILLING_MESSAGES.noPaymentDue, variant: 'default' }, reason: null, confirmAtBank: false }
  }
  const text = failureText(ACCOUNT_TOASTS.payFailed, reason)
  return { toast: { ...text, variant: 'destructive' }, reason: text.description, confirmAtBank: needsBankConfirmation(reason) }
}

/**
 * A refused payment whose reason says the bank wants the owner to confirm it (3-D Secure): that
 * can only be done on Stripe's invoice page, so the page offers it.
 */
export function needsBankConfirmation(reason: string): boolean {
  return /authenticat|3-?D ?Secure|confirm (the|this|your) payment/i.test(reason)
}
