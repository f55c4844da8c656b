import { mirrorAccount } from '../../worker/owner/account'
import { describe, expect, it } from 'vitest'
import { BILLING_MESSAGES, type AccountSubscription, type SubscriptionResult } from '../../contract/billing'
import { VAULT_ITEM_MESSAGES } from '../../contract/vault-items'
import { invoicePreview } from '../../worker/billing/invoice'
import { runSweeps } from '../../worker/cron'
import { createTrigger, manualReleaseOk, ownerWithItem, portalToken } from './engine-helpers'
import { call, env, me, messageOf, register, uniqueEmail } from './helpers'

const DAY_MS = 86_400_000

async function promo(code: string, type: string, value: number, overrides: { maxUses?: number; validUntil?: number | null; isActive?: boolean } = {}) {
  await env.DB.prepare(
    'insert into promo_codes (id, code, description, type, value, max_uses, used_count, valid_until, is_active, created_at) values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)',
  )
    .bind(crypto.randomUUID(), code, 'test', type, value, overrides.maxUses ?? 100, overrides.validUntil ?? null, overrides.isActive === false ? 0 : 1, Date.now())
    .run()
}

const usedCount = async (code: string) =>
  (await env.DB.prepare('select used_count as n from promo_codes where code = ?').bind(code).first<{ n: number }>())!.n

/** Moves the owner's current period into the past: its end is one second ago. */
async function endPeriod(userId: string) {
  await env.DB.prepare('update users set subscription_period_start = ?, subscription_period_end = ? where id = ?')
    .bind(Date.now() - 30 * DAY_MS - 1000, Date.now() - 1000, userId)
    .run()
}

function guest(body: Record<string, unknown>) {
  return call('/api/create-subscription-guest', { body })
}

describe('invoice preview arithmetic', () => {
  it('applies percentage, fixed-dollar and free-period codes in cents', () => {
    expect(invoicePreview('premium', null)).toMatchObject({ planName: 'Premium', baseAmount: 2999, discountAmount: 0, finalAmount: 2999, billingPeriod: 'month' })
    expect(invoicePreview('premium', { code: 'Q', type: 'percentage', value: 25 })).toMatchObject({ discountAmount: 750, finalAmount: 2249 })
    expect(invoicePreview('basic', { code: 'F', type: 'fixed_amount', value: 5 })).toMatchObject({ discountAmount: 500, finalAmount: 500 })
    expect(invoicePreview('basic', { code: 'F', type: 'fixed_amount', value: 50 })).toMatchObject({ discountAmount: 1000, finalAmount: 0 })
    expect(invoicePreview('enterprise', { code: 'T', type: 'free_subscription', value: 30 })).toMatchObject({ finalAmount: 0, trialDays: 30, promoCodeApplied: 'T' })
  })

  it('a percentage code never takes off more than the price or less than nothing: 150% is the whole price, -10% is nothing; a free period is at least a day', () => {
    expect(invoicePreview('premium', { code: 'P', type: 'percentage', value: 150 })).toMatchObject({ discountAmount: 2999, finalAmount: 0 })
    expect(invoicePreview('premium', { code: 'N', type: 'percentage', value: -10 })).toMatchObject({ discountAmount: 0, finalAmount: 2999 })
    expect(invoicePreview('basic', { code: 'Z', type: 'free_subscription', value: 0 })).toMatchObject({ finalAmount: 0, trialDays: 1 })
  })
})

describe('subscribing without billing (the local default)', () => {
  it('grants the chosen plan at once and shows it on the account page', async () => {
    const owner = await register()
    const res = await call('/api/create-subscription', { token: owner.token, body: { plan: 'premium' } })
    expect(res.status).toBe(200)
    const result = (await res.json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'active', clientSecret: null, customerId: null, billingEnabled: false, invoicePreview: { finalAmount: 2999 } })
    expect(result.subscriptionId).toMatch(/^nb_sub_/)
    const user = (await (await me(owner.token)).json()) as { user: { planTier: string; hasActiveSubscription: boolean } }
    expect(user.user).toMatchObject({ planTier: 'premium', hasActiveSubscription: true })
    const account = (await (await call('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription
    expect(account).toMatchObject({ planTier: 'premium', hasActiveSubscription: true, billingEnabled: false, customer: null, invoices: [] })
    expect(account.subscription).toMatchObject({ status: 'active', plan: { amount: 2999, currency: 'usd', interval: 'month' }, cancel_at_period_end: false })
    expect(account.subscription!.current_period_end! - account.subscription!.current_period_start!).toBe(30 * 86_400)
    // The same plan again is refused; another plan switches.
    expect((await call('/api/create-subscription', { token: owner.token, body: { plan: 'premium' } })).status).toBe(409)
    expect((await call('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise' } })).status).toBe(200)
  })

  it('applies a promotion typed in any case and counts it once', async () => {
    await promo('SAVE25', 'percentage', 25)
    const owner = await register()
    const res = await call('/api/create-subscription', { token: owner.token, body: { plan: 'premium', promoCode: '  save25 ' } })
    expect(((await res.json()) as SubscriptionResult).invoicePreview).toMatchObject({ promoCodeApplied: 'SAVE25', discountAmount: 750, finalAmount: 2249 })
    expect(await usedCount('SAVE25')).toBe(1)
  })

  it('refuses unknown, inactive, expired and used-up codes with a message naming promotion codes', async () => {
    await promo('OFFCODE', 'percentage', 10, { isActive: false })
    await promo('OLDCODE', 'percentage', 10, { validUntil: Date.now() - DAY_MS })
    await promo('GONE', 'percentage', 10, { maxUses: 0 })
    for (const code of ['NOPE', 'OFFCODE', 'OLDCODE', 'GONE']) {
      const res = await guest({ plan: 'basic', promoCode: code, email: uniqueEmail('guest') })
      expect(res.status, code).toBe(400)
      const message = await messageOf(res)
      expect(message).toBe(BILLING_MESSAGES.promoInvalid)
      expect(message).toMatch(/promotion/i)
    }
  })

  it('never uses a code beyond its maximum, even when many subscribe at once', async () => {
    await promo('THREE', 'fixed_amount', 2, { maxUses: 3 })
    const results = await Promise.all(Array.from({ length: 10 }, () => guest({ plan: 'basic', promoCode: 'THREE', email: uniqueEmail('rush') })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(3)
    expect(results.filter((r) => r.status === 400)).toHaveLength(7)
    expect(await usedCount('THREE')).toBe(3)
  })
})

describe('guest subscriptions', () => {
  it('a free code gives a pending subscription that the registration of that address claims, once', async () => {
    await promo('FREE30', 'free_subscription', 30)
    const email = uniqueEmail('guest')
    const res = await guest({ plan: 'premium', promoCode: 'free30', email })
    const pending = (await res.json()) as SubscriptionResult
    expect(pending).toMatchObject({ status: 'pending', clientSecret: null, invoicePreview: { finalAmount: 0, trialDays: 30, promoCodeApplied: 'FREE30' } })

    // Someone else cannot take it.
    const other = await register({ email: uniqueEmail('thief') })
    const thief = await call('/api/auth/register', {
      body: { email: uniqueEmail('thief2'), password: 'correct horse battery', displayName: 'Thief', subscriptionId: pending.subscriptionId },
    })
    expect(((await thief.json()) as { user: { planTier: string } }).user.planTier).toBe('basic')
    void other

    const reg = await call('/api/auth/register', {
      body: { email, password: 'correct horse battery', displayName: 'Guest Owner', subscriptionId: pending.subscriptionId, planTier: 'enterprise' },
    })
    expect(reg.status).toBe(201)
    const { user } = (await reg.json()) as { user: { planTier: string; subscriptionStatus: string; hasActiveSubscription: boolean } }
    expect(user).toMatchObject({ planTier: 'premium', subscriptionStatus: 'trialing', hasActiveSubscription: true })
  })

  it('refuses an address that already has an account', async () => {
    const owner = await register()
    const res = await guest({ plan: 'basic', email: owner.email })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(BILLING_MESSAGES.guestEmailTaken)
  })
})

describe('cancelling, lapsing and the 402 gate', () => {
  it('cancels at period end; after it the vault answers 402 requiresPayment, the account page still answers', async () => {
    const owner = await register()
    const res = await call('/api/account/cancel-subscription', { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { subscription: AccountSubscription }).subscription.subscription!.cancel_at_period_end).toBe(true)
    expect((await call('/api/account/cancel-subscription', { method: 'POST', token: owner.token })).status).toBe(409)
    // Access continues until the period ends.
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)

    // The period ends (sessions last 30 days, so time is moved on the row rather than the clock).
    await endPeriod(owner.user.id)
    await runSweeps(env)
    const gated = await call('/api/vault/items', { token: owner.token })
    expect(gated.status).toBe(402)
    expect(await gated.json()).toEqual({ message: BILLING_MESSAGES.subscriptionRequired, requiresPayment: true })
    for (const path of ['/api/beneficiaries', '/api/policies', '/api/audit']) {
      expect((await call(path, { token: owner.token })).status, path).toBe(402)
    }
    // What could still fire stays in view, so the owner can stop it (test/worker/billing-lapsed.test.ts).
    for (const path of ['/api/triggers', '/api/trigger-engine/status']) {
      expect((await call(path, { token: owner.token })).status, path).toBe(200)
    }
    expect((await call('/api/account/subscription', { token: owner.token })).status).toBe(200)
    expect((await me(owner.token)).status).toBe(200)
    // Choosing a plan again restores access.
    expect((await call('/api/create-subscription', { token: owner.token, body: { plan: 'basic' } })).status).toBe(200)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)
  })

  it("a payment issue's grace keeps the vault usable; after it, 402", async () => {
    const owner = await register()
    await env.DB.prepare("update users set subscription_status = 'past_due', payment_grace_until = ? where id = ?").bind(Date.now() + 7 * DAY_MS, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)
    // New uploads wait for the payment; nothing else is refused.
    const upload = await call('/api/vault/uploads', { token: owner.token, body: { type: 'doc', plainSize: 10 } })
    expect(upload.status).toBe(402)
    expect(await upload.json()).toEqual({ message: VAULT_ITEM_MESSAGES.uploadsPausedForPayment })
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(Date.now() - 1000, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(402)
  })

  it('a subscription whose first payment never completed opens nothing: 402, as with no plan', async () => {
    const owner = await register()
    for (const status of ['incomplete', 'incomplete_expired', 'unpaid', 'canceled']) {
      await env.DB.prepare('update users set subscription_status = ? where id = ?').bind(status, owner.user.id).run()
      await mirrorAccount(owner.user.id)
      expect((await call('/api/vault/items', { token: owner.token })).status, status).toBe(402)
    }
    await env.DB.prepare("update users set subscription_status = 'active' where id = ?").bind(owner.user.id).run()
    await mirrorAccount(owner.user.id)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)
  })

  it('renews periods without billing; there is no card to change, nothing to pay, and no invoices', async () => {
    const owner = await register()
    const before = (await (await call('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription
    await endPeriod(owner.user.id)
    await runSweeps(env)
    const after = (await (await call('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription
    expect(after.subscription!.current_period_start).toBe(after.subscription!.current_period_end! - 30 * 86_400)
    expect(after.subscription!.current_period_end!).toBeGreaterThan(before.subscription!.current_period_start!)
    expect(after.hasActiveSubscription).toBe(true)
    expect(after).toMatchObject({ billingEnabled: false, paymentDue: null, canUpdatePaymentMethod: false, customer: null, invoices: [] })
    for (const path of ['/api/account/payment-method', '/api/account/pay-invoice']) {
      const res = await call(path, { method: 'POST', token: owner.token })
      expect(res.status).toBe(409)
      expect(await messageOf(res)).toBe(BILLING_MESSAGES.billingOff)
    }
    const page = await call('/api/account/invoices', { token: owner.token })
    expect(await page.json()).toEqual({ invoices: [], nextCursor: null, billingEnabled: false })
    expect((await call('/api/account/invoices?limit=0', { token: owner.token })).status).toBe(400)
    expect((await call('/api/account/invoices?after=cus_1', { token: owner.token })).status).toBe(400)
  })

  it('renews a period at its end, not before: a sweep a minute before the end renews nothing, one a second after it does', async () => {
    const owner = await register()
    const end = Date.now() + 60_000
    await env.DB.prepare('update users set subscription_period_start = ?, subscription_period_end = ? where id = ?').bind(end - 30 * DAY_MS, end, owner.user.id).run()
    await runSweeps(env, end - 60_000)
    expect(await env.DB.prepare('select subscription_period_end as e from users where id = ?').bind(owner.user.id).first<{ e: number }>()).toEqual({ e: end })
    await runSweeps(env, end + 1000)
    expect(await env.DB.prepare('select subscription_period_end as e from users where id = ?').bind(owner.user.id).first<{ e: number }>()).toEqual({ e: end + 30 * DAY_MS })
  })

  it('an owner who is cancelling may choose the same plan again: the cancellation is undone, not refused as already subscribed', async () => {
    const owner = await register()
    const plan = ((await (await call('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription).planTier
    expect((await call('/api/account/cancel-subscription', { method: 'POST', token: owner.token })).status).toBe(200)
    const again = await call('/api/create-subscription', { token: owner.token, body: { plan } })
    expect(again.status).toBe(200)
    const view = (await (await call('/api/account/subscription', { token: owner.token })).json()) as AccountSubscription
    expect(view.subscription!.cancel_at_period_end).toBe(false)
  })

  it('an administrator has no subscription to cancel: 409, and nothing is written', async () => {
    const admin = await register()
    await env.DB.prepare(`update users set role = 'admin' where id = ?`).bind(admin.user.id).run()
    await mirrorAccount(admin.user.id)
    const res = await call('/api/account/cancel-subscription', { method: 'POST', token: admin.token })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(BILLING_MESSAGES.noSubscription)
    expect(await env.DB.prepare('select cancel_at_period_end as c from users where id = ?').bind(admin.user.id).first()).toEqual({ c: 0 })
  })

  it('no request sets a price: the one-off payment of a client-chosen amount is gone, and a plan costs what the catalogue says', async () => {
    const owner = await register()
    const pay = await call('/api/create-payment-intent', { token: owner.token, body: { amount: 29.99, description: 'Premium Plan' } })
    expect(pay.status).toBe(404)
    const res = await call('/api/create-subscription', { token: owner.token, body: { plan: 'premium', amount: 1, price: 1, finalAmount: 0, priceId: 'price_free' } })
    expect(res.status).toBe(200)
    const result = (await res.json()) as { invoicePreview: { baseAmount: number; finalAmount: number } }
    expect(result.invoicePreview).toMatchObject({ baseAmount: 2999, finalAmount: 2999 })
  })

  it("assets already released stay downloadable after the owner's subscription lapses", async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    const token = await portalToken(s.beneficiary.email)
    await env.DB.prepare("update users set subscription_status = 'canceled' where id = ?").bind(s.ownerId).run()
    await mirrorAccount(s.ownerId)
    expect((await call('/api/vault/items', { token: s.token })).status).toBe(402)
    const list = await call(`/api/beneficiaries/${s.beneficiary.id}/assets?token=${encodeURIComponent(token)}`)
    const [asset] = (await list.json()) as Array<{ id: string }>
    const download = await call(`/api/beneficiaries/${s.beneficiary.id}/assets/${asset!.id}/download?token=${encodeURIComponent(token)}`)
    expect(download.status).toBe(200)
  })
})
