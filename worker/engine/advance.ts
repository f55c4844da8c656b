import { and, asc, eq, isNull, lte, ne, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import { RELEASE_LIMITS } from '../../contract/releases'
import { assetsReleasedEmail } from '../mail/release-templates'
import { beneficiaries, releasedAssets, releases, releaseSignoffs, type ReleaseRow } from '../owner/schema'
import { jsonSlices } from '../owner/db'
import type { Unit } from '../owner/unit'

export interface AdvanceResult {
  completed: number
  rejected: number
  /** Item–beneficiary deliveries created. */
  assets: number
  beneficiariesNotified: number
}

/**
 * Moves the owner's waiting releases on: those whose time has come and whose sign-offs are in
 * become released assets; those that can no longer get enough approvals are closed as rejected.
 * Then assets whose beneficiary's identity was verified since open up, and beneficiaries are told.
 * Runs inside the unit's transaction; safe to run any number of times.
 */
export function advanceReleases(u: Unit, scope: { firingId?: string; releaseId?: string } = {}): AdvanceResult {
  const result: AdvanceResult = { completed: 0, rejected: 0, assets: 0, beneficiariesNotified: 0 }
  const due = u.db
    .select()
    .from(releases)
    .where(
      and(
        eq(releases.status, 'waiting'),
        lte(releases.releaseAt, u.now),
        scope.firingId ? eq(releases.firingId, scope.firingId) : undefined,
        scope.releaseId ? eq(releases.id, scope.releaseId) : undefined,
      ),
    )
    .orderBy(asc(releases.id))
    .all()
  const go: ReleaseRow[] = []
  for (const release of due) {
    const outcome = approvalOutcome(u, release)
    if (outcome === 'go') go.push(release)
    else if (outcome === 'rejected') reject(u, release, result)
  }
  result.assets += completeAll(u, go)
  result.completed += go.length
  openVerifiedAssets(u)
  result.beneficiariesNotified = notifyBeneficiaries(u)
  settleAccessRequests(u)
  return result
}

/** Access requests whose release went (released), or came to nothing (withdrawn): contract/access-requests.ts. */
function settleAccessRequests(u: Unit) {
  u.db.run(sql`update access_requests set status = 'released', decided_at = coalesce(decided_at, ${u.now})
    where status in ('waiting', 'approved')
      and exists (select 1 from releases r where r.firing_id = access_requests.firing_id and r.status = 'released')
      and not exists (select 1 from releases r where r.firing_id = access_requests.firing_id and r.status = 'waiting')`)
  u.db.run(sql`update access_requests set status = 'withdrawn', decided_at = coalesce(decided_at, ${u.now})
    where status in ('waiting', 'approved')
      and not exists (select 1 from releases r where r.firing_id = access_requests.firing_id and r.status != 'cancelled')`)
}

function reject(u: Unit, release: ReleaseRow, result: AdvanceResult) {
  u.db.update(releases).set({ status: 'cancelled', cancelledAt: u.now }).where(eq(releases.id, release.id)).run()
  result.rejected++
  u.audit({ actor: 'approver', action: 'release.rejected', details: { releaseId: release.id } })
}

function approvalOutcome(u: Unit, release: ReleaseRow): 'go' | 'wait' | 'rejected' {
  if (release.requiredApprovals === 0) return 'go'
  const rows = u.db.select().from(releaseSignoffs).where(eq(releaseSignoffs.releaseId, release.id)).all()
  const approved = rows.filter((r) => r.decision === 'approved').length
  const undecided = rows.filter((r) => r.decision === null).length
  if (approved >= release.requiredApprovals) return 'go'
  return approved + undecided < release.requiredApprovals ? 'rejected' : 'wait'
}

/**
 * The releases and every asset they hand over, a few statements for any number of them (a firing
 * of a thousand items by their own protocol is a thousand releases), with one audit entry each, in
 * order. Returns how many assets they hold.
 */
function completeAll(u: Unit, all: ReleaseRow[]): number {
  const { db, now } = u
  const expires = now + RELEASE_LIMITS.assetTtlDays * DAY_MS
  const counts = new Map<string, number>()
  for (const ids of jsonSlices(all.map((r) => r.id))) {
    db.run(sql`update releases set status = 'released', released_at = ${now} where id in (select value from json_each(${ids}))`)
    // A withdrawn asset (the owner cancelled an earlier release of the same item to the same
    // person) makes way for this release's: a new asset, with its own downloads and expiry.
    db.run(sql`delete from released_assets where status = 'withdrawn' and exists (
      select 1 from release_targets t where t.release_id in (select value from json_each(${ids}))
        and t.item_id = released_assets.item_id and t.beneficiary_id = released_assets.beneficiary_id)`)
    // An item already released to the same person keeps its first asset (and its counters): the
    // earliest release (by id, the order they are completed in) gets it.
    db.run(sql`insert into released_assets (id, release_id, beneficiary_id, item_id, status, download_count, max_downloads, expires_at, created_at)
      select lower(hex(randomblob(16))), t.release_id, t.beneficiary_id, t.item_id,
        case when r.identity_required = 1 and b.identity_status != 'verified' then 'pending_identity' else 'available' end,
        0, ${RELEASE_LIMITS.maxDownloads},
        case when r.identity_required = 1 and b.identity_status != 'verified' then null else ${expires} end,
        ${now}
      from release_targets t
      join releases r on r.id = t.release_id
      join beneficiaries b on b.id = t.beneficiary_id
      join vault_items v on v.id = t.item_id and v.status = 'active'
      join item_grants g on g.item_id = t.item_id and g.beneficiary_id = t.beneficiary_id
      where t.release_id in (select value from json_each(${ids}))
      order by t.release_id
      on conflict do nothing`)
    for (const row of db.all<{ releaseId: string; n: number }>(
      sql`select release_id as releaseId, count(*) as n from released_assets where release_id in (select value from json_each(${ids})) group by release_id`,
    )) counts.set(row.releaseId, row.n)
  }
  u.auditMany(all.map((r) => ({ actor: 'system', action: 'release.completed', details: { releaseId: r.id, source: r.sourceKey.split(':')[0] ?? '', assets: counts.get(r.id) ?? 0 } })))
  let assets = 0
  for (const n of counts.values()) assets += n
  return assets
}

/** Assets that waited on identity open once the beneficiary is verified; their expiry starts then. */
function openVerifiedAssets(u: Unit) {
  u.db
    .update(releasedAssets)
    .set({ status: 'available', expiresAt: u.now + RELEASE_LIMITS.assetTtlDays * DAY_MS, notifiedAt: null })
    .where(
      and(
        eq(releasedAssets.status, 'pending_identity'),
        sql`${releasedAssets.beneficiaryId} in (select id from beneficiaries where identity_status = 'verified')`,
      ),
    )
    .run()
}

/** One e-mail per beneficiary with news, and the "told" marks, in the same transaction. */
function notifyBeneficiaries(u: Unit): number {
  const { db, now, account } = u
  const pending = db
    .select({
      b: beneficiaries,
      n: sql<number>`count(*)`,
      waitingOnIdentity: sql<number>`sum(case when ${releasedAssets.status} = 'pending_identity' then 1 else 0 end)`,
    })
    .from(releasedAssets)
    .innerJoin(beneficiaries, eq(beneficiaries.id, releasedAssets.beneficiaryId))
    .where(and(isNull(releasedAssets.notifiedAt), ne(releasedAssets.status, 'withdrawn')))
    .groupBy(releasedAssets.beneficiaryId)
    .all()
  for (const { b, n, waitingOnIdentity } of pending) {
    u.mail(b.email, 'assets_released', assetsReleasedEmail({
      fullName: b.fullName,
      ownerName: account.displayName,
      count: n,
      identityRequired: waitingOnIdentity > 0,
      portalUrl: u.signedLink('/beneficiary-portal', 'beneficiaryAccess', b.id, { id: b.id, view: 'assets' }),
    }))
    // Told of these firings: told again if the owner withdraws one.
    db.run(sql`insert or ignore into firing_recipients (firing_id, beneficiary_id, told_at)
      select distinct r.firing_id, a.beneficiary_id, ${now} from released_assets a join releases r on r.id = a.release_id
      where a.beneficiary_id = ${b.id} and a.notified_at is null and a.status != 'withdrawn'`)
    db.update(releasedAssets).set({ notifiedAt: now }).where(and(eq(releasedAssets.beneficiaryId, b.id), isNull(releasedAssets.notifiedAt))).run()
  }
  return pending.length
}
