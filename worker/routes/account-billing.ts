import { Hono } from 'hono'
import { BILLING_MESSAGES } from '../../contract/billing'
import { accountView, cancelAtPeriodEnd } from '../billing/subscriptions'
import { requireUser } from '../middleware/auth'
import { audit } from '../services/audit'
import type { AppEnv } from '../types'

// The account's billing view (seeds 000 §3, §7). Open without an active subscription: it is how
// an owner whose plan lapsed sees why, and chooses again.
export const accountBillingRoutes = new Hono<AppEnv>()
  .get('/subscription', requireUser, (c) => c.json(accountView(c.var.user)))
  .post('/cancel-subscription', requireUser, async (c) => {
    const user = await cancelAtPeriodEnd(c.var.db, c.var.user)
    await audit(c, 'account.subscription_cancelled', { periodEnd: user.subscriptionPeriodEnd })
    return c.json({ message: BILLING_MESSAGES.cancelled, subscription: accountView(user) })
  })
