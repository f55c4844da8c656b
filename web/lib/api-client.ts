import type { QueryFunction } from '@tanstack/react-query'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { FRESH_PROOF_MESSAGES, isFreshProofRequired } from '../../contract/fresh-proof-constants'
import { CLIENT_ERRORS } from '../../contract/messages'
import { requestFreshProof } from './fresh-proof-store'

// The one way the SPA talks to the API (seeds 000 §7–8): JSON bodies, the stored token as a Bearer
// header, cookies included, and one rule for turning a failed response into an error message.

/** A failed call: `message` is "status: text" as the spec words it; `detail` is the text alone. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly body: unknown,
  ) {
    super(`${status}: ${detail}`)
    this.name = 'ApiRequestError'
  }
}

/** Thrown after a 402 `requiresPayment` has sent the browser to /subscribe: nothing to show. */
export class PaymentRedirectError extends Error {
  constructor() {
    super('Redirecting to /subscribe')
    this.name = 'PaymentRedirectError'
  }
}

export const tokenStore = {
  get: (): string | null => globalThis.localStorage?.getItem(AUTH_TOKEN_STORAGE_KEY) ?? null,
  set: (token: string) => globalThis.localStorage?.setItem(AUTH_TOKEN_STORAGE_KEY, token),
  clear: () => globalThis.localStorage?.removeItem(AUTH_TOKEN_STORAGE_KEY),
}

export const navigation = {
  // Replaced in unit tests; a full page load is what the spec's client does.
  redirect: (path: string) => globalThis.location?.assign(path),
}

/**
 * A validation answer's message names the field for API clients ("currentPassword: Current password
 * is incorrect"); a person reads the words alone, taken from the answer's `errors` list. The
 * contract's schema (and zod with it) loads only for an answer that has such a list: every page
 * uses this client, and most never see a validation error.
 */
async function withoutFieldName(message: string, body: unknown): Promise<string> {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { errors?: unknown }).errors)) return message
  const { apiErrorSchema } = await import('../../contract/errors')
  const first = apiErrorSchema.safeParse(body).data?.errors?.[0]
  if (first && message === `${first.field}: ${first.message}`) {
    return first.message
  }
  return message
}

/** The message of a failed response by the spec's rules. */
export function messageFromBody(status: number, statusText: string, text: string): { message: string; body: unknown } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { message: text || statusText || CLIENT_ERRORS.httpStatusError, body: text }
  }
  if (typeof parsed === 'string') return { message: parsed, body: parsed }
  if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') {
    return { message: (parsed as { message: string }).message, body: parsed }
  }
  return { message: CLIENT_ERRORS.serverError(status), body: parsed }
}

function requiresPayment(status: number, body: unknown): boolean {
  return status === 402 && !!body && typeof body === 'object' && (body as { requiresPayment?: unknown }).requiresPayment === true
}

/**
 * A failed response as the error the app understands, by the spec's rules; a 402 with
 * `requiresPayment` sends the browser to /subscribe instead. Every kind of call (JSON, binary
 * parts, multipart forms, files) reads failures through this one function.
 */
export async function responseError(res: Response): Promise<ApiRequestError | PaymentRedirectError> {
  const { message, body } = messageFromBody(res.status, res.statusText, await res.text().catch(() => ''))
  if (requiresPayment(res.status, body)) {
    navigation.redirect('/subscribe')
    return new PaymentRedirectError()
  }
  return new ApiRequestError(res.status, await withoutFieldName(message, body), body)
}

/** The stored session as a Bearer header, plus a content type when there is one. */
export function sessionHeaders(contentType?: string): Record<string, string> {
  const result: Record<string, string> = {}
  if (contentType) result['Content-Type'] = contentType
  const token = tokenStore.get()
  if (token) result.Authorization = `Bearer ${token}`
  return result
}


/**
 * For mutations: resolves with the ok response, rejects with ApiRequestError (or a redirect). An
 * act that needs fresh proof asks for it in one dialog and is sent again once it is given.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const send = () =>
    fetch(url, {
      method,
      headers: sessionHeaders(data !== undefined ? 'application/json' : undefined),
      body: data !== undefined ? JSON.stringify(data) : undefined,
      credentials: 'include',
    })
  let res = await send()
  if (!res.ok) {
    const error = await responseError(res)
    if (!(error instanceof ApiRequestError && error.status === 403 && isFreshProofRequired(error.body))) throw error
    if (!(await requestFreshProof(error.body.methods))) throw new ApiRequestError(403, FRESH_PROOF_MESSAGES.cancelled, error.body)
    res = await send()
    if (!res.ok) throw await responseError(res)
  }
  return res
}

export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data)
  return (await res.json()) as T
}

type UnauthorizedBehavior = 'returnNull' | 'throw'

/** The default query: GET on the key's parts joined by '/', with the same headers. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/'), { headers: sessionHeaders(), credentials: 'include' })
    if (on401 === 'returnNull' && res.status === 401) return null
    if (!res.ok) {
      const error = await responseError(res)
      if (error instanceof PaymentRedirectError) return null
      throw error
    }
    return (await res.json()) as T
  }
}

/** The words to put in a toast: the server's message without the status prefix. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.detail || fallback
  if (error instanceof Error && error.message) return error.message
  return fallback
}
