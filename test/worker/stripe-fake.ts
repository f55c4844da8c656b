import { mirrorAccount } from '../../worker/owner/account'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { http, HttpResponse } from 'msw'
import { expect } from 'vitest'
import type { SubscriptionResult } from '../../contract/billing'
import { app } from '../../worker/app'
import { env, freshIp, register } from './helpers'
import { network } from './network'
import { stripeEnv, stripeSignature, WEBHOOK_SECRET } from './stripe-env'

// A Stripe-shaped fake for the worker's billing tests: Stripe's HTTP API answered at the fetch
// boundary (msw) with objects shaped as Stripe sends them; the requests made with the app's
// Stripe settings go through the real SDK. Each test file calls resetStripe() before each test.

export const DAY_MS = 86_400_000
export const PRICES: Record<string, { plan: string; amount: number }> = {
  price_basic: { plan: 'basic', amount: 999 },
  price_premium: { plan: 'premium', amount: 2999 },
  price_enterprise: { plan: 'enterprise', amount: 9999 },
}

export interface Options {
  method?: string
  body?: unknown
  token?: string
  rawBody?: string
  headers?: Record<string, string>
}

/** A request to the app with Stripe configured. */
export async function stripeCall(path: string, options: Options = {}): Promise<Response> {
  const headers: Record<string, string> = { 'cf-connecting-ip': freshIp(), ...options.headers }
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`http://localhost${path}`, {
      method: options.method ?? (options.body !== undefined || options.rawBody !== undefined ? 'POST' : 'GET'),
      headers,
      body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
    }),
    stripeEnv,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

// ---- A Stripe-shaped fake: customers, coupons, subscriptions, invoices, payment methods ----

export interface FakeState {
  seq: number
  customers: Map<string, { id: string; email: string }>
  coupons: Array<Record<string, string>>
  subscriptions: Map<string, Record<string, unknown>>
  subscriptionRequests: Array<Record<string, string>>
  updateRequests: Array<{ id: string; body: Record<string, string> }>
  cancelled: string[]
  failSubscriptions: boolean
  /** A trial's subscription comes without a pending SetupIntent (Stripe collects no card). */
  noSetupIntent: boolean
  /** The status of the latest invoice a plan change answers with. */
  planChangeInvoice: 'paid' | 'open'
  /** Each customer's default payment method (the card the portal saves); 'pm_1' when not set. */
  defaultCards: Map<string, { id: string; card: typeof card }>
  /** Invoices as Stripe keeps them, newest last; while empty, the list answers a fixed history of 7. */
  invoices: Array<Record<string, unknown>>
  /** Charges with their refunds, for the billing history. */
  charges: Array<Record<string, unknown>>
  /** What paying an invoice does: succeed, decline the card, or ask for the bank's authentication. */
  /** processing: Stripe's answer while a bank debit is still on its way, the invoice still open. */
  payOutcome: 'paid' | 'declined' | 'requires_action' | 'processing'
  invoiceQueries: Array<Record<string, string | string[]>>
  payRequests: Array<{ id: string; body: Record<string, string> }>
  portalRequests: Array<Record<string, string>>
  updateKeys: Array<string | null>
  /** Previews of the next invoice (POST /v1/invoices/create_preview). */
  previewRequests: Array<Record<string, string>>
}
export const stripe = {} as FakeState

export const form = async (request: { text(): Promise<string> }) => Object.fromEntries(new URLSearchParams(await request.text()))
export const now = () => Math.floor(Date.now() / 1000)
/** The `expand` of a query, as the SDK writes it (`expand[0]=…`). */
const expandsOf = (query: URLSearchParams) => [...query.entries()].filter(([key]) => key.startsWith('expand[')).map(([, value]) => value)
export const card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 }

export function subscriptionObject(id: string, customer: string, price: string, status: string, extra: Record<string, unknown> = {}) {
  const start = now()
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: false,
    default_payment_method: null,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${id}`,
          object: 'subscription_item',
          current_period_start: start,
          current_period_end: start + 30 * 86_400,
          price: { id: price, object: 'price', unit_amount: PRICES[price]!.amount, currency: 'usd', recurring: { interval: 'month' } },
        },
      ],
    },
    ...extra,
  }
}

export function installStripe() {
  network.use(
    http.post('https://api.stripe.com/v1/customers', async ({ request }) => {
      const body = await form(request)
      const id = `cus_${++stripe.seq}${crypto.randomUUID().slice(0, 8)}`
      stripe.customers.set(id, { id, email: body.email! })
      return HttpResponse.json({ id, object: 'customer', email: body.email })
    }),
    http.get('https://api.stripe.com/v1/customers/:id', ({ params, request }) => {
      const pm = stripe.defaultCards.get(String(params.id)) ?? { id: 'pm_1', card }
      const expanded = expandsOf(new URL(request.url).searchParams).includes('invoice_settings.default_payment_method')
      return HttpResponse.json({
        id: params.id,
        object: 'customer',
        invoice_settings: { default_payment_method: expanded ? { id: pm.id, object: 'payment_method', type: 'card', card: pm.card } : pm.id },
      })
    }),
    http.post('https://api.stripe.com/v1/coupons', async ({ request }) => {
      const body = await form(request)
      stripe.coupons.push(body)
      return HttpResponse.json({ id: `co_${++stripe.seq}`, object: 'coupon', ...body })
    }),
    http.post('https://api.stripe.com/v1/subscriptions', async ({ request }) => {
      const body = await form(request)
      stripe.subscriptionRequests.push(body)
      if (stripe.failSubscriptions) {
        return HttpResponse.json({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } }, { status: 402 })
      }
      const id = `sub_${++stripe.seq}${crypto.randomUUID().slice(0, 8)}`
      const trial = body.trial_period_days !== undefined
      const expands = Object.entries(body).filter(([key]) => key.startsWith('expand[')).map(([, value]) => value)
      const setupIntent = trial && !stripe.noSetupIntent && expands.includes('pending_setup_intent')
      const sub = subscriptionObject(id, body.customer!, body['items[0][price]']!, trial ? 'trialing' : 'incomplete', {
        pending_setup_intent: setupIntent ? { id: `seti_${id}`, object: 'setup_intent', status: 'requires_payment_method', client_secret: `seti_${id}_secret_xyz` } : null,
        latest_invoice: {
          id: `in_${id}`,
          object: 'invoice',
          confirmation_secret: trial ? null : { type: 'payment_intent', client_secret: `pi_${id}_secret_abc` },
        },
      })
      stripe.subscriptions.set(id, sub)
      return HttpResponse.json(sub)
    }),
    http.get('https://api.stripe.com/v1/subscriptions/:id', ({ params }) => {
      const sub = stripe.subscriptions.get(String(params.id))
      return sub ? HttpResponse.json(sub) : HttpResponse.json({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }, { status: 404 })
    }),
    http.post('https://api.stripe.com/v1/subscriptions/:id', async ({ params, request }) => {
      const sub = stripe.subscriptions.get(String(params.id))!
      const body = await form(request)
      stripe.updateRequests.push({ id: String(params.id), body })
      stripe.updateKeys.push(request.headers.get('idempotency-key'))
      if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true'
      if (body.default_payment_method) sub.default_payment_method = body.default_payment_method
      if (body.trial_end) {
        // A trial end on a running subscription: Stripe charges nothing until then, and the period ends there.
        const item = (sub.items as { data: Array<Record<string, unknown>> }).data[0]!
        sub.trial_end = Number(body.trial_end)
        sub.status = 'trialing'
        item.current_period_end = Number(body.trial_end)
      }
      const price = body['items[0][price]']
      if (price) {
        const item = (sub.items as { data: Array<{ id: string; price: Record<string, unknown> }> }).data[0]!
        if (body['items[0][id]'] !== item.id) {
          return HttpResponse.json({ error: { type: 'invalid_request_error', message: 'No such subscription item' } }, { status: 400 })
        }
        item.price = { id: price, object: 'price', unit_amount: PRICES[price]!.amount, currency: 'usd', recurring: { interval: 'month' } }
        // The invoice before stays the latest (paid, its secret spent) unless Stripe asks for a payment.
        sub.latest_invoice = {
          id: `in_change_${stripe.updateRequests.length}`,
          object: 'invoice',
          status: stripe.planChangeInvoice,
          confirmation_secret: { type: 'payment_intent', client_secret: `pi_change_${params.id}_secret_def` },
        }
      }
      return HttpResponse.json(sub)
    }),
    http.delete('https://api.stripe.com/v1/subscriptions/:id', ({ params }) => {
      const sub = stripe.subscriptions.get(String(params.id))
      if (!sub) return HttpResponse.json({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }, { status: 404 })
      sub.status = 'canceled'
      stripe.cancelled.push(String(params.id))
      return HttpResponse.json(sub)
    }),
    http.get('https://api.stripe.com/v1/invoices', ({ request }) => {
      const query = new URL(request.url).searchParams
      const limit = Number(query.get('limit') ?? 10)
      if (stripe.invoices.length > 0) {
        stripe.invoiceQueries.push({ ...Object.fromEntries(query), expand: expandsOf(query) })
        const subOf = (inv: Record<string, unknown>) => (inv.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details?.subscription
        let list = [...stripe.invoices]
          .reverse()
          .filter((inv) => inv.customer === query.get('customer'))
          .filter((inv) => !query.get('subscription') || subOf(inv) === query.get('subscription'))
          .filter((inv) => !query.get('status') || inv.status === query.get('status'))
        const after = query.get('starting_after')
        if (after) list = list.slice(list.findIndex((inv) => inv.id === after) + 1)
        const expandPayments = expandsOf(query).includes('data.payments')
        const data = list.slice(0, limit).map((inv) => {
          const { payments, ...rest } = inv
          return expandPayments ? { ...rest, payments } : rest
        })
        return HttpResponse.json({ object: 'list', data, has_more: list.length > limit, url: '/v1/invoices' })
      }
      const data = Array.from({ length: 7 }, (_, i) => ({
        id: `in_${i}`,
        object: 'invoice',
        status: i === 0 ? 'open' : 'paid',
        created: now() - i * 30 * 86_400,
        amount_paid: i === 0 ? 0 : 2999,
        invoice_pdf: `https://pay.stripe.com/invoice/in_${i}/pdf`,
      })).slice(0, limit)
      return HttpResponse.json({ object: 'list', data, has_more: true, url: '/v1/invoices' })
    }),
    // The next invoice with a new price: the unused time of the old price credited, the new price's
    // rest of the period charged (both prorated to proration_date), then the new price's next period.
    http.post('https://api.stripe.com/v1/invoices/create_preview', async ({ request }) => {
      const body = await form(request)
      stripe.previewRequests.push(body)
      const sub = stripe.subscriptions.get(body.subscription!)
      if (!sub) return HttpResponse.json({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }, { status: 404 })
      const item = (sub.items as { data: Array<{ current_period_start: number; current_period_end: number; price: { id: string } }> }).data[0]!
      const newPrice = body['subscription_details[items][0][price]']!
      const at = Number(body['subscription_details[proration_date]'] ?? now())
      const left = (item.current_period_end - at) / (item.current_period_end - item.current_period_start)
      const line = (amount: number, proration: boolean) => ({
        object: 'line_item',
        amount,
        currency: 'usd',
        parent: { type: 'subscription_item_details', subscription_item_details: { proration, subscription_item: `si_${sub.id}` } },
      })
      const lines = [
        line(-Math.round(PRICES[item.price.id]!.amount * left), true),
        line(Math.round(PRICES[newPrice]!.amount * left), true),
        line(PRICES[newPrice]!.amount, false),
      ]
      const total = lines.reduce((sum, l) => sum + l.amount, 0)
      return HttpResponse.json({
        id: null,
        object: 'invoice',
        customer: sub.customer,
        currency: 'usd',
        amount_due: Math.max(0, total),
        total,
        period_end: item.current_period_end,
        next_payment_attempt: item.current_period_end,
        lines: { object: 'list', data: lines, has_more: false, url: '/v1/invoices/upcoming/lines' },
      })
    }),
    http.post('https://api.stripe.com/v1/invoices/:id/pay', async ({ params, request }) => {
      const body = await form(request)
      stripe.payRequests.push({ id: String(params.id), body })
      const invoice = stripe.invoices.find((inv) => inv.id === params.id)
      if (!invoice) return HttpResponse.json({ error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such invoice' } }, { status: 404 })
      if (invoice.status === 'paid') return HttpResponse.json({ error: { type: 'invalid_request_error', message: 'Invoice is already paid' } }, { status: 400 })
      if (stripe.payOutcome === 'declined') {
        return HttpResponse.json({ error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } }, { status: 402 })
      }
      if (stripe.payOutcome === 'requires_action') {
        return HttpResponse.json(
          { error: { type: 'card_error', code: 'invoice_payment_intent_requires_action', message: 'This payment requires additional user action before it can be completed successfully.' } },
          { status: 402 },
        )
      }
      if (stripe.payOutcome === 'processing') return HttpResponse.json(invoice)
      Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0, status_transitions: { paid_at: now() } })
      return HttpResponse.json(invoice)
    }),
    http.post('https://api.stripe.com/v1/billing_portal/sessions', async ({ request }) => {
      const body = await form(request)
      stripe.portalRequests.push(body)
      const id = `bps_${++stripe.seq}`
      return HttpResponse.json({ id, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url, url: `https://billing.stripe.com/p/session/test_${id}` })
    }),
    http.get('https://api.stripe.com/v1/charges', ({ request }) => {
      const query = new URL(request.url).searchParams
      const from = Number(query.get('created[gte]') ?? 0)
      const expandRefunds = expandsOf(query).includes('data.refunds')
      const data = stripe.charges
        .filter((ch) => ch.customer === query.get('customer') && Number(ch.created) >= from)
        .map((ch) => (expandRefunds ? ch : { ...ch, refunds: undefined }))
      return HttpResponse.json({ object: 'list', data, has_more: false, url: '/v1/charges' })
    }),
    http.get('https://api.stripe.com/v1/payment_methods', () =>
      HttpResponse.json({ object: 'list', data: [{ id: 'pm_1', object: 'payment_method', type: 'card', card }], has_more: false, url: '/v1/payment_methods' }),
    ),
  )
}

/** A fresh fake for a test: no customers, subscriptions or requests. */
export function resetStripe() {
  Object.assign(stripe, {
    seq: 0,
    customers: new Map(),
    coupons: [],
    subscriptions: new Map(),
    subscriptionRequests: [],
    updateRequests: [],
    cancelled: [],
    failSubscriptions: false,
    noSetupIntent: false,
    planChangeInvoice: 'paid',
    defaultCards: new Map(),
    invoices: [],
    charges: [],
    payOutcome: 'paid',
    invoiceQueries: [],
    payRequests: [],
    portalRequests: [],
    updateKeys: [],
    previewRequests: [],
  } satisfies FakeState)
  installStripe()
}

// ---- Helpers ----

export async function promo(code: string, type: string, value: number) {
  await env.DB.prepare(
    'insert into promo_codes (id, code, description, type, value, max_uses, used_count, valid_until, is_active, created_at) values (?, ?, ?, ?, ?, 100, 0, null, 1, ?)',
  )
    .bind(crypto.randomUUID(), code, 'test', type, value, Date.now())
    .run()
}
export const usedCount = async (code: string) =>
  (await env.DB.prepare('select used_count as n from promo_codes where code = ?').bind(code).first<{ n: number }>())!.n

export interface UserBilling {
  plan_tier: string
  subscription_status: string | null
  billing_provider: string
  stripe_customer_id: string | null
  stripe_subscription_id: string | null
  payment_grace_until: number | null
  cancel_at_period_end: number
  subscription_period_end: number | null
  stripe_event_at: number | null
  /** The owner's time zone: the dunning e-mails write their dates in it. */
  timezone: string
}
export const userRow = (id: string) => env.DB.prepare('select * from users where id = ?').bind(id).first<UserBilling>()

/** Delivers an event as Stripe does: `Stripe-Signature: t=…,v1=HMAC_SHA256(secret, t + '.' + body)`. */
export async function deliver(
  event: { id: string; type: string; object: Record<string, unknown>; created?: number; previous?: Record<string, unknown> },
  secret = WEBHOOK_SECRET,
): Promise<Response> {
  const created = event.created ?? now()
  const data = { object: event.object, ...(event.previous ? { previous_attributes: event.previous } : {}) }
  const payload = JSON.stringify({ id: event.id, object: 'event', type: event.type, api_version: '2026-10-28.endive', created, data })
  const t = now()
  return stripeCall('/api/stripe/webhook', {
    rawBody: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': await stripeSignature(payload, t, secret) },
  })
}

let eventSeq = 0
export const eventId = () => `evt_${++eventSeq}_${crypto.randomUUID().slice(0, 8)}`

/** An owner with a Stripe subscription on premium made active by its webhook. */
export async function activeOwner() {
  const owner = await register()
  const res = await stripeCall('/api/create-subscription', { token: owner.token, body: { plan: 'premium' } })
  const result = (await res.json()) as SubscriptionResult
  const sub = stripe.subscriptions.get(result.subscriptionId)!
  sub.status = 'active'
  expect((await deliver({ id: eventId(), type: 'customer.subscription.updated', object: sub })).status).toBe(200)
  return { owner, subscriptionId: result.subscriptionId, customerId: result.customerId! }
}

export function invoiceEvent(type: string, customerId: string, subscriptionId: string) {
  return {
    id: eventId(),
    type,
    object: {
      id: `in_${crypto.randomUUID().slice(0, 8)}`,
      object: 'invoice',
      customer: customerId,
      billing_reason: 'subscription_cycle',
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
    },
  }
}

/** An administrator (their requests go through stripeCall with their token). */
export async function stripeAdmin() {
  const a = await register()
  await env.DB.prepare(`update users set role = 'admin' where id = ?`).bind(a.user.id).run()
  await mirrorAccount(a.user.id)
  return a
}

export interface RefundRequest {
  body: Record<string, string>
  idempotencyKey: string | null
}

/** Stripe's charges of a customer and its refunds: what `refund` reads and creates. */
export function installRefunds(charges: Array<Record<string, unknown>>, refundStatus = 'succeeded') {
  const seen = { chargeQueries: [] as Array<Record<string, string>>, refunds: [] as RefundRequest[] }
  network.use(
    http.get('https://api.stripe.com/v1/charges', ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams)
      seen.chargeQueries.push(query)
      const data = charges.filter((ch) => ch.customer === query.customer)
      return HttpResponse.json({ object: 'list', data, has_more: false, url: '/v1/charges' })
    }),
    http.post('https://api.stripe.com/v1/refunds', async ({ request }) => {
      const body = await form(request)
      seen.refunds.push({ body, idempotencyKey: request.headers.get('idempotency-key') })
      return HttpResponse.json({
        id: `re_${++stripe.seq}`,
        object: 'refund',
        amount: Number(body.amount),
        charge: body.charge,
        currency: 'usd',
        status: refundStatus,
      })
    }),
  )
  return seen
}

export function charge(id: string, customer: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    object: 'charge',
    customer,
    amount,
    amount_refunded: 0,
    currency: 'usd',
    paid: true,
    status: 'succeeded',
    payment_intent: `pi_${id}`,
    created: now(),
    ...extra,
  }
}

