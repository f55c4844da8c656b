import { Hono } from 'hono'
import { BILLING_MESSAGES, invoicesQuerySchema, type InvoicePage, type PayInvoiceResult, type PaymentMethodSession } from '../../contract/billing'
import { billingFor } from '../billing/provider'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { enforceLimit } from '../middleware/rate-limit'
import { audit } from '../services/audit'
import type { AppEnv } from '../types'

// The account's billing view (seeds 000 §3, §7). Open without an active subscription: it is how
// an owner whose plan lapsed sees why, and chooses again; and how one whose payment failed fixes it.
export const accountBillingRoutes = new Hono<AppEnv>()
  .get('/subscription', requireUser, async (c) => c.json(await billingFor(c.env).accountView(c.var.db, (await userOf(c)))))
  .post('/cancel-subscription', requireUser, async (c) => {
    const { user, view } = await billingFor(c.env).cancel(c.var.db, (await userOf(c)))
    await audit(c, 'account.subscription_cancelled', { periodEnd: user.subscriptionPeriodEnd })
    return c.json({ message: BILLING_MESSAGES.cancelled, subscription: view })
  })
  // "Keep my subscription": the cancellation at the period's end undone, the same subscription renews.
  .post('/resume-subscription', requireUser, async (c) => {
    const { view } = await billingFor(c.env).resume(c.var.db, (await userOf(c)))
    await audit(c, 'account.subscription_resumed', {})
    return c.json({ message: BILLING_MESSAGES.kept, subscription: view })
  })
  // Stripe's page for changing the card; Stripe brings the owner back to /account?payment=updated.
  .post('/payment-method', requireUser, async (c) => c.json((await billingFor(c.env).paymentMethodSession((await userOf(c)))) satisfies PaymentMethodSession))
  // The open invoice, charged again now with the card on file.
  .post('/pay-invoice', requireUser, async (c) => {
    // Each try is a charge attempt at the bank: a few a minute per owner (the tightest limiter).
    await enforceLimit(c.env, 'RESET_LIMITER', `pay-invoice:user:${c.var.account.id}`)
    const billing = billingFor(c.env)
    const { paid } = await billing.payOpenInvoice(c.var.db, c.executionCtx, (await userOf(c)))
    if (paid) await audit(c, 'account.invoice_paid', {})
    const user = (await c.var.db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, c.var.account.id) })) ?? (await userOf(c))
    return c.json({
      message: paid ? BILLING_MESSAGES.paid : BILLING_MESSAGES.paymentPending,
      subscription: await billing.accountView(c.var.db, user),
    } satisfies PayInvoiceResult)
  })
  .get('/invoices', requireUser, validate('query', invoicesQuerySchema), async (c) =>
    c.json((await billingFor(c.env).invoices((await userOf(c)), c.req.valid('query'))) satisfies InvoicePage),
  )
