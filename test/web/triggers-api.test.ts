import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUTH_TOKEN_STORAGE_KEY } from '../../contract/constants'
import { biometricFailureBodySchema } from '../../contract/triggers'
import { engineStatusKey, reportBiometricFailure, triggersKey } from '@/features/triggers/api'
import { navigation } from '@/lib/api-client'

// The failed-unlock report is fire-and-forget: it carries the kind and the session only, and
// neither a network error nor a 402 may reach the unlock dialog that sent it.

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

describe('reportBiometricFailure', () => {
  it('posts only the kind, with the session', () => {
    fetchMock.mockResolvedValueOnce(new Response('{"failures":1,"fired":0}', { status: 200 }))
    reportBiometricFailure('vault_unlock')
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/trigger-engine/biometric-failure')
    expect(init?.method).toBe('POST')
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok')
    const body = JSON.parse(String(init?.body))
    expect(body).toEqual({ kind: 'vault_unlock' })
    expect(biometricFailureBodySchema.safeParse(body).success).toBe(true)
  })

  it('swallows failures and never redirects', async () => {
    const redirect = vi.spyOn(navigation, 'redirect').mockImplementation(() => undefined)
    fetchMock.mockRejectedValueOnce(new TypeError('offline'))
    expect(() => reportBiometricFailure('passkey')).not.toThrow()
    fetchMock.mockResolvedValueOnce(new Response('{"requiresPayment":true}', { status: 402 }))
    reportBiometricFailure('vault_unlock')
    await new Promise((r) => setTimeout(r, 0))
    expect(redirect).not.toHaveBeenCalled()
  })
})

it('keys the queries by their URLs, as the default query function expects', () => {
  expect(triggersKey.join('/')).toBe('/api/triggers')
  expect(engineStatusKey.join('/')).toBe('/api/trigger-engine/status')
})
