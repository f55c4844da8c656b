import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AuditActor } from '../../contract/audit'
import { TRIGGER_TYPE_LABELS, type TriggerType } from '../../contract/triggers'
import { ownerUnansweredEmail } from '../mail/channel-templates'
import { releaseApprovalRequestEmail, releaseNoticeEmail, releaseStartedOwnerEmail } from '../mail/release-templates'
import { inSlices, jsonSlices } from '../owner/db'
import { beneficiaries, firingRecipients, firings, releases, releaseSignoffs, triggers, type TriggerRow } from '../owner/schema'
import type { Unit } from '../owner/unit'
import { advanceReleases } from './advance'
import { planFiring, type PlannedRelease } from './plan'

export const FIRING_KINDS = ['inactivity', 'verified_death', 'biometric_failure', 'device_loss', 'scheduled', 'manual', 'scheduled_item', 'access_request'] as const
export type FiringKind = (typeof FIRING_KINDS)[number]

export interface FireRequest {
  /** The trigger that fires; absent for an item's own schedule. */
  trigger: TriggerRow | null
  itemId?: string
  kind: FiringKind
  reason: string | null
  actor: AuditActor
  /** The owner's last check-in, for items that wait on N days of silence. */
  lastCheckInAt: number | null
}

export interface FireResult {
  fired: boolean
  firingId: string
  /** Releases written: one per source that named the firing. */
  releases: number
  /** The earliest time a release still waiting may go, or null. */
  waitingUntil: number | null
  transferredItems: number
  releasedItems: number
  beneficiariesNotified: number
  pendingReleases: number
}

/**
 * The owner's own manual release, or a date they scheduled: no safety window, and a check-in does
 * not disprove it. Every other kind waits the window and is cancelled by the owner's sign of life.
 */
export function ownerActingNow(kind: FiringKind): boolean {
  return kind === 'manual' || kind === 'scheduled' || kind === 'scheduled_item'
}

export function firingIdFor(trigger: TriggerRow | null, itemId?: string): string {
  return trigger ? `t:${trigger.id}:${trigger.generation}` : `i:${itemId}`
}

/**
 * Fires once, inside the unit's transaction: marks the trigger fired, records the firing under an
 * id derived from the trigger and its generation (or the item), writes its releases, targets and
 * sign-offs, tells people, and completes whatever needs no waiting. A second alarm, sweep or click
 * for the same firing finds the firing recorded (or the trigger no longer armed) and writes nothing.
 */
export function fire(u: Unit, req: FireRequest): FireResult {
  const { db, now } = u
  const trigger = req.trigger
  const type: TriggerType = trigger?.type ?? 'scheduled'
  const firingId = firingIdFor(trigger, req.itemId)
  const notFired: FireResult = { fired: false, firingId, releases: 0, waitingUntil: null, transferredItems: 0, releasedItems: 0, beneficiariesNotified: 0, pendingReleases: 0 }
  if (db.select({ id: firings.id }).from(firings).where(eq(firings.id, firingId)).get()) return notFired
  if (trigger) {
    const allowed: Array<TriggerRow['status']> = req.kind === 'manual' ? ['active', 'paused'] : ['active']
    const armed = db
      .update(triggers)
      .set({ status: 'triggered', firedAt: now, updatedAt: now })
      .where(and(eq(triggers.id, trigger.id), eq(triggers.generation, trigger.generation), inArray(triggers.status, allowed)))
      .returning({ id: triggers.id })
      .get()
    if (!armed) return notFired
  }
  const plans = planFiring(
    db,
    {
      type,
      manual: req.kind === 'manual',
      triggerId: trigger?.id ?? null,
      scheduledBeneficiaries: trigger?.type === 'scheduled' ? ((trigger.config.beneficiaries as string[] | undefined) ?? []) : undefined,
      onlyItemId: req.itemId,
      safetyWindowMs: ownerActingNow(req.kind) ? 0 : u.safetyWindowMs,
    },
    now,
    req.lastCheckInAt,
  )
  const priorStatus = trigger ? (trigger.status === 'paused' ? 'paused' : 'active') : null
  db.insert(firings).values({ id: firingId, triggerId: trigger?.id ?? null, kind: req.kind, triggerType: type, reason: req.reason, actor: req.actor, firedAt: now, priorStatus }).run()
  const releaseIds = writeReleases(u, firingId, plans)
  for (const p of plans) if (p.releaseAt > now) u.dueAt(p.releaseAt)

  const itemCount = new Set(plans.flatMap((p) => p.targets.map((t) => t.itemId))).size
  u.audit({
    actor: req.actor,
    action: req.kind === 'manual' ? 'trigger.manual_release' : 'trigger.fired',
    details: { triggerId: trigger?.id ?? null, type, firingId, releases: plans.length, items: itemCount, reason: req.reason },
  })
  tellPeople(u, req, firingId, plans, releaseIds)
  const advanced = advanceReleases(u, { firingId })
  const pending = db
    .select({ n: sql<number>`count(*)`, until: sql<number | null>`min(${releases.releaseAt})` })
    .from(releases)
    .where(and(eq(releases.firingId, firingId), eq(releases.status, 'waiting')))
    .get()
  return {
    fired: true,
    firingId,
    releases: plans.length,
    waitingUntil: pending?.n ? (pending.until ?? null) : null,
    transferredItems: advanced.assets,
    releasedItems:
      advanced.assets === 0
        ? 0
        : (db.get<{ n: number }>(sql`select count(distinct item_id) as n from released_assets where release_id in (select id from releases where firing_id = ${firingId})`)?.n ?? 0),
    beneficiariesNotified: advanced.beneficiariesNotified,
    pendingReleases: pending?.n ?? 0,
  }
}

/** The owner (cancel link, when anything waits), each approver (own link), and non-secret beneficiaries. */
function tellPeople(u: Unit, req: FireRequest, firingId: string, plans: PlannedRelease[], releaseIds: string[]) {
  const { db, now, account } = u
  const label = TRIGGER_TYPE_LABELS[req.trigger?.type ?? 'scheduled'].title
  const waits = plans.filter((p) => p.releaseAt > now || p.requiredApprovals > 0)
  // Whatever caused it, the owner hears at once of every firing that hands anything over, at each
  // of their own addresses; the emergency contact the owner opted in, when it was not the owner.
  if (plans.length > 0) {
    u.tell('release_started', releaseStartedOwnerEmail({
      displayName: account.displayName,
      timeZone: account.timeZone,
      triggerLabel: label,
      reason: req.reason,
      releaseAt: Math.min(...plans.map((p) => p.releaseAt)),
      cancelUrl: u.signedLink('/cancel-release', 'releaseCancel', firingId),
      waiting: waits.length > 0,
    }))
    if (!ownerActingNow(req.kind)) {
      u.tell('owner_unanswered', ownerUnansweredEmail({ ownerName: account.displayName, ownerEmail: account.email, ownerPhone: account.phoneNumber }))
    }
  }
  for (const [i, p] of plans.entries()) {
    for (const s of p.signers) {
      u.mail(s.email, 'release_approval', releaseApprovalRequestEmail({
        name: s.name,
        ownerName: account.displayName,
        policyName: p.sourceName,
        triggerLabel: label,
        approvalUrl: u.signedLink('/approve-release', 'releaseApproval', `${releaseIds[i]}:${s.email}`),
      }))
    }
  }
  // Secrecy Mode holds everything back until items are actually available.
  const waitingFor = [...new Set(waits.flatMap((p) => p.targets.map((t) => t.beneficiaryId)))]
  const people = inSlices(waitingFor, (slice) => db.select().from(beneficiaries).where(inArray(beneficiaries.id, slice)).all())
  for (const b of people) {
    if (b.delayNotifications || !b.sendAssetNotifications || b.notificationStatus === 'unsubscribed') continue
    u.mail(b.email, 'release_notice', releaseNoticeEmail({ fullName: b.fullName, ownerName: account.displayName }))
    db.insert(firingRecipients).values({ firingId, beneficiaryId: b.id, toldAt: now }).onConflictDoNothing().run()
  }
}

/**
 * A firing's releases, their targets and their sign-offs, in a few statements (rows from one JSON
 * parameter: a firing of any size is not one statement per release or per target). Returns the
 * release ids, in plan order.
 */
export function writeReleases(u: Unit, firingId: string, plans: PlannedRelease[]): string[] {
  const { db, now } = u
  const ids = plans.map(() => crypto.randomUUID())
  const rows = plans.map((p, i) => ({ id: ids[i], sourceKey: p.sourceKey, sourceName: p.sourceName, policyId: p.policyId, releaseAt: p.releaseAt, requiredApprovals: p.requiredApprovals, identityRequired: p.identityRequired ? 1 : 0 }))
  for (const slice of jsonSlices(rows)) {
    db.run(sql`insert into releases (id, firing_id, source_key, source_name, policy_id, status, release_at, required_approvals, identity_required, created_at)
      select json_extract(r.value, '$.id'), ${firingId}, json_extract(r.value, '$.sourceKey'), json_extract(r.value, '$.sourceName'), json_extract(r.value, '$.policyId'),
        'waiting', json_extract(r.value, '$.releaseAt'), json_extract(r.value, '$.requiredApprovals'), json_extract(r.value, '$.identityRequired'), ${now}
      from json_each(${slice}) as r`)
  }
  const targets = plans.flatMap((p, i) => p.targets.map((t) => [ids[i], t.itemId, t.beneficiaryId]))
  for (const slice of jsonSlices(targets)) {
    db.run(sql`insert into release_targets (release_id, item_id, beneficiary_id)
      select json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), json_extract(t.value, '$[2]') from json_each(${slice}) as t`)
  }
  for (const [i, p] of plans.entries()) for (const s of p.signers) db.insert(releaseSignoffs).values({ releaseId: ids[i]!, email: s.email, name: s.name }).run()
  return ids
}
