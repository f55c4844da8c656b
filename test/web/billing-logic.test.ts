import { describe, expect, it } from 'vitest'
import type { AccountSubscription, InvoicePreview, SubscriptionResult } from '../../contract/billing'
import { REDIRECT_DELAY_MS } from '../../contract/constants'
import { ACCOUNT_TOASTS, CHECKOUT_TOASTS, SUBSCRIBE_TOASTS } from '@/features/billing/copy'
import {
  BILLING_HISTORY_LIMIT,
  canCancel,
  canUpgrade,
  cardText,
  formatAmount,
  formatEpochDate,
  invoiceIsPaid,
  invoiceSummaryLines,
  nextBillingText,
  normalisePromo,
  PENDING_SUBSCRIPTION_KEY,
  pendingFromResult,
  pendingSubscriptionStore,
  planName,
  promoAsTyped,
  recentInvoices,
  registrationExtras,
  setupFailure,
  statusLabel,
  subscribeOutcome,
  trialText,
} from '@/features/billing/logic'
import { ApiRequestError } from '@/lib/api-client'

// The billing screens' rules (seeds 000 §2, §3, §4, §5, §6, §8, §9).

function preview(overrides: Partial<InvoicePreview> = {}): InvoicePreview {
  return {
    planName: 'Premium',
    baseAmount: 2999,
    billingPeriod: 'month',
    promoCodeApplied: null,
    discountAmount: 0,
    finalAmount: 2999,
    trialDays: null,
    ...overrides,
  }
}

function result(overrides: Partial<SubscriptionResult> = {}, invoice: Partial<InvoicePreview> = {}): SubscriptionResult {
  return {
    status: 'active',
    clientSecret: null,
    subscriptionId: 'nb_sub_1',
    customerId: null,
    invoicePreview: preview(invoice),
    billingEnabled: false,
    ...overrides,
  }
}

function memoryStorage() {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  }
}

describe('amounts', () => {
  it('shows cents as dollars with two decimals', () => {
    expect(formatAmount(2999)).toBe('$29.99')
    expect(formatAmount(1000)).toBe('$10.00')
    expect(formatAmount(9999)).toBe('$99.99')
    expect(formatAmount(0)).toBe('$0.00')
  })
})

describe('promo codes', () => {
  it('upper-cases as typed and trims for the request; blank is none', () => {
    expect(promoAsTyped('free30')).toBe('FREE30')
    expect(normalisePromo('  free30 ')).toBe('FREE30')
    expect(normalisePromo('   ')).toBe('')
    expect(normalisePromo(undefined)).toBe('')
  })

  it('words the blank-code toast as the catalogue does', () => {
    expect(`${SUBSCRIBE_TOASTS.promoBlank.title} - ${SUBSCRIBE_TOASTS.promoBlank.description}`).toBe(
      'Invalid Promo Code - Please enter a valid promotion code.',
    )
  })
})

describe('invoice summary', () => {
  it('lists the plan per period and the amount due, without a discount line when none', () => {
    expect(invoiceSummaryLines(preview())).toEqual([
      { kind: 'base', label: 'Premium Plan', amount: '$29.99/month' },
      { kind: 'total', label: 'Amount Due Today', amount: '$29.99' },
    ])
  })

  it('adds the discount with its code', () => {
    const lines = invoiceSummaryLines(preview({ promoCodeApplied: 'HALF', discountAmount: 1500, finalAmount: 1499 }))
    expect(lines.map((l) => [l.label, l.amount])).toEqual([
      ['Premium Plan', '$29.99/month'],
      ['Discount (HALF)', '-$15.00'],
      ['Amount Due Today', '$14.99'],
    ])
  })

  it('names the trial period only when there is one', () => {
    expect(trialText(preview({ trialDays: 30 }))).toBe('Trial period: 30 days')
    expect(trialText(preview())).toBeNull()
  })
})

describe('subscribe outcome (seeds 000 §4)', () => {
  it('status active, signed in: to the dashboard', () => {
    expect(subscribeOutcome(result({ status: 'active' }), { signedIn: true })).toBe('activated')
  })

  it('a trial granted by a server without billing counts as activated for a signed-in owner', () => {
    expect(subscribeOutcome(result({ status: 'trialing' }, { finalAmount: 0, trialDays: 30 }), { signedIn: true })).toBe('activated')
  })

  it('a client secret: the card form', () => {
    expect(subscribeOutcome(result({ status: 'incomplete', clientSecret: 'pi_secret', billingEnabled: true }), { signedIn: true })).toBe('payment')
    expect(subscribeOutcome(result({ status: 'incomplete', clientSecret: 'pi_secret', billingEnabled: true }), { signedIn: false })).toBe('payment')
  })

  it('a guest: free when nothing is due, or pending on a server without billing', () => {
    expect(subscribeOutcome(result({ status: 'pending' }, { finalAmount: 0 }), { signedIn: false })).toBe('free')
    expect(subscribeOutcome(result({ status: 'pending' }), { signedIn: false })).toBe('free')
    expect(subscribeOutcome(result({ status: 'incomplete', billingEnabled: true }, { finalAmount: 0 }), { signedIn: false })).toBe('free')
  })

  it('anything else is an error', () => {
    expect(subscribeOutcome(result({ status: 'incomplete', billingEnabled: true }), { signedIn: false })).toBe('error')
    expect(subscribeOutcome(result({ status: 'incomplete', billingEnabled: true }), { signedIn: true })).toBe('error')
    expect(subscribeOutcome(result({ status: 'pending', subscriptionId: '' }, { finalAmount: 0 }), { signedIn: false })).toBe('error')
  })
})

describe('setup failures (seeds 000 §8)', () => {
  it('a promotion problem', () => {
    const f = setupFailure(new ApiRequestError(400, 'Invalid promotion code: it does not exist.', {}))
    expect(f.kind).toBe('promotion')
    expect(`${f.title} - ${f.description}`).toBe(
      'Invalid Promotion Code - The promotion code you entered is not valid. Please check and try again.',
    )
  })

  it('401 or Authentication: log in (after 2 s)', () => {
    expect(setupFailure(new ApiRequestError(401, 'Not signed in', {})).kind).toBe('auth')
    expect(setupFailure(new Error('Authentication failed')).kind).toBe('auth')
    const f = setupFailure(new ApiRequestError(401, 'x', {}))
    expect(`${f.title} - ${f.description}`).toBe('Authentication Required - Please log in to access subscription features.')
    expect(REDIRECT_DELAY_MS.afterAuthFailure).toBe(2000)
  })

  it('otherwise the server message, or the fallback', () => {
    expect(setupFailure(new ApiRequestError(409, 'You already have an active subscription.', {}))).toEqual({
      kind: 'other',
      title: 'Subscription Setup Failed',
      description: 'You already have an active subscription.',
    })
    expect(setupFailure(new ApiRequestError(500, '', {})).description).toBe('Unable to initialize subscription. Please try again.')
  })
})

describe('pending subscription storage', () => {
  it('round-trips under pending_subscription and clears', () => {
    const storage = memoryStorage()
    const pending = pendingFromResult(result({ status: 'pending', subscriptionId: 'nb_sub_9' }), 'ada@example.com', 'premium')
    pendingSubscriptionStore.save(pending, storage)
    expect(JSON.parse(storage.map.get(PENDING_SUBSCRIPTION_KEY)!)).toEqual({
      subscriptionId: 'nb_sub_9',
      customerId: null,
      plan: 'premium',
      email: 'ada@example.com',
    })
    expect(pendingSubscriptionStore.read(storage)).toEqual(pending)
    pendingSubscriptionStore.clear(storage)
    expect(pendingSubscriptionStore.read(storage)).toBeNull()
  })

  it('ignores entries it did not write', () => {
    const storage = memoryStorage()
    storage.setItem(PENDING_SUBSCRIPTION_KEY, 'not json')
    expect(pendingSubscriptionStore.read(storage)).toBeNull()
    storage.setItem(PENDING_SUBSCRIPTION_KEY, JSON.stringify({ plan: 'basic' }))
    expect(pendingSubscriptionStore.read(storage)).toBeNull()
  })

  it('adds the subscription id (and a provider customer id) to the registration', () => {
    expect(registrationExtras(null)).toEqual({})
    expect(registrationExtras({ subscriptionId: 's1', customerId: null, plan: 'basic', email: 'a@b.c' })).toEqual({ subscriptionId: 's1' })
    expect(registrationExtras({ subscriptionId: 's1', customerId: 'cus_1', plan: 'basic', email: 'a@b.c' })).toEqual({
      subscriptionId: 's1',
      stripeCustomerId: 'cus_1',
    })
  })
})

describe('account page rules', () => {
  const sub = (overrides: Partial<NonNullable<AccountSubscription['subscription']>> = {}) => ({
    status: 'active',
    plan: { amount: 2999, currency: 'usd', interval: 'month' },
    current_period_start: 1_767_225_600,
    current_period_end: 1_769_904_000,
    cancel_at_period_end: false,
    ...overrides,
  })

  it('status: Active, Trialing, otherwise Inactive', () => {
    expect(statusLabel('active')).toBe('Active')
    expect(statusLabel('trialing')).toBe('Trialing')
    expect(statusLabel('past_due')).toBe('Inactive')
    expect(statusLabel(null)).toBe('Inactive')
  })

  it('next billing date, or Cancelled when set to end', () => {
    expect(nextBillingText(sub())).toBe('February 1, 2026')
    expect(nextBillingText(sub({ cancel_at_period_end: true }))).toBe('Cancelled')
    expect(formatEpochDate(null)).toBeNull()
  })

  it('plan names', () => {
    expect(planName('enterprise')).toBe('Enterprise')
    expect(planName('paused')).toBe('Paused')
  })

  it('upgrade: no active subscription, or an active one below Enterprise (seeds 000 §6)', () => {
    expect(canUpgrade({ planTier: 'basic', hasActiveSubscription: false })).toBe(true)
    expect(canUpgrade({ planTier: 'premium', hasActiveSubscription: true })).toBe(true)
    expect(canUpgrade({ planTier: 'enterprise', hasActiveSubscription: true })).toBe(false)
    expect(canUpgrade({ planTier: 'enterprise', hasActiveSubscription: false })).toBe(true)
    expect(canUpgrade({ planTier: 'admin', hasActiveSubscription: true })).toBe(false)
  })

  it('cancel: an active subscription not already set to end', () => {
    expect(canCancel({ planTier: 'premium', hasActiveSubscription: true, subscription: sub() })).toBe(true)
    expect(canCancel({ planTier: 'premium', hasActiveSubscription: true, subscription: sub({ status: 'trialing' }) })).toBe(true)
    expect(canCancel({ planTier: 'premium', hasActiveSubscription: true, subscription: sub({ cancel_at_period_end: true }) })).toBe(false)
    expect(canCancel({ planTier: 'premium', hasActiveSubscription: false, subscription: sub({ status: 'canceled' }) })).toBe(false)
    expect(canCancel({ planTier: 'premium', hasActiveSubscription: true, subscription: null })).toBe(false)
    expect(canCancel({ planTier: 'admin', hasActiveSubscription: true, subscription: sub() })).toBe(false)
  })

  it('card on file', () => {
    expect(cardText({ brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2030 })).toEqual({ label: 'Visa •••• 4242', expiry: 'Expires 04/2030' })
  })

  it('billing history: the five most recent, newest first; paid is green', () => {
    const invoices = Array.from({ length: 7 }, (_, i) => ({ id: `in_${i}`, status: i % 2 ? 'paid' : 'open', created: 1000 + i, amount_paid: 2999, invoice_pdf: null }))
    const recent = recentInvoices(invoices)
    expect(BILLING_HISTORY_LIMIT).toBe(5)
    expect(recent.map((i) => i.id)).toEqual(['in_6', 'in_5', 'in_4', 'in_3', 'in_2'])
    expect(invoiceIsPaid('paid')).toBe(true)
    expect(invoiceIsPaid('open')).toBe(false)
  })
})

describe('messages as the catalogue words them (seeds 000 §8)', () => {
  const line = (t: { title: string; description: string }) => `${t.title} - ${t.description}`
  it('subscribe, checkout and account', () => {
    expect(line(SUBSCRIBE_TOASTS.success('Premium'))).toBe('Subscription Successful - Welcome to Premium!')
    expect(line(SUBSCRIBE_TOASTS.noSecret)).toBe('Subscription Error - Unable to initialize subscription processing.')
    expect(line(SUBSCRIBE_TOASTS.emailRequired)).toBe('Email Required - Please enter your email address to continue.')
    expect(line(SUBSCRIBE_TOASTS.unexpected)).toBe('Payment Error - An unexpected error occurred. Please try again.')
    expect(line(CHECKOUT_TOASTS.initError)).toBe('Payment Error - Unable to initialize payment processing.')
    expect(line(CHECKOUT_TOASTS.setupFailed)).toBe('Payment Setup Failed - Unable to initialize payment. Please try again.')
    expect(line(ACCOUNT_TOASTS.loadError)).toBe('Error Loading Account - Unable to load your account information.')
    expect(line(ACCOUNT_TOASTS.cancelled)).toBe('Subscription Cancelled - Your subscription will end at the current billing period.')
    expect(line(ACCOUNT_TOASTS.deleted)).toBe('Account Deleted - Your account has been permanently deleted.')
    expect(ACCOUNT_TOASTS.cancelFailed.fallback).toBe('Unable to cancel subscription. Please try again.')
    expect(ACCOUNT_TOASTS.deleteFailed.fallback).toBe('Unable to delete account. Please try again.')
  })
})
