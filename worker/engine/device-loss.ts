import { DAY_MS } from '../../contract/constants'
import { TRIGGER_DEFAULTS, type DeviceLossConfig } from '../../contract/triggers'
import type { TriggerRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Loss of trusted devices (the 'device_loss' trigger type). The owner's object keeps one value,
// the last time any device the owner marked as trusted was used (a sign-in from a trusted browser,
// a trusted security key's assertion, a trusted browser's requests, throttled). Use from anywhere
// else never moves it. The trigger fires once `days` have passed since that use, or since the
// trigger was armed if that is later (a trigger armed today gives the owner its full days).

export function deviceLossDays(t: Pick<TriggerRow, 'config'>): number {
  return (t.config as Partial<DeviceLossConfig>).days ?? TRIGGER_DEFAULTS.deviceDays
}

/** When an armed device_loss trigger fires if no trusted device is used before then. */
export function deviceLossFiresAt(t: Pick<TriggerRow, 'config' | 'updatedAt'>, lastTrustedUseAt: number | null): number {
  return Math.max(lastTrustedUseAt ?? 0, t.updatedAt) + deviceLossDays(t) * DAY_MS
}

/** The tick's part (worker/engine/tick.ts): each active trigger whose days are over fires; else a wakeup for that moment. */
export function tickDeviceLoss(u: Unit, active: readonly TriggerRow[], fire: (t: TriggerRow) => void, wakeups: Array<number | null>): void {
  for (const t of active) {
    if (t.type !== 'device_loss') continue
    const at = deviceLossFiresAt(t, u.lastTrustedUseAt)
    if (u.now >= at) fire(t)
    else wakeups.push(at)
  }
}
