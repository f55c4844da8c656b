import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { biometricFailureBodySchema, unlockSuccessBodySchema } from '../../contract/triggers'
import { engineStatusKey, reportFailedUnlock, reportUnlockSuccess, triggersKey } from '@/features/triggers/api'
import { navigation } from '@/lib/api-client'

// The failed-unlock report carries the kind and the session only, answers the attempts left (or
// null), and neither a network error nor a 402 may reach the unlock dialog that sent it. The
// success report is fire-and-forget.

const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  vi.stubGlobal('localStorage', { getItem: (k: string) => (k === AUTH_TOKEN_STORAGE_KEY ? 'tok' : null), setItem() {}, removeItem() {} })
  vi.stubGlobal('fetch', fetchMock)
  fetchMock.mockReset()
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('reportFailedUnlock', () => {
  it('posts only the kind, with the session, and answers the attempts left', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"failures":1,"fired":0,"attemptsLeft":4}', { status: 200 }))
    expect(await reportFailedUnlock('vault_unlock')).toBe(4)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/trigger-engine/biometric-failure')
    expect(init?.method).toBe('POST')
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    const body = JSON.parse(String(init?.body))
    expect(body).toEqual({ kind: 'vault_unlock' })
    expect(biometricFailureBodySchema.safeParse(body).success).toBe(true)
  })

  it('answers null with no active trigger, or when the answer is no answer', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"failures":1,"fired":0,"attemptsLeft":null}', { status: 200 }))
    expect(await reportFailedUnlock('vault_unlock')).toBeNull()
    fetchMock.mockResolvedValueOnce(new Response('not json', { status: 200 }))
    expect(await reportFailedUnlock('vault_unlock')).toBeNull()
    fetchMock.mockResolvedValueOnce(new Response('{"message":"Server error"}', { status: 500 }))
    expect(await reportFailedUnlock('vault_unlock')).toBeNull()
  })

  it('swallows failures and never redirects', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => undefined)
    fetchMock.mockRejectedValueOnce(new TypeError('offline'))
    expect(await reportFailedUnlock('passkey')).toBeNull()
    fetchMock.mockResolvedValueOnce(new Response('{"requiresPayment":true}', { status: 402 }))
    expect(await reportFailedUnlock('vault_unlock')).toBeNull()
    expect(redirect).not.toHaveBeenCalled()
  })
})

describe('reportUnlockSuccess', () => {
  it('posts only the kind, with the session, and swallows failures', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => undefined)
    fetchMock.mockResolvedValueOnce(new Response('{"forgiven":2,"attemptsLeft":5}', { status: 200 }))
    reportUnlockSuccess('vault_unlock')
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/trigger-engine/unlock-success')
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    const body = JSON.parse(String(init?.body))
    expect(body).toEqual({ kind: 'vault_unlock' })
    expect(unlockSuccessBodySchema.safeParse(body).success).toBe(true)
    fetchMock.mockRejectedValueOnce(new TypeError('offline'))
    expect(() => reportUnlockSuccess('vault_unlock')).not.toThrow()
    fetchMock.mockResolvedValueOnce(new Response('{"requiresPayment":true}', { status: 402 }))
    reportUnlockSuccess('vault_unlock')
    await new Promise((r) => setTimeout(r, 0))
    expect(redirect).not.toHaveBeenCalled()
  })
})

it('keys the queries by their URLs, as the default query function expects', () => {
  expect(triggersKey.join('/')).toBe('/api/triggers')
  expect(engineStatusKey.join('/')).toBe('/api/trigger-engine/status')
})
