import type { AdminPromoCode, AdminRefund, AdminUser } from '../../../contract/admin'
import { ADMIN_MESSAGES } from '../../../contract/admin'
import type { PromoType } from '../../../contract/billing'
import { formatCents } from '../../../contract/plans'
import { ApiRequestError } from '@/lib/api-client'

// The back office's rules, free of React so they can be tested alone (seeds 001 §2 'Admin
// dashboard', §3, §4 'User account', §5 'Admin promo create' / 'Admin prompts', §8, §9).

/** Refunds show the first 8 characters of the user id (seeds 001 §9). */
export const REFUND_USER_ID_CHARS = 8

export const ADMIN_COPY = {
  authRequiredBody: 'Please sign in to access the admin dashboard.',
  authFailedBody: 'Your session is no longer valid. Please sign in again.',
  adminRequiredBody: 'You do not have permission to access the admin dashboard.',
  deleteCannotBeUndone: 'This cannot be undone.',
} as const

/** Cents as dollars with two decimals (seeds 001 §9): 1234 → "$12.34". */
export const formatDollars = (cents: number): string => formatCents(Number.isFinite(cents) ? cents : 0)

/** A date (ISO string) as the browser's short date; '—' when missing or unreadable. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString()
}

export const isPaused = (user: Pick<AdminUser, 'planTier' | 'pausedAt'>): boolean => user.planTier === 'paused' || !!user.pausedAt

export type BadgeVariant = 'default' | 'secondary' | 'success' | 'warning' | 'destructive' | 'outline'

/**
 * The actions a user's row offers: none for an administrator (not a customer); otherwise Resume for
 * a paused account (Pause for any other), Extend, Refund only with billing on, and Delete.
 */
export function userRowActions(user: Pick<AdminUser, 'planTier' | 'pausedAt'>, billingEnabled: boolean): { resume: boolean; refund: boolean } | null {
  if (user.planTier === 'admin') return null
  return { resume: isPaused(user), refund: billingEnabled }
}

/**
 * The Status badge (seeds 001 §4): paused, admin, the subscription status, 'active' for any
 * non-free plan, else 'free'.
 */
export function userStatus(user: Pick<AdminUser, 'planTier' | 'pausedAt' | 'status'>): string {
  if (isPaused(user)) return 'paused'
  if (user.planTier === 'admin') return 'admin'
  const sub = (user.status ?? '').trim()
  if (sub && sub !== 'none') return sub
  if (user.planTier && user.planTier !== 'free') return 'active'
  return 'free'
}

export function statusVariant(status: string): BadgeVariant {
  switch (status) {
    case 'paused':
      return 'warning'
    case 'admin':
      return 'default'
    case 'active':
    case 'trialing':
      return 'success'
    case 'free':
      return 'secondary'
    default:
      return 'destructive'
  }
}

/** The Users search: email or display name, case-insensitive substring; blank shows everyone. */
/** How long the users search waits for typing to pause before asking the server. */
export const SEARCH_DEBOUNCE_MS = 300

/** Under the users table: how many are shown, of how many accounts (the dashboard's count) when not searching. */
export function shownUsersText(shown: number, total: number | null, more: boolean): string {
  const n = shown.toLocaleString('en-US')
  if (total !== null) return `Showing ${n} of ${total.toLocaleString('en-US')} users`
  return more ? `Showing the first ${n} matching users` : `${n} matching ${shown === 1 ? 'user' : 'users'}`
}

/** The promo code field: upper case as typed (seeds 001 §5). */
export const promoCodeAsTyped = (value: string): string => value.toUpperCase()

/** parseInt, with anything non-numeric as 0 (seeds 001 §5). */
export function parseIntOrZero(value: string | number | null | undefined): number {
  const n = typeof value === 'number' ? Math.trunc(value) : Number.parseInt(String(value ?? ''), 10)
  return Number.isFinite(n) ? n : 0
}

export interface PromoFormValues {
  code: string
  description: string
  type: PromoType
  value: string
  maxUses: string
  validUntil: string
}

export const PROMO_FORM_DEFAULTS: PromoFormValues = {
  code: '',
  description: '',
  type: 'percentage',
  value: '0',
  maxUses: '100',
  validUntil: '',
}

/** The POST /api/admin/promo-codes body from the form. */
export function promoBody(values: PromoFormValues) {
  return {
    code: promoCodeAsTyped(values.code.trim()),
    description: values.description.trim(),
    type: values.type,
    value: parseIntOrZero(values.value),
    maxUses: parseIntOrZero(values.maxUses),
    validUntil: values.validUntil || null,
  }
}

/** The create button is disabled while the code is empty or a request is pending (seeds 001 §5). */
export const canCreatePromo = (code: string, pending: boolean): boolean => code.trim().length > 0 && !pending

export const PROMO_TYPE_LABELS: Record<PromoType, string> = {
  percentage: 'Percentage',
  fixed_amount: 'Fixed amount',
  free_subscription: 'Free subscription',
}

/** A promo's value with its unit: percent, dollars or days (seeds 001 §3). */
export function promoValueText(promo: Pick<AdminPromoCode, 'type' | 'value'>): string {
  if (promo.type === 'percentage') return `${promo.value}%`
  if (promo.type === 'fixed_amount') return `$${promo.value}`
  return `${promo.value} ${promo.value === 1 ? 'day' : 'days'}`
}

/** Only an unused code may be deleted (seeds 001 §4). */
export const canDeletePromo = (promo: Pick<AdminPromoCode, 'usedCount'>): boolean => promo.usedCount === 0

export const shortUserId = (id: string): string => id.slice(0, REFUND_USER_ID_CHARS)

export const refundPlan = (refund: Pick<AdminRefund, 'user'>): string => refund.user?.planTier || 'free'

/** Completed green, pending yellow, anything else a failure in red (seeds 001 §3). */
export function refundStatusView(status: string): { label: string; variant: BadgeVariant } {
  if (status === 'completed') return { label: 'completed', variant: 'success' }
  if (status === 'pending') return { label: 'pending', variant: 'warning' }
  return { label: 'failed', variant: 'destructive' }
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string }

/** The pause reason: non-empty after trimming. */
export function checkReason(value: string): Checked<string> {
  const reason = value.trim()
  return reason ? { ok: true, value: reason } : { ok: false, error: ADMIN_MESSAGES.reasonRequired }
}

/** Extend: whole days greater than 0. */
export function checkDays(value: string): Checked<number> {
  const text = value.trim()
  if (!/^\d+$/.test(text)) return { ok: false, error: ADMIN_MESSAGES.daysPositive }
  const days = Number(text)
  return days > 0 ? { ok: true, value: days } : { ok: false, error: ADMIN_MESSAGES.daysPositive }
}

/** A refund in dollars (decimal, up to cents) greater than 0 and at most $10,000.00. */
export function checkRefundDollars(value: string): Checked<number> {
  const text = value.trim().replace(/^\$/, '')
  if (!/^\d+(\.\d{1,2})?$|^\.\d{1,2}$/.test(text)) return { ok: false, error: ADMIN_MESSAGES.amountPositive }
  const amount = Number(text)
  if (!(amount > 0)) return { ok: false, error: ADMIN_MESSAGES.amountPositive }
  if (amount > 10_000) return { ok: false, error: ADMIN_MESSAGES.refundTooLarge }
  return { ok: true, value: amount }
}

/**
 * What a failed delete means (seeds 001 §8): a message mentioning a 200 status or 'successfully'
 * is a success; a 404 is 'User not found'; anything else 'Failed to delete user account'.
 */
export function deleteFailureOutcome(error: unknown): { success: true } | { success: false; message: string } {
  const text = error instanceof Error ? error.message : String(error ?? '')
  if (/\b200\b/.test(text) || /successfully/i.test(text)) return { success: true }
  if (error instanceof ApiRequestError && error.status === 404) return { success: false, message: ADMIN_MESSAGES.userNotFound }
  return { success: false, message: ADMIN_MESSAGES.deleteFailed }
}

/** What an admin call refused for the session means (seeds 001 §6 'Admin guard'). */
export function guardOutcome(error: unknown): 'authFailed' | 'adminRequired' | null {
  if (!(error instanceof ApiRequestError)) return null
  if (error.status === 401) return 'authFailed'
  if (error.status === 403) return 'adminRequired'
  return null
}

// ---- charts ----

/** A "nice" top for a value axis (1, 2, 2.5, 5 × 10ⁿ), never below 1, so bars fill the height sensibly. */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1
  const exponent = Math.floor(Math.log10(max))
  const base = 10 ** exponent
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (max <= step * base) return step * base
  }
  return 10 * base
}

/** Evenly spaced ticks from 0 to the axis top (inclusive). */
export function axisTicks(top: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, i) => (top * i) / count)
}

/** A value's height in pixels on an axis of `height` pixels topping at `top`; clamped to [0, height]. */
export function scaleValue(value: number, top: number, height: number): number {
  if (!(top > 0) || !Number.isFinite(value)) return 0
  return Math.max(0, Math.min(height, (value / top) * height))
}

/** A week label: "Mar 3" from "2025-03-03" (UTC, as the API reports weeks). */
export function weekLabel(weekStart: string): string {
  const date = new Date(`${weekStart.slice(0, 10)}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return weekStart
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
}

/** A tick's text: whole numbers plain, large ones shortened (1.5k). */
export function tickText(value: number, money = false): string {
  const prefix = money ? '$' : ''
  if (Math.abs(value) >= 1000) return `${prefix}${Number((value / 1000).toFixed(1))}k`
  return `${prefix}${Number.isInteger(value) ? value : Number(value.toFixed(2))}`
}
