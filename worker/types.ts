import type { UserRow } from './db/schema'
import type { Db } from './db/client'
import type { Account } from './owner/account'

export interface AppEnv {
  Bindings: Env
  Variables: {
    db: Db
    /** The signed-in owner's account as their object has it (requireUser; no D1 read). */
    account: Account
    /** The owner's D1 row, read once when a route asks for it (worker/middleware/auth.ts userOf). */
    userRow?: Promise<UserRow>
    sessionId: number
    /** When the person at this session last proved who they are (worker/middleware/fresh-proof.ts). */
    provedAt: number | null
    /** The session's browser is one the owner marked as trusted (worker/services/trusted-devices.ts). */
    trustedDevice?: boolean
    /** Server-Timing durations, kept only locally (worker/middleware/server-timing.ts). */
    timings?: Map<string, number>
  }
}

/**
 * Stripe's settings: secrets (`wrangler secret put`) or vars, absent by default. With
 * STRIPE_SECRET_KEY set the Stripe provider is used (and every other one below is required);
 * without it the server runs without billing (worker/billing/provider.ts).
 */
export interface StripeEnv {
  STRIPE_SECRET_KEY?: string
  STRIPE_WEBHOOK_SECRET?: string
  STRIPE_PUBLISHABLE_KEY?: string
  STRIPE_PRICE_BASIC?: string
  STRIPE_PRICE_PREMIUM?: string
  STRIPE_PRICE_ENTERPRISE?: string
  /** Locally only (ENVIRONMENT=development): Stripe's API at another address, for tests' stand-in. */
  STRIPE_API_BASE?: string
}

/**
 * The mail provider's signing secret for its events (`whsec_…`, worker/routes/channels.ts), a
 * secret or `.dev.vars` entry; without it the bounce webhook answers 404.
 */
export interface MailEventsEnv {
  MAIL_WEBHOOK_SECRET?: string
}

declare global {
  // Both the global Env and Cloudflare.Env (cloudflare:workers' env) of worker-configuration.d.ts.
  interface Env extends StripeEnv, MailEventsEnv {}
  namespace Cloudflare {
    interface Env extends StripeEnv, MailEventsEnv {}
  }
}
