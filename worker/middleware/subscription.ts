import { every } from 'hono/combine'
import { createMiddleware } from 'hono/factory'
import { BILLING_MESSAGES } from '../../contract/billing'
import { ApiError } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import { requireUser } from './auth'
import { hasActiveSubscription } from '../services/users'
import type { AppEnv } from '../types'

/**
 * After requireUser: an owner without an active subscription (or a payment grace) gets 402 with
 * `requiresPayment`, which sends the app to /subscribe. Admins pass.
 */
export const requireSubscription = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    if (!hasActiveSubscription(c.var.user)) throw new ApiError(402, BILLING_MESSAGES.subscriptionRequired, { requiresPayment: true })
    await next()
  }),
  { subscription: true },
)

/** Signed in with an active subscription: for routers mounted at /api that attach middleware per route. */
export const requireOwner = withFacts(every(requireUser, requireSubscription), { session: true, subscription: true })
