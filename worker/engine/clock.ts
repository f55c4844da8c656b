import { DAY_MS } from '../../contract/constants'
import { inactivitySchedule } from '../../contract/triggers'
import type { TriggerRow } from '../owner/schema'

// The inactivity clock (docs/release-engine.md, "The clock"), pure. It runs on the owner's active
// inactivity trigger's own schedule: a check-in e-mail F days after the last check-in, a grace of
// G days from when that e-mail actually went out, a reminder a day before the grace ends, and the
// firing when it ends.

export type ClockPhase = 'ok' | 'checkin_sent' | 'reminder_sent' | 'expired'

/** The inactivity clock, as the owner's Durable Object keeps it. */
export interface ClockState {
  lastCheckInAt: number
  phase: ClockPhase
  /** When the check-in e-mail actually went out: the grace period runs from then, never less. */
  checkInSentAt: number | null
  /** The schedule (`Schedule.key`) that e-mail was sent under; absent before it went out. */
  scheduleKey?: string | null
}

/** The schedule the clock runs on: one inactivity trigger's config, in days. */
export interface Schedule {
  triggerId: string
  /** Changes whenever the trigger is created, paused, activated, edited or re-armed (its updatedAt). */
  key: string
  frequencyDays: number
  graceDays: number
}

export interface ClockTimes {
  /** The check-in e-mail: the last check-in plus F days. */
  dueAt: number
  /** A day before the grace ends; none for a one-day grace. */
  reminderAt: number | null
  /** When the trigger fires: the deadline the e-mails name. */
  firesAt: number
}

export function scheduleOf(row: Pick<TriggerRow, 'id' | 'config' | 'updatedAt'>): Schedule {
  return { triggerId: row.id, key: `${row.id}:${row.updatedAt}`, ...inactivitySchedule(row.config) }
}

/**
 * The schedule the clock runs on, from the owner's active inactivity triggers: there is one (a
 * second cannot be created); of several (made before that rule) the one that would fire first,
 * the least F + G, the oldest on a tie.
 */
export function runningSchedule(activeInactivity: ReadonlyArray<Pick<TriggerRow, 'id' | 'config' | 'updatedAt' | 'createdAt'>>): Schedule | null {
  const sorted = [...activeInactivity].sort((a, b) => {
    const [x, y] = [scheduleOf(a), scheduleOf(b)]
    return x.frequencyDays + x.graceDays - (y.frequencyDays + y.graceDays) || a.createdAt - b.createdAt
  })
  return sorted[0] ? scheduleOf(sorted[0]) : null
}

/**
 * The cycle as it stands under `schedule`: an e-mail sent under another schedule (the trigger was
 * paused, activated, edited, or another took over) no longer holds, so the cycle's e-mail goes
 * again when due under this one, naming its deadline.
 */
export function cycleOf(state: ClockState, schedule: Schedule): ClockState {
  if (state.phase === 'ok' || state.scheduleKey === schedule.key) return state
  return { lastCheckInAt: state.lastCheckInAt, phase: 'ok', checkInSentAt: null, scheduleKey: null }
}

/** The firing time is kept to a whole second, so the time the e-mails print is exactly it. */
const wholeSecond = (at: number) => Math.ceil(at / 1000) * 1000

export function clockTimes(state: ClockState, schedule: Schedule): ClockTimes {
  const dueAt = state.lastCheckInAt + schedule.frequencyDays * DAY_MS
  // The grace runs from the e-mail actually sent, never from before it was due.
  const graceFrom = Math.max(dueAt, state.checkInSentAt ?? dueAt)
  return {
    dueAt,
    reminderAt: schedule.graceDays >= 2 ? graceFrom + (schedule.graceDays - 1) * DAY_MS : null,
    firesAt: wholeSecond(graceFrom + schedule.graceDays * DAY_MS),
  }
}

export type ClockAction = 'send_checkin' | 'send_reminder' | 'expire'

/**
 * The next thing the clock must do at `now`, if any. Steps are never skipped: a check-in e-mail
 * goes out (and its full grace period runs) before anything can expire, however late the alarm.
 */
export function dueClockAction(state: ClockState, schedule: Schedule, now: number): ClockAction | null {
  const t = clockTimes(state, schedule)
  if (state.phase === 'ok') return now >= t.dueAt ? 'send_checkin' : null
  if (state.phase === 'checkin_sent') return now >= t.firesAt ? 'expire' : t.reminderAt !== null && now >= t.reminderAt ? 'send_reminder' : null
  if (state.phase === 'reminder_sent') return now >= t.firesAt ? 'expire' : null
  return null
}

/** When the clock next needs attention, if it is still running. */
export function nextClockAt(state: ClockState, schedule: Schedule): number | null {
  const t = clockTimes(state, schedule)
  if (state.phase === 'ok') return t.dueAt
  if (state.phase === 'checkin_sent') return t.reminderAt ?? t.firesAt
  if (state.phase === 'reminder_sent') return t.firesAt
  return null
}
