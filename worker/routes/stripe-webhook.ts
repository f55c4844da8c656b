import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import Stripe from 'stripe'
import { BILLING_MESSAGES } from '../../contract/billing'
import { GENERIC_ERRORS } from '../../contract/messages'
import { applyStripeEvent } from '../billing/stripe-events'
import { stripeClient, stripeSettings } from '../billing/stripe'
import { stripeEvents } from '../db/schema'
import { ApiError, badRequest, notFound } from '../lib/errors'
import type { AppEnv } from '../types'

// POST /api/stripe/webhook: Stripe's signed events (ARCHITECTURE §6). The signature covers the raw
// body, so it is read as text here, never parsed first. Only with Stripe configured.
const MAX_WEBHOOK_BYTES = 1024 * 1024

// Counts the bytes as they arrive, so a body without Content-Length is held to the limit too.
const webhookBodyLimit = bodyLimit({
  maxSize: MAX_WEBHOOK_BYTES,
  onError: () => {
    throw new ApiError(413, 'Webhook body too large')
  },
})

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
  // Each event once, however often Stripe delivers it: the id is recorded before it is applied.
  const fresh = await db.insert(stripeEvents).values({ id: event.id, type: event.type, receivedAt: Date.now() }).onConflictDoNothing().returning()
  if (fresh.length === 0) return c.json({ received: true, duplicate: true })
  try {
    await applyStripeEvent(c.env, c.executionCtx, db, settings, event)
  } catch (error) {
    // Not applied: forget it, so Stripe's retry applies it.
    await db.delete(stripeEvents).where(eq(stripeEvents.id, event.id))
    throw error
  }
  return c.json({ received: true })
})
