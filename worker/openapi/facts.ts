import type { ValidationTargets } from 'hono'
import type { z } from 'zod'

/**
 * What a middleware tells about the routes it guards, said once where the middleware is made
 * (validate(), requireUser, the body limits…). The API reference (worker/openapi) reads these off
 * the handlers mounted on each route, so the document describes what is enforced, not a copy.
 */
export interface MiddlewareFacts {
  /** The request part it validates and the schema it enforces (400 when it does not fit). */
  validates?: { target: keyof ValidationTargets; schema: z.ZodType }
  /** Refuses a body that is not JSON (415). */
  jsonOnly?: boolean
  /** Needs a live session (401 without one): the route takes the bearer token or the session cookie. */
  session?: boolean
  /** Needs an active subscription (402 with `requiresPayment: true` without one). */
  subscription?: boolean
  /** Needs fresh proof: the password, a security key or an authenticator code within the last 5 minutes (403 with `requiresFreshProof: true` without it). */
  freshProof?: boolean
  /** Administrators only (403 for anyone else). */
  admin?: boolean
  /** Refuses a body larger than this many bytes (413). */
  bodyLimit?: number
  /** Counts requests per client address (429 past the limit). */
  rateLimited?: boolean
  /** Exists only where ENVIRONMENT is "development" (404 anywhere else). */
  developmentOnly?: boolean
}

const registry = new WeakMap<object, MiddlewareFacts>()

/** Records what `middleware` enforces, and returns it unchanged. */
export function withFacts<M extends object>(middleware: M, facts: MiddlewareFacts): M {
  registry.set(middleware, { ...registry.get(middleware), ...facts })
  return middleware
}

/** What a mounted handler enforces, if it is a middleware that said so. */
export function factsOf(handler: object): MiddlewareFacts | undefined {
  return registry.get(handler)
}
