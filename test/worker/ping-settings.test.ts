import { describe, expect, it } from 'vitest'
import { SETTINGS_MESSAGES } from '../../contract/settings'
import { call, messageOf, register } from './helpers'

describe('PUT /api/user/ping-settings', () => {
  it('stores the frequency and answers the updated user', async () => {
    const owner = await register()
    expect(owner.user.pingFrequency).toBeNull()
    const res = await call('/api/user/ping-settings', { method: 'PUT', token: owner.token, body: { pingFrequency: 14, gracePeriod: 3 } })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { pingFrequency: number; gracePeriod: number } }).user).toMatchObject({ pingFrequency: 14, gracePeriod: 3 })
    const me = (await (await call('/api/auth/me', { token: owner.token })).json()) as { user: { pingFrequency: number } }
    expect(me.user.pingFrequency).toBe(14)
  })

  it('gives the spec messages for a short frequency and any grace but 3', async () => {
    const owner = await register()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pingFrequency: 6, gracePeriod: 3 }, `pingFrequency: ${SETTINGS_MESSAGES.frequencyMin}`],
      [{ pingFrequency: 'weekly', gracePeriod: 3 }, `pingFrequency: ${SETTINGS_MESSAGES.frequencyMin}`],
      [{ pingFrequency: 7.5, gracePeriod: 3 }, `pingFrequency: ${SETTINGS_MESSAGES.frequencyMin}`],
      [{ pingFrequency: 30, gracePeriod: 14 }, `gracePeriod: ${SETTINGS_MESSAGES.graceFixed}`],
      [{ pingFrequency: 30 }, `gracePeriod: ${SETTINGS_MESSAGES.graceFixed}`],
    ]
    for (const [body, message] of cases) {
      const res = await call('/api/user/ping-settings', { method: 'PUT', token: owner.token, body })
      expect(res.status, message).toBe(400)
      expect(await messageOf(res)).toBe(message)
    }
    expect((await call('/api/user/ping-settings', { method: 'PUT', body: { pingFrequency: 30, gracePeriod: 3 } })).status).toBe(401)
  })
})
