import { mirrorAccount } from '../../worker/owner/account'
import { beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_MESSAGES, type AdminDashboardData, type AdminRefund } from '../../contract/admin'
import { BILLING_MESSAGES, type AccountSubscription, type BillingConfig, type SubscriptionResult } from '../../contract/billing'
import { DELETION_GRACE_MS } from '../../contract/account-deletion'
import { runSweeps } from '../../worker/cron'
import { getDb } from '../../worker/db/client'
import { purgeDueDeletions } from '../../worker/services/account-deletion'
import { stripeEnv } from './stripe-env'
import { call, env, outboxFor, register, uniqueEmail } from './helpers'
import {
  activeOwner,
  card,
  charge,
  DAY_MS,
  deliver,
  eventId,
  installRefunds,
  invoiceEvent,
  now,
  PRICES,
  promo,
  resetStripe,
  stripe,
  stripeAdmin,
  stripeCall,
  usedCount,
  userRow,
} from './stripe-fake'

// The Stripe provider, with Stripe's settings given to this file's requests only. Stripe's API is
// answered at the fetch boundary by a small Stripe-shaped fake (stripe-fake.ts); nothing else is mocked.

beforeEach(resetStripe)

// ---- Tests ----

describe('billing config', () => {
  it('reports Stripe with its publishable key; without the keys, billing is off as before', async () => {
    expect((await (await stripeCall('/api/billing/config')).json()) as BillingConfig).toEqual({ billingEnabled: true, publishableKey: 'pk_test_x' })
    expect((await (await call('/api/billing/config')).json()) as BillingConfig).toEqual({ billingEnabled: false, publishableKey: null })
  })
})

describe('accounts on a server with billing', () => {
  it('start without a plan: the vault asks for a subscription until one is paid for', async () => {
    const email = uniqueEmail('billed')
    const res = await stripeCall('/api/auth/register', { body: { email, password: 'correct horse battery', displayName: 'Billed Owner' } })
    expect(res.status).toBe(201)
    const { token, user } = (await res.json()) as { token: string; user: { planTier: string; hasActiveSubscription: boolean; billingProvider: string } }
    expect(user).toMatchObject({ planTier: 'free', hasActiveSubscription: false, billingProvider: 'stripe' })
    const gated = await stripeCall('/api/vault/items', { token })
    expect(gated.status).toBe(402)
    expect(await gated.json()).toMatchObject({ requiresPayment: true })
  })
})

describe('subscribing through Stripe', () => {
  it('creates the customer and an incomplete subscription whose first invoice carries the client secret', async () => {
    const owner = await register()
    const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'premium' } })
    expect(res.status).toBe(200)
    const result = (await res.json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'incomplete', billingEnabled: true, invoicePreview: { planName: 'Premium', finalAmount: 2999 } })
    expect(result.clientSecret).toBe(`pi_${result.subscriptionId}_secret_abc`)
    expect(result.customerId).toMatch(/^cus_/)
    const [request] = stripe.subscriptionRequests
    expect(request).toMatchObject({ customer: result.customerId, 'items[0][price]': 'price_premium', payment_behavior: 'default_incomplete' })
    // Nothing changes before payment (the webhooks grant the plan); the customer is kept for next time.
    const row = (await userRow(owner.user.id))!
    expect(row).toMatchObject({ stripe_customer_id: result.customerId, billing_provider: 'none', stripe_subscription_id: null })
    const again = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'basic' } })).json()) as SubscriptionResult
    expect(again.customerId).toBe(result.customerId)
    expect(stripe.customers.size).toBe(1)
  })

  it('applies a percentage code as a Stripe coupon and counts it once, after Stripe accepted', async () => {
    await promo('STRIPE25', 'percentage', 25)
    await promo('FIVEOFF', 'fixed_amount', 5)
    const owner = await register()
    stripe.failSubscriptions = true
    const refused = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'premium', promoCode: 'stripe25' } })
    expect(refused.status).toBe(400)
    expect(await usedCount('STRIPE25')).toBe(0)
    stripe.failSubscriptions = false
    const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'premium', promoCode: 'stripe25' } })
    const result = (await res.json()) as SubscriptionResult
    expect(result.invoicePreview).toMatchObject({ promoCodeApplied: 'STRIPE25', discountAmount: 750, finalAmount: 2249 })
    expect(stripe.coupons.at(-1)).toMatchObject({ percent_off: '25', duration: 'once' })
    expect(stripe.subscriptionRequests.at(-1)!['discounts[0][coupon]']).toMatch(/^co_/)
    expect(await usedCount('STRIPE25')).toBe(1)
    await stripeCall('/api/create-subscription', { token: (await register()).token, body: { plan: 'basic', promoCode: 'FIVEOFF' } })
    expect(stripe.coupons.at(-1)).toMatchObject({ amount_off: '500', currency: 'usd' })
    expect(await usedCount('FIVEOFF')).toBe(1)
  })

  it('a free-subscription code is a trial: trialing at once, the card collected through the SetupIntent for when it ends', async () => {
    await promo('FREE30', 'free_subscription', 30)
    const owner = await register()
    const result = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise', promoCode: 'FREE30' } })).json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'trialing', invoicePreview: { finalAmount: 0, trialDays: 30 } })
    expect(result.clientSecret).toBe(`seti_${result.subscriptionId}_secret_xyz`)
    expect(stripe.subscriptionRequests.at(-1)).toMatchObject({
      trial_period_days: '30',
      'payment_settings[save_default_payment_method]': 'on_subscription',
      'expand[1]': 'pending_setup_intent',
    })
    expect(stripe.coupons).toEqual([])
    expect(await usedCount('FREE30')).toBe(1)
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'enterprise', subscription_status: 'trialing', billing_provider: 'stripe', stripe_subscription_id: result.subscriptionId })
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(200)
  })

  it('a trial without card collection (no pending SetupIntent) still starts, with no client secret', async () => {
    await promo('FREE7', 'free_subscription', 7)
    stripe.noSetupIntent = true
    const owner = await register()
    const result = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'basic', promoCode: 'FREE7' } })).json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'trialing', clientSecret: null, invoicePreview: { finalAmount: 0, trialDays: 7 } })
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'basic', subscription_status: 'trialing', billing_provider: 'stripe' })
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(200)
    // A guest's trial answers the SetupIntent's secret too.
    stripe.noSetupIntent = false
    const guest = (await (await stripeCall('/api/create-subscription-guest', { body: { plan: 'basic', promoCode: 'FREE7', email: uniqueEmail('trial') } })).json()) as SubscriptionResult
    expect(guest).toMatchObject({ status: 'trialing', clientSecret: `seti_${guest.subscriptionId}_secret_xyz` })
  })

  it('a guest subscribes with an e-mail; the registration of that address claims the Stripe subscription', async () => {
    const email = uniqueEmail('guest')
    const res = await stripeCall('/api/create-subscription-guest', { body: { plan: 'basic', email } })
    const result = (await res.json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'incomplete', billingEnabled: true })
    expect(result.clientSecret).toBeTruthy()
    expect(stripe.customers.get(result.customerId!)!.email).toBe(email)
    const stored = await env.DB.prepare('select user_id, email, plan from subscriptions where id = ?').bind(result.subscriptionId).first()
    expect(stored).toMatchObject({ user_id: null, email, plan: 'basic' })
    // Paid before registering: the webhook finds it in our subscriptions table.
    expect((await deliver(invoiceEvent('invoice.paid', result.customerId!, result.subscriptionId))).status).toBe(200)
    const reg = await call('/api/auth/register', { body: { email, password: 'correct horse battery', displayName: 'Guest', subscriptionId: result.subscriptionId } })
    const { user } = (await reg.json()) as { user: { id: string } }
    expect(await userRow(user.id)).toMatchObject({ plan_tier: 'basic', subscription_status: 'active', billing_provider: 'stripe', stripe_subscription_id: result.subscriptionId })
  })
})

describe('changing plan with Stripe', () => {
  it("switches the subscription's item to the new price with prorations; the webhook agrees; the same plan is a 409", async () => {
    const { owner, subscriptionId, customerId } = await activeOwner()
    const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise', confirm: true } })
    expect(res.status).toBe(200)
    const result = (await res.json()) as SubscriptionResult
    // The paid invoice before is no payment to confirm: no client secret.
    expect(result).toMatchObject({ status: 'active', clientSecret: null, subscriptionId, customerId, billingEnabled: true, invoicePreview: { planName: 'Enterprise', finalAmount: 9999 } })
    expect(stripe.subscriptionRequests).toHaveLength(1)
    expect(stripe.updateRequests).toHaveLength(1)
    expect(stripe.updateRequests[0]).toMatchObject({
      id: subscriptionId,
      body: { 'items[0][id]': `si_${subscriptionId}`, 'items[0][price]': 'price_enterprise', proration_behavior: 'create_prorations' },
    })
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'enterprise', subscription_status: 'active', stripe_subscription_id: subscriptionId })
    expect(await env.DB.prepare('select plan from subscriptions where id = ?').bind(subscriptionId).first()).toEqual({ plan: 'enterprise' })
    // Stripe's customer.subscription.updated for the change maps the price to the same plan.
    const sub = stripe.subscriptions.get(subscriptionId)!
    expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: sub })).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'enterprise', subscription_status: 'active' })
    const view = (await (await stripeCall('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription
    expect(view).toMatchObject({ planTier: 'enterprise', subscription: { plan: { amount: 9999 } } })
    // The same plan again: 409, and nothing sent to Stripe.
    const same = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise', confirm: true } })
    expect(same.status).toBe(409)
    expect(((await same.json()) as { message: string }).message).toBe(BILLING_MESSAGES.alreadySubscribed)
    expect(stripe.updateRequests).toHaveLength(1)
  })

  it('answers the client secret only when Stripe asks for a payment; promotion codes are for new subscriptions', async () => {
    await promo('CHANGE10', 'percentage', 10)
    const { owner, subscriptionId } = await activeOwner()
    const withCode = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'basic', promoCode: 'CHANGE10', confirm: true } })
    expect(withCode.status).toBe(400)
    expect(((await withCode.json()) as { message: string }).message).toBe(BILLING_MESSAGES.promoPlanChange)
    expect(stripe.updateRequests).toHaveLength(0)
    expect(await usedCount('CHANGE10')).toBe(0)
    stripe.planChangeInvoice = 'open'
    const result = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'basic', confirm: true } })).json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'active', subscriptionId, clientSecret: `pi_change_${subscriptionId}_secret_def` })
    expect((await userRow(owner.user.id))!.plan_tier).toBe('basic')
  })

  it('during a trial the plan changes with nothing due now', async () => {
    await promo('FREE14', 'free_subscription', 14)
    const owner = await register()
    const trial = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'basic', promoCode: 'FREE14' } })).json()) as SubscriptionResult
    const result = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'premium', confirm: true } })).json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'trialing', subscriptionId: trial.subscriptionId, clientSecret: null, invoicePreview: { finalAmount: 0 } })
    expect(stripe.updateRequests.at(-1)!.body).toMatchObject({ 'items[0][price]': 'price_premium' })
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'premium', subscription_status: 'trialing' })
  })
})

describe('changing plan asks first', () => {
  it("asking for another plan changes nothing: it answers what changes and what is charged (Stripe's preview), and the change is made with that proration on Confirm", async () => {
    const { owner, subscriptionId } = await activeOwner()
    const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise' } })
    expect(res.status).toBe(200)
    const result = (await res.json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'confirm_change', clientSecret: null, subscriptionId })
    const change = result.planChange!
    expect(change).toMatchObject({ fromPlan: 'Premium', toPlan: 'Enterprise', newAmount: 9999, dueNow: 0, currency: 'usd' })
    // Stripe's preview: the unused Premium time credited, Enterprise for the rest of the period, then a full Enterprise period.
    expect(change.prorationAmount).toBeGreaterThan(6900)
    expect(change.prorationAmount).toBeLessThanOrEqual(9999 - 2999)
    expect(change.nextInvoiceAmount).toBe(9999 + change.prorationAmount)
    expect(Date.parse(change.nextInvoiceDate!)).toBeGreaterThan(Date.now() + 29 * DAY_MS)
    expect(stripe.previewRequests).toHaveLength(1)
    expect(stripe.previewRequests[0]).toMatchObject({ subscription: subscriptionId, 'subscription_details[items][0][price]': 'price_enterprise' })
    // Nothing was changed at Stripe or here.
    expect(stripe.updateRequests).toHaveLength(0)
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'premium' })
    expect(stripe.subscriptions.get(subscriptionId)!.items).toMatchObject({ data: [{ price: { id: 'price_premium' } }] })

    const confirmed = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise', confirm: true, prorationDate: change.prorationDate } })
    expect(((await confirmed.json()) as SubscriptionResult).status).toBe('active')
    expect(stripe.updateRequests).toHaveLength(1)
    expect(stripe.updateRequests[0]!.body).toMatchObject({ 'items[0][price]': 'price_enterprise', proration_date: String(change.prorationDate) })
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'enterprise' })
  })

  it('a proration date that is not recent is not honoured: the change is priced at its own moment', async () => {
    const { owner } = await activeOwner()
    const old = now() - 2 * 86_400
    await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'basic', confirm: true, prorationDate: old } })
    expect(Number(stripe.updateRequests[0]!.body.proration_date)).toBeGreaterThan(now() - 60)
  })
})

describe("the cron leaves a Stripe subscription's end to Stripe", () => {
  it("a Stripe plan past its period's end is not renewed by the sweep (which renews only subscriptions without billing): its period is Stripe's", async () => {
    const { owner } = await activeOwner()
    const row = (await userRow(owner.user.id))!
    await runSweeps(env, row.subscription_period_end! + 60_000)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_period_end: row.subscription_period_end })
  })

  it("a cancelled Stripe plan past its period's end is not ended by the sweep (which ends only subscriptions without billing): it stays as Stripe last said until Stripe's own event ends it", async () => {
    const { owner, subscriptionId } = await activeOwner()
    expect((await stripeCall('/api/account/cancel-subscription', { method: 'POST', token: owner.token })).status).toBe(200)
    const row = (await userRow(owner.user.id))!
    expect(row).toMatchObject({ cancel_at_period_end: 1, subscription_status: 'active', billing_provider: 'stripe' })
    await runSweeps(env, row.subscription_period_end! + 60_000)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', stripe_subscription_id: subscriptionId })
  })
})

describe('subscribing again while a cancellation is pending', () => {
  it('creates no second subscription: it offers to keep the one that is ending, and keeping it undoes the cancellation at Stripe', async () => {
    const { owner, subscriptionId } = await activeOwner()
    expect((await stripeCall('/api/account/cancel-subscription', { method: 'POST', token: owner.token })).status).toBe(200)
    for (const plan of ['premium', 'enterprise']) {
      const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan, confirm: true } })
      expect(res.status).toBe(200)
      const result = (await res.json()) as SubscriptionResult
      expect(result).toMatchObject({ status: 'cancellation_pending', subscriptionId, clientSecret: null })
      expect(Date.parse(result.endsAt!)).toBeGreaterThan(Date.now())
    }
    expect(stripe.subscriptionRequests).toHaveLength(1)
    expect(stripe.updateRequests.filter((r) => r.body['items[0][price]'])).toHaveLength(0)

    const kept = await stripeCall('/api/account/resume-subscription', { method: 'POST', token: owner.token })
    expect(kept.status).toBe(200)
    const body = (await kept.json()) as { message: string; subscription: AccountSubscription }
    expect(body.message).toBe(BILLING_MESSAGES.kept)
    expect(body.subscription.subscription!.cancel_at_period_end).toBe(false)
    expect(stripe.updateRequests.at(-1)).toMatchObject({ id: subscriptionId, body: { cancel_at_period_end: 'false' } })
    expect(await userRow(owner.user.id)).toMatchObject({ cancel_at_period_end: 0, stripe_subscription_id: subscriptionId })
    // Nothing left to undo.
    const again = await stripeCall('/api/account/resume-subscription', { method: 'POST', token: owner.token })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { message: string }).message).toBe(BILLING_MESSAGES.notCancelling)
    // And another plan is now a change on the same subscription, asked first.
    const change = (await (await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise' } })).json()) as SubscriptionResult
    expect(change.status).toBe('confirm_change')
    expect(stripe.subscriptionRequests).toHaveLength(1)
  })
})

describe('POST /api/stripe/webhook', () => {
  it('refuses a missing or wrong signature with 400, and is not there without Stripe', async () => {
    const event = { id: eventId(), type: 'invoice.paid', object: { id: 'in_x', object: 'invoice', customer: 'cus_x' } }
    expect((await deliver(event, 'whsec_wrong')).status).toBe(400)
    const unsigned = await stripeCall('/api/stripe/webhook', { rawBody: JSON.stringify(event), headers: { 'content-type': 'application/json' } })
    expect(unsigned.status).toBe(400)
    expect(((await unsigned.json()) as { message: string }).message).toBe(BILLING_MESSAGES.webhookSignatureInvalid)
    expect((await call('/api/stripe/webhook', { rawBody: '{}' })).status).toBe(404)
  })

  it('activates from subscription.updated; the same event delivered twice applies once', async () => {
    const { owner, subscriptionId } = await activeOwner()
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'premium', subscription_status: 'active', stripe_subscription_id: subscriptionId })
    const sub = stripe.subscriptions.get(subscriptionId)!
    const event = { id: eventId(), type: 'customer.subscription.updated', object: { ...sub, cancel_at_period_end: true } }
    expect(await (await deliver(event)).json()).toEqual({ received: true })
    await env.DB.prepare('update users set cancel_at_period_end = 0 where id = ?').bind(owner.user.id).run()
    await mirrorAccount(owner.user.id)
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: true })
    expect((await userRow(owner.user.id))!.cancel_at_period_end).toBe(0)
    // Remembered for Stripe's retries (3 days), then forgotten by the sweep.
    const kept = await env.DB.prepare('select keep_until from stripe_events where id = ?').bind(event.id).first<{ keep_until: number }>()
    expect(kept!.keep_until - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000)
    expect(kept!.keep_until - Date.now()).toBeLessThanOrEqual(3 * 86_400_000)
  })

  it('ignores a customer.subscription event older than the last one applied to the subscription', async () => {
    const { owner, subscriptionId } = await activeOwner()
    const sub = stripe.subscriptions.get(subscriptionId)!
    const later = now() + 60
    const withPrice = (price: string) => ({
      ...sub,
      items: { object: 'list', data: [{ ...(sub.items as { data: Array<Record<string, unknown>> }).data[0], price: { id: price, object: 'price', unit_amount: PRICES[price]!.amount, currency: 'usd' } }] },
    })
    expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: withPrice('price_enterprise'), created: later })).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'enterprise', stripe_event_at: later * 1000 })
    // Delivered after, created before: received, and changes nothing (not even a deletion).
    const stale = await deliver({ id: eventId(), type: 'customer.subscription.updated', object: { ...withPrice('price_basic'), cancel_at_period_end: true }, created: later - 30 })
    expect(await stale.json()).toEqual({ received: true })
    expect((await deliver({ id: eventId(), type: 'customer.subscription.deleted', object: { ...sub, status: 'canceled' }, created: later - 10 })).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ plan_tier: 'enterprise', subscription_status: 'active', cancel_at_period_end: 0, stripe_event_at: later * 1000 })
    expect(await env.DB.prepare('select plan, status from subscriptions where id = ?').bind(subscriptionId).first()).toEqual({ plan: 'enterprise', status: 'active' })
    // The same second, or later, applies.
    expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: withPrice('price_basic'), created: later })).status).toBe(200)
    expect((await userRow(owner.user.id))!.plan_tier).toBe('basic')
    expect((await deliver({ id: eventId(), type: 'customer.subscription.deleted', object: { ...sub, status: 'canceled' }, created: later + 1 })).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'canceled', stripe_event_at: (later + 1) * 1000 })
  })

  it('payment_failed starts the 7-day grace with one e-mail (once); paid clears it', async () => {
    const { owner, subscriptionId, customerId } = await activeOwner()
    const before = Date.now()
    expect((await deliver(invoiceEvent('invoice.payment_failed', customerId, subscriptionId))).status).toBe(200)
    const row = (await userRow(owner.user.id))!
    expect(row.subscription_status).toBe('past_due')
    expect(row.payment_grace_until! - before).toBeGreaterThanOrEqual(7 * DAY_MS - 1000)
    expect(row.payment_grace_until! - before).toBeLessThanOrEqual(7 * DAY_MS + 5000)
    // Another failure during the grace keeps it and sends nothing more.
    expect((await deliver(invoiceEvent('invoice.payment_failed', customerId, subscriptionId))).status).toBe(200)
    expect((await userRow(owner.user.id))!.payment_grace_until).toBe(row.payment_grace_until)
    const mails = (await outboxFor(owner.email)).filter((m) => m.subject.includes('payment failed'))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.text).toMatch(/7 days/)
    expect(mails[0]!.text).toMatch(/triggers/)
    expect(mails[0]!.text).toMatch(/uploads wait until payment is restored/i)
    // The vault stays usable during the grace.
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(200)
    expect((await deliver(invoiceEvent('invoice.paid', customerId, subscriptionId))).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
  })

  it('subscription.deleted ends access: the vault answers 402', async () => {
    const { owner, subscriptionId } = await activeOwner()
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(200)
    const sub = stripe.subscriptions.get(subscriptionId)!
    expect((await deliver({ id: eventId(), type: 'customer.subscription.deleted', object: { ...sub, status: 'canceled' } })).status).toBe(200)
    expect((await userRow(owner.user.id))!.subscription_status).toBe('canceled')
    const res = await stripeCall('/api/vault/items', { token: owner.token })
    expect(res.status).toBe(402)
    expect(await res.json()).toMatchObject({ requiresPayment: true })
  })
})

describe('the account with Stripe', () => {
  it('shows the subscription, the default card and the 5 latest invoices from Stripe', async () => {
    const { owner } = await activeOwner()
    const view = (await (await stripeCall('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription
    expect(view).toMatchObject({
      planTier: 'premium',
      hasActiveSubscription: true,
      billingEnabled: true,
      subscription: { status: 'active', plan: { amount: 2999, currency: 'usd', interval: 'month' }, cancel_at_period_end: false },
      customer: { default_source: card },
    })
    expect(view.subscription!.current_period_end! - view.subscription!.current_period_start!).toBe(30 * 86_400)
    expect(view.invoices).toHaveLength(5)
    expect(view.invoices[1]).toMatchObject({ id: 'in_1', status: 'paid', amount_paid: 2999, invoice_pdf: 'https://pay.stripe.com/invoice/in_1/pdf' })
  })

  it('cancels at the period end at Stripe; access continues', async () => {
    const { owner, subscriptionId } = await activeOwner()
    const res = await stripeCall('/api/account/cancel-subscription', { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { message: string; subscription: AccountSubscription }
    expect(body.message).toBe(BILLING_MESSAGES.cancelled)
    expect(body.subscription.subscription!.cancel_at_period_end).toBe(true)
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true)
    expect((await userRow(owner.user.id))!.cancel_at_period_end).toBe(1)
    expect((await stripeCall('/api/account/cancel-subscription', { method: 'POST', token: owner.token })).status).toBe(409)
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(200)
  })

  it('two cancels at once: one is taken, the other is told it is already cancelling', async () => {
    const { owner } = await activeOwner()
    const both = await Promise.all([1, 2].map(() => stripeCall('/api/account/cancel-subscription', { method: 'POST', token: owner.token })))
    expect(both.map((r) => r.status).sort()).toEqual([200, 409])
    const refused = both.find((r) => r.status === 409)!
    expect(((await refused.json()) as { message: string }).message).toBe(BILLING_MESSAGES.alreadyCancelling)
  })

  it('deleting the account cancels the Stripe subscription when the deletion is carried out, not when it is asked for', async () => {
    const { owner, subscriptionId } = await activeOwner()
    const res = await stripeCall('/api/account/delete', { method: 'DELETE', token: owner.token })
    expect(res.status).toBe(200)
    // Frozen for 7 days: the owner may still keep the account, and with it the subscription.
    expect(stripe.cancelled).toEqual([])
    await purgeDueDeletions(stripeEnv, getDb(stripeEnv), Date.now() + DELETION_GRACE_MS + 1000)
    expect(stripe.cancelled).toEqual([subscriptionId])
    expect(await userRow(owner.user.id)).toBeNull()
  })
})

describe('admin refunds with Stripe', () => {
  it("refunds the latest paid charge with enough left, in cents, once (Idempotency-Key), and lists Stripe's status", async () => {
    const a = await stripeAdmin()
    const owner = await register()
    const customerId = `cus_refund_${crypto.randomUUID().slice(0, 8)}`
    await env.DB.prepare('update users set stripe_customer_id = ? where id = ?').bind(customerId, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const seen = installRefunds([
      // Newest first, as Stripe lists them: too little left, failed, then the one that can take it.
      charge('ch_mostly_refunded', customerId, 2999, { amount_refunded: 2000 }),
      charge('ch_failed', customerId, 2999, { paid: false, status: 'failed' }),
      charge('ch_good', customerId, 2999),
      charge('ch_other_customer', 'cus_someone_else', 9999),
    ])
    const res = await stripeCall('/api/admin/refunds', { token: a.token, body: { userId: owner.user.id, amount: 12.34, reason: 'Double charge' } })
    expect(res.status, await res.clone().text()).toBe(201)
    const refund = (await res.json()) as AdminRefund
    expect(refund).toMatchObject({ amount: 1234, reason: 'Double charge', status: 'completed', user: { id: owner.user.id, email: owner.email } })

    expect(seen.chargeQueries).toHaveLength(1)
    expect(seen.chargeQueries[0]).toMatchObject({ customer: customerId })
    expect(seen.refunds).toHaveLength(1)
    const [sent] = seen.refunds
    expect(sent!.body).toMatchObject({ charge: 'ch_good', amount: '1234', reason: 'requested_by_customer', 'metadata[userId]': owner.user.id })
    expect(sent!.body.payment_intent).toBeUndefined()
    // One key per refund we record: a retried request cannot refund twice at Stripe.
    expect(sent!.idempotencyKey).toBe(`admin-refund-${refund.id}`)

    const stored = await env.DB.prepare('select amount, status, provider_ref as ref, created_by as by from refunds where id = ?').bind(refund.id).first()
    expect(stored).toMatchObject({ amount: 1234, status: 'completed', by: a.user.id })
    expect(String((stored as { ref: string }).ref)).toMatch(/^re_/)
    const list = (await (await stripeCall('/api/admin/refunds', { token: a.token })).json()) as AdminRefund[]
    expect(list.filter((r) => r.user.id === owner.user.id).map((r) => [r.id, r.amount, r.status])).toEqual([[refund.id, 1234, 'completed']])
  })

  it('keeps a refund Stripe has not settled yet as pending', async () => {
    const a = await stripeAdmin()
    const owner = await register()
    const customerId = `cus_refund_${crypto.randomUUID().slice(0, 8)}`
    await env.DB.prepare('update users set stripe_customer_id = ? where id = ?').bind(customerId, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const seen = installRefunds([charge('ch_pending', customerId, 999)], 'pending')
    const res = await stripeCall('/api/admin/refunds', { token: a.token, body: { userId: owner.user.id, amount: 9.99, reason: 'Goodwill' } })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ amount: 999, status: 'pending' })
    expect(seen.refunds[0]!.body).toMatchObject({ charge: 'ch_pending', amount: '999' })
  })

  it('answers 409 when no charge can take the refund, sending no refund and recording nothing', async () => {
    const a = await stripeAdmin()
    const owner = await register()
    const customerId = `cus_refund_${crypto.randomUUID().slice(0, 8)}`
    await env.DB.prepare('update users set stripe_customer_id = ? where id = ?').bind(customerId, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const seen = installRefunds([
      charge('ch_small', customerId, 999),
      charge('ch_refunded', customerId, 2999, { amount_refunded: 2000 }),
      charge('ch_declined', customerId, 9999, { paid: false, status: 'failed' }),
    ])
    const res = await stripeCall('/api/admin/refunds', { token: a.token, body: { userId: owner.user.id, amount: 12.34, reason: 'Too much' } })
    expect(res.status).toBe(409)
    expect(((await res.json()) as { message: string }).message).toBe(ADMIN_MESSAGES.noChargeToRefund)
    expect(seen.chargeQueries).toHaveLength(1)
    expect(seen.refunds).toEqual([])
    expect(await env.DB.prepare('select count(*) as n from refunds where user_id = ?').bind(owner.user.id).first()).toEqual({ n: 0 })
  })
})

describe('revenue from invoice.paid', () => {
  it("records the paid invoice once, in cents, on the day it was paid; the dashboard's monthly revenue counts it once", async () => {
    const a = await stripeAdmin()
    const dashboard = async () => {
      const res = await stripeCall('/api/admin/dashboard', { token: a.token })
      expect(res.status).toBe(200)
      return (await res.json()) as AdminDashboardData
    }
    const { subscriptionId, customerId } = await activeOwner()
    const before = (await dashboard()).monthlyRevenue
    const event = invoiceEvent('invoice.paid', customerId, subscriptionId)
    Object.assign(event.object, { amount_paid: 2999, status: 'paid', status_transitions: { paid_at: now() } })
    expect(await (await deliver(event)).json()).toEqual({ received: true })
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: true })
    // The same invoice in another event (a redelivery under a new id) is not counted again either.
    expect((await deliver({ ...event, id: eventId() })).status).toBe(200)
    expect((await dashboard()).monthlyRevenue - before).toBe(2999)
    // Remembered as long as Stripe can send it again (30 days); the paid day holds the amount.
    const kept = await env.DB.prepare('select keep_until from stripe_events where id = ?').bind(`paid:${event.object.id}`).first<{ keep_until: number }>()
    expect(kept!.keep_until - Date.now()).toBeGreaterThan(30 * 86_400_000 - 60_000)
    const day = await env.DB.prepare('select amount_paid from revenue_days where day = ?').bind(Math.floor(Date.now() / 86_400_000)).first<{ amount_paid: number }>()
    expect(day!.amount_paid).toBeGreaterThanOrEqual(2999)
  })

  it('an invoice paid days before its webhook arrives counts on the day it was paid (status_transitions.paid_at), not on the day it was received', async () => {
    const { subscriptionId, customerId } = await activeOwner()
    const paidDay = Math.floor(Date.now() / 86_400_000) - 3
    const amountOn = async (day: number) =>
      (await env.DB.prepare('select amount_paid from revenue_days where day = ?').bind(day).first<{ amount_paid: number }>())?.amount_paid ?? 0
    const [then, today] = [await amountOn(paidDay), await amountOn(paidDay + 3)]
    const event = invoiceEvent('invoice.paid', customerId, subscriptionId)
    Object.assign(event.object, { amount_paid: 4321, status: 'paid', status_transitions: { paid_at: paidDay * 86_400 + 3600 } })
    expect((await deliver(event)).status).toBe(200)
    expect((await amountOn(paidDay)) - then).toBe(4321)
    expect((await amountOn(paidDay + 3)) - today).toBe(0)
  })

  it('refuses to apply again a paid invoice older than Stripe can send it, and the sweep forgets what Stripe no longer sends', async () => {
    const { subscriptionId, customerId } = await activeOwner()
    const old = invoiceEvent('invoice.paid', customerId, subscriptionId)
    Object.assign(old, { created: now() - 31 * 86_400 })
    Object.assign(old.object, { amount_paid: 2999, status: 'paid' })
    expect(await (await deliver(old)).json()).toEqual({ received: true, duplicate: true })
    expect(await env.DB.prepare('select id from stripe_events where id = ?').bind(`paid:${old.object.id}`).first()).toBeNull()

    await env.DB.prepare('insert into stripe_events (id, keep_until) values (?, ?), (?, ?)').bind('evt_gone', Date.now() - 1, 'evt_kept', Date.now() + 60_000).run()
    const result = await runSweeps(env)
    expect(result.stripeEventsPruned).toBeGreaterThanOrEqual(1)
    expect(await env.DB.prepare("select id from stripe_events where id in ('evt_gone', 'evt_kept')").all()).toMatchObject({ results: [{ id: 'evt_kept' }] })
  })
})
