import type { MiddlewareFacts } from './facts'
import type { Operation } from './operations'
import type { JsonSchema, SchemaSet } from './schemas'

// The error answers: every one is the shared Error schema (contract/errors.ts), described once
// here (components/responses) and referred to by each operation that can give it.

export const ERROR_STATUSES = [400, 401, 402, 403, 404, 409, 410, 413, 415, 429, 502, 503] as const
export type ErrorStatus = (typeof ERROR_STATUSES)[number]

const ERRORS: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'The request does not fit: `message` names the first field at fault, `errors` lists each one.' },
  401: { name: 'Unauthorized', description: 'No live session: sign in (again).' },
  402: {
    name: 'PaymentRequired',
    description: "Without an active subscription (`requiresPayment: true`: subscribe first), or past the plan's limits.",
  },
  403: {
    name: 'Forbidden',
    description:
      'Not allowed for this account or link; or, with `requiresFreshProof: true`, the act needs fresh proof: `POST /api/auth/fresh-proof` (the password, a security key or an authenticator code; `methods` lists this account\'s), then send the request again within 5 minutes.',
  },
  404: { name: 'NotFound', description: 'No such thing (or not yours).' },
  409: { name: 'Conflict', description: 'Not in this state: `message` says why.' },
  410: { name: 'Gone', description: 'No longer available.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than this route takes.' },
  415: { name: 'UnsupportedMediaType', description: 'The body must be JSON (`Content-Type: application/json`).' },
  429: { name: 'TooManyRequests', description: 'Too many requests: wait a minute and try again.' },
  502: { name: 'BadGateway', description: 'The payment provider could not be reached.' },
  503: { name: 'ServiceUnavailable', description: 'The payment provider could not act now: try again later.' },
}

/**
 * The error statuses of an endpoint: those its middleware imply, a 404 where a path parameter
 * names a thing, and those its note adds for its handler and services.
 */
export function errorStatuses(facts: MiddlewareFacts[], hasPathParams: boolean, op: Operation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(op.errors)
  for (const f of facts) {
    if (f.validates) statuses.add(400)
    if (f.session) statuses.add(401)
    if (f.subscription) statuses.add(402)
    if (f.admin || f.freshProof) statuses.add(403)
    if (f.bodyLimit !== undefined) statuses.add(413)
    if (f.jsonOnly) statuses.add(415)
    if (f.rateLimited) statuses.add(429)
  }
  if (hasPathParams) statuses.add(404)
  return [...statuses].sort((a, b) => a - b)
}

/** `#/components/responses/…` for a status. */
export function errorRef(status: ErrorStatus): JsonSchema {
  return { $ref: `#/components/responses/${ERRORS[status].name}` }
}

/** components/responses: one entry per error status, each the Error schema. */
export function errorResponses(schemas: SchemaSet): Record<string, JsonSchema> {
  const error = schemas.ref('Error')
  return Object.fromEntries(
    ERROR_STATUSES.map((status) => {
      const { name, description } = ERRORS[status]
      return [name, { description, content: { 'application/json': { schema: error } } }]
    }),
  )
}
