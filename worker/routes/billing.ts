import { Hono } from 'hono'
import { type BillingConfig, guestSubscriptionBodySchema, subscriptionBodySchema } from '../../contract/billing'
import { billingFor } from '../billing/provider'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { jsonBodyLimit } from '../middleware/body-limit'
import { rateLimitByIp } from '../middleware/rate-limit'
import { auditOwner } from '../services/audit'
import type { AppEnv } from '../types'

// Subscribing (seeds 000 §7). Mounted at /api, so middleware is attached per route.
export const billingRoutes = new Hono<AppEnv>()
  // What the subscribe and checkout pages need to know before they start.
  .get('/billing/config', (c) => {
    const billing = billingFor(c.env)
    return c.json({ billingEnabled: billing.enabled, publishableKey: billing.publishableKey } satisfies BillingConfig)
  })
  .post('/create-subscription', requireUser, jsonBodyLimit, validate('json', subscriptionBodySchema), async (c) => {
    const result = await billingFor(c.env).subscribeOwner(c.var.db, (await userOf(c)), c.req.valid('json'))
    await auditOwner(c.env, c.var.account.id, 'account.subscribed', {
      plan: c.req.valid('json').plan,
      status: result.status,
      promo: result.invoicePreview.promoCodeApplied !== null,
    })
    return c.json(result)
  })
  .post(
    '/create-subscription-guest',
    rateLimitByIp('SIGNUP_LIMITER', 'subscribe-guest'),
    jsonBodyLimit,
    validate('json', guestSubscriptionBodySchema),
    async (c) => c.json(await billingFor(c.env).subscribeGuest(c.var.db, c.req.valid('json'))),
  )
