import { z } from 'zod'
import type { AccountSubscription, InvoicePreview, SubscriptionResult } from '../../../contract/billing'
import { formatCents, PAID_PLANS, PLANS, type PaidPlan } from '../../../contract/plans'
import { ApiRequestError, errorText } from '@/lib/api-client'
import { failureText, SUBSCRIBE_TOASTS } from './copy'

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
 * - `error`: nothing usable → 'Subscription Error'.
 */
export type SubscribeOutcome = 'activated' | 'payment' | 'free' | 'error'

export function subscribeOutcome(result: SubscriptionResult, { signedIn }: { signedIn: boolean }): SubscribeOutcome {
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

export type StatusLabel = 'Active' | 'Trialing' | 'Inactive'

export function statusLabel(status: string | null | undefined): StatusLabel {
  if (status === 'active') return 'Active'
  if (status === 'trialing') return 'Trialing'
  return 'Inactive'
}

/** Epoch seconds as a date, e.g. "March 4, 2026" (UTC, so every viewer reads the same day). */
export function formatEpochDate(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null
  return new Date(seconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
}

export function nextBillingText(sub: AccountSubscription['subscription']): string {
  if (!sub) return '—'
  if (sub.cancel_at_period_end) return 'Cancelled'
  return formatEpochDate(sub.current_period_end) ?? '—'
}

/** Upgrade: without an active subscription, or an active one below Enterprise. Admins have no plan to change. */
export function canUpgrade(account: Pick<AccountSubscription, 'planTier' | 'hasActiveSubscription'>): boolean {
  if (account.planTier === 'admin') return false
  return !account.hasActiveSubscription || account.planTier !== 'enterprise'
}

/** Cancel: only an active subscription not already set to end. */
export function canCancel(account: Pick<AccountSubscription, 'planTier' | 'hasActiveSubscription' | 'subscription'>): boolean {
  if (account.planTier === 'admin' || !account.hasActiveSubscription || !account.subscription) return false
  return statusLabel(account.subscription.status) !== 'Inactive' && !account.subscription.cancel_at_period_end
}

export function cardText(source: NonNullable<NonNullable<AccountSubscription['customer']>['default_source']>): { label: string; expiry: string } {
  const brand = source.brand ? source.brand.charAt(0).toUpperCase() + source.brand.slice(1) : 'Card'
  return { label: `${brand} •••• ${source.last4}`, expiry: `Expires ${String(source.exp_month).padStart(2, '0')}/${source.exp_year}` }
}

export const BILLING_HISTORY_LIMIT = 5

/** The most recent invoices, newest first. */
export function recentInvoices(invoices: AccountSubscription['invoices'], limit = BILLING_HISTORY_LIMIT): AccountSubscription['invoices'] {
  return [...invoices].sort((a, b) => b.created - a.created).slice(0, limit)
}

export const invoiceIsPaid = (status: string): boolean => status === 'paid'
