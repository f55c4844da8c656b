import { describe, expect, it } from 'vitest'
import type { AccountSubscription, SubscriptionResult } from '../../contract/billing'
import { EVERY_PLAN_FEATURES, PLAN_LIST, PLANS } from '../../contract/plans'
import { NO_CHARGE, planTermsRows, subscribeOutcome } from '@/features/billing/logic'

// 0.3 · 6 of 7: plans that are what /pricing says, and billing that asks before it acts.

describe("/pricing's lists are what each plan has", () => {
  it('every plan lists every feature no plan withholds (triggers, multi-factor sign-in, policies, verification)', () => {
    for (const plan of PLAN_LIST) expect(plan.features).toEqual(expect.arrayContaining([...EVERY_PLAN_FEATURES]))
    expect(EVERY_PLAN_FEATURES).toEqual(expect.arrayContaining(['Inactivity detection', 'Manual release triggers', expect.stringMatching(/^Multi-factor/)]))
  })

  it('plans differ only in the limits the server enforces and in support', () => {
    const beyondEvery = (features: string[]) => features.filter((f) => !(EVERY_PLAN_FEATURES as readonly string[]).includes(f))
    expect(beyondEvery(PLANS.basic.features)).toEqual(['Up to 20 vault items', '500MB encrypted storage', 'Up to 3 beneficiaries', 'Email support'])
    expect(beyondEvery(PLANS.premium.features)).toEqual(['Unlimited vault items', '10GB encrypted storage', 'Unlimited beneficiaries', 'Priority support'])
    expect(beyondEvery(PLANS.enterprise.features)).toEqual(['Unlimited vault items', '50GB encrypted storage', 'Unlimited beneficiaries', 'Priority support'])
    expect(PLANS.basic.limits).toEqual({ maxItems: 20, maxStorageBytes: 500 * 1024 * 1024, maxBeneficiaries: 3 })
  })
})

describe('/subscribe asks before it changes anything', () => {
  const base: SubscriptionResult = {
    status: 'active',
    clientSecret: null,
    subscriptionId: 'sub_1',
    customerId: 'cus_1',
    billingEnabled: true,
    invoicePreview: { planName: 'Enterprise', baseAmount: 9999, billingPeriod: 'month', promoCodeApplied: null, discountAmount: 0, finalAmount: 9999, trialDays: null },
  }
  it('a change of plan waits for Confirm; a pending cancellation offers keeping the subscription', () => {
    const planChange = { fromPlan: 'Premium', toPlan: 'Enterprise', newAmount: 9999, dueNow: 0, nextInvoiceAmount: 16999, nextInvoiceDate: null, prorationAmount: 7000, currency: 'usd', prorationDate: 1 }
    expect(subscribeOutcome({ ...base, status: 'confirm_change', planChange }, { signedIn: true })).toBe('confirm-change')
    expect(subscribeOutcome({ ...base, status: 'confirm_change' }, { signedIn: true })).toBe('error')
    expect(subscribeOutcome({ ...base, status: 'cancellation_pending', endsAt: null }, { signedIn: true })).toBe('keep')
  })
})

describe('Account & Billing with billing off', () => {
  const account = (billingEnabled: boolean, cancel = false): Pick<AccountSubscription, 'billingEnabled' | 'subscription'> => ({
    billingEnabled,
    subscription: {
      status: 'active',
      plan: { amount: 1000, currency: 'usd', interval: 'month' },
      current_period_start: Date.UTC(2026, 10, 1) / 1000,
      current_period_end: Date.UTC(2026, 11, 1) / 1000,
      cancel_at_period_end: cancel,
    },
  })
  it('shows no price and no billing date, but when the plan renews or ends', () => {
    const off = planTermsRows(account(false))!
    expect(off).toMatchObject({ amount: NO_CHARGE, dateLabel: 'Renews on' })
    expect(off.amount).not.toContain('$')
    expect(planTermsRows(account(false, true))).toMatchObject({ amount: NO_CHARGE, dateLabel: 'Ends on' })
    expect(planTermsRows(account(true))).toMatchObject({ amount: '$10.00/month', dateLabel: 'Next billing date' })
  })
})
