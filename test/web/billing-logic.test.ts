import { describe, expect, it } from 'vitest'
import {
  BILLING_MESSAGES,
  type AccountSubscription,
  type BillingInvoice,
  type InvoicePreview,
  type PaymentDue,
  type SubscriptionResult,
} from '../../contract/billing'
import { REDIRECT_DELAY_MS } from '../../contract/constants'
import { invoicesPath } from '@/features/billing/api'
import { ACCOUNT_TOASTS, BILLING_HISTORY, PAYMENT_ISSUE, SUBSCRIBE_TOASTS } from '@/features/billing/copy'
import {
  amountDueText,
  canCancel,
  canKeepSubscription,
  canUpgrade,
  cardText,
  changePlanLabel,
  checkoutRedirectSearch,
  deletionConfirmed,
  formatAmount,
  formatEpochDate,
  formatIsoDate,
  graceText,
  historyBillingOff,
  hasPaymentIssue,
  invoiceAmount,
  invoiceIsPaid,
  invoiceLinkLabels,
  invoiceStatusText,
  invoiceSummaryLines,
  needsBankConfirmation,
  nextBillingText,
  normalisePromo,
  offersPaymentUpdate,
  PENDING_SUBSCRIPTION_KEY,
  pendingFromResult,
  pendingSubscriptionStore,
  planName,
  paymentActions,
  payFailure,
  payResultToast,
  promoAsTyped,
  refundText,
  registrationExtras,
  setupFailure,
  showsPaymentIssueBanner,
  showsPaymentPanel,
  statusBadgeVariant,
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

  it('past due: the payment to fix first, never a card form (signed in or not)', () => {
    const due: PaymentDue = { invoiceId: 'in_1', amountDue: 2999, currency: 'usd', hostedInvoiceUrl: null, graceUntil: null }
    expect(subscribeOutcome(result({ status: 'past_due', billingEnabled: true, paymentDue: due }), { signedIn: true })).toBe('payment-due')
    expect(subscribeOutcome(result({ status: 'past_due', billingEnabled: true, clientSecret: 'pi_secret' }), { signedIn: true })).toBe('payment-due')
    expect(subscribeOutcome(result({ status: 'past_due', billingEnabled: true }), { signedIn: false })).toBe('payment-due')
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

  it('status: Active, Trialing, Payment due (past due), otherwise Inactive', () => {
    expect(statusLabel('active')).toBe('Active')
    expect(statusLabel('trialing')).toBe('Trialing')
    expect(statusLabel('past_due')).toBe('Payment due')
    expect(statusLabel('canceled')).toBe('Inactive')
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

  it('the plan link says Change Plan with a subscription, Upgrade Plan without', () => {
    expect(changePlanLabel({ hasActiveSubscription: true })).toBe('Change Plan')
    expect(changePlanLabel({ hasActiveSubscription: false })).toBe('Upgrade Plan')
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
    expect(canCancel({ planTier: 'premium', hasActiveSubscription: true, subscription: sub({ status: 'past_due' }) })).toBe(false)
    expect(canCancel({ planTier: 'admin', hasActiveSubscription: true, subscription: sub() })).toBe(false)
  })

  it('Keep my subscription is offered only on a subscription set to end that is still active', () => {
    expect(canKeepSubscription({ hasActiveSubscription: true, subscription: sub({ cancel_at_period_end: true }) })).toBe(true)
    expect(canKeepSubscription({ hasActiveSubscription: true, subscription: sub() })).toBe(false)
    expect(canKeepSubscription({ hasActiveSubscription: false, subscription: sub({ status: 'canceled', cancel_at_period_end: true }) })).toBe(false)
    expect(canKeepSubscription({ hasActiveSubscription: true, subscription: null })).toBe(false)
  })

  it('the status badge is red when Inactive, amber when a payment is due, green when Active or Trialing', () => {
    expect(statusBadgeVariant('Inactive')).toBe('destructive')
    expect(statusBadgeVariant('Payment due')).toBe('warning')
    expect(statusBadgeVariant('Active')).toBe('success')
    expect(statusBadgeVariant('Trialing')).toBe('success')
  })

  it('Update payment method is offered only with billing on and a card that can be changed', () => {
    expect(offersPaymentUpdate({ billingEnabled: true, canUpdatePaymentMethod: true })).toBe(true)
    expect(offersPaymentUpdate({ billingEnabled: false, canUpdatePaymentMethod: true })).toBe(false)
    expect(offersPaymentUpdate({ billingEnabled: true, canUpdatePaymentMethod: false })).toBe(false)
  })

  it('the billing history says billing is off when the account or the server’s first page says so', () => {
    expect(historyBillingOff({ billingEnabled: true }, undefined)).toBe(false)
    expect(historyBillingOff({ billingEnabled: true }, { billingEnabled: true })).toBe(false)
    expect(historyBillingOff({ billingEnabled: true }, { billingEnabled: false })).toBe(true)
    expect(historyBillingOff({ billingEnabled: false }, undefined)).toBe(true)
  })

  it('deleting the account needs the word DELETE typed exactly, in capitals', () => {
    expect(deletionConfirmed('DELETE')).toBe(true)
    expect(deletionConfirmed('  DELETE ')).toBe(true)
    expect(deletionConfirmed('delete')).toBe(false)
    expect(deletionConfirmed('DELET')).toBe(false)
    expect(deletionConfirmed('DELETE IT')).toBe(false)
    expect(deletionConfirmed('')).toBe(false)
  })

  it('card on file', () => {
    expect(cardText({ brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2030 })).toEqual({ label: 'Visa •••• 4242', expiry: 'Expires 04/2030' })
  })
})

// 0.2 · 7 of 7: the whole billing history, a page at a time, with refunds.
describe('billing history', () => {
  // November 1, 2026 00:00 UTC, and two days later.
  const NOV_1 = 1_793_491_200
  const NOV_3 = NOV_1 + 2 * 86_400
  const invoice = (overrides: Partial<BillingInvoice> = {}): BillingInvoice => ({
    id: 'in_1',
    number: null,
    status: 'paid',
    created: NOV_1,
    amount_due: 2999,
    amount_paid: 2999,
    currency: 'usd',
    hosted_invoice_url: null,
    invoice_pdf: null,
    receipt_url: null,
    refunds: [],
    ...overrides,
  })

  it('a paid invoice shows what was paid, any other what is due', () => {
    expect(formatAmount(invoiceAmount(invoice({ status: 'paid', amount_due: 2999, amount_paid: 1499 })))).toBe('$14.99')
    expect(formatAmount(invoiceAmount(invoice({ status: 'open', amount_due: 2999, amount_paid: 0 })))).toBe('$29.99')
    expect(formatAmount(invoiceAmount(invoice({ status: 'uncollectible', amount_due: 999, amount_paid: 0 })))).toBe('$9.99')
  })

  it("invoice status 'paid' gets a green dot, any other status a red dot, and words a person reads", () => {
    expect(invoiceIsPaid('paid')).toBe(true)
    for (const status of ['open', 'draft', 'void', 'uncollectible']) expect(invoiceIsPaid(status)).toBe(false)
    expect(['paid', 'open', 'draft', 'void', 'uncollectible', 'something_new'].map(invoiceStatusText)).toEqual([
      'Paid',
      'Due',
      'Not issued yet',
      'Cancelled',
      'Not paid',
      'Not paid',
    ])
  })

  it("an invoice's links are named by their words and which invoice they belong to", () => {
    expect(invoiceLinkLabels(invoice())).toEqual({
      view: 'View invoice of November 1, 2026',
      pdf: 'PDF of the invoice of November 1, 2026',
      receipt: 'Receipt of the invoice of November 1, 2026',
    })
    expect(invoiceLinkLabels(invoice({ number: 'A1B2C3-0002' })).view).toBe('View invoice A1B2C3-0002 of November 1, 2026')
  })

  it('refund lines: refunded with its date, a pending one says pending, a failed or cancelled one says so', () => {
    expect(refundText({ amount: 1000, created: NOV_3, status: 'succeeded' })).toBe('Refunded $10.00 on November 3, 2026')
    expect(refundText({ amount: 1000, created: NOV_3, status: 'pending' })).toBe('Refund of $10.00 pending')
    expect(refundText({ amount: 1000, created: NOV_3, status: 'requires_action' })).toBe('Refund of $10.00 pending')
    expect(refundText({ amount: 250, created: NOV_3, status: 'failed' })).toBe('Refund of $2.50 failed')
    expect(refundText({ amount: 250, created: NOV_3, status: 'canceled' })).toBe('Refund of $2.50 cancelled')
  })

  it('pages: the first without a cursor, the next after the last invoice shown', () => {
    expect(invoicesPath(null)).toBe('/api/account/invoices?limit=10')
    expect(invoicesPath('in_9Zx')).toBe('/api/account/invoices?limit=10&after=in_9Zx')
    expect(BILLING_HISTORY.showMore).toBe('Show more invoices')
  })

  it('without billing, says plainly that no invoices are issued', () => {
    expect(BILLING_HISTORY.billingOff).toBe('This server takes no payments, so no invoices are issued.')
  })
})

// 0.2 · 7 of 7: a payment issue the owner fixes alone.
describe('payment issue', () => {
  const due = (overrides: Partial<PaymentDue> = {}): PaymentDue => ({
    invoiceId: 'in_due',
    amountDue: 2999,
    currency: 'usd',
    hostedInvoiceUrl: 'https://invoice.stripe.com/i/acct_1/test_1',
    graceUntil: '2026-11-08T12:00:00.000Z',
    ...overrides,
  })
  const account = (overrides: Partial<AccountSubscription> = {}): AccountSubscription => ({
    planTier: 'premium',
    hasActiveSubscription: true,
    billingEnabled: true,
    subscription: {
      status: 'active',
      plan: { amount: 2999, currency: 'usd', interval: 'month' },
      current_period_start: 1_793_491_200,
      current_period_end: 1_796_083_200,
      cancel_at_period_end: false,
    },
    customer: null,
    invoices: [],
    paymentGraceUntil: null,
    paymentDue: null,
    canUpdatePaymentMethod: true,
    ...overrides,
  })
  const pastDue = (overrides: Partial<AccountSubscription> = {}) =>
    account({ subscription: { ...account().subscription!, status: 'past_due' }, ...overrides })

  it('the payment panel shows for an unpaid invoice, a grace running or a past-due subscription, and only then', () => {
    expect(showsPaymentPanel(account())).toBe(false)
    expect(showsPaymentPanel(account({ subscription: null }))).toBe(false)
    expect(showsPaymentPanel(account({ paymentDue: due() }))).toBe(true)
    expect(showsPaymentPanel(account({ paymentGraceUntil: '2026-11-08T12:00:00.000Z' }))).toBe(true)
    expect(showsPaymentPanel(pastDue())).toBe(true)
  })

  it('update payment method shows only where it can be changed; pay now only with an unpaid invoice', () => {
    expect(paymentActions(pastDue({ paymentDue: due(), canUpdatePaymentMethod: true }))).toEqual({ update: true, pay: true, openInvoice: true })
    expect(paymentActions(pastDue({ paymentDue: due(), canUpdatePaymentMethod: false }))).toEqual({ update: false, pay: true, openInvoice: true })
    expect(paymentActions(pastDue({ paymentDue: null, canUpdatePaymentMethod: true }))).toEqual({ update: true, pay: false, openInvoice: false })
    expect(paymentActions(pastDue({ paymentDue: due({ hostedInvoiceUrl: null }) })).openInvoice).toBe(false)
    // No billing: nothing to change, nothing to pay.
    expect(paymentActions(pastDue({ billingEnabled: false, canUpdatePaymentMethod: false }))).toEqual({ update: false, pay: false, openInvoice: false })
  })

  it('the pay button names the amount due', () => {
    expect(amountDueText(pastDue({ paymentDue: due({ amountDue: 2999 }) }))).toBe('$29.99')
    expect(PAYMENT_ISSUE.payButton(amountDueText(pastDue({ paymentDue: due({ amountDue: 999 }) }))!)).toBe('Pay $9.99 now')
    expect(amountDueText(pastDue())).toBeNull()
  })

  it('says until when the vault stays fully usable: the invoice grace, else the account grace; after it, that it has ended', () => {
    expect(formatIsoDate('2026-11-08T12:00:00.000Z')).toBe('November 8, 2026')
    expect(formatIsoDate('not a date')).toBeNull()
    expect(graceText(pastDue({ paymentDue: due() }))).toBe(
      'Your vault stays fully usable until November 8, 2026. Fix the payment before then to keep it that way.',
    )
    expect(graceText(pastDue({ paymentGraceUntil: '2026-11-09T00:00:00.000Z' }))).toContain('until November 9, 2026')
    expect(graceText(pastDue({ hasActiveSubscription: true }))).toBe(PAYMENT_ISSUE.usableDuring)
    expect(graceText(pastDue({ hasActiveSubscription: false }))).toBe(PAYMENT_ISSUE.graceOver)
  })

  it('a paid invoice toasts the server message: paid, or still being processed', () => {
    expect(payResultToast(BILLING_MESSAGES.paid)).toEqual({ title: 'Payment Successful', description: BILLING_MESSAGES.paid, variant: 'success' })
    expect(payResultToast(BILLING_MESSAGES.paymentPending)).toEqual({
      title: 'Payment Processing',
      description: BILLING_MESSAGES.paymentPending,
      variant: 'default',
    })
  })

  it("a refused payment shows the bank's reason; one the bank must confirm leads to the invoice page; nothing due is not a failure", () => {
    const declined = payFailure(new ApiRequestError(400, 'Your card was declined.', { message: 'Your card was declined.' }))
    expect(declined).toEqual({
      toast: { title: 'Payment Failed', description: 'Your card was declined.', variant: 'destructive' },
      reason: 'Your card was declined.',
      confirmAtBank: false,
    })
    // The worker's words when the bank asks for a confirmation (BILLING_MESSAGES.authenticationRequired on main).
    const confirm = payFailure(new ApiRequestError(400, 'Your bank asks you to confirm this payment. Open the invoice to pay it on Stripe’s secure page.', {}))
    expect(confirm.confirmAtBank).toBe(true)
    expect(needsBankConfirmation('Your card requires authentication.')).toBe(true)
    expect(needsBankConfirmation('This payment requires 3D Secure.')).toBe(true)
    expect(needsBankConfirmation('Your card has insufficient funds.')).toBe(false)
    const nothing = payFailure(new ApiRequestError(409, BILLING_MESSAGES.noPaymentDue, { message: BILLING_MESSAGES.noPaymentDue }))
    expect(nothing).toEqual({ toast: { title: 'Nothing to Pay', description: BILLING_MESSAGES.noPaymentDue, variant: 'default' }, reason: null, confirmAtBank: false })
    expect(payFailure(new ApiRequestError(500, '', {})).reason).toBe('Payment could not be processed')
  })

  it('the app-wide banner shows a past-due owner everywhere but /account', () => {
    const user = { subscriptionStatus: 'past_due' }
    expect(hasPaymentIssue(user)).toBe(true)
    expect(showsPaymentIssueBanner(user, '/dashboard')).toBe(true)
    expect(showsPaymentIssueBanner(user, '/vault')).toBe(true)
    expect(showsPaymentIssueBanner(user, '/account')).toBe(false)
    expect(showsPaymentIssueBanner(user, '/account/')).toBe(false)
    expect(showsPaymentIssueBanner({ subscriptionStatus: 'active' }, '/dashboard')).toBe(false)
    expect(showsPaymentIssueBanner({ subscriptionStatus: null }, '/dashboard')).toBe(false)
    expect(showsPaymentIssueBanner(null, '/dashboard')).toBe(false)
  })
})

describe('the retired /checkout', () => {
  it('the /checkout redirect keeps a valid plan and sends anything else to premium', () => {
    expect(checkoutRedirectSearch({})).toEqual({ plan: 'premium' })
    expect(checkoutRedirectSearch({ plan: 'basic' })).toEqual({ plan: 'basic' })
    expect(checkoutRedirectSearch({ plan: 'enterprise', amount: 1 })).toEqual({ plan: 'enterprise' })
    expect(checkoutRedirectSearch({ plan: 'admin' })).toEqual({ plan: 'premium' })
    expect(checkoutRedirectSearch({ plan: 'free' })).toEqual({ plan: 'premium' })
    expect(checkoutRedirectSearch({ plan: ['basic'] })).toEqual({ plan: 'premium' })
    expect(checkoutRedirectSearch({ plan: 42 })).toEqual({ plan: 'premium' })
  })
})

describe('messages as the catalogue words them (seeds 000 §8)', () => {
  const line = (t: { title: string; description: string }) => `${t.title} - ${t.description}`
  it('subscribe and account', () => {
    expect(line(SUBSCRIBE_TOASTS.success('Premium'))).toBe('Subscription Successful - Welcome to Premium!')
    expect(line(SUBSCRIBE_TOASTS.noSecret)).toBe('Subscription Error - Unable to initialize subscription processing.')
    expect(line(SUBSCRIBE_TOASTS.emailRequired)).toBe('Email Required - Please enter your email address to continue.')
    expect(line(SUBSCRIBE_TOASTS.unexpected)).toBe('Payment Error - An unexpected error occurred. Please try again.')
    expect(line(ACCOUNT_TOASTS.loadError)).toBe('Error Loading Account - Unable to load your account information.')
    expect(line(ACCOUNT_TOASTS.cancelled)).toBe('Subscription Cancelled - Your subscription will end at the current billing period.')
    expect(line(ACCOUNT_TOASTS.deleted)).toBe('Account Set to Be Deleted - Your account will be deleted in 7 days. Until then nothing in it changes and no release starts; sign in before then to keep it.')
    expect(ACCOUNT_TOASTS.cancelFailed.fallback).toBe('Unable to cancel subscription. Please try again.')
    expect(ACCOUNT_TOASTS.deleteFailed.fallback).toBe('Unable to delete account. Please try again.')
  })
})
