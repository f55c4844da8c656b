import { and, eq, gt, lte, min, notExists, sql } from 'drizzle-orm'
import type { InactivityConfig } from '../../contract/triggers'
import { checkInEmail } from '../mail/release-templates'
import { paymentHeld } from '../owner/account'
import { deathReports, firings, releases, triggers, vaultItems, type TriggerRow } from '../owner/schema'
import type { Unit } from '../owner/unit'
import { advanceReleases } from './advance'
import { clockTimes, dueClockAction, frequencyDays, inactivityFireAt, nextClockAt, type ClockState } from './clock'
import { fire, type FireResult } from './fire'
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
  const frequency = frequencyDays(account.pingFrequency)
  const held = paymentHeld(account, now)
  const active = db.select().from(triggers).where(eq(triggers.status, 'active')).all()
  const inactivity = active.filter((t) => t.type === 'inactivity')
  const fired: FireResult[] = []
  const wakeups: Array<number | null> = []
  const fireOne = (trigger: TriggerRow | null, kind: 'inactivity' | 'verified_death' | 'biometric_failure' | 'scheduled' | 'scheduled_item', itemId?: string) => {
    fired.push(fire(u, { trigger, kind, itemId, reason: null, actor: 'system', lastCheckInAt: state.lastCheckInAt }))
  }

  // The inactivity clock runs while there is an inactivity trigger to serve.
  if (inactivity.length > 0) {
    for (let action = dueClockAction(state, frequency, now); action; action = dueClockAction(state, frequency, now)) {
      if (action === 'expire') {
        state = { ...state, phase: 'expired' }
        continue
      }
      const deadline = clockTimes({ ...state, checkInSentAt: state.checkInSentAt ?? now }, frequency).deadlineAt
      u.mail(account.email, action === 'send_checkin' ? 'check_in' : 'check_in_reminder', checkInEmail({
        displayName: account.displayName,
        checkInUrl: u.signedLink('/check-in', 'checkIn', u.ownerId),
        deadline,
        reminder: action === 'send_reminder',
      }))
      state = action === 'send_checkin' ? { ...state, phase: 'checkin_sent', checkInSentAt: now } : { ...state, phase: 'reminder_sent' }
      u.audit({ actor: 'system', action: action === 'send_checkin' ? 'checkin.requested' : 'checkin.reminded', details: {} })
    }
    wakeups.push(nextClockAt(state, frequency))
    if (state.phase === 'expired') {
      for (const t of inactivity) {
        const at = inactivityFireAt(state, frequency, t.config as Partial<InactivityConfig>)
        if (at > now) wakeups.push(at)
        else if (!held) fireOne(t, 'inactivity')
      }
    }
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

  advanceReleases(u)

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
