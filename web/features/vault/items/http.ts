import { CIRCLE_MESSAGES } from '../../../../contract/circle'
import { responseError, sessionHeaders } from '@/lib/api-client'

// The vault's binary calls (encrypted parts up, ciphertext down) cannot go through apiRequest,
// which sends JSON. These helpers send the same credentials and read failures by the same rules.

/** The subset of `fetch` the vault uses; tests pass an in-memory fake. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export const defaultFetch: FetchLike = (input, init) => globalThis.fetch(input, init)


/** JSON in, JSON out, with the session; rejects with ApiRequestError or the fetch's own error. */
export async function sendJson<T>(
  fetchFn: FetchLike,
  method: string,
  url: string,
  data?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const res = await fetchFn(url, {
    method,
    headers: sessionHeaders(data !== undefined ? 'application/json' : undefined),
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
    signal,
  })
  if (!res.ok) throw await responseError(res)
  if (res.status === 204) return undefined as T
  return (await res.json()) as T
}

/** True when the request never got an answer (offline, connection dropped), as opposed to an error status. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError
}

export const NETWORK_ERROR_TEXT = CIRCLE_MESSAGES.networkError

export function isAbortError(error: unknown): boolean {
  return (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError'
}

export function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError')
}
