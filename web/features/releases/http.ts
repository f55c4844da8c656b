import { ApiRequestError, responseError } from '@/lib/api-client'
import { defaultFetch, type FetchLike } from '@/features/vault/items/http'

// Calls made from e-mailed links. The token in the URL or body is the only credential, so no
// session header goes along, even when the visitor happens to be signed in as someone else.

export async function linkJson<T>(method: string, url: string, data?: unknown, fetchFn: FetchLike = defaultFetch): Promise<T> {
  const res = await fetchFn(url, {
    method,
    headers: data !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'same-origin',
  })
  if (!res.ok) throw await responseError(res)
  return (await res.json()) as T
}

/** Multipart; the browser sets the boundary's Content-Type itself. */
export async function linkForm<T>(url: string, form: FormData, fetchFn: FetchLike = defaultFetch): Promise<T> {
  const res = await fetchFn(url, { method: 'POST', body: form, credentials: 'same-origin' })
  if (!res.ok) throw await responseError(res)
  return (await res.json()) as T
}

/** The server refused the link itself (bad, expired, replaced), as opposed to an outage. */
export function isBadLink(error: unknown): boolean {
  return error instanceof ApiRequestError && [400, 401, 403, 404, 410].includes(error.status)
}

export function isConflict(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 409
}
