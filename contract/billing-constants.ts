// Billing's constants and words, without the schemas of contract/billing.ts (which re-exports
// them): /pricing reads these, and zod is no part of what a public page loads.

export const PROMO_TYPES = ['percentage', 'fixed_amount', 'free_subscription'] as const
export type PromoType = (typeof PROMO_TYPES)[number]

/** A subscription's notional billing period (monthly plans). */
export const BILLING_PERIOD_DAYS = 30
export const BILLING_PERIOD = 'month'

export const BILLING_MESSAGES = {
  promoInvalid: 'Invalid promotion code: it does not exist, is no longer active, has expired or has been used up.',
  promoBlank: 'Invalid Promo Code - Please enter a valid promotion code.',
  alreadySubscribed: 'You already have an active subscription. Manage it from Account & Billing.',
  noSubscription: 'There is no active subscription to cancel.',
  notCancelling: 'Your subscription is not set to end: there is nothing to undo.',
  kept: 'Your subscription continues: it will renew at the end of the period.',
  alreadyCancelling: 'Your subscription is already set to end at the current billing period.',
  subscriptionRequired: 'An active subscription is required. Choose a plan to continue.',
  cancelled: 'Your subscription will end at the current billing period.',
  billingOff: 'Billing is off on this server: plans are granted without payment.',
  guestEmailTaken: 'An account with this e-mail already exists. Sign in to subscribe.',
  cancelOnDeleteFailed:
    'Your subscription could not be cancelled, so your account was not deleted. Please try again or contact support.',
  providerUnavailable: 'The payment provider could not be reached. Please try again.',
  promoPlanChange: 'Promotion codes apply to new subscriptions only, not to a change of plan.',
  webhookSignatureInvalid: 'The Stripe signature of this webhook is missing or invalid.',
  noPaymentDue: 'Nothing is due: there is no unpaid invoice on your subscription.',
  paid: 'Thank you: your payment went through and your subscription is active again.',
  paymentPending: 'Your payment is being processed. This page will show it once your bank confirms it.',
  noCustomer: 'There is no payment method to change yet: choose a plan first.',
  authenticationRequired:
    'Your bank asks you to confirm this payment. Open the invoice to pay it on Stripe’s secure page.',
} as const
