import { desc, eq, sql } from 'drizzle-orm'
import { HOUR_MS } from '../../contract/constants'
import { DRY_RUN_CAUSE_LABELS, type DryRunCause, type DryRunCauseKind, type DryRunResult, type ReleaseSummary } from '../../contract/triggers'
import { planFiring } from '../engine/plan'
import { paymentHeld, type Account } from '../owner/account'
import type { OwnerDb } from '../owner/db'
import { beneficiaries, firings, releases, releaseSignoffs, type ReleaseRow, type TriggerRow } from '../owner/schema'

// What the Trigger Monitor shows (seeds 001 §2), read inside the owner's object.

const iso = (at: number | null | undefined) => (at == null ? null : new Date(at).toISOString())

const RELEASES_LISTED = 100

function toSummary(r: ReleaseRow, kind: string, triggerId: string | null, approvals: number): Omit<ReleaseSummary, 'itemIds' | 'beneficiaryNames'> {
  return {
    id: r.id,
    triggerId,
    kind,
    source: r.sourceKey.split(':')[0] as ReleaseSummary['source'],
    sourceName: r.sourceName,
    status: r.status,
    releaseAt: iso(r.releaseAt)!,
    approvals,
    requiredApprovals: r.requiredApprovals,
    identityRequired: r.identityRequired,
    createdAt: iso(r.createdAt)!,
    releasedAt: iso(r.releasedAt),
    cancelledAt: iso(r.cancelledAt),
  }
}

/** The newest releases (or one), with their firing, the approvals they have, and what goes to whom. */
/** The kind of the firing that started a release (undefined: no such release). */
export function releaseFiringKind(db: OwnerDb, releaseId: string): string | undefined {
  return db.get<{ kind: string } | undefined>(sql`select f.kind from releases r join firings f on f.id = r.firing_id where r.id = ${releaseId}`)?.kind
}

export function releaseSummaries(db: OwnerDb, releaseId?: string): ReleaseSummary[] {
  const rows = db
    .select({
      r: releases,
      kind: firings.kind,
      triggerId: firings.triggerId,
      approvals: sql<number>`(select count(*) from ${releaseSignoffs} where ${releaseSignoffs.releaseId} = ${releases.id} and ${releaseSignoffs.decision} = 'approved')`,
    })
    .from(releases)
    .innerJoin(firings, eq(firings.id, releases.firingId))
    .where(releaseId ? eq(releases.id, releaseId) : undefined)
    .orderBy(desc(releases.createdAt))
    .limit(RELEASES_LISTED)
    .all()
  // Their targets in one query, for the same releases.
  const targets = db.all<{ releaseId: string; itemId: string; name: string }>(sql`
    select t.release_id as releaseId, t.item_id as itemId, b.full_name as name
    from release_targets t join beneficiaries b on b.id = t.beneficiary_id
    where t.release_id in (select id from releases ${releaseId ? sql`where id = ${releaseId}` : sql``} order by created_at desc limit ${RELEASES_LISTED})`)
  const byRelease = new Map<string, { items: Set<string>; names: Set<string> }>()
  for (const t of targets) {
    const entry = byRelease.get(t.releaseId) ?? { items: new Set<string>(), names: new Set<string>() }
    entry.items.add(t.itemId)
    entry.names.add(t.name)
    byRelease.set(t.releaseId, entry)
  }
  return rows.map(({ r, kind, triggerId, approvals }) => {
    const to = byRelease.get(r.id)
    return { ...toSummary(r, kind, triggerId, approvals), itemIds: [...(to?.items ?? [])], beneficiaryNames: [...(to?.names ?? [])] }
  })
}

/**
 * Exactly what the trigger would hand over, to whom, under which conditions and from when, per
 * cause: firing by itself now (a death report, the grace running out, the failed-unlock limit; a
 * scheduled trigger at its date), and the owner releasing it now. Nothing is written.
 */
export function dryRun(db: OwnerDb, account: Account, trigger: TriggerRow, now: number, lastCheckInAt: number, safetyWindowHours: number): DryRunResult {
  const byId = new Map(db.select().from(beneficiaries).all().map((p) => [p.id, p]))
  const scheduledBeneficiaries = trigger.type === 'scheduled' ? ((trigger.config.beneficiaries as string[]) ?? []) : undefined
  const cause = (kind: DryRunCauseKind, label: string, at: number, manual: boolean): DryRunCause => {
    const safetyWindowMs = manual || trigger.type === 'scheduled' ? 0 : safetyWindowHours * HOUR_MS
    const plans = planFiring(db, { type: trigger.type, manual, triggerId: trigger.id, scheduledBeneficiaries, safetyWindowMs }, at, lastCheckInAt)
    return {
      cause: kind,
      label,
      entries: plans.map((p) => ({
        source: p.source,
        itemIds: [...new Set(p.targets.map((t) => t.itemId))],
        beneficiaries: [...new Set(p.targets.map((t) => t.beneficiaryId))].flatMap((id) => {
          const b = byId.get(id)
          return b
            ? [{ id, fullName: b.fullName, identityRequired: p.identityRequired, identityVerified: b.identityStatus === 'verified', secrecyMode: b.delayNotifications }]
            : []
        }),
        conditions: { delayHours: p.delayHours, minimumApprovals: p.requiredApprovals, approvers: p.signers.map((s) => s.name), identityRequired: p.identityRequired },
      })),
      itemCount: new Set(plans.flatMap((p) => p.targets.map((t) => t.itemId))).size,
      beneficiaryCount: new Set(plans.flatMap((p) => p.targets.map((t) => t.beneficiaryId))).size,
      deliveryCount: new Set(plans.flatMap((p) => p.targets.map((t) => `${t.itemId}|${t.beneficiaryId}`))).size,
      earliestAt: plans.length ? iso(Math.min(...plans.map((p) => p.releaseAt))) : null,
    }
  }
  const firesLabel = DRY_RUN_CAUSE_LABELS[trigger.type]
  const firesAt = trigger.type === 'scheduled' && trigger.fireAt !== null ? Math.max(now, trigger.fireAt) : now
  return {
    triggerId: trigger.id,
    type: trigger.type,
    causes: [
      ...(firesLabel ? [cause('fires', firesLabel, firesAt, false)] : []),
      cause('release_now', DRY_RUN_CAUSE_LABELS.release_now, now, true),
    ],
    paymentHold: paymentHeld(account, now),
    safetyWindowHours: trigger.type === 'scheduled' ? null : safetyWindowHours,
  }
}
