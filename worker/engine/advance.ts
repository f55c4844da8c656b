import { DAY_MS } from '../../contract/constants'
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm'
import { RELEASE_LIMITS } from '../../contract/releases'
import { batch } from '../db/raw'
import { beneficiaries, releasedAssets, releases, releaseSignoffs, users, type ReleaseRow } from '../db/schema'
import { assetsReleasedEmail } from '../mail/release-templates'
import { signLinkToken } from '../services/link-tokens'
import { deliverNow, link, type EngineCtx } from './context'

const PAGE_SIZE = 200

export interface AdvanceResult {
  completed: number
  rejected: number
  /** Item–beneficiary deliveries created. */
  assets: number
  beneficiariesNotified: number
}

/**
 * Moves waiting releases on: those whose time has come and whose sign-offs are in become released
 * assets; those that can no longer get enough approvals are closed as rejected. Then assets whose
 * beneficiary's identity was verified since open up, and beneficiaries are told. Safe to run any
 * number of times, from anywhere: every change is a guarded update.
 */
export async function advanceReleases(ctx: EngineCtx, scope: { ownerId?: string; firingId?: string; releaseId?: string } = {}): Promise<AdvanceResult> {
  const result: AdvanceResult = { completed: 0, rejected: 0, assets: 0, beneficiariesNotified: 0 }
  // Paged by id, so a firing of thousands of releases completes in one run, and releases still
  // waiting for sign-offs are passed over rather than read again.
  for (let after = ''; ; ) {
    const due = await ctx.db
      .select()
      .from(releases)
      .where(
        and(
          eq(releases.status, 'waiting'),
          lte(releases.releaseAt, ctx.now),
          gt(releases.id, after),
          scope.ownerId ? eq(releases.ownerId, scope.ownerId) : undefined,
          scope.firingId ? eq(releases.firingId, scope.firingId) : undefined,
          scope.releaseId ? eq(releases.id, scope.releaseId) : undefined,
        ),
      )
      .orderBy(asc(releases.id))
      .limit(PAGE_SIZE)
    for (const release of due) await advanceOne(ctx, release, result)
    if (due.length < PAGE_SIZE) break
    after = due[due.length - 1]!.id
  }
  await openVerifiedAssets(ctx, scope.ownerId)
  result.beneficiariesNotified = await notifyBeneficiaries(ctx, scope.ownerId)
  return result
}

async function advanceOne(ctx: EngineCtx, release: ReleaseRow, result: AdvanceResult) {
  const outcome = await approvalOutcome(ctx, release)
  if (outcome === 'wait') return
  if (outcome === 'rejected') {
    const [closed] = await ctx.db
      .update(releases)
      .set({ status: 'cancelled', cancelledAt: ctx.now })
      .where(and(eq(releases.id, release.id), eq(releases.status, 'waiting')))
      .returning({ id: releases.id })
    if (closed) {
      result.rejected++
      await ctx.audit(release.ownerId, { actor: 'approver', action: 'release.rejected', details: { releaseId: release.id } })
    }
    return
  }
  const created = await complete(ctx, release)
  if (created !== null) {
    result.completed++
    result.assets += created
  }
}

async function approvalOutcome(ctx: EngineCtx, release: ReleaseRow): Promise<'go' | 'wait' | 'rejected'> {
  if (release.requiredApprovals === 0) return 'go'
  const rows = await ctx.db.select().from(releaseSignoffs).where(eq(releaseSignoffs.releaseId, release.id))
  const approved = rows.filter((r) => r.decision === 'approved').length
  const undecided = rows.filter((r) => r.decision === null).length
  if (approved >= release.requiredApprovals) return 'go'
  return approved + undecided < release.requiredApprovals ? 'rejected' : 'wait'
}

/** Released in one transaction: the status change and every asset, or neither. Null if another run won. */
async function complete(ctx: EngineCtx, release: ReleaseRow): Promise<number | null> {
  const { db, now } = ctx
  const token = crypto.randomUUID()
  const expires = now + RELEASE_LIMITS.assetTtlDays * DAY_MS
  const [updated] = await batch(ctx.env, [
    sql`update releases set status = 'released', released_at = ${now}, operation_token = ${token}
      where id = ${release.id} and status = 'waiting'`,
    // An item already released to the same person keeps its first asset (and its counters).
    sql`insert into released_assets (id, release_id, owner_id, beneficiary_id, item_id, status, download_count, max_downloads, expires_at, created_at)
      select lower(hex(randomblob(16))), t.release_id, r.owner_id, t.beneficiary_id, t.item_id,
        case when r.identity_required = 1 and b.identity_status != 'verified' then 'pending_identity' else 'available' end,
        0, ${RELEASE_LIMITS.maxDownloads},
        case when r.identity_required = 1 and b.identity_status != 'verified' then null else ${expires} end,
        ${now}
      from release_targets t
      join releases r on r.id = t.release_id
      join beneficiaries b on b.id = t.beneficiary_id
      join vault_items v on v.id = t.item_id and v.status = 'active'
      join item_grants g on g.item_id = t.item_id and g.beneficiary_id = t.beneficiary_id
      where t.release_id = ${release.id} and r.operation_token = ${token} and r.status = 'released'
      on conflict do nothing`,
  ])
  const won = (updated?.meta.changes ?? 0) > 0
  if (!won) return null
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)` })
    .from(releasedAssets)
    .where(and(eq(releasedAssets.releaseId, release.id)))) as [{ n: number }]
  await ctx.audit(release.ownerId, {
    actor: 'system',
    action: 'release.completed',
    details: { releaseId: release.id, source: release.sourceKey.split(':')[0] ?? '', assets: n },
  })
  return n
}

/** Assets that waited on identity open once the beneficiary is verified; their expiry starts then. */
async function openVerifiedAssets(ctx: EngineCtx, ownerId?: string) {
  const { db, now } = ctx
  await db
    .update(releasedAssets)
    .set({ status: 'available', expiresAt: now + RELEASE_LIMITS.assetTtlDays * DAY_MS, notifiedAt: null })
    .where(
      and(
        eq(releasedAssets.status, 'pending_identity'),
        ownerId ? eq(releasedAssets.ownerId, ownerId) : undefined,
        sql`${releasedAssets.beneficiaryId} in (select id from beneficiaries where identity_status = 'verified')`,
      ),
    )
}

/**
 * One e-mail per beneficiary with news. The outbox row and the "told" marks are written in one
 * transaction, and the row only if the marks were still unset: exactly one message, never none.
 */
async function notifyBeneficiaries(ctx: EngineCtx, ownerId?: string): Promise<number> {
  const { env, db, now } = ctx
  const pending = await db
    .select({
      beneficiaryId: releasedAssets.beneficiaryId,
      n: sql<number>`count(*)`,
      waitingOnIdentity: sql<number>`sum(case when ${releasedAssets.status} = 'pending_identity' then 1 else 0 end)`,
    })
    .from(releasedAssets)
    .where(and(isNull(releasedAssets.notifiedAt), ownerId ? eq(releasedAssets.ownerId, ownerId) : undefined))
    .groupBy(releasedAssets.beneficiaryId)
    .limit(200)
  let told = 0
  for (const p of pending) {
    const [row] = await db
      .select({ b: beneficiaries, ownerName: users.displayName })
      .from(beneficiaries)
      .innerJoin(users, eq(users.id, beneficiaries.ownerId))
      .where(eq(beneficiaries.id, p.beneficiaryId))
    if (!row) continue
    const token = await signLinkToken(env, 'beneficiaryAccess', row.b.id, undefined, now)
    const message = assetsReleasedEmail({
      fullName: row.b.fullName,
      ownerName: row.ownerName,
      count: p.n,
      identityRequired: p.waitingOnIdentity > 0,
      portalUrl: link(env, '/beneficiary-portal', { id: row.b.id, token, view: 'assets' }),
    })
    const id = crypto.randomUUID()
    const unmarked = sql`exists (select 1 from released_assets where beneficiary_id = ${row.b.id} and notified_at is null and created_at <= ${now})`
    const [inserted] = await batch(env, [
      sql`insert into email_outbox (id, to_address, subject, text, html, kind, status, attempts, created_at, next_attempt_at)
        select ${id}, ${row.b.email}, ${message.subject}, ${message.text}, ${message.html}, 'assets_released', 'pending', 0, ${now}, ${now}
        where ${unmarked}`,
      sql`update released_assets set notified_at = ${now} where beneficiary_id = ${row.b.id} and notified_at is null and created_at <= ${now}`,
    ])
    if ((inserted?.meta.changes ?? 0) === 0) continue
    await deliverNow(ctx, id)
    told++
  }
  return told
}
