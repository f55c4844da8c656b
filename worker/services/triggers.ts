import { and, asc, eq, inArray } from 'drizzle-orm'
import { z } from 'zod'
import { TRIGGER_MESSAGES, triggerCreateBodySchema, type InactivityConfig, type Trigger } from '../../contract/triggers'
import { deviceLossFiresAt } from '../engine/device-loss'
import { clockTimes, cycleOf, runningSchedule, type ClockState, type Schedule } from '../engine/clock'
import { badRequest, conflict, notFound } from '../lib/errors'
import { deathReportLinkEmail } from '../mail/release-templates'
import { inSlices, type OwnerDb } from '../owner/db'
import { approvers, beneficiaries, triggers, type TriggerRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

// The owner's triggers, run inside the owner's object.

type CreateBody = z.output<typeof triggerCreateBodySchema>

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

/** The clock as a trigger's view needs it: its state and the schedule it runs on (none without an active inactivity trigger). */
export interface ClockReading {
  state: ClockState
  schedule: Schedule | null
  /** When a trusted device was last used (the Loss of trusted devices trigger's clock). */
  lastTrustedUseAt?: number | null
}

export function toTrigger(row: TriggerRow, clock?: ClockReading): Trigger {
  let nextFireAt: number | null = null
  if (row.status === 'active') {
    if (row.type === 'scheduled') nextFireAt = row.fireAt
    if (row.type === 'device_loss') nextFireAt = deviceLossFiresAt(row, clock?.lastTrustedUseAt ?? null)
    // The trigger the clock runs on fires at the deadline its check-in e-mails name; another
    // active one (data from before one per owner) has no time until it takes over.
    if (row.type === 'inactivity' && clock?.schedule?.triggerId === row.id) {
      nextFireAt = clockTimes(cycleOf(clock.state, clock.schedule), clock.schedule).firesAt
    }
  }
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    config: row.config as Trigger['config'],
    createdAt: new Date(row.createdAt).toISOString(),
    firedAt: iso(row.firedAt),
    nextFireAt: iso(nextFireAt),
  }
}

export function listTriggers(db: OwnerDb): TriggerRow[] {
  return db.select().from(triggers).orderBy(asc(triggers.createdAt)).all()
}

export function findTrigger(db: OwnerDb, id: string): TriggerRow {
  const row = db.select().from(triggers).where(eq(triggers.id, id)).get()
  if (!row) throw notFound(TRIGGER_MESSAGES.triggerNotFound)
  return row
}

export function createTrigger(u: Unit, body: CreateBody): TriggerRow {
  const { db, now } = u
  // One check-in clock per owner, so one inactivity trigger: a second is edited or paused instead.
  if (body.type === 'inactivity' && db.select({ id: triggers.id }).from(triggers).where(eq(triggers.type, 'inactivity')).get()) {
    throw conflict(TRIGGER_MESSAGES.inactivityExists)
  }
  if (body.type === 'scheduled') {
    const ids = [...new Set(body.config.beneficiaries)]
    const owned = inSlices(ids, (slice) => db.select({ id: beneficiaries.id }).from(beneficiaries).where(inArray(beneficiaries.id, slice)).all())
    if (owned.length !== ids.length) throw badRequest(TRIGGER_MESSAGES.unknownBeneficiary)
  }
  const config = body.type === 'scheduled' ? { ...body.config, beneficiaries: [...new Set(body.config.beneficiaries)] } : body.config
  const fireAt = body.type === 'scheduled' ? Date.parse(body.config.releaseDate) : null
  const row = db
    .insert(triggers)
    .values({ id: crypto.randomUUID(), type: body.type, status: body.status, config: config as Record<string, unknown>, fireAt, createdAt: now, updatedAt: now })
    .returning()
    .get()!
  u.audit({ actor: 'user', action: 'trigger.created', details: { triggerId: row.id, type: body.type, status: body.status } })
  if (row.type === 'verified_death' && row.status === 'active') sendDeathReportLinks(u)
  return row
}

export function setTriggerStatus(u: Unit, id: string, status: 'active' | 'paused'): TriggerRow {
  const current = findTrigger(u.db, id)
  if (current.status === 'triggered') throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
  const row = u.db.update(triggers).set({ status, updatedAt: u.now }).where(eq(triggers.id, id)).returning().get()!
  if (current.status !== status) {
    u.audit({ actor: 'user', action: status === 'paused' ? 'trigger.paused' : 'trigger.activated', details: { triggerId: id, type: row.type } })
    // Approvers without a working report link (verified while it was paused, their link used or
    // voided by a cancel) get a fresh one: re-arming is the owner's act.
    if (row.type === 'verified_death' && status === 'active') sendDeathReportLinks(u, { withoutLink: true })
  }
  return row
}

/**
 * An inactivity trigger's new schedule. Its updatedAt moves, so the clock treats it as a new
 * schedule: a check-in e-mail already sent under the old one no longer holds (worker/engine/clock.ts).
 */
export function setInactivitySchedule(u: Unit, id: string, config: InactivityConfig): TriggerRow {
  const current = findTrigger(u.db, id)
  if (current.type !== 'inactivity') throw badRequest(TRIGGER_MESSAGES.scheduleOnlyInactivity)
  if (current.status === 'triggered') throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
  const row = u.db.update(triggers).set({ config: { ...config }, updatedAt: u.now }).where(eq(triggers.id, id)).returning().get()!
  u.audit({ actor: 'user', action: 'trigger.schedule_changed', details: { triggerId: id, type: row.type } })
  return row
}

/** The schedule the check-in clock runs on now (null: no active inactivity trigger, no clock). */
export function clockSchedule(db: OwnerDb): Schedule | null {
  return runningSchedule(db.select().from(triggers).where(and(eq(triggers.type, 'inactivity'), eq(triggers.status, 'active'))).all())
}

/** Whether an active verified-death trigger is waiting for an approver's report. */
export function deathTriggerActive(db: OwnerDb): boolean {
  return !!db.select({ id: triggers.id }).from(triggers).where(and(eq(triggers.type, 'verified_death'), eq(triggers.status, 'active'))).get()
}

/**
 * Sends verified approvers a link to report the owner's death, and notes it: all of them, one
 * (`approverId`, just verified), or those without a working link (`withoutLink`: never sent one,
 * or theirs was used or voided; a trigger activated again). A working link is sent again as it is.
 * Returns how many were sent.
 */
export function sendDeathReportLinks(u: Unit, scope: { approverId?: string; withoutLink?: boolean } = {}): number {
  const list = u.db
    .select()
    .from(approvers)
    .all()
    .filter((a) => a.emailVerifiedAt && (!scope.approverId || a.id === scope.approverId) && (!scope.withoutLink || a.deathLinkNonce === null))
  for (const a of list) {
    // A link still working is sent again as it is (an approver may keep the first e-mail for
    // years); a new one only where none works: never sent, used, or voided by a cancel.
    const nonce = a.deathLinkNonce ?? crypto.randomUUID()
    u.mail(a.email, 'death_report_link', deathReportLinkEmail({
      approverName: a.fullName,
      ownerName: u.account.displayName,
      reportUrl: u.signedLink('/confirm-death', 'deathReport', a.id, {}, nonce),
    }))
    u.db.update(approvers).set({ deathLinkSentAt: u.now, deathLinkNonce: nonce }).where(eq(approvers.id, a.id)).run()
  }
  return list.length
}

/** The triggers page's "Resend report links": every verified approver, again. */
export function resendDeathReportLinks(u: Unit, id: string): number {
  const row = findTrigger(u.db, id)
  if (row.type !== 'verified_death') throw badRequest(TRIGGER_MESSAGES.reportLinksOnlyDeath)
  const sent = sendDeathReportLinks(u)
  if (sent === 0) throw conflict(TRIGGER_MESSAGES.noVerifiedApprovers)
  u.audit({ actor: 'user', action: 'trigger.report_links_sent', details: { triggerId: id, approvers: sent } })
  return sent
}
