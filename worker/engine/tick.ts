import { and, eq, gt, lte, min, notExists, sql } from 'drizzle-orm'
import { checkInEmail } from '../mail/release-templates'
import { deletionHeld, paymentHeld } from '../owner/account'
import { deathReports, firings, releases, triggers, vaultItems, type TriggerRow } from '../owner/schema'
import type { Unit } from '../owner/unit'
import { advanceReleases } from './advance'
import { clockTimes, cycleOf, dueClockAction, nextClockAt, runningSchedule, type ClockState } from './clock'
import { fire, type FireResult } from './fire'
import { tickDeviceLoss } from './device-loss'
import { tickFailedUnlocks } from './unlock-failures'

export interface TickResult {
  state: ClockState
  /** When the engine next needs to look (the clock, a date, a delay), or null if never. */
  nextAt: number | null
  fired: FireResult[]
  held: boolean
}

const itemFiredYet = (u: Unit) =>
  notExists(u.db.select({ id: firings.id }).from(firings).where(sql`${firings.id} = 'i:' || ${vaultItems.id}`))

/**
 * Everything time-driven for the owner, run by the owner's object (its alarm, a check-in, a report
 * from an approver or the app, or the sweep waking an object whose alarm was lost), inside one
 * transaction. Fires what is due unless a payment issue's grace holds it, moves releases on, and
 * says when to look again.
 */
export function tickOwner(u: Unit, clock: ClockState): TickResult {
  const { db, now, account } = u
  let state = clock
  // Frozen for deletion, or a payment issue's grace: triggers monitor but nothing fires.
  const frozen = deletionHeld(account)
  const held = frozen || paymentHeld(account, now)
  const active = db.select().from(triggers).where(eq(triggers.status, 'active')).all()
  const fired: FireResult[] = []
  const wakeups: Array<number | null> = []
  const fireOne = (trigger: TriggerRow | null, kind: 'inactivity' | 'verified_death' | 'biometric_failure' | 'device_loss' | 'scheduled' | 'scheduled_item', itemId?: string) => {
    fired.push(fire(u, { trigger, kind, itemId, reason: null, actor: 'system', lastCheckInAt: state.lastCheckInAt }))
  }

  // The inactivity clock runs on the active inactivity trigger's schedule; when it fires, another
  // active one (only in data from before one per owner) takes over with a fresh check-in e-mail.
  const waiting = active.filter((t) => t.type === 'inactivity')
  for (let schedule = runningSchedule(waiting); schedule; schedule = runningSchedule(waiting)) {
    state = cycleOf(state, schedule)
    for (let action = dueClockAction(state, schedule, now); action; action = dueClockAction(state, schedule, now)) {
      if (action === 'expire') {
        state = { ...state, phase: 'expired' }
        continue
      }
      if (action === 'send_checkin') state = { ...state, phase: 'checkin_sent', checkInSentAt: now, scheduleKey: schedule.key }
      else state = { ...state, phase: 'reminder_sent' }
      u.tell(action === 'send_checkin' ? 'check_in' : 'check_in_reminder', checkInEmail({
        displayName: account.displayName,
        timeZone: account.timeZone,
        checkInUrl: u.signedLink('/check-in', 'checkIn', u.ownerId),
        deadline: clockTimes(state, schedule).firesAt,
        frequencyDays: schedule.frequencyDays,
        graceDays: schedule.graceDays,
        reminder: action === 'send_reminder',
      }))
      u.audit({ actor: 'system', action: action === 'send_checkin' ? 'checkin.requested' : 'checkin.reminded', details: {} })
    }
    if (state.phase !== 'expired') {
      wakeups.push(nextClockAt(state, schedule))
      break
    }
    // Held by a payment issue's grace: it fires when the grace ends (its wakeup is below).
    if (held) break
    const trigger = waiting.splice(waiting.findIndex((t) => t.id === schedule.triggerId), 1)[0]!
    fireOne(trigger, 'inactivity')
  }

  if (!held) {
    // Verified death: an approver's confirmation is on file.
    const deaths = active.filter((t) => t.type === 'verified_death')
    if (deaths.length > 0) {
      const reports = db.select({ at: deathReports.createdAt }).from(deathReports).all()
      // Only a confirmation made while the trigger was armed counts: a re-armed trigger starts afresh.
      for (const t of deaths) if (reports.some((r) => r.at >= t.updatedAt)) fireOne(t, 'verified_death')
    }
    // Failed unlock attempts: enough failures that waited out their forgiving time inside the
    // trigger's window; else a wakeup when the next one's ends (worker/engine/unlock-failures.ts).
    tickFailedUnlocks(u, active, (t) => fireOne(t, 'biometric_failure'), wakeups)
    // Loss of trusted devices: no trusted device used for the trigger's days (worker/engine/device-loss.ts).
    tickDeviceLoss(u, active, (t) => fireOne(t, 'device_loss'), wakeups)
    for (const t of active.filter((t) => t.type === 'scheduled' && t.fireAt !== null && t.fireAt <= now)) fireOne(t, 'scheduled')
    // Items with their own date, not fired yet.
    const dueItems = db
      .select({ id: vaultItems.id })
      .from(vaultItems)
      .where(and(eq(vaultItems.status, 'active'), eq(vaultItems.releaseProtocol, 'SCHEDULED'), lte(vaultItems.scheduledAt, now), itemFiredYet(u)))
      .all()
    for (const item of dueItems) fireOne(null, 'scheduled_item', item.id)
  } else {
    wakeups.push(account.paymentGraceUntil)
  }

  // Frozen: nothing moves on to the heirs either, until the owner keeps the account.
  if (!frozen) advanceReleases(u)

  const nextScheduled = db
    .select({ at: min(triggers.fireAt) })
    .from(triggers)
    .where(and(eq(triggers.status, 'active'), eq(triggers.type, 'scheduled'), gt(triggers.fireAt, now)))
    .get()
  const nextItem = db
    .select({ at: min(vaultItems.scheduledAt) })
    .from(vaultItems)
    .where(and(eq(vaultItems.status, 'active'), eq(vaultItems.releaseProtocol, 'SCHEDULED'), gt(vaultItems.scheduledAt, now), itemFiredYet(u)))
    .get()
  const nextRelease = db
    .select({ at: min(releases.releaseAt) })
    .from(releases)
    .where(and(eq(releases.status, 'waiting'), gt(releases.releaseAt, now)))
    .get()
  wakeups.push(nextScheduled?.at ?? null, nextItem?.at ?? null, nextRelease?.at ?? null)
  const future = wakeups.filter((w): w is number => w !== null && w > now)
  return { state, nextAt: future.length ? Math.min(...future) : null, fired, held }
}
