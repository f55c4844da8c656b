import { formatBytes } from '@/lib/format-bytes'
import { adminUsersPath } from '@/features/admin/api'
import { describe, expect, it } from 'vitest'
import { ADMIN_MESSAGES, refundBodySchema } from '../../contract/admin'
import {
  axisTicks,
  canCreatePromo,
  canDeletePromo,
  checkDays,
  checkReason,
  checkRefundDollars,
  deleteFailureOutcome,
  formatDollars,
  guardOutcome,
  niceMax,
  parseIntOrZero,
  PROMO_FORM_DEFAULTS,
  promoBody,
  promoCodeAsTyped,
  shownUsersText,
  statusVariant,
  promoValueText,
  refundPlan,
  refundStatusView,
  scaleValue,
  shortUserId,
  tickText,
  userRowActions,
  userStatus,
  weekLabel,
} from '@/features/admin/logic'
import { ApiRequestError } from '@/lib/api-client'

// The back office's rules (seeds 001 §2 'Admin dashboard', §3, §4, §5, §8, §9).

const user = (o: Partial<{ planTier: string; pausedAt: string | null; status: string; email: string; displayName: string }> = {}) => ({
  planTier: 'free',
  pausedAt: null,
  status: '',
  email: 'a@example.com',
  displayName: 'A',
  ...o,
})

describe('status badge (seeds 001 §4)', () => {
  it('shows paused first, then admin, then the subscription status, then active for a paid plan, else free', () => {
    expect(userStatus(user({ planTier: 'paused' }))).toBe('paused')
    expect(userStatus(user({ planTier: 'premium', pausedAt: '2025-01-01T00:00:00Z', status: 'active' }))).toBe('paused')
    expect(userStatus(user({ planTier: 'admin', status: 'active' }))).toBe('admin')
    expect(userStatus(user({ planTier: 'basic', status: 'past_due' }))).toBe('past_due')
    expect(userStatus(user({ planTier: 'free', status: 'canceled' }))).toBe('canceled')
    expect(userStatus(user({ planTier: 'premium', status: '' }))).toBe('active')
    expect(userStatus(user({ planTier: 'enterprise', status: 'none' }))).toBe('active')
    expect(userStatus(user({ planTier: 'free', status: '' }))).toBe('free')
    expect(userStatus(user({ planTier: 'free', status: 'none' }))).toBe('free')
  })
})

describe('status badge colours', () => {
  it('a trialing subscription is shown green, like an active one', () => {
    expect(statusVariant('trialing')).toBe('success')
    expect(statusVariant('active')).toBe('success')
  })
})

describe('the users list', () => {
  it('asks the server for the search as typed, trimmed, after the page before', () => {
    expect(adminUsersPath('', null)).toBe('/api/admin/users')
    expect(adminUsersPath('  Grace H ', null)).toBe('/api/admin/users?q=Grace+H')
    expect(adminUsersPath('a&b=c', 'eyJ4IjoxfQ')).toBe('/api/admin/users?q=a%26b%3Dc&cursor=eyJ4IjoxfQ')
    expect(adminUsersPath('   ', 'eyJ4IjoxfQ')).toBe('/api/admin/users?cursor=eyJ4IjoxfQ')
  })
  it('with no accounts at all says "Showing 0 of 0 users"; an empty search says "0 matching users"', () => {
    expect(shownUsersText(0, 0, false)).toBe('Showing 0 of 0 users')
    expect(shownUsersText(0, null, false)).toBe('0 matching users')
  })

  it('says how many are shown, of all accounts (the dashboard count) when not searching', () => {
    expect(shownUsersText(50, 12345, true)).toBe('Showing 50 of 12,345 users')
    expect(shownUsersText(50, null, true)).toBe('Showing the first 50 matching users')
    expect(shownUsersText(1, null, false)).toBe('1 matching user')
    expect(shownUsersText(3, null, false)).toBe('3 matching users')
  })
})

describe('promo create form (seeds 001 §5)', () => {
  it('upper-cases the code as typed', () => {
    expect(promoCodeAsTyped('spring25')).toBe('SPRING25')
  })
  it('parses integers, non-numeric as 0', () => {
    expect(parseIntOrZero('42')).toBe(42)
    expect(parseIntOrZero('12.9')).toBe(12)
    expect(parseIntOrZero('abc')).toBe(0)
    expect(parseIntOrZero('')).toBe(0)
    expect(parseIntOrZero(7.8)).toBe(7)
  })
  it('defaults to percentage, value 0, max uses 100', () => {
    expect(PROMO_FORM_DEFAULTS).toMatchObject({ type: 'percentage', value: '0', maxUses: '100' })
    expect(promoBody({ ...PROMO_FORM_DEFAULTS, code: ' save10 ' })).toEqual({
      code: 'SAVE10',
      description: '',
      type: 'percentage',
      value: 0,
      maxUses: 100,
      validUntil: null,
    })
    expect(promoBody({ ...PROMO_FORM_DEFAULTS, code: 'x', value: 'ten', maxUses: '5x', validUntil: '2030-01-31', type: 'free_subscription' })).toMatchObject({
      value: 0,
      maxUses: 5,
      validUntil: '2030-01-31',
      type: 'free_subscription',
    })
  })
  it('disables create while the code is empty or a request is pending', () => {
    expect(canCreatePromo('', false)).toBe(false)
    expect(canCreatePromo('  ', false)).toBe(false)
    expect(canCreatePromo('A', true)).toBe(false)
    expect(canCreatePromo('A', false)).toBe(true)
  })
  it('shows values as percent, dollars or days, and deletes only unused codes', () => {
    expect(promoValueText({ type: 'percentage', value: 25 })).toBe('25%')
    expect(promoValueText({ type: 'fixed_amount', value: 10 })).toBe('$10')
    expect(promoValueText({ type: 'free_subscription', value: 30 })).toBe('30 days')
    expect(promoValueText({ type: 'free_subscription', value: 1 })).toBe('1 day')
    expect(canDeletePromo({ usedCount: 0 })).toBe(true)
    expect(canDeletePromo({ usedCount: 1 })).toBe(false)
  })
})

describe('amounts (seeds 001 §9)', () => {
  it('shows cents / 100 with two decimals', () => {
    expect(formatDollars(1234)).toBe('$12.34')
    expect(formatDollars(0)).toBe('$0.00')
    expect(formatDollars(100000)).toBe('$1000.00')
    expect(formatDollars(Number.NaN)).toBe('$0.00')
  })
  it('shows storage in the unit that reads well: 3.1 MB is not "0 bytes"', () => {
    expect(formatBytes(3_250_000)).toBe('3.1 MB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB')
    expect(formatBytes(500)).toBe('500 bytes')
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB')
    expect(formatBytes(Number.NaN)).toBe('0 bytes')
  })
  it('refunds: first 8 characters of the user id, plan default free, status colours', () => {
    expect(shortUserId('0123456789abcdef')).toBe('01234567')
    expect(refundPlan({ user: { id: 'x', email: 'e', planTier: '' } })).toBe('free')
    expect(refundPlan({ user: { id: 'x', email: 'e', planTier: 'premium' } })).toBe('premium')
    expect(refundStatusView('completed').variant).toBe('success')
    expect(refundStatusView('pending').variant).toBe('warning')
    expect(refundStatusView('failed').variant).toBe('destructive')
    expect(refundStatusView('weird')).toEqual({ label: 'failed', variant: 'destructive' })
  })
})

describe('admin prompts (seeds 001 §5)', () => {
  it('needs a non-empty reason', () => {
    expect(checkReason('  ')).toEqual({ ok: false, error: ADMIN_MESSAGES.reasonRequired })
    expect(checkReason(' fraud ')).toEqual({ ok: true, value: 'fraud' })
  })
  it('needs whole days greater than 0', () => {
    expect(checkDays('0')).toEqual({ ok: false, error: ADMIN_MESSAGES.daysPositive })
    expect(checkDays('-3').ok).toBe(false)
    expect(checkDays('1.5').ok).toBe(false)
    expect(checkDays('abc').ok).toBe(false)
    expect(checkDays(' 30 ')).toEqual({ ok: true, value: 30 })
  })
  it('needs a dollar amount greater than 0, decimals allowed up to cents', () => {
    expect(checkRefundDollars('12.34')).toEqual({ ok: true, value: 12.34 })
    expect(checkRefundDollars('$5')).toEqual({ ok: true, value: 5 })
    expect(checkRefundDollars('.5')).toEqual({ ok: true, value: 0.5 })
    expect(checkRefundDollars('0')).toEqual({ ok: false, error: ADMIN_MESSAGES.amountPositive })
    expect(checkRefundDollars('0.00').ok).toBe(false)
    expect(checkRefundDollars('-1').ok).toBe(false)
    expect(checkRefundDollars('1.234').ok).toBe(false)
    expect(checkRefundDollars('ten').ok).toBe(false)
    expect(checkRefundDollars('10000.01')).toEqual({ ok: false, error: ADMIN_MESSAGES.refundTooLarge })
  })
  it('a refund of exactly $10,000.00 is allowed', () => {
    expect(checkRefundDollars('10000')).toEqual({ ok: true, value: 10_000 })
    expect(checkRefundDollars('$10000.00')).toEqual({ ok: true, value: 10_000 })
  })
  it('sends dollars that the contract turns into cents exactly once', () => {
    const checked = checkRefundDollars('12.34')
    if (!checked.ok) throw new Error('expected ok')
    const body = refundBodySchema.parse({ userId: '6f1c1b0e-8d3a-4c5e-9b7a-2f4d6e8a0c1b', amount: checked.value, reason: 'r' })
    expect(body.amountCents).toBe(1234)
  })
})

describe('errors (seeds 001 §6, §8)', () => {
  it('treats a delete error mentioning 200 or "successfully" as success', () => {
    expect(deleteFailureOutcome(new Error('200: OK'))).toEqual({ success: true })
    expect(deleteFailureOutcome(new Error('User deleted successfully'))).toEqual({ success: true })
    expect(deleteFailureOutcome(new ApiRequestError(404, 'User not found', null))).toEqual({ success: false, message: 'User not found' })
    expect(deleteFailureOutcome(new ApiRequestError(500, 'boom', null))).toEqual({ success: false, message: 'Failed to delete user account' })
  })
  it('a delete error that merely contains the digits 200 inside a longer number is still a failure', () => {
    expect(deleteFailureOutcome(new ApiRequestError(500, 'Storage error 12004', null))).toEqual({ success: false, message: 'Failed to delete user account' })
    expect(deleteFailureOutcome(new ApiRequestError(503, 'Retry after 2000 ms', null))).toEqual({ success: false, message: 'Failed to delete user account' })
  })
  it('maps 401 and 403 to the guard toasts, anything else to nothing', () => {
    expect(guardOutcome(new ApiRequestError(401, 'x', null))).toBe('authFailed')
    expect(guardOutcome(new ApiRequestError(403, 'x', null))).toBe('adminRequired')
    expect(guardOutcome(new ApiRequestError(500, 'x', null))).toBeNull()
    expect(guardOutcome(null)).toBeNull()
  })
})

describe('chart scaling', () => {
  it('rounds the axis top up to a nice number', () => {
    expect(niceMax(0)).toBe(1)
    expect(niceMax(-5)).toBe(1)
    expect(niceMax(1)).toBe(1)
    expect(niceMax(7)).toBe(10)
    expect(niceMax(12)).toBe(20)
    expect(niceMax(23)).toBe(25)
    expect(niceMax(40)).toBe(50)
    expect(niceMax(0.3)).toBeCloseTo(0.5)
    expect(niceMax(1234)).toBe(2000)
  })
  it('spaces ticks evenly and scales values into the plot, clamped', () => {
    expect(axisTicks(20)).toEqual([0, 5, 10, 15, 20])
    expect(scaleValue(10, 20, 200)).toBe(100)
    expect(scaleValue(30, 20, 200)).toBe(200)
    expect(scaleValue(-1, 20, 200)).toBe(0)
    expect(scaleValue(5, 0, 200)).toBe(0)
  })
  it('labels ticks and weeks', () => {
    expect(tickText(2500, true)).toBe('$2.5k')
    expect(tickText(12.5)).toBe('12.5')
    expect(tickText(5)).toBe('5')
    expect(weekLabel('2025-03-03')).toBe('Mar 3')
    expect(weekLabel('nonsense')).toBe('nonsense')
  })
})

describe("a user's row in the back office", () => {
  it('offers no action on an administrator; Resume on a paused account, Pause on another; Refund only with billing on', () => {
    expect(userRowActions(user({ planTier: 'admin' }), true)).toBeNull()
    expect(userRowActions(user({ planTier: 'premium' }), true)).toEqual({ resume: false, refund: true })
    expect(userRowActions(user({ planTier: 'premium' }), false)).toEqual({ resume: false, refund: false })
    expect(userRowActions(user({ planTier: 'paused' }), true)).toEqual({ resume: true, refund: true })
    expect(userRowActions(user({ planTier: 'basic', pausedAt: '2025-01-01T00:00:00Z' }), false)).toEqual({ resume: true, refund: false })
  })
})
