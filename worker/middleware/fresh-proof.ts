import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS, type ProofMethod } from '../../contract/fresh-proof'
import { ApiError } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import { ask, type Outcome } from '../owner/outcome'
import { proofMethodsOf } from '../services/fresh-proof'
import type { AppEnv } from '../types'

/** Whether the person at this session proved who they are within FRESH_PROOF_MS. */
export function hasFreshProof(c: Context<AppEnv>, now = Date.now()): boolean {
  const provedAt = c.var.provedAt
  return provedAt !== null && provedAt <= now && now - provedAt <= FRESH_PROOF_MS
}

/**
 * Refuses the act (403 with `requiresFreshProof` and the ways this owner can prove it) unless the
 * session's proof is fresh. For acts that need it only sometimes (a date moved earlier, a window
 * shortened), the handler calls this once it knows.
 */
export async function assertFreshProof(c: Context<AppEnv>): Promise<void> {
  if (hasFreshProof(c)) return
  const methods: ProofMethod[] = await proofMethodsOf(c.var.db, c.var.account.id)
  throw new ApiError(403, FRESH_PROOF_MESSAGES.required, { requiresFreshProof: true, methods })
}

/** After requireUser: the act needs fresh proof (see assertFreshProof). */
export const requireFreshProof = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    await assertFreshProof(c)
    await next()
  }),
  { freshProof: true },
)

/**
 * In a route: the owner object's answer, as `ask` gives it, except that the object's "needs fresh
 * proof" (it alone knows whether a change brings a release sooner) is answered with the ways this
 * owner can give it.
 */
export async function askWithProof<T>(c: Context<AppEnv>, answer: Promise<Outcome<T>>): Promise<T> {
  const outcome = await answer
  if (!outcome.ok && outcome.extra.requiresFreshProof === true) {
    const methods = await proofMethodsOf(c.var.db, c.var.account.id)
    throw new ApiError(outcome.status, outcome.message, { ...outcome.extra, methods })
  }
  return ask(Promise.resolve(outcome))
}
