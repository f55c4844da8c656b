import { Hono } from 'hono'
import { BILLING_MESSAGES } from '../../contract/billing'
import { billingFor } from '../billing/provider'
import { requireUser } from '../middleware/auth'
import { audit } from '../services/audit'
import type { AppEnv } from '../types'

// The account's billing view (seeds 000 §3, §7). Open without an active subscription: it is how
// an owner whose plan lapsed sees why, and chooses again.
export const accountBillingRoutes = new Hono<AppEnv>()
  .get('/subscription', requireUser, async (c) => c.json(await billingFor(c.env).accountView(c.var.db, c.var.user)))
  .post('/cancel-subscription', requireUser, async (c) => {
    const { user, view } = await billingFor(c.env).cancel(c.var.db, c.var.user)
    await audit(c, 'account.subscription_cancelled', { periodEnd: user.subscriptionPeriodEnd })
    return c.json({ message: BILLING_MESSAGES.cancelled, subscription: view })
  })
