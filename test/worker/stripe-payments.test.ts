import { mirrorAccount } from '../../worker/owner/account'
import { beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_MESSAGES, type AdminAction } from '../../contract/admin'
import { BILLING_MESSAGES, type AccountSubscription, type InvoicePage, type PayInvoiceResult, type SubscriptionResult } from '../../contract/billing'
import { runSweeps } from '../../worker/cron'
import { emailDate } from '../../worker/mail/dates'
import { call, env, outboxFor, register } from './helpers'
import { activeOwner, card, DAY_MS, deliver, eventId, now, resetStripe, stripe, stripeAdmin, stripeCall, subscriptionObject, userRow } from './stripe-fake'
import { createTrigger, firingCount, guard, setClock } from './engine-helpers'

// Payments an owner fixes alone (0.2 · 7 of 7), with Stripe answered at the fetch boundary
// (stripe-fake.ts): the dunning e-mails under replayed and out-of-order webhooks, the card update,
// paying the open invoice, the paged history with its refunds, and an admin's extension.

beforeEach(resetStripe)

/** A renewal invoice of the owner's subscription, kept in the fake as Stripe keeps it. */
function renewal(o: { customerId: string; subscriptionId: string }, extra: Record<string, unknown> = {}) {
  const id = `in_${++stripe.seq}${crypto.randomUUID().slice(0, 8)}`
  const invoice: Record<string, unknown> = {
    id,
    object: 'invoice',
    number: `NB-${String(stripe.seq).padStart(4, '0')}`,
    customer: o.customerId,
    status: 'open',
    billing_reason: 'subscription_cycle',
    created: now(),
    amount_due: 2999,
    amount_paid: 0,
    amount_remaining: 2999,
    currency: 'usd',
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_1/test_${id}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_1/test_${id}/pdf`,
    parent: { type: 'subscription_details', subscription_details: { subscription: o.subscriptionId } },
    payments: { object: 'list', data: [{ object: 'invoice_payment', payment: { type: 'payment_intent', payment_intent: `pi_${id}` } }], has_more: false },
    ...extra,
  }
  stripe.invoices.push(invoice)
  return invoice
}

/** Stripe's event about the invoice as it is now (a copy: the event keeps its moment). */
const invoiceEvent = (type: 'invoice.payment_failed' | 'invoice.paid', invoice: Record<string, unknown>, created = now()) => ({
  id: eventId(),
  type,
  created,
  object: structuredClone(invoice),
})

const subjects = async (email: string) => (await outboxFor(email)).map((m) => m.subject)
const count = async (email: string, part: string) => (await subjects(email)).filter((s) => s.includes(part)).length
const FAILED = 'your subscription payment failed'
const REMINDER = 'days left to fix your subscription payment'
const ENDED = 'Your payment grace period has ended'
const RECOVERED = 'Payment received'

async function pastDueOwner() {
  const o = await activeOwner()
  const invoice = renewal(o)
  expect((await deliver(invoiceEvent('invoice.payment_failed', invoice))).status).toBe(200)
  return { ...o, invoice }
}

const account = async (token: string) => (await (await stripeCall('/api/account/subscription', { token })).json()) as AccountSubscription

describe('dunning e-mails, each once per invoice', () => {
  it('the failure e-mail says what happens and until when, once: a replayed event, another attempt and a retry after the grace send nothing more, and never restart the grace', async () => {
    const { owner, invoice } = await pastDueOwner()
    const row = (await userRow(owner.user.id))!
    expect(row.subscription_status).toBe('past_due')
    const grace = row.payment_grace_until!
    const [mail] = (await outboxFor(owner.email)).filter((m) => m.subject.includes(FAILED))
    expect(mail!.text).toContain('$29.99')
    expect(mail!.text).toContain(emailDate(grace, row.timezone))
    expect(mail!.text).toMatch(/held: they will not activate/)
    expect(mail!.text).toContain('http://localhost:8787/account')

    const event = invoiceEvent('invoice.payment_failed', invoice)
    expect((await deliver(event)).status).toBe(200)
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: true })
    expect((await deliver(invoiceEvent('invoice.payment_failed', invoice))).status).toBe(200)
    expect((await userRow(owner.user.id))!.payment_grace_until).toBe(grace)

    // The grace ran out; Stripe's next retry of the same invoice fails too: no second grace, no e-mail.
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(Date.now() - 1000, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    await env.DB.prepare('update payment_issues set grace_until = ? where invoice_id = ?').bind(Date.now() - 1000, invoice.id).run()
    expect((await deliver(invoiceEvent('invoice.payment_failed', invoice))).status).toBe(200)
    expect((await userRow(owner.user.id))!.payment_grace_until).toBeLessThan(Date.now())
    expect(await count(owner.email, FAILED)).toBe(1)
  })

  it('a new invoice failing after an earlier grace ended starts a new grace, and the owner is told', async () => {
    const { owner, customerId, subscriptionId, invoice } = await pastDueOwner()
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(Date.now() - 1000, owner.user.id).run()
    await env.DB.prepare('update payment_issues set grace_until = ? where invoice_id = ?').bind(Date.now() - 1000, invoice.id).run()
    expect((await deliver(invoiceEvent('invoice.payment_failed', renewal({ customerId, subscriptionId })))).status).toBe(200)
    expect((await userRow(owner.user.id))!.payment_grace_until).toBeGreaterThan(Date.now() + 6 * DAY_MS)
    expect(await count(owner.email, FAILED)).toBe(2)
    // The sweeps of the tests after this one count every owner's reminders: this grace is settled.
    await env.DB.prepare('update payment_issues set paid_at = ? where user_id = ?').bind(Date.now(), owner.user.id).run()
  })

  it("a new subscription's first invoice failing is no renewal failure: no grace, no e-mail", async () => {
    const o = await activeOwner()
    expect((await deliver(invoiceEvent('invoice.payment_failed', renewal(o, { billing_reason: 'subscription_create' })))).status).toBe(200)
    expect((await userRow(o.owner.user.id))!.payment_grace_until).toBeNull()
    expect(await count(o.owner.email, FAILED)).toBe(0)
  })

  it('recovery: the payment ends the issue with one e-mail, however often Stripe tells it; a failure delivered after it changes nothing', async () => {
    const { owner, invoice } = await pastDueOwner()
    const lateFailure = invoiceEvent('invoice.payment_failed', invoice, now() - 60)
    Object.assign(invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0, status_transitions: { paid_at: now() } })
    expect((await deliver(invoiceEvent('invoice.paid', invoice))).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await (await deliver(invoiceEvent('invoice.paid', invoice))).json()).toEqual({ received: true, duplicate: true })
    // An attempt's failure, sent before the payment but delivered after it.
    expect((await deliver(lateFailure)).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(owner.email, RECOVERED)).toBe(1)
    expect(await count(owner.email, FAILED)).toBe(1)
    const [mail] = (await outboxFor(owner.email)).filter((m) => m.subject.includes(RECOVERED))
    expect(mail!.text).toMatch(/back to their normal course/)
  })

  it('out of order from the start: a payment delivered before its failure leaves the owner active, with no e-mail at all', async () => {
    const o = await activeOwner()
    const invoice = renewal(o)
    const failure = invoiceEvent('invoice.payment_failed', invoice, now() - 60)
    Object.assign(invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', invoice))).status).toBe(200)
    expect((await deliver(failure)).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(o.owner.email, FAILED)).toBe(0)
    expect(await count(o.owner.email, RECOVERED)).toBe(0)
  })

  it('the reminder goes 3 days before the grace ends and the end-of-grace notice when it ends, each once, whatever the sweeps', async () => {
    const { owner } = await pastDueOwner()
    const row = (await userRow(owner.user.id))!
    const grace = row.payment_grace_until!
    // Sent mail leaves the outbox an hour after it went: each sweep's own count says what it sent.
    const sweep = async (at: number) => {
      const { paymentReminders, gracesEnded } = await runSweeps(env, at)
      return { paymentReminders, gracesEnded }
    }
    expect(await sweep(Date.now())).toEqual({ paymentReminders: 0, gracesEnded: 0 })
    expect(await sweep(grace - 3 * DAY_MS - 60_000)).toEqual({ paymentReminders: 0, gracesEnded: 0 })
    expect(await sweep(grace - 3 * DAY_MS + 60_000)).toEqual({ paymentReminders: 1, gracesEnded: 0 })
    expect(await sweep(grace - 3 * DAY_MS + 120_000)).toEqual({ paymentReminders: 0, gracesEnded: 0 })
    expect(await count(owner.email, REMINDER)).toBe(1)
    const [reminder] = (await outboxFor(owner.email)).filter((m) => m.subject.includes(REMINDER))
    expect(reminder!.text).toContain(emailDate(grace, row.timezone))
    expect(reminder!.text).toContain('http://localhost:8787/account')
    expect(await sweep(grace - DAY_MS)).toEqual({ paymentReminders: 0, gracesEnded: 0 })
    expect(await sweep(grace + 60_000)).toEqual({ paymentReminders: 0, gracesEnded: 1 })
    expect(await sweep(grace + 120_000)).toEqual({ paymentReminders: 0, gracesEnded: 0 })
    expect(await count(owner.email, ENDED)).toBe(1)
    const [ended] = (await outboxFor(owner.email)).filter((m) => m.subject.includes(ENDED))
    expect(ended!.text).toMatch(/resume their normal course/)
    expect(ended!.text).toMatch(/update your card and pay the open invoice/)
    expect(ended!.text).toContain('http://localhost:8787/account')
    expect(await sweep(grace + 10 * DAY_MS)).toEqual({ paymentReminders: 0, gracesEnded: 0 })
  })

  it('no reminder and no end-of-grace notice once the invoice is paid', async () => {
    const { owner, invoice } = await pastDueOwner()
    const grace = (await userRow(owner.user.id))!.payment_grace_until!
    Object.assign(invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', invoice))).status).toBe(200)
    expect(await env.DB.prepare('select paid_at from payment_issues where invoice_id = ?').bind(invoice.id).first()).toMatchObject({ paid_at: expect.any(Number) })
    for (const at of [grace - DAY_MS, grace + DAY_MS]) {
      await runSweeps(env, at)
      expect(await count(owner.email, REMINDER)).toBe(0)
      expect(await count(owner.email, ENDED)).toBe(0)
    }
  })

  it('paying an older invoice does not end the issue of a newer one still unpaid; paying that one does, with one recovery e-mail', async () => {
    const o = await activeOwner()
    const older = renewal(o, { created: now() - 40 * 86_400 })
    const newer = renewal(o)
    expect((await deliver(invoiceEvent('invoice.payment_failed', older))).status).toBe(200)
    expect((await deliver(invoiceEvent('invoice.payment_failed', newer))).status).toBe(200)
    const grace = (await userRow(o.owner.user.id))!.payment_grace_until
    Object.assign(older, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', older))).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'past_due', payment_grace_until: grace })
    expect(await count(o.owner.email, RECOVERED)).toBe(0)
    Object.assign(newer, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', newer))).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(o.owner.email, FAILED)).toBe(1)
    expect(await count(o.owner.email, RECOVERED)).toBe(1)
  })
})

describe("whose payment issue it is (rules of the third fresh pass)", () => {
  it("paying ends the owner's payment issue whatever other owners still owe: another owner's newer unpaid invoice does not keep this owner's grace", async () => {
    const a = await pastDueOwner()
    const b = await activeOwner()
    const bInvoice = renewal(b, { created: now() + 60 })
    expect((await deliver(invoiceEvent('invoice.payment_failed', bInvoice))).status).toBe(200)
    Object.assign(a.invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', a.invoice))).status).toBe(200)
    expect(await userRow(a.owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(a.owner.email, RECOVERED)).toBe(1)
    expect(await userRow(b.owner.user.id)).toMatchObject({ subscription_status: 'past_due' })
    await env.DB.prepare('update payment_issues set paid_at = ? where user_id = ?').bind(Date.now(), b.owner.user.id).run()
  })

  it("the recovery e-mail tells the owner of their own invoices only: another owner's paid invoice is neither added to it nor taken from its owner", async () => {
    const b = await activeOwner()
    const bOlder = renewal(b, { created: now() - 40 * 86_400 })
    const bNewer = renewal(b)
    expect((await deliver(invoiceEvent('invoice.payment_failed', bOlder))).status).toBe(200)
    expect((await deliver(invoiceEvent('invoice.payment_failed', bNewer))).status).toBe(200)
    Object.assign(bOlder, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    // Paid, but a newer one is still unpaid: B's issue goes on, and B is not told yet.
    expect((await deliver(invoiceEvent('invoice.paid', bOlder))).status).toBe(200)
    expect(await count(b.owner.email, RECOVERED)).toBe(0)

    const a = await pastDueOwner()
    Object.assign(a.invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', a.invoice))).status).toBe(200)
    const [aMail] = (await outboxFor(a.owner.email)).filter((m) => m.subject.includes(RECOVERED))
    expect(aMail!.text).toContain('$29.99')
    expect(aMail!.text).not.toContain('$59.98')

    Object.assign(bNewer, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', bNewer))).status).toBe(200)
    const [bMail] = (await outboxFor(b.owner.email)).filter((m) => m.subject.includes(RECOVERED))
    expect(bMail!.text).toContain('$59.98')
  })

  it("a failed invoice of a subscription that is not the owner's current one starts no payment grace and sends no e-mail", async () => {
    const o = await activeOwner()
    const abandoned = renewal({ customerId: o.customerId, subscriptionId: `sub_abandoned_${crypto.randomUUID().slice(0, 8)}` })
    expect((await deliver(invoiceEvent('invoice.payment_failed', abandoned))).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(o.owner.email, FAILED)).toBe(0)
  })
})

describe('whose dunning e-mail it is (each owner gets their own)', () => {
  it("two owners whose graces end at the same moment each get their reminder and their end-of-grace notice: one owner's e-mail never marks the other's invoice as told", async () => {
    const a = await pastDueOwner()
    const b = await pastDueOwner()
    const grace = (await userRow(a.owner.user.id))!.payment_grace_until!
    // Both failed within the same millisecond (two webhooks handled at once): one grace end.
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(grace, b.owner.user.id).run()
    await env.DB.prepare('update payment_issues set grace_until = ? where user_id = ?').bind(grace, b.owner.user.id).run()
    const reminders = await runSweeps(env, grace - 3 * DAY_MS + 60_000)
    expect(reminders.paymentReminders).toBeGreaterThanOrEqual(2)
    expect(await count(a.owner.email, REMINDER)).toBe(1)
    expect(await count(b.owner.email, REMINDER)).toBe(1)
    const ended = await runSweeps(env, grace + 60_000)
    expect(ended.gracesEnded).toBeGreaterThanOrEqual(2)
    expect(await count(a.owner.email, ENDED)).toBe(1)
    expect(await count(b.owner.email, ENDED)).toBe(1)
  })
})

describe('how long a payment issue is kept (past the time Stripe may send its events again)', () => {
  const KEEP_MS = 35 * DAY_MS
  const kept = async (invoiceId: string) => !!(await env.DB.prepare('select 1 as x from payment_issues where invoice_id = ?').bind(invoiceId).first())

  it("an unpaid invoice's issue is kept 35 days after its grace ended (Stripe resends for 30), then forgotten", async () => {
    const { owner, invoice } = await pastDueOwner()
    const grace = (await userRow(owner.user.id))!.payment_grace_until!
    await runSweeps(env, grace + KEEP_MS - DAY_MS)
    expect(await kept(invoice.id as string)).toBe(true)
    await runSweeps(env, grace + KEEP_MS + 60_000)
    expect(await kept(invoice.id as string)).toBe(false)
  })

  it("a paid invoice's issue is kept 35 days after the payment, even when it was paid long after its grace ended, then forgotten", async () => {
    const { owner, invoice } = await pastDueOwner()
    const grace = (await userRow(owner.user.id))!.payment_grace_until!
    Object.assign(invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', invoice))).status).toBe(200)
    // Paid 20 days after its grace ended.
    const paidAt = grace + 20 * DAY_MS
    await env.DB.prepare('update payment_issues set paid_at = ? where invoice_id = ?').bind(paidAt, invoice.id).run()
    await runSweeps(env, paidAt + DAY_MS)
    expect(await kept(invoice.id as string)).toBe(true)
    await runSweeps(env, grace + KEEP_MS + DAY_MS)
    expect(await kept(invoice.id as string)).toBe(true)
    await runSweeps(env, paidAt + KEEP_MS + 60_000)
    expect(await kept(invoice.id as string)).toBe(false)
  })
})

describe('paying when no grace is running', () => {
  it('once no grace is running, paying an old failed invoice tells the owner it was received, whatever newer invoice is still unpaid', async () => {
    const o = await activeOwner()
    const oldest = renewal(o, { created: now() - 60 * 86_400, amount_due: 1111, amount_remaining: 1111 })
    const older = renewal(o, { created: now() - 30 * 86_400 })
    const latest = renewal(o)
    expect((await deliver(invoiceEvent('invoice.payment_failed', oldest))).status).toBe(200)
    expect((await deliver(invoiceEvent('invoice.payment_failed', older))).status).toBe(200)
    // The newest invoice is paid: no unpaid invoice is newer, the issue is over, the grace gone.
    Object.assign(latest, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', latest))).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(o.owner.email, RECOVERED)).toBe(0)
    // Now the oldest is paid too (a newer one, `older`, is still unpaid): with no grace running, it is received.
    Object.assign(oldest, { status: 'paid', amount_paid: 1111, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', oldest))).status).toBe(200)
    const [mail] = (await outboxFor(o.owner.email)).filter((m) => m.subject.includes(RECOVERED))
    expect(mail?.text).toContain('$11.11')
    await env.DB.prepare('update payment_issues set paid_at = ? where invoice_id = ?').bind(Date.now(), older.id).run()
  })
})

describe("which subscription is the owner's (another one of the same customer never takes its place while it gives access)", () => {
  it("an event about another subscription of the same customer that gives no access (incomplete) leaves the owner on their current one", async () => {
    const o = await activeOwner()
    const other = subscriptionObject(`sub_other_${crypto.randomUUID().slice(0, 8)}`, o.customerId, 'price_basic', 'incomplete')
    expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: other })).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ stripe_subscription_id: o.subscriptionId, subscription_status: 'active', plan_tier: 'premium' })
  })

  it("a paid invoice of another subscription does not take the place of the owner's current one while that one gives access", async () => {
    const o = await activeOwner()
    const otherId = `sub_other_${crypto.randomUUID().slice(0, 8)}`
    const paid = renewal({ customerId: o.customerId, subscriptionId: otherId }, { status: 'paid', amount_paid: 999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', paid))).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ stripe_subscription_id: o.subscriptionId, subscription_status: 'active' })
  })

  it("a paid invoice of the owner's trialing subscription (the trial's own $0 invoice) leaves it trialing", async () => {
    const o = await activeOwner()
    const sub = stripe.subscriptions.get(o.subscriptionId)!
    sub.status = 'trialing'
    expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: sub })).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'trialing' })
    const trialInvoice = renewal(o, { billing_reason: 'subscription_create', status: 'paid', amount_due: 0, amount_paid: 0, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', trialInvoice))).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'trialing', stripe_subscription_id: o.subscriptionId })
  })

  it("a card changed on Stripe's portal after the subscription ended is not written to the ended subscription", async () => {
    const o = await activeOwner()
    const sub = stripe.subscriptions.get(o.subscriptionId)!
    sub.status = 'canceled'
    expect((await deliver({ id: eventId(), type: 'customer.subscription.deleted', object: sub })).status).toBe(200)
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'canceled' })
    const customer = { id: o.customerId, object: 'customer', invoice_settings: { default_payment_method: 'pm_new' } }
    expect((await deliver({ id: eventId(), type: 'customer.updated', object: customer, previous: { invoice_settings: { default_payment_method: 'pm_1' } } })).status).toBe(200)
    expect(stripe.updateRequests).toEqual([])
  })
})

describe('the payment that ends a grace lets the engine fire at once', () => {
  it('what came due while the grace held it fires as soon as the invoice is paid, not at the grace’s old end', async () => {
    const { owner, invoice } = await pastDueOwner()
    const ownerId = owner.user.id
    await createTrigger(owner.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
    await setClock(ownerId, { lastCheckInAt: Date.now() - 60 * DAY_MS, phase: 'expired', checkInSentAt: Date.now() - 50 * DAY_MS })
    await guard(ownerId).tick()
    expect(await firingCount(ownerId)).toBe(0)
    Object.assign(invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0 })
    expect((await deliver(invoiceEvent('invoice.paid', invoice))).status).toBe(200)
    expect(await userRow(ownerId)).toMatchObject({ payment_grace_until: null })
    expect(await firingCount(ownerId)).toBe(1)
  })
})

describe('Stripe retries what failed (rules nobody listed)', () => {
  const paid = (invoice: Record<string, unknown>) =>
    Object.assign(invoice, { status: 'paid', amount_paid: 2999, amount_remaining: 0, status_transitions: { paid_at: now() } })
  const revenue = async () => (await env.DB.prepare('select coalesce(sum(amount_paid), 0) as total from revenue_days').first<{ total: number }>())!.total

  it('an invoice.paid whose handling failed is applied when Stripe retries it, once', async () => {
    const { owner, invoice } = await pastDueOwner()
    paid(invoice)
    const event = invoiceEvent('invoice.paid', invoice)
    const before = await revenue()
    // The database refuses the owner's update once (a failure in the middle of the handling).
    await env.DB.prepare(
      "create trigger fail_payment before update of payment_grace_until on users when new.payment_grace_until is null begin select raise(abort, 'unavailable'); end",
    ).run()
    try {
      expect((await deliver(event)).status).toBe(500)
    } finally {
      await env.DB.prepare('drop trigger fail_payment').run()
    }
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'past_due' })
    // Stripe retries the same event: it is applied, not taken for a duplicate, and counted once.
    expect(await (await deliver(event)).json()).toEqual({ received: true })
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await revenue()).toBe(before + 2999)
    expect(await count(owner.email, RECOVERED)).toBe(1)
    expect(await (await deliver(event)).json()).toEqual({ received: true, duplicate: true })
  })

  it('the recovery e-mail goes once per issue, also after later invoices are paid', async () => {
    const o = await pastDueOwner()
    expect((await deliver(invoiceEvent('invoice.paid', paid(o.invoice)))).status).toBe(200)
    expect(await count(o.owner.email, RECOVERED)).toBe(1)
    // The next months' renewals are paid as usual: no issue of theirs, so no e-mail about the old one.
    for (let month = 0; month < 2; month++) {
      expect((await deliver(invoiceEvent('invoice.paid', paid(renewal(o))))).status).toBe(200)
    }
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(o.owner.email, RECOVERED)).toBe(1)
    // A second issue later has its own recovery e-mail, one.
    const next = renewal(o)
    expect((await deliver(invoiceEvent('invoice.payment_failed', next))).status).toBe(200)
    expect((await deliver(invoiceEvent('invoice.paid', paid(next)))).status).toBe(200)
    expect(await count(o.owner.email, FAILED)).toBe(2)
    expect(await count(o.owner.email, RECOVERED)).toBe(2)
  })
})

describe('fixing a payment from /account', () => {
  it('a past-due owner choosing a plan is led to the payment instead of a 409: nothing is created or changed at Stripe', async () => {
    const { owner, invoice } = await pastDueOwner()
    const created = stripe.subscriptionRequests.length
    const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'enterprise' } })
    expect(res.status).toBe(200)
    const result = (await res.json()) as SubscriptionResult
    expect(result).toMatchObject({ status: 'past_due', clientSecret: null, billingEnabled: true })
    expect(result.paymentDue).toMatchObject({ invoiceId: invoice.id, amountDue: 2999, currency: 'usd', hostedInvoiceUrl: invoice.hosted_invoice_url })
    expect(stripe.subscriptionRequests).toHaveLength(created)
    expect(stripe.updateRequests.filter((r) => r.body['items[0][price]'])).toEqual([])
  })

  it("the account shows what is due, until when, and that the card can be changed; the change is Stripe's portal for the owner's own customer, back to /account", async () => {
    const { owner, customerId, invoice } = await pastDueOwner()
    const view = await account(owner.token)
    expect(view.canUpdatePaymentMethod).toBe(true)
    expect(view.paymentGraceUntil).not.toBeNull()
    expect(view.paymentDue).toEqual({
      invoiceId: invoice.id,
      amountDue: 2999,
      currency: 'usd',
      hostedInvoiceUrl: invoice.hosted_invoice_url,
      graceUntil: view.paymentGraceUntil,
    })
    const res = await stripeCall('/api/account/payment-method', { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//)
    expect(stripe.portalRequests).toEqual([
      {
        customer: customerId,
        return_url: 'http://localhost:8787/account',
        'flow_data[type]': 'payment_method_update',
        'flow_data[after_completion][type]': 'redirect',
        'flow_data[after_completion][redirect][return_url]': 'http://localhost:8787/account?payment=updated',
      },
    ])
    // An owner with no Stripe customer yet has no card to change.
    const fresh = await register()
    const none = await stripeCall('/api/account/payment-method', { method: 'POST', token: fresh.token })
    expect(none.status).toBe(409)
    expect(await none.json()).toEqual({ message: BILLING_MESSAGES.noCustomer })
  })

  it('pays the open invoice with the new card: the card also becomes the subscription’s, the owner is active at once, recovered once, and the webhook after changes nothing', async () => {
    const { owner, customerId, subscriptionId, invoice } = await pastDueOwner()
    stripe.defaultCards.set(customerId, { id: 'pm_new', card: { ...card, last4: '1881', exp_year: 2031 } })
    const res = await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    const result = (await res.json()) as PayInvoiceResult
    expect(result.message).toBe(BILLING_MESSAGES.paid)
    expect(result.subscription.paymentDue).toBeNull()
    expect(result.subscription.paymentGraceUntil).toBeNull()
    expect(stripe.updateRequests).toContainEqual({ id: subscriptionId, body: { default_payment_method: 'pm_new' } })
    expect(stripe.payRequests).toEqual([{ id: invoice.id, body: { payment_method: 'pm_new' } }])
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    expect(await count(owner.email, RECOVERED)).toBe(1)
    const revenue = () => env.DB.prepare('select amount_paid from revenue_days where day = ?').bind(Math.floor(Date.now() / DAY_MS)).first<{ amount_paid: number }>()
    const before = (await revenue())!.amount_paid
    expect(await (await deliver(invoiceEvent('invoice.paid', invoice))).json()).toEqual({ received: true, duplicate: true })
    expect((await revenue())!.amount_paid).toBe(before)
    expect(await count(owner.email, RECOVERED)).toBe(1)
    // Nothing is due any more.
    const again = await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ message: BILLING_MESSAGES.noPaymentDue })
  })

  it('after the grace has run out the vault is closed (402), yet the owner can still see what is due and pay it, which reopens the vault', async () => {
    const { owner, invoice } = await pastDueOwner()
    await env.DB.prepare('update users set payment_grace_until = ? where id = ?').bind(Date.now() - 1000, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(402)
    expect((await account(owner.token)).paymentDue).toMatchObject({ invoiceId: invoice.id, amountDue: 2999, graceUntil: null })
    expect((await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })).status).toBe(200)
    expect((await stripeCall('/api/vault/items', { token: owner.token })).status).toBe(200)
  })

  it("a card changed on Stripe's portal becomes the subscription's for the renewals after (customer.updated), and the account shows it at once", async () => {
    const { owner, customerId, subscriptionId } = await activeOwner()
    // The subscription holds the card it started with (save_default_payment_method: on_subscription).
    stripe.subscriptions.get(subscriptionId)!.default_payment_method = { id: 'pm_1', object: 'payment_method', type: 'card', card }
    stripe.defaultCards.set(customerId, { id: 'pm_new', card: { ...card, last4: '1881', exp_year: 2031 } })
    expect((await account(owner.token)).customer?.default_source).toMatchObject({ last4: '1881', exp_year: 2031 })
    const customer = { id: customerId, object: 'customer', invoice_settings: { default_payment_method: 'pm_new' } }
    // Another change of the customer (its address, say) touches no subscription.
    expect((await deliver({ id: eventId(), type: 'customer.updated', object: customer, previous: { address: null } })).status).toBe(200)
    expect(stripe.updateRequests).toEqual([])
    expect((await deliver({ id: eventId(), type: 'customer.updated', object: customer, previous: { invoice_settings: { default_payment_method: 'pm_1' } } })).status).toBe(200)
    expect(stripe.updateRequests).toEqual([{ id: subscriptionId, body: { default_payment_method: 'pm_new' } }])
  })

  it('an older subscription event saying past due, delivered after the owner paid from /account, does not set them back', async () => {
    const { owner, customerId, subscriptionId, invoice } = await pastDueOwner()
    const before = { ...stripe.subscriptions.get(subscriptionId)!, status: 'past_due', latest_invoice: invoice.id }
    const stale = { id: eventId(), type: 'customer.subscription.updated', object: structuredClone(before) }
    expect((await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })).status).toBe(200)
    expect((await deliver(stale)).status).toBe(200)
    expect(await userRow(owner.user.id)).toMatchObject({ subscription_status: 'active', payment_grace_until: null })
    // A newer invoice still unpaid is another matter: past due stands.
    const next = renewal({ customerId, subscriptionId })
    expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: { ...before, latest_invoice: next.id } })).status).toBe(200)
    expect((await userRow(owner.user.id))!.subscription_status).toBe('past_due')
  })

  it("a declined card answers 400 with the bank's reason and changes nothing; a bank asking for authentication points to the invoice's page", async () => {
    const { owner } = await pastDueOwner()
    stripe.payOutcome = 'declined'
    const declined = await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })
    expect(declined.status).toBe(400)
    expect(await declined.json()).toEqual({ message: 'Your card was declined.' })
    expect((await userRow(owner.user.id))!.subscription_status).toBe('past_due')
    stripe.payOutcome = 'requires_action'
    const action = await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })
    expect(action.status).toBe(400)
    expect(await action.json()).toEqual({ message: BILLING_MESSAGES.authenticationRequired })
    expect((await userRow(owner.user.id))!.subscription_status).toBe('past_due')
    expect(await count(owner.email, RECOVERED)).toBe(0)
  })

  it('paying the open invoice says it was paid only when the charge went through: one the bank is still processing is pending, and the owner stays past due', async () => {
    const { owner, invoice } = await pastDueOwner()
    stripe.payOutcome = 'processing'
    const res = await stripeCall('/api/account/pay-invoice', { method: 'POST', token: owner.token })
    expect(res.status).toBe(200)
    expect(((await res.json()) as PayInvoiceResult).message).toBe(BILLING_MESSAGES.paymentPending)
    expect(stripe.payRequests.map((r) => r.id)).toEqual([invoice.id])
    expect((await userRow(owner.user.id))!.subscription_status).toBe('past_due')
    expect(await count(owner.email, RECOVERED)).toBe(0)
  })

  it("only the owner's own invoice is ever paid or listed: another owner has nothing due, and every Stripe query names their own customer", async () => {
    const a = await pastDueOwner()
    const b = await activeOwner()
    const res = await stripeCall('/api/account/pay-invoice', { method: 'POST', token: b.owner.token })
    expect(res.status).toBe(409)
    expect(stripe.payRequests).toEqual([])
    expect((await stripeCall('/api/account/invoices', { token: b.owner.token })).status).toBe(200)
    const page = (await (await stripeCall(`/api/account/invoices?after=${a.invoice.id}`, { token: b.owner.token })).json()) as InvoicePage
    expect(page.invoices).toEqual([])
    expect(stripe.invoiceQueries.length).toBeGreaterThan(0)
    expect(stripe.invoiceQueries.every((q) => q.customer === b.customerId)).toBe(true)
    expect((await userRow(a.owner.user.id))!.subscription_status).toBe('past_due')
  })
})

describe('billing history', () => {
  it('lists every invoice a page at a time, newest first, with its page, PDF, receipt and the refunds of its payment', async () => {
    const o = await activeOwner()
    const start = now() - 12 * 30 * 86_400
    const invoices = Array.from({ length: 12 }, (_, i) =>
      renewal(o, { created: start + i * 30 * 86_400, status: 'paid', amount_paid: 2999, amount_remaining: 0 }),
    )
    const refunded = invoices[9]!
    stripe.charges.push({
      id: 'ch_refunded',
      object: 'charge',
      customer: o.customerId,
      amount: 2999,
      amount_refunded: 1000,
      payment_intent: `pi_${refunded.id}`,
      receipt_url: 'https://pay.stripe.com/receipts/ch_refunded',
      created: Number(refunded.created),
      refunds: { object: 'list', data: [{ id: 're_1', object: 'refund', amount: 1000, created: Number(refunded.created) + 86_400, status: 'succeeded' }], has_more: false },
    })
    const first = (await (await stripeCall('/api/account/invoices?limit=10', { token: o.owner.token })).json()) as InvoicePage
    expect(first.invoices.map((inv) => inv.id)).toEqual(invoices.slice(2).reverse().map((inv) => inv.id))
    expect(first.nextCursor).toBe(invoices[2]!.id)
    expect(first.invoices[2]).toEqual({
      id: refunded.id,
      number: refunded.number,
      status: 'paid',
      created: refunded.created,
      amount_due: 2999,
      amount_paid: 2999,
      currency: 'usd',
      hosted_invoice_url: refunded.hosted_invoice_url,
      invoice_pdf: refunded.invoice_pdf,
      receipt_url: 'https://pay.stripe.com/receipts/ch_refunded',
      refunds: [{ id: 're_1', amount: 1000, created: Number(refunded.created) + 86_400, status: 'succeeded' }],
    })
    expect(first.invoices.filter((inv) => inv.refunds.length > 0)).toHaveLength(1)
    const second = (await (await stripeCall(`/api/account/invoices?after=${first.nextCursor}&limit=10`, { token: o.owner.token })).json()) as InvoicePage
    expect(second.invoices.map((inv) => inv.id)).toEqual([invoices[1]!.id, invoices[0]!.id])
    expect(second.nextCursor).toBeNull()
    expect(stripe.invoiceQueries[0]).toMatchObject({ customer: o.customerId, limit: '10', expand: ['data.payments'] })
  })

  it('refuses a cursor that is not an invoice, and a page size out of bounds, with a 400 and no call to Stripe', async () => {
    const o = await activeOwner()
    for (const query of ['after=cus_123', 'after=in_1%27%20or%201', 'limit=51', 'limit=0', 'limit=ten']) {
      const res = await stripeCall(`/api/account/invoices?${query}`, { token: o.owner.token })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toBeTruthy()
    }
    expect(stripe.invoiceQueries).toEqual([])
  })
})

describe('an administrator extends a Stripe subscription', () => {
  it("moves the trial end past the paid period, charging nothing; recorded in the admin trail; the owner's account shows the new date", async () => {
    const o = await activeOwner()
    const a = await stripeAdmin()
    const periodEnd = (await userRow(o.owner.user.id))!.subscription_period_end!
    const res = await stripeCall(`/api/admin/users/${o.owner.user.id}/extend`, { token: a.token, body: { days: 10 } })
    expect(res.status).toBe(200)
    const trialEnd = Math.floor((periodEnd + 10 * DAY_MS) / 1000)
    const extend = stripe.updateRequests.find((r) => r.body.trial_end)!
    expect(extend).toEqual({ id: o.subscriptionId, body: { trial_end: String(trialEnd), proration_behavior: 'none' } })
    expect(stripe.updateKeys.at(-1)).toBe(`extend-${o.subscriptionId}-${Math.floor(periodEnd / 1000)}-10`)
    expect(stripe.payRequests).toEqual([])
    expect(await userRow(o.owner.user.id)).toMatchObject({ subscription_status: 'trialing', subscription_period_end: trialEnd * 1000 })
    const view = await account(o.owner.token)
    expect(view.subscription).toMatchObject({ status: 'trialing', current_period_end: trialEnd })
    expect(view.hasActiveSubscription).toBe(true)
    const trail = (await (await call('/api/admin/actions', { token: a.token })).json()) as AdminAction[]
    expect(trail.find((x) => x.action === 'user.extend' && x.targetUserId === o.owner.user.id)?.details).toMatchObject({
      days: 10,
      provider: 'stripe',
      periodEnd: new Date(trialEnd * 1000).toISOString(),
    })
  })

  it('refuses a subscription with a payment due (409), sending Stripe nothing', async () => {
    const { owner, subscriptionId } = await pastDueOwner()
    stripe.subscriptions.get(subscriptionId)!.status = 'past_due'
    const a = await stripeAdmin()
    const res = await stripeCall(`/api/admin/users/${owner.user.id}/extend`, { token: a.token, body: { days: 10 } })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ message: ADMIN_MESSAGES.extendPaymentDue })
    expect(stripe.updateRequests.filter((r) => r.body.trial_end)).toEqual([])
  })
})
