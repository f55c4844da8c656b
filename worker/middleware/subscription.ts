import { every } from 'hono/combine'
import { createMiddleware } from 'hono/factory'
import type { Context } from 'hono'
import { BILLING_MESSAGES } from '../../contract/billing'
import { ApiError } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import { requireUser } from './auth'
import { hasActiveSubscription } from '../services/users'
import type { AppEnv } from '../types'

function refuseUnpaid(c: Context<AppEnv>): void {
  if (!hasActiveSubscription(c.var.account)) throw new ApiError(402, BILLING_MESSAGES.subscriptionRequired, { requiresPayment: true })
}

/**
 * After requireUser: an owner without an active subscription (or a payment grace) gets 402 with
 * `requiresPayment`, which sends the app to /subscribe. Admins pass.
 *
 * The rule after a plan ends: the promise to the heirs is kept (triggers go on firing, releases go
 * on), and the owner can always stop one, paid or not: see the triggers and the engine's state,
 * pause a trigger, cancel a release, check in. Those routes take requireUser alone (or
 * `requireSubscriptionUnless`); what adds or arms (a trigger, activating one, a schedule, a manual
 * release) takes this.
 */
export const requireSubscription = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    refuseUnpaid(c)
    await next()
  }),
  { subscription: true },
)

/** requireSubscription, except for a request that only stops something (`stops`: read after validation). */
export function requireSubscriptionUnless(stops: (c: Context<AppEnv>) => boolean) {
  return withFacts(
    createMiddleware<AppEnv>(async (c, next) => {
      if (!stops(c)) refuseUnpaid(c)
      await next()
    }),
    { subscription: true },
  )
}

/** Signed in with an active subscription: for routers mounted at /api that attach middleware per route. */
export const requireOwner = withFacts(every(requireUser, requireSubscription), { session: true, subscription: true })
