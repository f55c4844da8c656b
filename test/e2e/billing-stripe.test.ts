import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboxMessage } from '../../contract/auth'
import type { AccountSubscription } from '../../contract/billing'
import { seriousViolations } from './axe'
import { closeContext, executeSql, firstLink, launch, newPage, outbox, registerOwner, safeRoute, toastText, uniqueEmail, waitForMail, mirrorAccount } from './browser'
import { DECLINE_MESSAGE, FakeStripe, PORTAL_CARD } from './fake-stripe'
import { freePort, startStripeServer, STRIPE_TEST_SETTINGS, type ProductServer } from './stripe-server'

// 0.2 · 7 of 7 "Payments a customer can fix alone": the past-due banner leads an owner whose
// renewal failed to the account page, where they pay with the card on file (declined), change the
// card in Stripe's portal and pay the open invoice; the banner and the payment issue are gone.
// Stripe's side is replaced at the network boundary: the product runs as `npm start` runs it, on
// a second server with Stripe configured (this file only), whose worker's Stripe SDK talks to a
// Stripe-shaped server in this process (fake-stripe.ts), which also sends Stripe's webhooks.

const DAY = 86_400
const PREMIUM = { id: STRIPE_TEST_SETTINGS.STRIPE_PRICE_PREMIUM, unitAmount: 2999 }
const FAILED_SUBJECT = /^Action needed: your subscription payment failed/
/** The e-mail that tells the owner their payment went through after a payment issue. */
const RECOVERED_SUBJECT = /^Payment received: your subscription is active again/
// The events a webhook endpoint of this product subscribes to.
const WEBHOOK_EVENTS = ['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'customer.updated', 'invoice.paid', 'invoice.payment_failed']

let browser: Browser
let fake: FakeStripe
let server: ProductServer

beforeAll(async () => {
  fake = new FakeStripe({ webhookEvents: WEBHOOK_EVENTS, prices: { price_basic: 1000, price_premium: 2999, price_enterprise: 9999 } })
  await fake.listen(await freePort())
  ;[server, browser] = await Promise.all([startStripeServer(fake.base), launch()])
  fake.setWebhook({ url: `${server.baseUrl}/api/stripe/webhook`, secret: STRIPE_TEST_SETTINGS.STRIPE_WEBHOOK_SECRET })
  console.log(`billing-stripe: the Stripe server answered after ${server.startMs} ms`)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await fake?.close()
})

interface Seeded {
  email: string
  customer: string
  subscription: string
  decliningCard: string
  openInvoice: string
  refundedInvoice: string
  invoiceCount: number
}

/**
 * What Stripe holds for an owner a year into Premium whose renewal was just declined: a customer
 * with a card that declines, the subscription (that card its default, as subscribing saves it), the
 * open renewal invoice after one failed attempt, and eleven paid invoices before it, one with a
 * partial refund. Our side: the owner's account on that subscription, active until the webhook.
 */
function seedStripeOwner(email: string, displayName: string): Seeded {
  const t = Math.floor(Date.now() / 1000)
  const periodStart = t - 2 * DAY
  const periodEnd = periodStart + 30 * DAY
  const customer = fake.addCustomer({ email, name: displayName, created: periodStart - 340 * DAY })
  const decliningCard = fake.addCard(customer, { brand: 'visa', last4: '0002', exp_month: 8, exp_year: 2030, declines: true }, { created: periodStart - 340 * DAY })
  const subscription = fake.addSubscription({
    customer,
    price: PREMIUM,
    status: 'past_due',
    periodStart,
    periodEnd,
    created: periodStart - 330 * DAY,
    defaultPaymentMethod: decliningCard,
  })
  // The card declined only lately: the earlier invoices were paid with it.
  const older = Array.from({ length: 11 }, (_, i) => periodStart - (11 - i) * 30 * DAY)
  const ids = older.map((created, i) =>
    fake.addInvoice({ subscription, amount: PREMIUM.unitAmount, created, paid: true, billingReason: i === 0 ? 'subscription_create' : 'subscription_cycle', paymentMethod: decliningCard }),
  )
  // A refund of $10.00 on the invoice two months back.
  const refundedInvoice = ids[9]!
  fake.refund(fake.chargesOf(refundedInvoice)[0]!.id, 1000, older[9]! + 3 * DAY)
  const openInvoice = fake.addInvoice({ subscription, amount: PREMIUM.unitAmount, created: periodStart, failedAttempts: 1 })

  executeSql(
    `update users set billing_provider = 'stripe', stripe_customer_id = '${customer}', stripe_subscription_id = '${subscription}',
       plan_tier = 'premium', subscription_status = 'active', subscription_period_start = ${periodStart * 1000},
       subscription_period_end = ${periodEnd * 1000}, cancel_at_period_end = 0, payment_grace_until = null, updated_at = ${Date.now()}
     where email = '${email}';
     insert into subscriptions (id, email, user_id, plan, status, created_at)
       select '${subscription}', null, id, 'premium', 'active', ${(periodStart - 330 * DAY) * 1000} from users where email = '${email}';`,
    server.stateDir,
  )
  return { email, customer, subscription, decliningCard, openInvoice, refundedInvoice, invoiceCount: ids.length + 1 }
}

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'))
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

const mailsTo = async (to: string, subject: RegExp): Promise<OutboxMessage[]> => (await outbox(server.baseUrl)).filter((m) => m.to === to && subject.test(m.subject))

/** Card numbers in a text: Luhn-valid runs of 13–19 digits (spaces or dashes between) that start like one. */
function cardNumbersIn(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/(?<!\d)[3-6](?:[ -]?\d){12,18}(?!\d)/g)) {
    const digits = match[0].replace(/\D/g, '')
    let sum = 0
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i])
      if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
      sum += d
    }
    if (sum % 10 === 0) found.push(match[0])
  }
  return found
}

/** Everything the browser sends (URL, and body), from the moment it is called. */
function recordRequests(context: BrowserContext): Array<{ url: string; body: string }> {
  const sent: Array<{ url: string; body: string }> = []
  context.on('request', (request) => sent.push({ url: request.url(), body: request.postData() ?? '' }))
  return sent
}

describe('billing with Stripe (Stripe replaced at the network boundary)', () => {
  it('the past-due banner leads to the account page, where the owner changes the card in the portal and pays', async () => {
    const email = uniqueEmail('past-due')
    const { context, page } = await newPage(browser, { baseURL: server.baseUrl })
    const sent = recordRequests(context)
    // Stripe's own scripts and API are never reached from here (no network in CI, and no card form).
    const stripeHosts: string[] = []
    await safeRoute(context, /^https:\/\/[a-z.]*stripe\.(com|network)\//, (route) => {
      stripeHosts.push(route.request().url())
      return route.abort()
    })
    await registerOwner(page, { email, password: 'a sound password 1', displayName: 'Pat Payer' })
    const seeded = seedStripeOwner(email, 'Pat Payer')
    await mirrorAccount(email, server.baseUrl)

    // Stripe's automatic renewal attempt failed: invoice.payment_failed, signed, to the webhook.
    const failedEvent = fake.event('invoice.payment_failed', fake.renderInvoice(fake.invoice(seeded.openInvoice)))
    expect(await fake.deliver(failedEvent)).toBe(200)
    const { user: pastDue } = await api<{ user: { subscriptionStatus: string | null; hasActiveSubscription: boolean } }>(page, '/api/auth/me')
    expect(pastDue).toMatchObject({ subscriptionStatus: 'past_due', hasActiveSubscription: true })
    const view = await api<AccountSubscription>(page, '/api/account/subscription')
    const graceUntil = Date.parse(view.paymentGraceUntil ?? '')
    expect(graceUntil - Date.now()).toBeGreaterThan(7 * DAY * 1000 - 120_000)
    expect(graceUntil - Date.now()).toBeLessThanOrEqual(7 * DAY * 1000)
    expect(view.paymentDue).toMatchObject({ invoiceId: seeded.openInvoice, amountDue: 2999, currency: 'usd', hostedInvoiceUrl: `${fake.base}/i/${seeded.openInvoice}` })
    expect(view.canUpdatePaymentMethod).toBe(true)
    const failedMail = await waitForMail(email, FAILED_SUBJECT, 10_000, server.baseUrl)
    expect(firstLink(failedMail.text, '/account')).toBe(`${server.baseUrl}/account`)

    // The banner, on the dashboard.
    await page.goto('/dashboard')
    const banner = page.getByTestId('payment-issue-banner')
    await banner.waitFor()
    expect(await banner.textContent()).toContain('Your last subscription payment did not go through.')
    await banner.getByRole('link', { name: 'Fix payment' }).click()
    await page.waitForURL((url) => url.pathname === '/account')

    // The payment issue: what is owed, until when the vault stays usable, and the ways to fix it.
    const issue = page.getByTestId('payment-issue')
    await issue.waitFor()
    expect(await issue.getByRole('heading', { name: 'Payment issue' }).count()).toBe(1)
    expect(await issue.getByTestId('amount-due').textContent()).toBe('$29.99')
    const graceDate = new Date(graceUntil).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })
    expect(await issue.getByTestId('grace-text').textContent()).toContain(`usable until ${graceDate}`)
    expect(await issue.getByRole('link', { name: /^Open invoice/ }).getAttribute('href')).toBe(`${fake.base}/i/${seeded.openInvoice}`)
    expect(await page.getByTestId('plan-status').textContent()).toBe('Payment due')
    // Not the banner here: the panel says it all.
    expect(await page.getByTestId('payment-issue-banner').count()).toBe(0)
    const pay = issue.getByRole('button', { name: 'Pay $29.99 now' })
    const update = issue.getByRole('button', { name: 'Update payment method' })
    await update.waitFor()
    const paymentMethod = page.getByText(/^Visa •••• \d{4}$/)
    expect(await paymentMethod.textContent()).toBe('Visa •••• 0002')
    expect(await seriousViolations(page, '/account (past due)')).toEqual([])

    // Paying with the card on file: the bank's refusal, said as Stripe says it.
    await pay.click()
    await expect.poll(() => toastText(page)).toContain('Payment Failed')
    expect(await toastText(page)).toContain(DECLINE_MESSAGE)
    expect(await issue.getByTestId('pay-failure').textContent()).toContain(DECLINE_MESSAGE)
    expect(fake.calls('POST', `/v1/invoices/${seeded.openInvoice}/pay`).map((r) => r.status)).toEqual([402])

    // Changing the card on Stripe's page, and back.
    await update.click()
    await page.waitForURL((url) => url.href.startsWith(`${fake.base}/p/session/`))
    await page.getByRole('heading', { name: 'Update your payment method' }).waitFor()
    await page.getByRole('button', { name: `Save Visa ending ${PORTAL_CARD.last4}` }).click()
    await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname === '/account' && url.searchParams.get('payment') === 'updated')
    const updated = page.getByTestId('payment-updated')
    await updated.waitFor()
    expect(await updated.textContent()).toContain('Your payment method was updated.')
    await expect.poll(() => paymentMethod.textContent()).toBe('Visa •••• 4242')
    expect(await page.getByText('Expires 12/2031').count()).toBe(1)

    const sessions = fake.calls('POST', '/v1/billing_portal/sessions')
    expect(sessions).toHaveLength(1)
    expect(sessions[0]!.body.customer).toBe(seeded.customer)
    const flow = sessions[0]!.body.flow_data as { type?: string; after_completion?: { redirect?: { return_url?: string } } } | undefined
    expect(flow?.after_completion?.redirect?.return_url ?? sessions[0]!.body.return_url).toBe(`${server.baseUrl}/account?payment=updated`)

    // Paying again: the new card is charged, and the panel goes.
    await pay.click()
    await expect.poll(() => toastText(page)).toContain('Payment Successful')
    await issue.waitFor({ state: 'detached' })
    await page.waitForURL((url) => url.pathname === '/account' && !url.searchParams.has('payment'))
    expect(await page.getByTestId('plan-status').textContent()).toBe('Active')
    const pays = fake.calls('POST', `/v1/invoices/${seeded.openInvoice}/pay`)
    expect(pays.map((r) => r.status)).toEqual([402, 200])
    const newCard = fake.customer(seeded.customer).defaultPaymentMethod!
    expect(newCard).not.toBe(seeded.decliningCard)
    // The new card paid: named in the call, or the subscription's default by then.
    expect(pays[1]!.body.payment_method ?? fake.subscription(seeded.subscription).defaultPaymentMethod).toBe(newCard)
    expect(fake.invoice(seeded.openInvoice).status).toBe('paid')
    expect(fake.chargesOf(seeded.openInvoice).map((c) => [c.paymentMethod, c.status])).toEqual([
      [seeded.decliningCard, 'failed'],
      [seeded.decliningCard, 'failed'],
      [newCard, 'succeeded'],
    ])

    // The history: the renewal paid, the refund under its invoice, and the older invoices a page further.
    const rows = page.getByTestId('invoice')
    await expect.poll(() => rows.count()).toBe(10)
    await expect.poll(() => rows.first().textContent()).toContain('Paid')
    expect(await rows.first().textContent()).toContain('$29.99')
    expect(await rows.first().getByRole('link', { name: /^Receipt/ }).count()).toBe(1)
    const refunded = rows.filter({ hasText: 'Refunded' })
    expect(await refunded.count()).toBe(1)
    expect(await refunded.textContent()).toContain('Refunded $10.00 on')
    expect(await refunded.textContent()).toContain(fake.invoice(seeded.refundedInvoice).number)
    await page.getByRole('button', { name: 'Show more invoices' }).click()
    await expect.poll(() => rows.count()).toBe(seeded.invoiceCount)
    expect(await page.getByRole('button', { name: 'Show more invoices' }).count()).toBe(0)
    expect(await rows.filter({ hasText: '· Due' }).count()).toBe(0)

    // And the banner is gone from the rest of the app.
    await fake.settled()
    await page.getByRole('link', { name: 'Back to Dashboard' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('navigation', { name: 'Main' }).first().waitFor()
    expect(await page.getByTestId('payment-issue-banner').count()).toBe(0)
    await page.reload()
    await page.getByRole('navigation', { name: 'Main' }).first().waitFor()
    expect(await page.getByTestId('payment-issue-banner').count()).toBe(0)
    const me = await api<{ user: { subscriptionStatus: string | null } }>(page, '/api/auth/me')
    expect(me.user.subscriptionStatus).toBe('active')

    // No card number ever left the browser, and it never reached for Stripe itself.
    const leaks = sent.flatMap((r) => cardNumbersIn(`${decodeURIComponent(r.url)} ${r.body}`).map((n) => `${r.url}: ${n}`))
    expect(leaks).toEqual([])
    expect(stripeHosts).toEqual([])
    expect(fake.pagePosts.flatMap((p) => cardNumbersIn(p.body))).toEqual([])

    // Stripe sending the failure again (the same event), or a late copy of it (a new event, the
    // invoice as it was then), changes nothing.
    expect(await fake.deliver(failedEvent)).toBe(200)
    const late = fake.event('invoice.payment_failed', (failedEvent.data as { object: Record<string, unknown> }).object)
    expect(await fake.deliver(late)).toBe(200)
    const after = await api<AccountSubscription>(page, '/api/account/subscription')
    expect(after.paymentGraceUntil).toBeNull()
    expect(after.paymentDue).toBeNull()
    expect((await api<{ user: { subscriptionStatus: string | null } }>(page, '/api/auth/me')).user.subscriptionStatus).toBe('active')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(await mailsTo(email, FAILED_SUBJECT)).toHaveLength(1)
    await waitForMail(email, RECOVERED_SUBJECT, 10_000, server.baseUrl)
    expect(await mailsTo(email, RECOVERED_SUBJECT)).toHaveLength(1)

    // Everything Stripe sent was taken; nothing was asked of Stripe that the fake does not know.
    await fake.settled()
    expect(fake.deliveries.filter((d) => d.status !== 200)).toEqual([])
    expect(fake.unhandled.map((r) => `${r.method} ${r.path} ${r.raw}`)).toEqual([])
    await closeContext(context)
  })
})

describe('changing plan and subscribing again with Stripe (0.3 · 6 of 7)', () => {
  it('/subscribe for another plan shows what changes and what is charged and changes only on Confirm; while a cancellation is pending it offers Keep my subscription, never a second subscription', async () => {
    const email = uniqueEmail('change-plan')
    const { context, page } = await newPage(browser, { baseURL: server.baseUrl })
    await safeRoute(context, /^https:\/\/[a-z.]*stripe\.(com|network)\//, (route) => route.abort())
    await registerOwner(page, { email, password: 'a sound password 1', displayName: 'Cam Changer' })
    const t = Math.floor(Date.now() / 1000)
    const periodStart = t - 10 * DAY
    const periodEnd = periodStart + 30 * DAY
    const customer = fake.addCustomer({ email, name: 'Cam Changer', created: periodStart })
    const card = fake.addCard(customer, PORTAL_CARD, { created: periodStart })
    const subscription = fake.addSubscription({ customer, price: PREMIUM, periodStart, periodEnd, defaultPaymentMethod: card })
    executeSql(
      `update users set billing_provider = 'stripe', stripe_customer_id = '${customer}', stripe_subscription_id = '${subscription}',
         plan_tier = 'premium', subscription_status = 'active', subscription_period_start = ${periodStart * 1000},
         subscription_period_end = ${periodEnd * 1000}, cancel_at_period_end = 0, updated_at = ${Date.now()}
       where email = '${email}';
       insert into subscriptions (id, email, user_id, plan, status, created_at)
         select '${subscription}', null, id, 'premium', 'active', ${periodStart * 1000} from users where email = '${email}';`,
      server.stateDir,
    )
    await mirrorAccount(email, server.baseUrl)
    const changes = () => fake.calls('POST', `/v1/subscriptions/${subscription}`)
    const created = () => fake.calls('POST', '/v1/subscriptions')

    // Loading the page (twice) changes nothing: it shows the change and its price.
    await page.goto('/subscribe?plan=enterprise')
    const change = page.getByTestId('plan-change')
    await change.waitFor()
    await page.reload()
    await change.waitFor()
    expect(await page.getByRole('heading', { name: 'Change to Enterprise' }).count()).toBe(1)
    const text = (await change.textContent()) ?? ''
    expect(text).toContain('Premium, $29.99/month')
    expect(text).toContain('Enterprise, $99.99/month')
    expect(text).toMatch(/Charged today\s*\$0\.00/)
    // Two thirds of the period left: $46.67 more for Enterprise over it, on the next invoice with its first full month.
    expect(text).toMatch(/Next invoice, on [^$]+\$146\.6\d/)
    expect(text).toMatch(/This includes \$46\.6\d for the new plan over the rest of the current period/)
    expect(changes()).toHaveLength(0)
    expect(fake.calls('POST', '/v1/invoices/create_preview').length).toBeGreaterThanOrEqual(2)
    expect((await api<{ user: { planTier: string } }>(page, '/api/auth/me')).user.planTier).toBe('premium')
    expect(await seriousViolations(page, '/subscribe (a change of plan)')).toEqual([])

    await page.getByRole('button', { name: 'Confirm change' }).click()
    await expect.poll(() => toastText(page)).toContain('Plan Changed')
    await page.waitForURL('**/dashboard')
    expect(changes()).toHaveLength(1)
    expect(changes()[0]!.body).toMatchObject({ items: [{ price: 'price_enterprise' }], proration_behavior: 'create_prorations' })
    await expect.poll(async () => (await api<{ user: { planTier: string } }>(page, '/api/auth/me')).user.planTier).toBe('enterprise')

    // Cancelled, then subscribing again: keep the same subscription instead.
    await page.goto('/account')
    await page.getByRole('button', { name: 'Cancel Subscription' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel Subscription' }).click()
    await page.getByTestId('cancel-notice').waitFor()
    await page.goto('/subscribe?plan=enterprise')
    await page.getByTestId('keep-subscription').waitFor()
    expect(await page.getByTestId('keep-subscription').textContent()).toContain('no second subscription is started')
    await page.getByRole('button', { name: 'Keep my subscription' }).click()
    await expect.poll(() => toastText(page)).toContain('Subscription Kept')
    await page.waitForURL('**/account')
    expect(changes().at(-1)!.body).toMatchObject({ cancel_at_period_end: 'false' })
    expect(created()).toHaveLength(0)
    expect((await api<AccountSubscription>(page, '/api/account/subscription')).subscription!.cancel_at_period_end).toBe(false)
    expect(fake.unhandled).toEqual([])
    await closeContext(context)
  }, 180_000)
})
