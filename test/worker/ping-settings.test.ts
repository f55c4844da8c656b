import { describe, expect, it } from 'vitest'
import { SETTINGS_MESSAGES } from '../../contract/settings'
import type { EngineStatus } from '../../contract/triggers'
import { clockOf, createTrigger, DAY_MS, engineStatus, guard } from './engine-helpers'
import { call, messageOf, register } from './helpers'
import { ownerWithBeneficiary } from './vault-helpers'

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

  it('is the default for the next inactivity trigger, not the running clock, and keeps working for an owner who set it', async () => {
    const { token, ownerId } = await ownerWithBeneficiary()
    expect((await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: 90, gracePeriod: 3 } })).status).toBe(200)
    // No inactivity trigger: no clock, whatever the settings say.
    const none = (await (await call('/api/trigger-engine/status', { token })).json()) as EngineStatus
    expect(none).toMatchObject({ inactivityTriggerId: null, nextCheckInAt: null, pingFrequencyDays: null, graceDays: null })
    // The trigger's own schedule runs (daily, 2 days' grace), not the settings' 90 days and 3.
    await createTrigger(token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 2 } })
    const view = await guard(ownerId).clockView()
    expect(view.nextCheckInAt).toBe(view.lastCheckInAt + DAY_MS)
    expect(view.schedule).toMatchObject({ frequencyDays: 1, graceDays: 2 })
    expect(await engineStatus(token)).toMatchObject({ pingFrequencyDays: 1, graceDays: 2 })
    // Changing the settings later leaves it as it is.
    expect((await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: 7, gracePeriod: 3 } })).status).toBe(200)
    expect((await guard(ownerId).clockView()).nextCheckInAt).toBe(view.nextCheckInAt)
    // And the clock keeps working: the e-mail goes a day after the last check-in.
    await guard(ownerId).tick(view.lastCheckInAt + DAY_MS)
    expect((await clockOf(ownerId)).phase).toBe('checkin_sent')
  })
})
