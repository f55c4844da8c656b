import { and, eq, gt, lte, min, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import type { BiometricConfig, InactivityConfig } from '../../contract/triggers'
import { deathReports, firings, releases, triggers, unlockFailures, users, vaultItems, type TriggerRow } from '../db/schema'
import { checkInEmail } from '../mail/release-templates'
import { signLinkToken } from '../services/link-tokens'
import { clockTimes, dueClockAction, frequencyDays, inactivityFireAt, nextClockAt, type ClockState } from './clock'
import { link, mail, type EngineCtx } from './context'
import { advanceReleases } from './advance'
import { fire, type FireResult } from './fire'

export interface TickResult {
  state: ClockState
  nextAlarmAt: number | null
  fired: FireResult[]
  held: boolean
}

/**
 * Everything time-driven for one owner, run by the owner's Durable Object (its alarm, a check-in,
 * a report from an approver or the app) and by the sweep when an alarm was lost. Fires what is
 * due unless a payment issue's grace holds it, moves releases on, and says when to look again.
 */
export async function tickOwner(ctx: EngineCtx, ownerId: string, state: ClockState): Promise<TickResult | null> {
  const { db, now } = ctx
  const [owner] = await db.select().from(users).where(eq(users.id, ownerId))
  if (!owner) return null
  const frequency = frequencyDays(owner.pingFrequency)
  const held = owner.paymentGraceUntil !== null && owner.paymentGraceUntil > now
  const active = await db.select().from(triggers).where(and(eq(triggers.ownerId, ownerId), eq(triggers.status, 'active')))
  const inactivity = active.filter((t) => t.type === 'inactivity')
  const fired: FireResult[] = []
  const wakeups: Array<number | null> = []
  const fireOne = async (trigger: TriggerRow | null, kind: 'inactivity' | 'verified_death' | 'biometric_failure' | 'scheduled' | 'scheduled_item', itemId?: string) => {
    fired.push(await fire(ctx, { ownerId, trigger, kind, itemId, reason: null, actor: 'system', lastCheckInAt: state.lastCheckInAt }))
  }

  // The inactivity clock runs while there is an inactivity trigger to serve.
  if (inactivity.length > 0) {
    for (let action = dueClockAction(state, frequency, now); action; action = dueClockAction(state, frequency, now)) {
      if (action === 'expire') {
        state = { ...state, phase: 'expired' }
        continue
      }
      const deadline = clockTimes({ ...state, checkInSentAt: state.checkInSentAt ?? now }, frequency).deadlineAt
      const token = await signLinkToken(ctx.env, 'checkIn', ownerId, undefined, now)
      await mail(ctx, owner.email, action === 'send_checkin' ? 'check_in' : 'check_in_reminder', checkInEmail({
        displayName: owner.displayName,
        checkInUrl: link(ctx.env, '/check-in', { token }),
        deadline,
        reminder: action === 'send_reminder',
      }))
      state = action === 'send_checkin' ? { ...state, phase: 'checkin_sent', checkInSentAt: now } : { ...state, phase: 'reminder_sent' }
      await ctx.audit(ownerId, { actor: 'system', action: action === 'send_checkin' ? 'checkin.requested' : 'checkin.reminded', details: {} })
    }
    wakeups.push(nextClockAt(state, frequency))
    if (state.phase === 'expired') {
      for (const t of inactivity) {
        const at = inactivityFireAt(state, frequency, t.config as Partial<InactivityConfig>)
        if (at > now) wakeups.push(at)
        else if (!held) await fireOne(t, 'inactivity')
      }
    }
  }

  if (!held) {
    // Verified death: an approver's confirmation is on file.
    const deaths = active.filter((t) => t.type === 'verified_death')
    if (deaths.length > 0) {
      const reports = await db.select({ at: deathReports.createdAt }).from(deathReports).where(eq(deathReports.ownerId, ownerId))
      // Only a confirmation made while the trigger was armed counts: a re-armed trigger starts afresh.
      for (const t of deaths) if (reports.some((r) => r.at >= t.updatedAt)) await fireOne(t, 'verified_death')
    }
    // Biometric failure: enough failed attempts inside the trigger's window.
    for (const t of active.filter((t) => t.type === 'biometric_failure')) {
      const config = t.config as Partial<BiometricConfig>
      const since = now - (config.timeWindow ?? 30) * DAY_MS
      const [{ n }] = (await db
        .select({ n: sql<number>`count(*)` })
        .from(unlockFailures)
        .where(and(eq(unlockFailures.ownerId, ownerId), gt(unlockFailures.at, Math.max(since, t.updatedAt))))) as [{ n: number }]
      if (n >= (config.failureThreshold ?? 5)) await fireOne(t, 'biometric_failure')
    }
    for (const t of active.filter((t) => t.type === 'scheduled' && t.fireAt !== null && t.fireAt <= now)) await fireOne(t, 'scheduled')
    // Items with their own date, not fired yet.
    const dueItems = await db
      .select({ id: vaultItems.id })
      .from(vaultItems)
      .where(
        and(
          eq(vaultItems.ownerId, ownerId),
          eq(vaultItems.status, 'active'),
          eq(vaultItems.releaseProtocol, 'SCHEDULED'),
          lte(vaultItems.scheduledAt, now),
          sql`not exists (select 1 from ${firings} where ${firings.id} = 'i:' || ${vaultItems.id})`,
        ),
      )
      .limit(100)
    for (const item of dueItems) await fireOne(null, 'scheduled_item', item.id)
  } else {
    wakeups.push(owner.paymentGraceUntil)
  }

  await advanceReleases(ctx, { ownerId })

  const [nextScheduled] = await db
    .select({ at: min(triggers.fireAt) })
    .from(triggers)
    .where(and(eq(triggers.ownerId, ownerId), eq(triggers.status, 'active'), eq(triggers.type, 'scheduled'), gt(triggers.fireAt, now)))
  const [nextItem] = await db
    .select({ at: min(vaultItems.scheduledAt) })
    .from(vaultItems)
    .where(and(eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'active'), eq(vaultItems.releaseProtocol, 'SCHEDULED'), gt(vaultItems.scheduledAt, now)))
  const [nextRelease] = await db
    .select({ at: min(releases.releaseAt) })
    .from(releases)
    .where(and(eq(releases.ownerId, ownerId), eq(releases.status, 'waiting'), gt(releases.releaseAt, now)))
  wakeups.push(nextScheduled?.at ?? null, nextItem?.at ?? null, nextRelease?.at ?? null)
  const future = wakeups.filter((w): w is number => w !== null && w > now)
  return { state, nextAlarmAt: future.length ? Math.min(...future) : null, fired, held }
}

