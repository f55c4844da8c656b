import { CHECKIN_GRACE_DAYS, DAY_MS } from '../../contract/constants'
import { frequencyInForce } from '../../contract/settings'
import { PING_FREQUENCY_DAYS, type InactivityConfig } from '../../contract/triggers'

export type ClockPhase = 'ok' | 'checkin_sent' | 'reminder_sent' | 'expired'

/** The inactivity clock, as the owner's Durable Object keeps it. */
export interface ClockState {
  lastCheckInAt: number
  phase: ClockPhase
  /** When the check-in e-mail actually went out: the grace period runs from then, never less. */
  checkInSentAt: number | null
}

export interface ClockTimes {
  dueAt: number
  reminderAt: number
  deadlineAt: number
}

/** The owner's setting, or the figure the settings summary shows when none was chosen. */
export const frequencyDays = frequencyInForce

export function clockTimes(state: ClockState, frequency: number, graceDays = CHECKIN_GRACE_DAYS): ClockTimes {
  const dueAt = state.lastCheckInAt + frequency * DAY_MS
  const graceFrom = Math.max(dueAt, state.checkInSentAt ?? dueAt)
  return { dueAt, reminderAt: graceFrom + (graceDays - 1) * DAY_MS, deadlineAt: graceFrom + graceDays * DAY_MS }
}

export type ClockAction = 'send_checkin' | 'send_reminder' | 'expire'

/**
 * The next thing the clock must do at `now`, if any. Steps are never skipped: a check-in e-mail
 * goes out (and its full grace period runs) before anything can expire, however late the alarm.
 */
export function dueClockAction(state: ClockState, frequency: number, now: number): ClockAction | null {
  const t = clockTimes(state, frequency)
  if (state.phase === 'ok') return now >= t.dueAt ? 'send_checkin' : null
  if (state.phase === 'checkin_sent') return now >= t.deadlineAt ? 'expire' : now >= t.reminderAt ? 'send_reminder' : null
  if (state.phase === 'reminder_sent') return now >= t.deadlineAt ? 'expire' : null
  return null
}

/** When the clock next needs attention, if it is still running. */
export function nextClockAt(state: ClockState, frequency: number): number | null {
  const t = clockTimes(state, frequency)
  if (state.phase === 'ok') return t.dueAt
  if (state.phase === 'checkin_sent') return t.reminderAt
  if (state.phase === 'reminder_sent') return t.deadlineAt
  return null
}

/**
 * An inactivity trigger fires once the clock has expired and its own window (its ping frequency
 * plus its grace period, counted from the last check-in) has passed too.
 */
export function inactivityFireAt(state: ClockState, frequency: number, config: Partial<InactivityConfig>): number {
  const own = PING_FREQUENCY_DAYS[config.pingFrequency ?? 'weekly'] + (config.gracePeriod ?? 14)
  return Math.max(clockTimes(state, frequency).deadlineAt, state.lastCheckInAt + own * DAY_MS)
}
