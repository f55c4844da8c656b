import { QueryClient } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  apiRequest,
  ApiRequestError,
  errorText,
  getQueryFn,
  messageFromBody,
  navigation,
  PaymentRedirectError,
} from '@/lib/api-client'
import { createQueryClient } from '@/lib/query-client'

const storage = new Map<string, string>()
const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  storage.clear()
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  })
  vi.stubGlobal('fetch', fetchMock)
  fetchMock.mockReset()
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function respond(status: number, body: string, statusText = '', contentType = 'application/json') {
  fetchMock.mockResolvedValueOnce(new Response(body, { status, statusText, headers: { 'content-type': contentType } }))
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a failure')
}

describe('messageFromBody (seeds 000 §8)', () => {
  it('uses the message field of a JSON object', () => {
    expect(messageFromBody(409, 'Conflict', '{"message":"Taken"}').message).toBe('Taken')
  })
  it('uses a JSON string body as it is', () => {
    expect(messageFromBody(400, 'Bad Request', '"Plain words"').message).toBe('Plain words')
  })
  it("falls back to 'Server error: status' for JSON without a message", () => {
    expect(messageFromBody(500, 'Internal', '{"error":1}').message).toBe('Server error: 500')
    expect(messageFromBody(502, 'Bad Gateway', '[1,2]').message).toBe('Server error: 502')
  })
  it('uses the raw text, then the status text, then a fixed phrase for non-JSON', () => {
    expect(messageFromBody(503, 'Service Unavailable', 'upstream down').message).toBe('upstream down')
    expect(messageFromBody(503, 'Service Unavailable', '').message).toBe('Service Unavailable')
    expect(messageFromBody(503, '', '').message).toBe('HTTP status error')
  })
})

describe('apiRequest', () => {
  it('sends JSON, the stored token as a Bearer header, and cookies', async () => {
    storage.set('auth_token', 'tok-123')
    respond(200, '{"ok":true}')
    await apiRequest('POST', '/api/x', { a: 1 })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/x')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('include')
    expect(init?.body).toBe('{"a":1}')
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer tok-123' })
  })

  it('sends no body and no content type when there is no data, and no auth header without a token', async () => {
    respond(200, '{}')
    await apiRequest('DELETE', '/api/y')
    const [, init] = fetchMock.mock.calls[0]!
    expect(init?.body).toBeUndefined()
    expect(init?.headers).toEqual({})
  })

  it("raises 'status: message' for a failed response", async () => {
    respond(401, '{"message":"Invalid email or password."}', 'Unauthorized')
    const error = await failureOf(apiRequest('POST', '/api/auth/login', {}))
    expect(error).toBeInstanceOf(ApiRequestError)
    expect(error.message).toBe('401: Invalid email or password.')
    expect(errorText(error, 'fallback')).toBe('Invalid email or password.')
  })

  it('shows a validation failure in words, without the field name the API message starts with', async () => {
    respond(400, JSON.stringify({ message: 'currentPassword: Current password is incorrect', errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }] }))
    const error = await failureOf(apiRequest('PUT', '/api/profile/password', {}))
    expect(errorText(error, 'fallback')).toBe('Current password is incorrect')
    // A message that merely contains a colon is kept whole.
    respond(400, JSON.stringify({ message: 'Note: this link has expired.' }))
    expect(errorText(await failureOf(apiRequest('POST', '/api/x', {})), 'fallback')).toBe('Note: this link has expired.')
  })

  it('a summary message over a list of field errors is kept whole, not replaced by the first field\'s words', async () => {
    respond(400, JSON.stringify({ message: 'Please fix the highlighted fields', errors: [{ field: 'email', message: 'Invalid email' }] }))
    expect(errorText(await failureOf(apiRequest('POST', '/api/x', {})), 'fallback')).toBe('Please fix the highlighted fields')
  })

  it('only a 402 with requiresPayment: true sends the browser to /subscribe', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => {})
    respond(403, '{"message":"Administrators only.","requiresPayment":true}')
    expect((await failureOf(apiRequest('POST', '/api/x', {}))).message).toBe('403: Administrators only.')
    respond(402, '{"message":"Card declined","requiresPayment":false}')
    expect((await failureOf(apiRequest('POST', '/api/x', {}))).message).toBe('402: Card declined')
    expect(redirect).not.toHaveBeenCalled()
  })

  it('the words of a failure that is not an API answer (a network error) are shown, or the fallback when it has none', () => {
    expect(errorText(new TypeError('Failed to fetch'), 'fallback')).toBe('Failed to fetch')
    expect(errorText(new Error(''), 'fallback')).toBe('fallback')
    expect(errorText('thrown string', 'fallback')).toBe('fallback')
  })

  it('redirects to /subscribe on 402 requiresPayment and shows no error', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => {})
    respond(402, '{"message":"Pay","requiresPayment":true}')
    const error = await failureOf(apiRequest('POST', '/api/vault/items', {}))
    expect(redirect).toHaveBeenCalledWith('/subscribe')
    expect(error).toBeInstanceOf(PaymentRedirectError)
  })

  it('treats a 402 without requiresPayment as an ordinary error', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => {})
    respond(402, '{"message":"Card declined"}')
    const error = await failureOf(apiRequest('POST', '/api/x', {}))
    expect(redirect).not.toHaveBeenCalled()
    expect(error.message).toBe('402: Card declined')
  })
})

describe('getQueryFn', () => {
  const ctx = (key: string[]) => ({ queryKey: key, signal: new AbortController().signal, meta: undefined }) as never

  it("GETs the key's parts joined by '/'", async () => {
    respond(200, '[1]')
    const result = await getQueryFn({ on401: 'throw' })(ctx(['/api/beneficiaries', 'abc', 'assets']))
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/beneficiaries/abc/assets')
    expect(result).toEqual([1])
  })

  it('returns null on 401 when asked to, and raises otherwise', async () => {
    respond(401, '{"message":"Please sign in to continue."}')
    expect(await getQueryFn({ on401: 'returnNull' })(ctx(['/api/auth/me']))).toBeNull()
    respond(401, '{"message":"Please sign in to continue."}')
    const error = await failureOf(getQueryFn({ on401: 'throw' })(ctx(['/api/auth/me'])) as Promise<unknown>)
    expect(error.message).toBe('401: Please sign in to continue.')
  })

  it('returns null after a 402 requiresPayment redirect', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => {})
    respond(402, '{"message":"Pay","requiresPayment":true}')
    expect(await getQueryFn({ on401: 'throw' })(ctx(['/api/vault/items']))).toBeNull()
    expect(redirect).toHaveBeenCalledWith('/subscribe')
  })
})

describe('query client defaults (seeds 000 §7)', () => {
  it('never refetches, never goes stale and never retries', () => {
    const client: QueryClient = createQueryClient()
    const { queries, mutations } = client.getDefaultOptions()
    expect(queries?.refetchInterval).toBe(false)
    expect(queries?.refetchOnWindowFocus).toBe(false)
    expect(queries?.staleTime).toBe(Infinity)
    expect(queries?.retry).toBe(false)
    expect(mutations?.retry).toBe(false)
  })
})

describe('an act that needs fresh proof', () => {
  const proofNeeded = JSON.stringify({ message: 'Confirm it’s you to continue.', requiresFreshProof: true, methods: ['password', 'security_key'] })

  it('asks once, then sends the same request again and resolves with its answer', async () => {
    const { settleFreshProof } = await import('@/lib/fresh-proof-store')
    respond(403, proofNeeded)
    respond(200, '{"ok":true}')
    const pending = apiRequest('DELETE', '/api/beneficiaries/b1', { why: 'x' })
    const { pendingFreshProof, requestFreshProof } = await import('@/lib/fresh-proof-store')
    await vi.waitFor(() => expect(pendingFreshProof()).toEqual({ methods: ['password', 'security_key'] }))
    // Two acts refused together share one dialog.
    const shared = requestFreshProof(['password'])
    settleFreshProof(true)
    expect(await shared).toBe(true)
    const res = await pending
    expect(await res.json()).toEqual({ ok: true })
    expect(fetchMock).toHaveBeenCalledTimes(2)
    const [first, second] = fetchMock.mock.calls
    expect(second).toEqual(first)
  })

  it('cancelled, rejects with a 403 that says nothing was changed, and sends nothing more', async () => {
    const { pendingFreshProof, settleFreshProof } = await import('@/lib/fresh-proof-store')
    respond(403, proofNeeded)
    const pending = failureOf(apiRequest('POST', '/api/trigger-engine/manual/t1', { confirm: 'RELEASE' }))
    await vi.waitFor(() => expect(pendingFreshProof()).not.toBeNull())
    settleFreshProof(false)
    const error = await pending
    expect(error).toBeInstanceOf(ApiRequestError)
    expect((error as ApiRequestError).status).toBe(403)
    expect(errorText(error, '')).toBe('Nothing was changed: this needs you to confirm it’s you.')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('closing "Confirm it\'s you" without proving gives no fresh proof: the act that asked is not sent again', async () => {
    const { freshProofDialogChanged, pendingFreshProof } = await import('@/lib/fresh-proof-store')
    respond(403, proofNeeded)
    const pending = failureOf(apiRequest('POST', '/api/trigger-engine/manual/t1', { confirm: 'RELEASE' }))
    await vi.waitFor(() => expect(pendingFreshProof()).not.toBeNull())
    // Opening changes nothing; closing is giving up.
    freshProofDialogChanged(true)
    expect(pendingFreshProof()).not.toBeNull()
    freshProofDialogChanged(false)
    expect(pendingFreshProof()).toBeNull()
    expect(((await pending) as ApiRequestError).status).toBe(403)
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('an act sent again after fresh proof that still fails shows its error: it is never taken as done', async () => {
    const { pendingFreshProof, settleFreshProof } = await import('@/lib/fresh-proof-store')
    respond(403, proofNeeded)
    respond(409, JSON.stringify({ message: 'This release has already been cancelled.' }))
    const pending = failureOf(apiRequest('POST', '/api/releases/r1/cancel', {}))
    await vi.waitFor(() => expect(pendingFreshProof()).not.toBeNull())
    settleFreshProof(true)
    const error = await pending
    expect(error).toBeInstanceOf(ApiRequestError)
    expect((error as ApiRequestError).status).toBe(409)
    expect(errorText(error, '')).toBe('This release has already been cancelled.')
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  /** What the dialog asks for when the server names `methods`; the dialog is then given up. */
  async function askedFor(methods: string[]) {
    const { pendingFreshProof, settleFreshProof } = await import('@/lib/fresh-proof-store')
    respond(403, JSON.stringify({ message: 'Confirm it’s you to continue.', requiresFreshProof: true, methods }))
    const pending = failureOf(apiRequest('POST', '/api/x', {}))
    await vi.waitFor(() => expect(pendingFreshProof()).not.toBeNull())
    const asked = pendingFreshProof()
    settleFreshProof(false)
    await pending
    return asked
  }

  it('a fresh-proof answer naming no methods asks for the password', async () => {
    expect(await askedFor([])).toEqual({ methods: ['password'] })
  })

  it('an owner with a security key only is asked for that key, not a password they may not have', async () => {
    expect(await askedFor(['security_key'])).toEqual({ methods: ['security_key'] })
  })

  it('only a 403 asks for fresh proof: another status carrying requiresFreshProof is an ordinary error', async () => {
    const { pendingFreshProof, settleFreshProof } = await import('@/lib/fresh-proof-store')
    respond(400, proofNeeded)
    let settled = false
    const pending = failureOf(apiRequest('POST', '/api/x', {})).finally(() => (settled = true))
    await vi.waitFor(() => expect(settled || pendingFreshProof() !== null).toBe(true))
    const asked = pendingFreshProof()
    if (asked) settleFreshProof(false) // close a wrongly opened dialog so nothing is left waiting
    expect(asked).toBeNull()
    expect((await pending).message).toBe('400: Confirm it’s you to continue.')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('a 403 without requiresFreshProof is an ordinary error: no dialog, no retry', async () => {
    respond(403, JSON.stringify({ message: 'Administrators only.' }))
    const error = await failureOf(apiRequest('GET', '/api/admin/users'))
    expect(errorText(error, '')).toBe('Administrators only.')
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
