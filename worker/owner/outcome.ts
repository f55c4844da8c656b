import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ApiError } from '../lib/errors'

/**
 * What an owner-object method answers. Errors cross Workers RPC as plain Errors without their own
 * properties, so a client's mistake (an ApiError: a status, a message, extras such as
 * `requiresPayment`) travels as a value and is thrown again on the worker's side by `ask`.
 */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: ContentfulStatusCode; message: string; extra: Record<string, unknown> }

/** Inside the object: the value, or the ApiError it threw as a value. Anything else is a bug and propagates. */
export async function settle<T>(run: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, status: error.status, message: error.message, extra: error.extra }
    throw error
  }
}

/** In a route: the object's answer, or its ApiError thrown again for app.onError. */
export async function ask<T>(answer: Promise<Outcome<T>>): Promise<T> {
  const outcome = await answer
  if (outcome.ok) return outcome.value
  throw new ApiError(outcome.status, outcome.message, outcome.extra)
}

/**
 * The JSON text of a T, made inside the object: a large answer (a vault's item list) crosses RPC
 * as one string rather than a structured clone of every object, and the route sends it as it is.
 */
export type JsonText<T> = string & { readonly __jsonOf?: T }

export function jsonText<T>(value: T): JsonText<T> {
  return JSON.stringify(value) as JsonText<T>
}

/** In a route: a JsonText answer sent as the response body. */
export function sendJsonText(text: JsonText<unknown>): Response {
  return new Response(text, { headers: { 'content-type': 'application/json' } })
}
