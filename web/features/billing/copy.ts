// The billing screens' toasts and notices, worded as seeds 000 §8 words them: title, then text.

import { DELETION_GRACE_DAYS } from '../../../contract/account-deletion'

const PAYMENT_NOT_PROCESSED = 'Payment could not be processed'

export const SUBSCRIBE_TOASTS = {
  emailRequired: { title: 'Email Required', description: 'Please enter your email address to continue.' },
  promoBlank: { title: 'Invalid Promo Code', description: 'Please enter a valid promotion code.' },
  promoInvalid: { title: 'Invalid Promotion Code', description: 'The promotion code you entered is not valid. Please check and try again.' },
  authRequired: { title: 'Authentication Required', description: 'Please log in to access subscription features.' },
  setupFailed: { title: 'Subscription Setup Failed', fallback: 'Unable to initialize subscription. Please try again.' },
  noSecret: { title: 'Subscription Error', description: 'Unable to initialize subscription processing.' },
  success: (planName: string) => ({ title: 'Subscription Successful', description: `Welcome to ${planName}!` }),
  paymentFailed: { title: 'Subscription Failed', fallback: PAYMENT_NOT_PROCESSED },
  unexpected: { title: 'Payment Error', description: 'An unexpected error occurred. Please try again.' },
  promoApplied: 'Promotion Applied!',
  freeActivated: 'Free Subscription Activated!',
} as const

export const ACCOUNT_TOASTS = {
  loadError: { title: 'Error Loading Account', description: 'Unable to load your account information.' },
  cancelled: { title: 'Subscription Cancelled', description: 'Your subscription will end at the current billing period.' },
  cancelFailed: { title: 'Cancellation Failed', fallback: 'Unable to cancel subscription. Please try again.' },
  deleted: { title: 'Account Set to Be Deleted', description: `Your account will be deleted in ${DELETION_GRACE_DAYS} days. Until then nothing in it changes and no release starts; sign in before then to keep it.` },
  deleteFailed: { title: 'Deletion Failed', fallback: 'Unable to delete account. Please try again.' },
  updateFailed: { title: 'Payment Method Update Failed', fallback: 'Unable to open the page for changing your payment method. Please try again.' },
  nothingDue: { title: 'Nothing to Pay' },
  paid: { title: 'Payment Successful' },
  pending: { title: 'Payment Processing' },
  payFailed: { title: 'Payment Failed', fallback: PAYMENT_NOT_PROCESSED },
} as const

/**
 * A payment issue: the last renewal failed (0.2 · 7 of 7). Calm words: the vault stays usable
 * during the grace, and the owner can fix it alone, here.
 */
export const PAYMENT_ISSUE = {
  title: 'Payment issue',
  happened: 'Your last subscription payment did not go through.',
  amountDue: 'Amount due',
  usableUntil: (date: string) => `Your vault stays fully usable until ${date}. Fix the payment before then to keep it that way.`,
  usableDuring: 'Your vault stays fully usable during the grace period while you fix the payment.',
  graceOver: 'The grace period has ended: your vault opens again as soon as the payment goes through.',
  stepsIntro: 'To fix it:',
  updateStep: 'Change the card on file, on Stripe\'s secure page. You come back here after.',
  payStep: 'Charge the open invoice to the card on file.',
  orOpenInvoice: 'Or pay on the invoice page, which also asks your bank for any confirmation it needs.',
  noStepsHere: 'Nothing can be paid from this page. Please write to us and we will sort it out.',
  updateButton: 'Update payment method',
  redirecting: 'Redirecting...',
  payButton: (amount: string) => `Pay ${amount} now`,
  paying: 'Paying...',
  openInvoice: 'Open invoice',
  updated: 'Your payment method was updated.',
  updatedPayNext: (amount: string) => `Now choose "Pay ${amount} now" to settle the open invoice with it.`,
} as const

/** The app-wide banner while an owner's subscription is past due. */
export const PAYMENT_BANNER = {
  title: 'Payment issue',
  text: 'Your last subscription payment did not go through. Your vault stays fully usable during the grace period.',
  action: 'Fix payment',
} as const

/** 'Subscription Required' for an owner whose grace ran out on an unpaid renewal. */
export const SUBSCRIPTION_REQUIRED_PAST_DUE =
  'Your last subscription payment did not go through and the grace period has ended. Your vault, beneficiaries and triggers are kept: fix the payment to use them again.'

/** /subscribe for an owner with a payment to fix: nothing new is created until it is paid. */
export const SUBSCRIBE_PAYMENT_DUE = {
  title: 'Fix your payment first',
  text: 'Your last subscription payment did not go through: once it is fixed, you can change your plan.',
  pay: 'You can pay the open invoice from Account & Billing once your payment method is up to date.',
  account: 'Go to Account & Billing',
} as const

export const BILLING_HISTORY = {
  description: 'Your invoices, newest first, with any refunds.',
  none: 'No invoices yet.',
  billingOff: 'This server takes no payments, so no invoices are issued.',
  showMore: 'Show more invoices',
  loadingMore: 'Loading...',
  loadError: { title: 'Invoices Unavailable', description: 'Unable to load your invoices.' },
  moreFailed: { title: 'Invoices Unavailable', fallback: 'Unable to load more invoices. Please try again.' },
} as const

/** What the account-deletion dialog asks to be typed. */
export const DELETE_CONFIRMATION_WORD = 'DELETE'

/** A failure's title and text: the reason given, or the copy's fallback when there is none. */
export function failureText(copy: { title: string; fallback: string }, reason: string | undefined): { title: string; description: string } {
  return { title: copy.title, description: reason || copy.fallback }
}

/** A change of plan on /subscribe: shown first, made only on Confirm. */
export const PLAN_CHANGE = {
  title: (toPlan: string) => `Change to ${toPlan}`,
  description: 'Nothing changes until you confirm.',
  current: 'Your plan now',
  next: 'Your new plan',
  perPeriod: (amount: string, period: string) => `${amount}/${period}`,
  dueNow: 'Charged today',
  nextInvoice: (date: string) => `Next invoice, on ${date}`,
  nextInvoiceUndated: 'Next invoice',
  proration: (amount: string) => `This includes ${amount} for the new plan over the rest of the current period, less what is unused of your plan now.`,
  credit: (amount: string) => `This includes a credit of ${amount} for the unused part of your plan now.`,
  confirm: 'Confirm change',
  confirming: 'Changing...',
  keepCurrent: 'Keep my current plan',
  changed: (plan: string) => ({ title: 'Plan Changed', description: `You are now on ${plan}.` }),
} as const

/** Subscribing while a cancellation is pending: keeping the subscription, not a second one. */
export const KEEP_SUBSCRIPTION = {
  title: 'Your subscription is set to end',
  text: (date: string | null) =>
    `${date ? `Your subscription ends on ${date}.` : 'Your subscription ends at the end of this period.'} Keep it, and it renews as before: no second subscription is started and nothing is charged twice.`,
  button: 'Keep my subscription',
  keeping: 'Keeping...',
  kept: 'Subscription Kept',
  failed: { title: 'Could Not Keep Subscription', fallback: 'Unable to keep your subscription. Please try again.' },
} as const
