import { and, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { inSlices } from '../db/in-slices'
import { batch } from '../db/raw'
import type { AuditActor } from '../../contract/audit'
import { TRIGGER_TYPE_LABELS, type TriggerType } from '../../contract/triggers'
import { beneficiaries, firings, releases, users, type TriggerRow } from '../db/schema'
import { releaseApprovalRequestEmail, releaseNoticeEmail, releaseStartedOwnerEmail } from '../mail/release-templates'
import { signLinkToken } from '../services/link-tokens'
import { advanceReleases } from './advance'
import { link, mail, type EngineCtx } from './context'
import { planFiring, type PlannedRelease } from './plan'

export type FiringKind = 'inactivity' | 'verified_death' | 'biometric_failure' | 'scheduled' | 'manual' | 'scheduled_item'

export interface FireRequest {
  ownerId: string
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
  releases: number
  transferredItems: number
  beneficiariesNotified: number
  pendingReleases: number
}

// D1 binds at most 100 parameters per statement.
const PAIRS_PER_STATEMENT = 40

export function firingIdFor(trigger: TriggerRow | null, itemId?: string): string {
  return trigger ? `t:${trigger.id}:${trigger.generation}` : `i:${itemId}`
}

/**
 * Fires once. One D1 batch (a transaction) marks the trigger fired, records the firing and writes
 * its releases, targets and sign-offs; every statement after the first acts only if the firing row
 * carries this call's token, so a second alarm, sweep or click for the same firing writes nothing.
 * Then the winner tells people and completes whatever needs no waiting.
 */
export async function fire(ctx: EngineCtx, req: FireRequest): Promise<FireResult> {
  const { db, now } = ctx
  const trigger = req.trigger
  const type: TriggerType = trigger?.type ?? 'scheduled'
  const firingId = firingIdFor(trigger, req.itemId)
  const plans = await planFiring(
    db,
    req.ownerId,
    {
      type,
      manual: req.kind === 'manual',
      triggerId: trigger?.id ?? null,
      scheduledBeneficiaries: trigger?.type === 'scheduled' ? ((trigger.config.beneficiaries as string[] | undefined) ?? []) : undefined,
      onlyItemId: req.itemId,
    },
    now,
    req.lastCheckInAt,
  )
  const token = crypto.randomUUID()
  const won = sql`exists (select 1 from ${firings} where ${firings.id} = ${firingId} and ${firings.operationToken} = ${token})`
  const allowed = req.kind === 'manual' ? ['active', 'paused'] : ['active']
  const statements: SQL[] = []
  if (trigger) {
    statements.push(
      sql`update triggers set status = 'triggered', fired_at = ${now}, updated_at = ${now}
        where id = ${trigger.id} and generation = ${trigger.generation} and status in (${sql.join(allowed.map((s) => sql`${s}`), sql`, `)})`,
      sql`insert into firings (id, owner_id, trigger_id, kind, trigger_type, reason, actor, operation_token, fired_at)
        select ${firingId}, ${req.ownerId}, ${trigger.id}, ${req.kind}, ${type}, ${req.reason}, ${req.actor}, ${token}, ${now}
        from triggers where id = ${trigger.id} and status = 'triggered' and fired_at = ${now} and generation = ${trigger.generation}
        on conflict do nothing`,
    )
  } else {
    statements.push(
      sql`insert into firings (id, owner_id, trigger_id, kind, trigger_type, reason, actor, operation_token, fired_at)
        values (${firingId}, ${req.ownerId}, null, ${req.kind}, ${type}, ${req.reason}, ${req.actor}, ${token}, ${now})
        on conflict do nothing`,
    )
  }
  const releaseIds = plans.map(() => crypto.randomUUID())
  plans.forEach((p, i) => {
    const id = releaseIds[i]!
    statements.push(
      sql`insert into releases (id, owner_id, firing_id, source_key, source_name, policy_id, status, release_at, required_approvals, identity_required, created_at)
        select ${id}, ${req.ownerId}, ${firingId}, ${p.sourceKey}, ${p.sourceName}, ${p.policyId}, 'waiting', ${p.releaseAt}, ${p.requiredApprovals}, ${p.identityRequired ? 1 : 0}, ${now}
        where ${won}`,
    )
    for (let j = 0; j < p.targets.length; j += PAIRS_PER_STATEMENT) {
      const rows = p.targets.slice(j, j + PAIRS_PER_STATEMENT).map((t) => sql`(${t.itemId}, ${t.beneficiaryId})`)
      statements.push(
        sql`insert into release_targets (release_id, item_id, beneficiary_id)
          select ${id}, column1, column2 from (values ${sql.join(rows, sql`, `)}) where ${won}`,
      )
    }
    for (const s of p.signers) {
      statements.push(sql`insert into release_signoffs (release_id, email, name) select ${id}, ${s.email}, ${s.name} where ${won}`)
    }
  })
  await batch(ctx.env, statements)
  const [row] = await db.select({ token: firings.operationToken }).from(firings).where(eq(firings.id, firingId))
  if (row?.token !== token) {
    return { fired: false, firingId, releases: 0, transferredItems: 0, beneficiariesNotified: 0, pendingReleases: 0 }
  }

  const itemCount = new Set(plans.flatMap((p) => p.targets.map((t) => t.itemId))).size
  await ctx.audit(req.ownerId, {
    actor: req.actor,
    action: req.kind === 'manual' ? 'trigger.manual_release' : 'trigger.fired',
    details: { triggerId: trigger?.id ?? null, type, firingId, releases: plans.length, items: itemCount, reason: req.reason },
  })
  await tellPeople(ctx, req, firingId, plans, releaseIds)
  const advanced = await advanceReleases(ctx, { ownerId: req.ownerId, firingId })
  const pending = await db
    .select({ n: sql<number>`count(*)` })
    .from(releases)
    .where(and(eq(releases.firingId, firingId), eq(releases.status, 'waiting')))
  return {
    fired: true,
    firingId,
    releases: plans.length,
    transferredItems: advanced.assets,
    beneficiariesNotified: advanced.beneficiariesNotified,
    pendingReleases: pending[0]?.n ?? 0,
  }
}

/** The owner (cancel link, when anything waits), each approver (own link), and non-secret beneficiaries. */
async function tellPeople(ctx: EngineCtx, req: FireRequest, firingId: string, plans: PlannedRelease[], releaseIds: string[]) {
  const { env, db, now } = ctx
  const [owner] = await db.select().from(users).where(eq(users.id, req.ownerId))
  if (!owner) return
  const label = TRIGGER_TYPE_LABELS[req.trigger?.type ?? 'scheduled'].title
  const waits = plans.filter((p) => p.releaseAt > now || p.requiredApprovals > 0)
  if (waits.length > 0) {
    const token = await signLinkToken(env, 'releaseCancel', firingId, undefined, now)
    await mail(ctx, owner.email, 'release_started', releaseStartedOwnerEmail({
      displayName: owner.displayName,
      triggerLabel: label,
      reason: req.reason,
      releaseAt: Math.min(...waits.map((p) => p.releaseAt)),
      cancelUrl: link(env, '/cancel-release', { token }),
    }))
  }
  for (const [i, p] of plans.entries()) {
    for (const s of p.signers) {
      const token = await signLinkToken(env, 'releaseApproval', `${releaseIds[i]}:${s.email}`, undefined, now)
      await mail(ctx, s.email, 'release_approval', releaseApprovalRequestEmail({
        name: s.name,
        ownerName: owner.displayName,
        policyName: p.sourceName,
        triggerLabel: label,
        approvalUrl: link(env, '/approve-release', { token }),
      }))
    }
  }
  // Secrecy Mode holds everything back until items are actually available.
  const waitingFor = [...new Set(waits.flatMap((p) => p.targets.map((t) => t.beneficiaryId)))]
  if (waitingFor.length === 0) return
  const people = await inSlices(waitingFor, (slice) => db.select().from(beneficiaries).where(inArray(beneficiaries.id, slice)))
  for (const b of people) {
    if (b.delayNotifications || !b.sendAssetNotifications || b.notificationStatus === 'unsubscribed') continue
    await mail(ctx, b.email, 'release_notice', releaseNoticeEmail({ fullName: b.fullName, ownerName: owner.displayName }))
  }
}
