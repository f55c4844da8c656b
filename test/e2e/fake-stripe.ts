import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

// Stripe's side of the browser tests, at the network boundary: a Node HTTP server in the test
// process answering the REST API the worker's `stripe` SDK calls (STRIPE_API_BASE points the
// worker here, locally only), with an in-memory model of customers, cards, subscriptions,
// invoices, charges, refunds and billing-portal sessions. It also serves the pages Stripe hosts
// that the browser visits (the portal's card update, the hosted invoice, the receipt), and, like
// Stripe, sends the signed webhooks its changes cause to the product.
//
// Requests are form-encoded (`a[b][0]=v`, `expand[0]=x`), answers are Stripe-shaped JSON, errors
// are `{ error: { type, code, message } }` with Stripe's status codes. A request the model does
// not know (a route, a parameter, an expansion) answers Stripe's error AND is recorded in
// `unhandled`, which a test asserts is empty: a missing piece fails loudly, never silently.

export const API_VERSION = '2026-10-28.endive'

type Json = Record<string, unknown>

export interface RecordedRequest {
  method: string
  /** Path without the query string, e.g. `/v1/invoices/in_123/pay`. */
  path: string
  /** Query parameters (GET, DELETE), nested as Stripe reads them. */
  query: Json
  /** The form body (POST), nested as Stripe reads it. */
  body: Json
  /** The raw form body. */
  raw: string
  status: number
}

export interface WebhookDelivery {
  id: string
  type: string
  status: number | 'failed'
}

export interface Card {
  brand: string
  last4: string
  exp_month: number
  exp_year: number
  /** Every charge on this card is declined ('Your card was declined.'). */
  declines?: boolean
  /** Every off-session charge on this card needs the owner's confirmation at the bank (3-D Secure). */
  requiresAction?: boolean
}

/** The card the portal page saves (a working Visa). */
export const PORTAL_CARD: Card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 }

export const DECLINE_MESSAGE = 'Your card was declined.'

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'api_error',
    message: string,
    readonly extra: Json = {},
  ) {
    super(message)
  }
}

const missing = (kind: string, id: string, param?: string) =>
  new StripeError(param ? 400 : 404, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', ...(param ? { param } : {}) })

const now = () => Math.floor(Date.now() / 1000)

/** `a[b][0][c]=v` pairs as nested objects; index-keyed objects become arrays. */
export function parseForm(text: string): Json {
  const root: Json = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = key.replace(/\]/g, '').split('[')
    let node: Record<string, unknown> = root
    segments.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment
      if (i === segments.length - 1) node[name] = value
      else node = (node[name] ??= {}) as Record<string, unknown>
    })
  }
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const)
    if (entries.length > 0 && entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => v)
    return Object.fromEntries(entries)
  }
  return arrays(root) as Json
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter((v): v is Json => !!v && typeof v === 'object') : [])
const asArray = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [])

interface PaymentMethodRecord {
  id: string
  customer: string | null
  card: Card
  created: number
}

interface ChargeRecord {
  id: string
  customer: string
  amount: number
  currency: string
  paymentIntent: string
  paymentMethod: string
  status: 'succeeded' | 'failed'
  created: number
  refunds: string[]
}

interface InvoiceRecord {
  id: string
  number: string
  customer: string
  subscription: string | null
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible'
  billingReason: string
  amountDue: number
  amountPaid: number
  currency: string
  created: number
  periodStart: number
  periodEnd: number
  paidAt: number | null
  attemptCount: number
  paymentIntent: string | null
  description: string
}

interface SubscriptionRecord {
  id: string
  customer: string
  status: string
  price: { id: string; unitAmount: number; currency: string; interval: string }
  periodStart: number
  periodEnd: number
  created: number
  defaultPaymentMethod: string | null
  cancelAtPeriodEnd: boolean
  canceledAt: number | null
  trialEnd: number | null
  latestInvoice: string | null
  metadata: Json
}

interface CustomerRecord {
  id: string
  email: string | null
  name: string | null
  created: number
  defaultPaymentMethod: string | null
  metadata: Json
}

interface PortalSessionRecord {
  id: string
  customer: string
  returnUrl: string
  flow: Json | null
  created: number
  completed: boolean
}

interface RefundRecord {
  id: string
  charge: string
  amount: number
  created: number
  reason: string | null
  metadata: Json
}

type Handler = (match: RegExpMatchArray, req: { query: Json; body: Json }) => Json

/** Stripe's `created` filter: a time (epoch seconds), or `{ gt, gte, lt, lte }`. */
function createdMatches(filter: unknown, created: number): boolean {
  if (filter === undefined) return true
  if (typeof filter === 'string') return created === Number(filter)
  const f = filter as Record<string, string | undefined>
  for (const key of Object.keys(f)) {
    if (!['gt', 'gte', 'lt', 'lte'].includes(key)) throw new StripeError(400, 'invalid_request_error', `Received unknown parameter: created[${key}]`, { param: `created[${key}]`, unhandled: true })
  }
  return (
    (f.gt === undefined || created > Number(f.gt)) &&
    (f.gte === undefined || created >= Number(f.gte)) &&
    (f.lt === undefined || created < Number(f.lt)) &&
    (f.lte === undefined || created <= Number(f.lte))
  )
}

/** A list answer: newest first, `limit` (default 10), `starting_after` / `ending_before` by id. */
function listOf<T extends { id: string; created: number }>(all: T[], params: Json, url: string, render: (item: T) => Json): Json {
  const limit = Math.min(100, Math.max(1, Number(params.limit ?? 10)))
  // Stripe's order: newest first; among equals, the one made later first.
  const sorted = all.map((item, seq) => ({ item, seq })).sort((a, b) => b.item.created - a.item.created || b.seq - a.seq).map((x) => x.item)
  let start = 0
  let end = sorted.length
  const after = str(params.starting_after)
  const before = str(params.ending_before)
  if (after) {
    const at = sorted.findIndex((item) => item.id === after)
    if (at < 0) throw missing('object', after, 'starting_after')
    start = at + 1
  }
  if (before) {
    const at = sorted.findIndex((item) => item.id === before)
    if (at < 0) throw missing('object', before, 'ending_before')
    end = at
    start = Math.max(0, at - limit)
  }
  const page = sorted.slice(start, Math.min(end, start + limit))
  return { object: 'list', data: page.map(render), has_more: start + page.length < end, url }
}

export interface FakeStripeOptions {
  /** Where to send the webhooks Stripe would send (signed with `secret`); none when absent. */
  webhook?: { url: string; secret: string }
  /** The event types the webhook endpoint is subscribed to. */
  webhookEvents?: string[]
  /** Each price's amount (cents a month), for a change of a subscription's price and its preview. */
  prices?: Record<string, number>
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = []
  /** Requests the model does not know: a test asserts this stays empty. */
  readonly unhandled: RecordedRequest[] = []
  readonly deliveries: WebhookDelivery[] = []
  /** Everything the browser posted to the pages served here (form bodies), for the card-number check. */
  readonly pagePosts: Array<{ path: string; body: string }> = []

  private readonly customers = new Map<string, CustomerRecord>()
  private readonly paymentMethods = new Map<string, PaymentMethodRecord>()
  private readonly declining = new Set<string>()
  private readonly subscriptions = new Map<string, SubscriptionRecord>()
  private readonly invoices = new Map<string, InvoiceRecord>()
  private readonly charges = new Map<string, ChargeRecord>()
  private readonly refunds = new Map<string, RefundRecord>()
  private readonly sessions = new Map<string, PortalSessionRecord>()
  private readonly routes: Array<{ method: string; pattern: RegExp; handler: Handler }> = []
  private readonly pending = new Set<Promise<void>>()
  private lastDelivery: Promise<void> = Promise.resolve()
  private server: Server | undefined
  private invoiceSeq = 0
  base = ''

  constructor(private readonly options: FakeStripeOptions = {}) {
    this.defineRoutes()
  }

  // ---- lifecycle ----

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject)
      this.server!.listen(port, host, () => resolve())
    })
    this.base = `http://${host}:${(this.server.address() as AddressInfo).port}`
    return this.base
  }

  async close(): Promise<void> {
    await this.settled()
    if (!this.server) return
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server!.close(() => resolve()))
  }

  /** Resolves once every webhook sent so far has been answered. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }

  /** Sets (or changes) where webhooks go. */
  setWebhook(webhook: { url: string; secret: string }): void {
    this.options.webhook = webhook
  }

  // ---- seeding (what Stripe would already hold) ----

  id(prefix: string): string {
    return `${prefix}_${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`
  }

  addCustomer(p: { email?: string; name?: string; created?: number } = {}): string {
    const id = this.id('cus')
    this.customers.set(id, { id, email: p.email ?? null, name: p.name ?? null, created: p.created ?? now(), defaultPaymentMethod: null, metadata: {} })
    return id
  }

  /** A card attached to the customer (made their default unless `makeDefault: false`). */
  addCard(customer: string, card: Card, p: { makeDefault?: boolean; created?: number } = {}): string {
    const id = this.id('pm')
    this.paymentMethods.set(id, { id, customer, card, created: p.created ?? now() })
    if (card.declines) this.declining.add(id)
    if (p.makeDefault !== false) this.customer(customer).defaultPaymentMethod = id
    return id
  }

  addSubscription(p: {
    customer: string
    price: { id: string; unitAmount: number; currency?: string; interval?: string }
    status?: string
    periodStart: number
    periodEnd: number
    created?: number
    defaultPaymentMethod?: string | null
  }): string {
    const id = this.id('sub')
    this.subscriptions.set(id, {
      id,
      customer: p.customer,
      status: p.status ?? 'active',
      price: { currency: 'usd', interval: 'month', ...p.price },
      periodStart: p.periodStart,
      periodEnd: p.periodEnd,
      created: p.created ?? p.periodStart,
      defaultPaymentMethod: p.defaultPaymentMethod ?? null,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      trialEnd: null,
      latestInvoice: null,
      metadata: {},
    })
    return id
  }

  /**
   * An invoice of a subscription, finalized. `paid`: paid by a charge on `paymentMethod` (with
   * `refunded` cents refunded); otherwise open, with `failedAttempts` declined charges behind it.
   */
  addInvoice(p: {
    subscription: string
    amount: number
    created: number
    billingReason?: string
    paid?: boolean
    paymentMethod?: string
    refunded?: number
    failedAttempts?: number
  }): string {
    const sub = this.subscription(p.subscription)
    const id = this.id('in')
    const customer = this.customer(sub.customer)
    const invoice: InvoiceRecord = {
      id,
      number: `${customer.id.slice(4, 12).toUpperCase()}-${String(++this.invoiceSeq).padStart(4, '0')}`,
      customer: sub.customer,
      subscription: sub.id,
      status: 'open',
      billingReason: p.billingReason ?? 'subscription_cycle',
      amountDue: p.amount,
      amountPaid: 0,
      currency: sub.price.currency,
      created: p.created,
      periodStart: p.created,
      periodEnd: p.created + 30 * 86_400,
      paidAt: null,
      attemptCount: 0,
      paymentIntent: null,
      description: `${sub.price.id} × 1`,
    }
    this.invoices.set(id, invoice)
    if (!sub.latestInvoice || this.invoice(sub.latestInvoice).created <= p.created) sub.latestInvoice = id
    const method = p.paymentMethod ?? sub.defaultPaymentMethod ?? customer.defaultPaymentMethod
    for (let i = 0; i < (p.failedAttempts ?? 0); i++) this.charge(invoice, method!, 'failed', p.created + 60 * (i + 1))
    if (p.paid) {
      const charge = this.charge(invoice, method!, 'succeeded', p.created + 60)
      invoice.status = 'paid'
      invoice.amountPaid = p.amount
      invoice.paidAt = charge.created
      if (p.refunded) this.refund(charge.id, p.refunded, p.created + 86_400)
    }
    return id
  }

  refund(chargeId: string, amount: number, created = now(), reason: string | null = 'requested_by_customer', metadata: Json = {}): string {
    const charge = this.chargeRecord(chargeId)
    const id = this.id('re')
    this.refunds.set(id, { id, charge: chargeId, amount, created, reason, metadata })
    charge.refunds.push(id)
    return id
  }

  // ---- reading the model ----

  customer(id: string): CustomerRecord {
    const found = this.customers.get(id)
    if (!found) throw missing('customer', id)
    return found
  }

  subscription(id: string): SubscriptionRecord {
    const found = this.subscriptions.get(id)
    if (!found) throw missing('subscription', id)
    return found
  }

  invoice(id: string): InvoiceRecord {
    const found = this.invoices.get(id)
    if (!found) throw missing('invoice', id)
    return found
  }

  chargeRecord(id: string): ChargeRecord {
    const found = this.charges.get(id)
    if (!found) throw missing('charge', id)
    return found
  }

  paymentMethod(id: string): PaymentMethodRecord {
    const found = this.paymentMethods.get(id)
    if (!found) throw missing('payment_method', id)
    return found
  }

  /** Charges of an invoice, oldest first. */
  chargesOf(invoiceId: string): ChargeRecord[] {
    const invoice = this.invoice(invoiceId)
    return [...this.charges.values()].filter((c) => c.paymentIntent === invoice.paymentIntent)
  }

  /** Requests made to `method path` (the path as a string or pattern). */
  calls(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)))
  }

  // ---- Stripe's objects as the API shows them ----

  renderCustomer(c: CustomerRecord): Json {
    return {
      id: c.id,
      object: 'customer',
      address: null,
      balance: 0,
      created: c.created,
      currency: 'usd',
      default_source: null,
      delinquent: [...this.invoices.values()].some((i) => i.customer === c.id && i.status === 'open' && i.attemptCount > 0),
      description: null,
      email: c.email,
      invoice_prefix: c.id.slice(4, 12).toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: c.defaultPaymentMethod, footer: null, rendering_options: null },
      livemode: false,
      metadata: c.metadata,
      name: c.name,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    }
  }

  renderPaymentMethod(pm: PaymentMethodRecord): Json {
    const { declines: _declines, requiresAction: _requiresAction, ...card } = pm.card
    return {
      id: pm.id,
      object: 'payment_method',
      allow_redisplay: 'always',
      billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
      card: {
        ...card,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        display_brand: card.brand,
        funding: 'credit',
        generated_from: null,
        networks: { available: [card.brand], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: pm.created,
      customer: pm.customer,
      customer_account: null,
      livemode: false,
      metadata: {},
      type: 'card',
    }
  }

  renderSubscription(s: SubscriptionRecord): Json {
    const price = {
      id: s.price.id,
      object: 'price',
      active: true,
      billing_scheme: 'per_unit',
      created: s.created,
      currency: s.price.currency,
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product: `prod_${s.price.id}`,
      recurring: { interval: s.price.interval, interval_count: 1, meter: null, usage_type: 'licensed' },
      tax_behavior: 'unspecified',
      type: 'recurring',
      unit_amount: s.price.unitAmount,
      unit_amount_decimal: String(s.price.unitAmount),
    }
    return {
      id: s.id,
      object: 'subscription',
      billing_cycle_anchor: s.created,
      cancel_at: s.cancelAtPeriodEnd ? s.periodEnd : null,
      cancel_at_period_end: s.cancelAtPeriodEnd,
      canceled_at: s.canceledAt,
      collection_method: 'charge_automatically',
      created: s.created,
      currency: s.price.currency,
      customer: s.customer,
      default_payment_method: s.defaultPaymentMethod,
      default_source: null,
      description: null,
      discounts: [],
      ended_at: s.status === 'canceled' ? s.canceledAt : null,
      items: {
        object: 'list',
        data: [
          {
            id: `si_${s.id.slice(4)}`,
            object: 'subscription_item',
            created: s.created,
            current_period_start: s.periodStart,
            current_period_end: s.periodEnd,
            discounts: [],
            metadata: {},
            price,
            quantity: 1,
            subscription: s.id,
            tax_rates: [],
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${s.id}`,
      },
      latest_invoice: s.latestInvoice,
      livemode: false,
      metadata: s.metadata,
      pending_setup_intent: null,
      pending_update: null,
      start_date: s.created,
      status: s.status,
      test_clock: null,
      trial_end: s.trialEnd,
      trial_start: s.trialEnd ? s.periodStart : null,
    }
  }

  renderInvoice(i: InvoiceRecord): Json {
    const customer = this.customers.get(i.customer)
    return {
      id: i.id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Legacy Vault',
      amount_due: i.amountDue,
      amount_overpaid: 0,
      amount_paid: i.amountPaid,
      amount_remaining: i.amountDue - i.amountPaid,
      amount_shipping: 0,
      attempt_count: i.attemptCount,
      attempted: i.attemptCount > 0,
      auto_advance: i.status === 'open',
      billing_reason: i.billingReason,
      collection_method: 'charge_automatically',
      created: i.created,
      currency: i.currency,
      customer: i.customer,
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      default_payment_method: null,
      default_source: null,
      description: null,
      discounts: [],
      due_date: null,
      effective_at: i.created,
      hosted_invoice_url: `${this.base}/i/${i.id}`,
      invoice_pdf: `${this.base}/i/${i.id}/pdf`,
      lines: {
        object: 'list',
        data: [
          {
            id: `il_${i.id.slice(3)}`,
            object: 'line_item',
            amount: i.amountDue,
            currency: i.currency,
            description: i.description,
            period: { start: i.periodStart, end: i.periodEnd },
            quantity: 1,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${i.id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: i.status === 'open' && i.attemptCount > 0 ? i.created + 3 * 86_400 : null,
      number: i.number,
      parent: i.subscription
        ? { type: 'subscription_details', quote_details: null, subscription_details: { metadata: {}, subscription: i.subscription } }
        : null,
      period_end: i.periodEnd,
      period_start: i.periodStart,
      receipt_number: null,
      starting_balance: 0,
      status: i.status,
      status_transitions: {
        finalized_at: i.created,
        marked_uncollectible_at: null,
        paid_at: i.paidAt,
        voided_at: null,
      },
      subtotal: i.amountDue,
      total: i.amountDue,
      webhooks_delivered_at: i.created,
    }
  }

  /** The invoice's payments (its `payments` list, included only when expanded). */
  private invoicePayments(i: InvoiceRecord): Json {
    const data = i.paymentIntent
      ? [
          {
            id: `inpay_${i.id.slice(3)}`,
            object: 'invoice_payment',
            amount_paid: i.status === 'paid' ? i.amountPaid : null,
            amount_requested: i.amountDue,
            created: i.created,
            currency: i.currency,
            invoice: i.id,
            is_default: true,
            livemode: false,
            payment: { type: 'payment_intent', payment_intent: i.paymentIntent },
            status: i.status === 'paid' ? 'paid' : 'open',
            status_transitions: { canceled_at: null, paid_at: i.paidAt },
          },
        ]
      : []
    return { object: 'list', data, has_more: false, url: `/v1/invoice_payments?invoice=${i.id}` }
  }

  renderCharge(c: ChargeRecord): Json {
    const pm = this.paymentMethods.get(c.paymentMethod)
    const refunded = c.refunds.reduce((sum, id) => sum + this.refunds.get(id)!.amount, 0)
    const succeeded = c.status === 'succeeded'
    return {
      id: c.id,
      object: 'charge',
      amount: c.amount,
      amount_captured: succeeded ? c.amount : 0,
      amount_refunded: refunded,
      balance_transaction: succeeded ? `txn_${c.id.slice(3)}` : null,
      billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
      captured: succeeded,
      created: c.created,
      currency: c.currency,
      customer: c.customer,
      description: 'Subscription update',
      disputed: false,
      failure_code: succeeded ? null : 'card_declined',
      failure_message: succeeded ? null : DECLINE_MESSAGE,
      livemode: false,
      metadata: {},
      outcome: succeeded
        ? { network_status: 'approved_by_network', reason: null, risk_level: 'normal', seller_message: 'Payment complete.', type: 'authorized' }
        : { network_status: 'declined_by_network', reason: 'generic_decline', risk_level: 'normal', seller_message: 'The bank did not return any further details with this decline.', type: 'issuer_declined' },
      paid: succeeded,
      payment_intent: c.paymentIntent,
      payment_method: c.paymentMethod,
      payment_method_details: pm
        ? { type: 'card', card: { brand: pm.card.brand, last4: pm.card.last4, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year, country: 'US', funding: 'credit' } }
        : null,
      receipt_email: null,
      receipt_number: null,
      receipt_url: succeeded ? `${this.base}/r/${c.id}` : null,
      refunded: succeeded && refunded >= c.amount,
      review: null,
      status: c.status,
    }
  }

  renderRefund(r: RefundRecord): Json {
    const charge = this.charges.get(r.charge)!
    return {
      id: r.id,
      object: 'refund',
      amount: r.amount,
      balance_transaction: `txn_${r.id.slice(3)}`,
      charge: r.charge,
      created: r.created,
      currency: charge.currency,
      destination_details: { type: 'card', card: { type: 'refund', reference_status: 'available' } },
      metadata: r.metadata,
      payment_intent: charge.paymentIntent,
      reason: r.reason,
      receipt_number: null,
      status: 'succeeded',
    }
  }

  private renderPaymentIntent(id: string): Json {
    const charges = [...this.charges.values()].filter((c) => c.paymentIntent === id)
    const invoice = [...this.invoices.values()].find((i) => i.paymentIntent === id)
    const latest = charges.at(-1)
    return {
      id,
      object: 'payment_intent',
      amount: invoice?.amountDue ?? latest?.amount ?? 0,
      amount_received: charges.filter((c) => c.status === 'succeeded').reduce((sum, c) => sum + c.amount, 0),
      currency: invoice?.currency ?? 'usd',
      customer: invoice?.customer ?? latest?.customer ?? null,
      latest_charge: latest?.id ?? null,
      livemode: false,
      payment_method: latest?.paymentMethod ?? null,
      status: latest?.status === 'succeeded' ? 'succeeded' : 'requires_payment_method',
    }
  }

  private renderSession(s: PortalSessionRecord): Json {
    return {
      id: s.id,
      object: 'billing_portal.session',
      configuration: 'bpc_e2e_default',
      created: s.created,
      customer: s.customer,
      customer_account: null,
      flow: s.flow,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: s.returnUrl,
      url: `${this.base}/p/session/${s.id}`,
    }
  }

  /** Any object by its id, as the API shows it (for expansion). */
  private renderById(id: string): Json | undefined {
    const prefix = id.slice(0, id.indexOf('_'))
    switch (prefix) {
      case 'cus':
        return this.customers.has(id) ? this.renderCustomer(this.customers.get(id)!) : undefined
      case 'pm':
        return this.paymentMethods.has(id) ? this.renderPaymentMethod(this.paymentMethods.get(id)!) : undefined
      case 'sub':
        return this.subscriptions.has(id) ? this.renderSubscription(this.subscriptions.get(id)!) : undefined
      case 'in':
        return this.invoices.has(id) ? this.renderInvoice(this.invoices.get(id)!) : undefined
      case 'ch':
        return this.charges.has(id) ? this.renderCharge(this.charges.get(id)!) : undefined
      case 're':
        return this.refunds.has(id) ? this.renderRefund(this.refunds.get(id)!) : undefined
      case 'pi':
        return [...this.invoices.values()].some((i) => i.paymentIntent === id) ? this.renderPaymentIntent(id) : undefined
      default:
        return undefined
    }
  }

  /** Fields Stripe includes only when expanded (not ids: computed lists or secrets). */
  private includable(object: Json, field: string): unknown {
    if (object.object === 'invoice' && field === 'payments') return this.invoicePayments(this.invoice(String(object.id)))
    if (object.object === 'invoice' && field === 'confirmation_secret') {
      const i = this.invoice(String(object.id))
      return i.status === 'open' ? { type: 'payment_intent', client_secret: `${i.paymentIntent ?? `pi_${i.id.slice(3)}`}_secret_e2e` } : null
    }
    if (object.object === 'charge' && field === 'refunds') {
      const c = this.chargeRecord(String(object.id))
      const all = c.refunds.map((id) => this.refunds.get(id)!)
      return listOf(all, { limit: 100 }, `/v1/charges/${c.id}/refunds`, (r) => this.renderRefund(r))
    }
    return undefined
  }

  /** Stripe's `expand[]`: each dotted path replaces ids (or includable fields) with objects; `data.` walks a list. */
  private expand(value: Json, paths: string[]): Json {
    const walk = (node: unknown, segments: string[], path: string): unknown => {
      if (segments.length === 0 || node === null || node === undefined) return node
      const [head, ...rest] = segments as [string, ...string[]]
      if (typeof node !== 'object') throw new StripeError(400, 'invalid_request_error', `This property cannot be expanded (${path}).`)
      const obj = node as Json
      if (obj.object === 'list' && head === 'data') {
        obj.data = (obj.data as unknown[]).map((item) => walk(item, rest, path))
        return obj
      }
      let child = obj[head]
      if (child === undefined) child = this.includable(obj, head)
      if (child === undefined) throw new StripeError(400, 'invalid_request_error', `This property cannot be expanded (${path}).`, { param: 'expand' })
      if (typeof child === 'string') {
        const expanded = this.renderById(child)
        if (!expanded) throw new StripeError(400, 'invalid_request_error', `This property cannot be expanded (${path}).`, { param: 'expand' })
        child = expanded
      }
      obj[head] = walk(child, rest, path)
      return obj
    }
    for (const path of paths) walk(value, path.split('.'), path)
    return value
  }

  // ---- what Stripe does ----

  private price(id: string): { id: string; unitAmount: number } {
    const amount = this.options.prices?.[id]
    if (amount === undefined) throw new StripeError(400, 'invalid_request_error', `No such price: '${id}'`, { code: 'resource_missing', param: 'price' })
    return { id, unitAmount: amount }
  }

  /** A charge attempt for an invoice on a card (its PaymentIntent made on the first attempt). */
  private charge(invoice: InvoiceRecord, paymentMethod: string, status: 'succeeded' | 'failed', created = now()): ChargeRecord {
    invoice.paymentIntent ??= this.id('pi')
    invoice.attemptCount++
    const charge: ChargeRecord = {
      id: this.id('ch'),
      customer: invoice.customer,
      amount: invoice.amountDue - invoice.amountPaid,
      currency: invoice.currency,
      paymentIntent: invoice.paymentIntent,
      paymentMethod,
      status,
      created,
      refunds: [],
    }
    this.charges.set(charge.id, charge)
    return charge
  }

  /** Pays an open invoice now, as `POST /v1/invoices/:id/pay` does. Throws Stripe's card error on a declining card. */
  payInvoice(id: string, paymentMethod?: string): Json {
    const invoice = this.invoice(id)
    if (invoice.status === 'paid') throw new StripeError(400, 'invalid_request_error', 'Invoice is already paid', { code: 'invoice_already_paid' })
    if (invoice.status !== 'open') throw new StripeError(400, 'invalid_request_error', `You can only pay an invoice that is open; this invoice is ${invoice.status}.`, { code: 'invoice_not_open' })
    const sub = invoice.subscription ? this.subscriptions.get(invoice.subscription) : undefined
    const customer = this.customer(invoice.customer)
    // Stripe's order: the payment method given, the subscription's default, the customer's.
    const method = paymentMethod ?? sub?.defaultPaymentMethod ?? customer.defaultPaymentMethod
    if (!method) {
      throw new StripeError(400, 'invalid_request_error', 'This customer has no attached payment source or default payment method. Please consider adding a default payment method.', {
        code: 'invoice_no_customer_line_items',
      })
    }
    const pm = this.paymentMethods.get(method)
    if (!pm) throw missing('payment_method', method, 'payment_method')
    if (pm.customer !== invoice.customer) {
      throw new StripeError(400, 'invalid_request_error', `The PaymentMethod ${method} does not belong to the Customer ${invoice.customer}.`, { param: 'payment_method' })
    }
    if (pm.card.requiresAction) {
      invoice.paymentIntent ??= this.id('pi')
      invoice.attemptCount++
      this.emit('invoice.payment_action_required', this.renderInvoice(invoice))
      throw new StripeError(
        402,
        'card_error',
        'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice.',
        { code: 'invoice_payment_intent_requires_action', payment_intent: this.renderPaymentIntent(invoice.paymentIntent) },
      )
    }
    if (this.declining.has(method)) {
      const charge = this.charge(invoice, method, 'failed')
      this.emit('invoice.payment_failed', this.renderInvoice(invoice))
      throw new StripeError(402, 'card_error', DECLINE_MESSAGE, {
        code: 'card_declined',
        decline_code: 'generic_decline',
        charge: charge.id,
        payment_intent: this.renderPaymentIntent(invoice.paymentIntent!),
        doc_url: 'https://stripe.com/docs/error-codes/card-declined',
      })
    }
    const charge = this.charge(invoice, method, 'succeeded')
    invoice.status = 'paid'
    invoice.amountPaid = invoice.amountDue
    invoice.paidAt = charge.created
    this.emit('invoice.paid', this.renderInvoice(invoice))
    if (sub && sub.latestInvoice === invoice.id && (sub.status === 'past_due' || sub.status === 'unpaid')) {
      const before = sub.status
      sub.status = 'active'
      this.emit('customer.subscription.updated', this.renderSubscription(sub), { status: before })
    }
    return this.renderInvoice(invoice)
  }

  /** What the portal page's button does: a new working card, attached and made the customer's default. */
  completePortalSession(id: string): string {
    const session = this.sessions.get(id)
    if (!session) throw missing('billing_portal.session', id)
    const pm = this.addCard(session.customer, PORTAL_CARD)
    session.completed = true
    const customer = this.customer(session.customer)
    this.emit('customer.updated', this.renderCustomer(customer), { invoice_settings: { default_payment_method: null } })
    return pm
  }

  // ---- webhooks ----

  /** A Stripe event around an object. */
  event(type: string, object: Json, previous?: Json, created = now()): Json {
    return {
      id: this.id('evt'),
      object: 'event',
      api_version: API_VERSION,
      created,
      data: { object, ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }
  }

  /** The `Stripe-Signature` header for a payload: `t=…,v1=HMAC_SHA256(secret, t + '.' + payload)`. */
  static signature(payload: string, secret: string, t = now()): string {
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`
  }

  /** Sends one event to the webhook endpoint now, as Stripe does; its answer's status. */
  async deliver(event: Json, webhook = this.options.webhook): Promise<number> {
    if (!webhook) throw new Error('no webhook endpoint configured')
    const payload = JSON.stringify(event, null, 2)
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': FakeStripe.signature(payload, webhook.secret), 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
      body: payload,
    })
    await res.arrayBuffer()
    this.deliveries.push({ id: String(event.id), type: String(event.type), status: res.status })
    return res.status
  }

  /**
   * Sends an event after the current answer has gone (Stripe's webhooks are asynchronous), one at a
   * time in the order they happened: Stripe promises no order, but a test's run must be repeatable.
   */
  private emit(type: string, object: Json, previous?: Json): void {
    const webhook = this.options.webhook
    if (!webhook) return
    if (this.options.webhookEvents && !this.options.webhookEvents.includes(type)) return
    const event = this.event(type, object, previous)
    const before = this.lastDelivery
    const sending: Promise<void> = before
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, 20)))
      .then(() => this.deliver(event, webhook))
      .then(
        () => undefined,
        () => void this.deliveries.push({ id: String(event.id), type, status: 'failed' }),
      )
      .finally(() => this.pending.delete(sending))
    this.lastDelivery = sending
    this.pending.add(sending)
  }

  // ---- the REST API ----

  private route(method: string, path: string, handler: Handler): void {
    const pattern = new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`)
    this.routes.push({ method, pattern, handler })
  }

  /** Refuses a parameter the model does not read (Stripe refuses unknown ones too; here also the ones not modelled). */
  private only(params: Json, allowed: string[]): void {
    for (const key of Object.keys(params)) {
      if (!allowed.includes(key)) throw new StripeError(400, 'invalid_request_error', `Received unknown parameter: ${key}`, { param: key, unhandled: true })
    }
  }

  private defineRoutes(): void {
    const expandOf = (p: Json) => asArray(p.expand)
    const LIST = ['limit', 'starting_after', 'ending_before', 'expand', 'created']

    // Customers
    this.route('POST', '/v1/customers', (_m, { body }) => {
      this.only(body, ['email', 'name', 'metadata', 'expand'])
      const id = this.addCustomer({ email: str(body.email), name: str(body.name) })
      this.customer(id).metadata = (body.metadata as Json) ?? {}
      return this.expand(this.renderCustomer(this.customer(id)), expandOf(body))
    })
    this.route('GET', '/v1/customers/:id', (m, { query }) => {
      this.only(query, ['expand'])
      return this.expand(this.renderCustomer(this.customer(m[1]!)), expandOf(query))
    })
    this.route('POST', '/v1/customers/:id', (m, { body }) => {
      this.only(body, ['invoice_settings', 'email', 'name', 'metadata', 'expand'])
      const customer = this.customer(m[1]!)
      const settings = (body.invoice_settings ?? {}) as Json
      this.only(settings, ['default_payment_method'])
      if (settings.default_payment_method !== undefined) {
        const pmId = str(settings.default_payment_method) ?? null
        if (pmId && this.paymentMethod(pmId).customer !== customer.id) {
          throw new StripeError(400, 'invalid_request_error', `The PaymentMethod ${pmId} does not belong to the Customer ${customer.id}.`, { param: 'invoice_settings[default_payment_method]' })
        }
        customer.defaultPaymentMethod = pmId
      }
      if (body.email !== undefined) customer.email = str(body.email) ?? null
      if (body.name !== undefined) customer.name = str(body.name) ?? null
      return this.expand(this.renderCustomer(customer), expandOf(body))
    })

    // Payment methods
    const listMethods = (customerId: string | undefined, params: Json) => {
      if (!customerId) throw new StripeError(400, 'invalid_request_error', 'Missing required param: customer.', { param: 'customer' })
      this.customer(customerId)
      if (params.type !== undefined && params.type !== 'card') return { object: 'list', data: [], has_more: false, url: '/v1/payment_methods' }
      const all = [...this.paymentMethods.values()].filter((pm) => pm.customer === customerId && createdMatches(params.created, pm.created))
      return this.expand(listOf(all, params, '/v1/payment_methods', (pm) => this.renderPaymentMethod(pm)), expandOf(params))
    }
    this.route('GET', '/v1/payment_methods', (_m, { query }) => {
      this.only(query, [...LIST, 'customer', 'type'])
      return listMethods(str(query.customer), query)
    })
    this.route('GET', '/v1/customers/:id/payment_methods', (m, { query }) => {
      this.only(query, [...LIST, 'type', 'allow_redisplay'])
      return listMethods(m[1], query)
    })
    this.route('GET', '/v1/payment_methods/:id', (m, { query }) => {
      this.only(query, ['expand'])
      return this.expand(this.renderPaymentMethod(this.paymentMethod(m[1]!)), expandOf(query))
    })
    this.route('POST', '/v1/payment_methods/:id/attach', (m, { body }) => {
      this.only(body, ['customer', 'expand'])
      const pm = this.paymentMethod(m[1]!)
      pm.customer = this.customer(String(body.customer)).id
      return this.expand(this.renderPaymentMethod(pm), expandOf(body))
    })
    this.route('POST', '/v1/payment_methods/:id/detach', (m, { body }) => {
      this.only(body, ['expand'])
      const pm = this.paymentMethod(m[1]!)
      const owner = pm.customer ? this.customers.get(pm.customer) : undefined
      if (owner?.defaultPaymentMethod === pm.id) owner.defaultPaymentMethod = null
      pm.customer = null
      return this.renderPaymentMethod(pm)
    })

    // Subscriptions
    this.route('GET', '/v1/subscriptions', (_m, { query }) => {
      this.only(query, [...LIST, 'customer', 'status', 'price'])
      const all = [...this.subscriptions.values()].filter(
        (s) =>
          createdMatches(query.created, s.created) &&
          (!query.customer || s.customer === query.customer) &&
          (query.status === 'all' || (query.status ? s.status === query.status : s.status !== 'canceled' && s.status !== 'incomplete_expired')) &&
          (!query.price || s.price.id === query.price),
      )
      return this.expand(listOf(all, query, '/v1/subscriptions', (s) => this.renderSubscription(s)), expandOf(query))
    })
    this.route('GET', '/v1/subscriptions/:id', (m, { query }) => {
      this.only(query, ['expand'])
      return this.expand(this.renderSubscription(this.subscription(m[1]!)), expandOf(query))
    })
    this.route('POST', '/v1/subscriptions/:id', (m, { body }) => {
      this.only(body, ['default_payment_method', 'cancel_at_period_end', 'metadata', 'trial_end', 'proration_behavior', 'proration_date', 'items', 'expand'])
      const sub = this.subscription(m[1]!)
      const before: Json = {}
      if (body.items !== undefined) {
        // A new price on the one item: the period runs on; the prorations wait for the next invoice.
        const [item] = objects(body.items)
        if (!item || item.id !== `si_${sub.id.slice(4)}`) throw new StripeError(400, 'invalid_request_error', 'No such subscription item', { param: 'items' })
        const price = this.price(String(item.price))
        before.items = { data: [{ price: { id: sub.price.id } }] }
        sub.price = { ...sub.price, id: price.id, unitAmount: price.unitAmount }
      }
      if (body.default_payment_method !== undefined) {
        const pmId = str(body.default_payment_method) ?? null
        if (pmId && this.paymentMethod(pmId).customer !== sub.customer) {
          throw new StripeError(400, 'invalid_request_error', `The PaymentMethod ${pmId} does not belong to the Customer ${sub.customer}.`, { param: 'default_payment_method' })
        }
        before.default_payment_method = sub.defaultPaymentMethod
        sub.defaultPaymentMethod = pmId
      }
      if (body.cancel_at_period_end !== undefined) {
        before.cancel_at_period_end = sub.cancelAtPeriodEnd
        sub.cancelAtPeriodEnd = body.cancel_at_period_end === 'true'
      }
      if (body.trial_end !== undefined) {
        // A later trial end: nothing is charged until then (the period runs to it).
        const trialEnd = body.trial_end === 'now' ? now() : Number(body.trial_end)
        before.status = sub.status
        before.trial_end = sub.trialEnd
        sub.trialEnd = trialEnd
        sub.status = trialEnd > now() ? 'trialing' : 'active'
        sub.periodEnd = trialEnd
      }
      if (body.proration_behavior !== undefined && !['none', 'create_prorations', 'always_invoice'].includes(String(body.proration_behavior))) {
        throw new StripeError(400, 'invalid_request_error', `Invalid proration_behavior: ${String(body.proration_behavior)}`, { param: 'proration_behavior' })
      }
      if (body.metadata !== undefined) sub.metadata = { ...sub.metadata, ...(body.metadata as Json) }
      if (Object.keys(before).length > 0) this.emit('customer.subscription.updated', this.renderSubscription(sub), before)
      return this.expand(this.renderSubscription(sub), expandOf(body))
    })
    this.route('DELETE', '/v1/subscriptions/:id', (m, { query }) => {
      this.only(query, ['expand', 'invoice_now', 'prorate'])
      const sub = this.subscription(m[1]!)
      sub.status = 'canceled'
      sub.canceledAt = now()
      this.emit('customer.subscription.deleted', this.renderSubscription(sub))
      return this.expand(this.renderSubscription(sub), expandOf(query))
    })

    // Invoices
    this.route('GET', '/v1/invoices', (_m, { query }) => {
      this.only(query, [...LIST, 'customer', 'subscription', 'status', 'collection_method'])
      if (query.customer) this.customer(String(query.customer))
      const all = [...this.invoices.values()].filter(
        (i) =>
          (!query.customer || i.customer === query.customer) &&
          (!query.subscription || i.subscription === query.subscription) &&
          (!query.status || i.status === query.status) &&
          createdMatches(query.created, i.created),
      )
      return this.expand(listOf(all, query, '/v1/invoices', (i) => this.renderInvoice(i)), expandOf(query))
    })
    this.route('GET', '/v1/invoices/:id', (m, { query }) => {
      this.only(query, ['expand'])
      return this.expand(this.renderInvoice(this.invoice(m[1]!)), expandOf(query))
    })
    // The next invoice with a new price (proration_date's unused time credited, the new price's rest of the period charged).
    this.route('POST', '/v1/invoices/create_preview', (_m, { body }) => {
      this.only(body, ['customer', 'subscription', 'subscription_details', 'expand'])
      const sub = this.subscription(String(body.subscription))
      if (body.customer !== undefined && body.customer !== sub.customer) throw new StripeError(400, 'invalid_request_error', 'The subscription does not belong to the customer.')
      const details = (body.subscription_details ?? {}) as Json
      this.only(details, ['items', 'proration_behavior', 'proration_date'])
      const [item] = objects(details.items)
      const next = item?.price ? this.price(String(item.price)) : { id: sub.price.id, unitAmount: sub.price.unitAmount }
      const at = details.proration_date !== undefined ? Number(details.proration_date) : now()
      const left = Math.max(0, (sub.periodEnd - at) / (sub.periodEnd - sub.periodStart))
      const line = (amount: number, proration: boolean, description: string) => ({
        object: 'line_item',
        amount,
        currency: sub.price.currency,
        description,
        parent: { type: 'subscription_item_details', subscription_item_details: { proration, subscription: sub.id, subscription_item: `si_${sub.id.slice(4)}` } },
        period: { start: proration ? at : sub.periodEnd, end: proration ? sub.periodEnd : sub.periodEnd + 30 * 86_400 },
      })
      const changing = next.id !== sub.price.id && details.proration_behavior !== 'none'
      const lines = [
        ...(changing
          ? [line(-Math.round(sub.price.unitAmount * left), true, `Unused time on ${sub.price.id}`), line(Math.round(next.unitAmount * left), true, `Remaining time on ${next.id}`)]
          : []),
        line(next.unitAmount, false, `1 × ${next.id}`),
      ]
      const total = lines.reduce((sum, l) => sum + l.amount, 0)
      return this.expand(
        {
          id: null,
          object: 'invoice',
          customer: sub.customer,
          subscription: sub.id,
          currency: sub.price.currency,
          amount_due: Math.max(0, total),
          total,
          period_start: sub.periodStart,
          period_end: sub.periodEnd,
          next_payment_attempt: sub.periodEnd,
          lines: { object: 'list', data: lines, has_more: false, url: '/v1/invoices/upcoming/lines' },
        },
        asArray(body.expand),
      )
    })
    this.route('POST', '/v1/invoices/:id/pay', (m, { body }) => {
      this.only(body, ['payment_method', 'off_session', 'expand'])
      const paid = this.payInvoice(m[1]!, str(body.payment_method))
      return this.expand(paid, expandOf(body))
    })
    this.route('GET', '/v1/invoice_payments', (_m, { query }) => {
      this.only(query, [...LIST, 'invoice', 'status'])
      const invoice = this.invoice(String(query.invoice))
      return this.expand(this.invoicePayments(invoice), expandOf(query))
    })

    // Charges, refunds, payment intents
    this.route('GET', '/v1/charges', (_m, { query }) => {
      this.only(query, [...LIST, 'customer', 'payment_intent'])
      const all = [...this.charges.values()].filter(
        (c) =>
          (!query.customer || c.customer === query.customer) &&
          (!query.payment_intent || c.paymentIntent === query.payment_intent) &&
          createdMatches(query.created, c.created),
      )
      return this.expand(listOf(all, query, '/v1/charges', (c) => this.renderCharge(c)), expandOf(query))
    })
    this.route('GET', '/v1/charges/:id', (m, { query }) => {
      this.only(query, ['expand'])
      return this.expand(this.renderCharge(this.chargeRecord(m[1]!)), expandOf(query))
    })
    this.route('GET', '/v1/refunds', (_m, { query }) => {
      this.only(query, [...LIST, 'charge', 'payment_intent'])
      const all = [...this.refunds.values()].filter(
        (r) =>
          (!query.charge || r.charge === query.charge) &&
          (!query.payment_intent || this.charges.get(r.charge)?.paymentIntent === query.payment_intent) &&
          createdMatches(query.created, r.created),
      )
      return this.expand(listOf(all, query, '/v1/refunds', (r) => this.renderRefund(r)), expandOf(query))
    })
    this.route('POST', '/v1/refunds', (_m, { body }) => {
      this.only(body, ['charge', 'payment_intent', 'amount', 'reason', 'metadata', 'expand'])
      const charge =
        str(body.charge) !== undefined
          ? this.chargeRecord(String(body.charge))
          : [...this.charges.values()].find((c) => c.paymentIntent === body.payment_intent && c.status === 'succeeded')
      if (!charge) throw missing('payment_intent', String(body.payment_intent), 'payment_intent')
      const refunded = charge.refunds.reduce((sum, id) => sum + this.refunds.get(id)!.amount, 0)
      const amount = body.amount === undefined ? charge.amount - refunded : Number(body.amount)
      if (charge.status !== 'succeeded' || amount > charge.amount - refunded) {
        throw new StripeError(400, 'invalid_request_error', `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((charge.amount - refunded) / 100).toFixed(2)})`, { code: 'amount_too_large' })
      }
      const id = this.refund(charge.id, amount, now(), str(body.reason) ?? null, (body.metadata as Json) ?? {})
      return this.expand(this.renderRefund(this.refunds.get(id)!), expandOf(body))
    })
    this.route('GET', '/v1/payment_intents/:id', (m, { query }) => {
      this.only(query, ['expand'])
      const found = this.renderById(m[1]!)
      if (!found || found.object !== 'payment_intent') throw missing('payment_intent', m[1]!)
      return this.expand(found, expandOf(query))
    })

    // The customer portal
    this.route('POST', '/v1/billing_portal/sessions', (_m, { body }) => {
      this.only(body, ['customer', 'return_url', 'flow_data', 'configuration', 'locale', 'expand'])
      const customer = str(body.customer)
      if (!customer) throw new StripeError(400, 'invalid_request_error', 'Missing required param: customer.', { param: 'customer' })
      if (!this.customers.has(customer)) throw missing('customer', customer, 'customer')
      const flowData = body.flow_data as Json | undefined
      let flow: Json | null = null
      if (flowData) {
        if (flowData.type !== 'payment_method_update') {
          throw new StripeError(400, 'invalid_request_error', `Received unknown parameter: flow_data[type]=${String(flowData.type)}`, { param: 'flow_data[type]', unhandled: true })
        }
        this.only(flowData, ['type', 'after_completion'])
        const after = (flowData.after_completion ?? { type: 'portal_homepage' }) as Json
        const redirect = after.redirect as Json | undefined
        if (after.type === 'redirect' && !str(redirect?.return_url)) {
          throw new StripeError(400, 'invalid_request_error', 'Missing required param: flow_data[after_completion][redirect][return_url].', { param: 'flow_data[after_completion][redirect][return_url]' })
        }
        flow = {
          type: 'payment_method_update',
          after_completion: {
            type: after.type,
            hosted_confirmation: after.type === 'hosted_confirmation' ? { custom_message: null } : null,
            redirect: after.type === 'redirect' ? { return_url: redirect!.return_url } : null,
          },
          subscription_cancel: null,
          subscription_update: null,
          subscription_update_confirm: null,
        }
      }
      const returnUrl = str(body.return_url)
      if (!returnUrl && !flow) throw new StripeError(400, 'invalid_request_error', 'Missing required param: return_url.', { param: 'return_url' })
      const id = this.id('bps')
      const session: PortalSessionRecord = { id, customer, returnUrl: returnUrl ?? '', flow, created: now(), completed: false }
      this.sessions.set(id, session)
      return this.expand(this.renderSession(session), expandOf(body))
    })
  }

  // ---- HTTP ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake')
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const method = req.method ?? 'GET'
    if (!url.pathname.startsWith('/v1/')) return this.page(method, url, raw, res)

    const record: RecordedRequest = { method, path: url.pathname, query: parseForm(url.search.slice(1)), body: parseForm(raw), raw, status: 0 }
    this.requests.push(record)
    const send = (status: number, json: unknown) => {
      record.status = status
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}`, 'stripe-version': API_VERSION })
      res.end(JSON.stringify(json))
    }
    if (!/^Bearer sk_test_/.test(req.headers.authorization ?? '')) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } })
    }
    const route = this.routes.find((r) => r.method === method && r.pattern.test(url.pathname))
    if (!route) {
      this.unhandled.push(record)
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` } })
    }
    try {
      send(200, route.handler(url.pathname.match(route.pattern)!, { query: record.query, body: record.body }))
    } catch (error) {
      if (!(error instanceof StripeError)) {
        this.unhandled.push(record)
        send(500, { error: { type: 'api_error', message: `fake Stripe failed: ${String(error)}` } })
        return
      }
      const { unhandled, ...extra } = error.extra
      if (unhandled) this.unhandled.push(record)
      send(error.status, { error: { type: error.type, message: error.message, ...extra } })
    }
  }

  /** The pages Stripe hosts: the portal's card update, the hosted invoice and its PDF, a receipt. */
  private page(method: string, url: URL, raw: string, res: ServerResponse): void {
    const html = (status: number, title: string, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main>${body}</main></body></html>`)
    }
    const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
    const money = (cents: number) => `$${(cents / 100).toFixed(2)}`
    let match: RegExpMatchArray | null
    if (url.pathname === '/favicon.ico') {
      res.writeHead(404)
      return void res.end()
    }
    try {
      if ((match = url.pathname.match(/^\/p\/session\/([^/]+)$/))) {
        const session = this.sessions.get(match[1]!)
        if (!session) return html(404, 'Session expired', '<h1>This session has expired</h1>')
        if (method === 'POST') {
          this.pagePosts.push({ path: url.pathname, body: raw })
          this.completePortalSession(session.id)
          const after = (session.flow?.after_completion as Json | undefined)?.redirect as Json | undefined
          res.writeHead(303, { location: String(after?.return_url ?? session.returnUrl) })
          return void res.end()
        }
        const customer = this.customer(session.customer)
        const current = customer.defaultPaymentMethod ? this.paymentMethods.get(customer.defaultPaymentMethod)?.card : undefined
        return html(
          200,
          'Update your payment method',
          `<h1>Update your payment method</h1>
<p>Stand-in for Stripe's customer portal (browser tests), for ${escape(customer.email ?? customer.id)}.</p>
<p>Current card: ${current ? `${escape(current.brand)} ending ${escape(current.last4)}` : 'none'}</p>
<form method="post" action="${escape(url.pathname)}"><button type="submit">Save Visa ending ${PORTAL_CARD.last4}</button></form>
<p><a href="${escape(session.returnUrl)}">Return without changes</a></p>`,
        )
      }
      if ((match = url.pathname.match(/^\/i\/([^/]+)(\/pdf)?$/))) {
        const invoice = this.invoice(match[1]!)
        if (match[2]) {
          res.writeHead(200, { 'content-type': 'application/pdf' })
          return void res.end(`%PDF-1.4\n% invoice ${invoice.number}\n%%EOF\n`)
        }
        return html(200, `Invoice ${invoice.number}`, `<h1>Invoice ${escape(invoice.number)}</h1><p>${invoice.status === 'paid' ? 'Paid' : 'Amount due'} ${money(invoice.amountDue)}</p>`)
      }
      if ((match = url.pathname.match(/^\/r\/([^/]+)$/))) {
        const charge = this.chargeRecord(match[1]!)
        return html(200, 'Receipt', `<h1>Receipt</h1><p>Paid ${money(charge.amount)}</p>`)
      }
    } catch {
      return html(404, 'Not found', '<h1>Not found</h1>')
    }
    this.unhandled.push({ method, path: url.pathname, query: parseForm(url.search.slice(1)), body: parseForm(raw), raw, status: 404 })
    return html(404, 'Not found', '<h1>Not found</h1>')
  }
}
