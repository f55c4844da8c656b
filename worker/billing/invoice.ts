import { BILLING_PERIOD, type InvoicePreview } from '../../contract/billing'
import { PLANS, type PaidPlan } from '../../contract/plans'
import type { promoCodes } from '../db/schema'

type Promo = Pick<typeof promoCodes.$inferSelect, 'code' | 'type' | 'value'>

/**
 * The first invoice of a plan with an optional promotion: a percentage off, whole dollars off
 * (never below zero), or a free first period of `value` days. Cents throughout.
 */
export function invoicePreview(plan: PaidPlan, promo: Promo | null): InvoicePreview {
  const base = PLANS[plan].priceCents
  let discount = 0
  let trialDays: number | null = null
  if (promo?.type === 'percentage') discount = Math.round((base * Math.min(100, Math.max(0, promo.value))) / 100)
  if (promo?.type === 'fixed_amount') discount = Math.min(base, Math.max(0, promo.value) * 100)
  if (promo?.type === 'free_subscription') {
    discount = base
    trialDays = Math.max(1, promo.value)
  }
  return {
    planName: PLANS[plan].name,
    baseAmount: base,
    billingPeriod: BILLING_PERIOD,
    promoCodeApplied: promo?.code ?? null,
    discountAmount: discount,
    finalAmount: base - discount,
    trialDays,
  }
}
