import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import Stripe from 'stripe'
import { BILLING_MESSAGES } from '../../contract/billing'
import { GENERIC_ERRORS } from '../../contract/messages'
import { paidInvoiceKey } from '../billing/dunning'
import { applyStripeEvent, STRIPE_RESEND_MS, STRIPE_RETRY_MS } from '../billing/stripe-events'
import { stripeClient, stripeSettings } from '../billing/stripe'
import { stripeEvents } from '../db/schema'
import { badRequest, notFound } from '../lib/errors'
import { limitBody } from '../middleware/body-limit'
import type { AppEnv } from '../types'

// POST /api/stripe/webhook: Stripe's signed events (ARCHITECTURE §6). The signature covers the raw
// body, so it is read as text here, never parsed first. Only with Stripe configured.
const MAX_WEBHOOK_BYTES = 1024 * 1024

// Counts the bytes as they arrive, so a body without Content-Length is held to the limit too.
const webhookBodyLimit = limitBody(MAX_WEBHOOK_BYTES, 'Webhook body too large')

// Events whose effect adds up (revenue) or is sent (an e-mail), remembered for as long as Stripe
// can send them again; the others set state as Stripe saw it (and an older one is refused by its
// time, users.stripe_event_at), remembered for Stripe's automatic retries.
const ADDS_UP = new Set(['invoice.paid', 'invoice.payment_failed'])

/** What is applied once: the event, or for a paid invoice the invoice (paid once, whatever event tells it). */
function appliedKey(event: Stripe.Event): string {
  if (event.type === 'invoice.paid' && event.data.object.id) return paidInvoiceKey(event.data.object.id)
  return event.id
}

export const stripeWebhookRoutes = new Hono<AppEnv>().post('/webhook', webhookBodyLimit, async (c) => {
  const settings = stripeSettings(c.env)
  if (!settings) throw notFound(GENERIC_ERRORS.apiRouteNotFound)
  const body = await c.req.text()
  let event: Stripe.Event
  try {
    event = await stripeClient(settings).webhooks.constructEventAsync(
      body,
      c.req.header('stripe-signature') ?? '',
      settings.webhookSecret,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    )
  } catch {
    throw badRequest(BILLING_MESSAGES.webhookSignatureInvalid)
  }
  const db = c.var.db
  const now = Date.now()
  const once = ADDS_UP.has(event.type)
  // Older than Stripe sends an event again: it may have been applied and forgotten.
  if (once && event.created * 1000 < now - STRIPE_RESEND_MS) return c.json({ received: true, duplicate: true })
  // Each event once, however often Stripe delivers it: its key is recorded before it is applied.
  const keepUntil = Math.max(event.created * 1000, now) + (once ? STRIPE_RESEND_MS : STRIPE_RETRY_MS)
  const fresh = await db.insert(stripeEvents).values({ id: appliedKey(event), keepUntil }).onConflictDoNothing().returning()
  if (fresh.length === 0) return c.json({ received: true, duplicate: true })
  try {
    await applyStripeEvent(c.env, c.executionCtx, db, settings, event)
  } catch (error) {
    // Not applied: forget it, so Stripe's retry applies it.
    await db.delete(stripeEvents).where(eq(stripeEvents.id, appliedKey(event)))
    throw error
  }
  return c.json({ received: true })
})
