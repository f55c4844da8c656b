import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AuditActor } from '../../contract/audit'
import type { CancelOutcome, CancelView, DownloadedCopy } from '../../contract/releases'
import type { ItemType } from '../../contract/vault-items'
import { releaseCancelledOwnerEmail, releaseWithdrawnEmail } from '../mail/release-templates'
import { FIRING_KINDS, ownerActingNow, type FiringKind } from './fire'
import { inSlices, jsonSlices } from '../owner/db'
import { approvers, beneficiaries, deathReports, firingRecipients, firings, triggers } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Firings the owner's own sign of life disproves: every kind that is not the owner acting now. A
// Loss of trusted devices firing is disproved only by a sign of life from a trusted device: use
// from anywhere else is what it watches for, so it cannot stop it. An access request is not about
// the owner's silence (the owner may be in hospital and still sign in): only a refusal stops it.
const DISPROVED_BY_CHECK_IN: readonly FiringKind[] = FIRING_KINDS.filter((kind) => !ownerActingNow(kind) && kind !== 'access_request')
const disprovedBy = (trusted: boolean): readonly FiringKind[] => (trusted ? DISPROVED_BY_CHECK_IN : DISPROVED_BY_CHECK_IN.filter((k) => k !== 'device_loss'))

/** `trusted`: the sign of life came from a device the owner marked as trusted. */
export type CancelScope = { checkIn: true; via?: 'sign-in'; trusted?: boolean } | { firingId: string; via?: 'refusal' } | { releaseId: string }

/**
 * A release is live while it waits, or while anything it made available can still be fetched: an
 * asset not withdrawn, not expired and with downloads left. Only live releases are cancelled (a
 * check-in does not rewrite a release whose items were long since fetched in full).
 */
const live = (now: number) => sql`(r.status = 'waiting' or (r.status = 'released' and exists (
  select 1 from released_assets a where a.release_id = r.id and a.status != 'withdrawn'
    and (a.expires_at is null or a.expires_at > ${now}) and a.download_count < a.max_downloads)))`

function liveReleases(u: Unit, scope: CancelScope): Array<{ id: string; firingId: string }> {
  if ('releaseId' in scope) {
    return u.db.all(sql`select r.id, r.firing_id as firingId from releases r where r.id = ${scope.releaseId} and r.status != 'cancelled'`)
  }
  if ('firingId' in scope) {
    return u.db.all(sql`select r.id, r.firing_id as firingId from releases r where r.firing_id = ${scope.firingId} and r.status != 'cancelled'`)
  }
  const kinds = JSON.stringify(disprovedBy(scope.trusted === true))
  return u.db.all(sql`select r.id, r.firing_id as firingId from releases r join firings f on f.id = r.firing_id
    where f.kind in (select value from json_each(${kinds})) and ${live(u.now)}`)
}

/**
 * Takes back what a firing (or one release of it, or everything a check-in disproves) has not yet
 * put in an heir's hands: waiting releases stop, and every asset they made available is withdrawn
 * at once (no new download ticket, open tickets refused). Heirs who were told of it are told it was
 * withdrawn; the owner is e-mailed what had already been downloaded, which no cancel can take back.
 * A trigger none of whose releases is left is re-armed (its death-report links are void until the
 * owner sends new ones). Runs inside the unit's transaction.
 */
export function cancelReleases(u: Unit, scope: CancelScope, actor: AuditActor): CancelOutcome {
  const { db, now } = u
  const targets = liveReleases(u, scope)
  const ids = targets.map((t) => t.id)
  const firingIds = [...new Set(targets.map((t) => t.firingId))]
  let withdrawnItems = 0
  let downloaded: DownloadedCopy[] = []
  let heirsTold = 0
  if (ids.length > 0) {
    downloaded = downloadsOf(u, ids)
    const idsJson = JSON.stringify(ids)
    for (const slice of jsonSlices(ids)) {
      // An item another release (not cancelled) also gave the same person stays theirs: its asset
      // moves to that release instead of being withdrawn.
      db.run(sql`update released_assets set release_id = coalesce((
          select min(r.id) from release_targets t join releases r on r.id = t.release_id
          where t.item_id = released_assets.item_id and t.beneficiary_id = released_assets.beneficiary_id
            and r.status = 'released' and r.id not in (select value from json_each(${idsJson}))), release_id)
        where release_id in (select value from json_each(${slice})) and status != 'withdrawn'`)
      withdrawnItems += db.get<{ n: number }>(sql`select count(distinct item_id) as n from released_assets
        where release_id in (select value from json_each(${slice})) and status != 'withdrawn'`).n
      db.run(sql`update released_assets set status = 'withdrawn', withdrawn_at = ${now}
        where release_id in (select value from json_each(${slice})) and status != 'withdrawn'`)
      db.run(sql`update releases set status = 'cancelled', cancelled_at = ${now} where id in (select value from json_each(${slice}))`)
    }
    heirsTold = tellHeirs(u, ids, firingIds)
  }
  for (const firingId of firingIds) rearm(u, firingId)
  if ('checkIn' in scope) rearmDisprovedTriggers(u, disprovedBy(scope.trusted === true))
  if (ids.length === 0) return { cancelledReleases: 0, withdrawnItems: 0, heirsTold: 0, downloaded: [] }
  const by = 'checkIn' in scope ? (scope.via ?? 'check-in') : 'firingId' in scope ? (scope.via ?? 'cancel link') : 'owner'
  u.audit({ actor, action: 'release.cancelled', details: { releases: ids.length, withdrawnItems, downloads: downloaded.length, heirsTold, by } })
  u.tell('release_cancelled', releaseCancelledOwnerEmail({ displayName: u.account.displayName, timeZone: u.account.timeZone, releases: ids.length, withdrawnItems, heirsTold, downloaded }))
  return { cancelledReleases: ids.length, withdrawnItems, heirsTold, downloaded }
}

/** Every download already served from these releases: item, person, time (oldest first). */
export function downloadsOf(u: Pick<Unit, 'db'>, releaseIds: string[]): DownloadedCopy[] {
  const rows: Array<{ itemType: string; plainSize: number; itemAddedAt: number; beneficiaryName: string; at: number }> = []
  for (const slice of jsonSlices(releaseIds)) {
    rows.push(
      ...u.db.all<{ itemType: string; plainSize: number; itemAddedAt: number; beneficiaryName: string; at: number }>(sql`
        select v.type as itemType, v.plain_size as plainSize, v.created_at as itemAddedAt, b.full_name as beneficiaryName, s.served_at as at
        from served_tickets s
        join released_assets a on a.id = s.asset_id
        join vault_items v on v.id = a.item_id
        join beneficiaries b on b.id = a.beneficiary_id
        where a.release_id in (select value from json_each(${slice}))`),
    )
  }
  return rows
    .sort((a, b) => a.at - b.at)
    .map((r) => ({
      itemType: r.itemType as ItemType,
      plainSize: r.plainSize,
      itemAddedAt: new Date(r.itemAddedAt).toISOString(),
      beneficiaryName: r.beneficiaryName,
      downloadedAt: new Date(r.at).toISOString(),
    }))
}

/** Heirs these releases were for who were told of their firing: each hears, once, that it was withdrawn. */
function tellHeirs(u: Unit, releaseIds: string[], firingIds: string[]): number {
  const { db } = u
  const told = new Set(
    inSlices(firingIds, (slice) =>
      db.select({ id: firingRecipients.beneficiaryId }).from(firingRecipients).where(inArray(firingRecipients.firingId, slice)).all(),
    ).map((r) => r.id),
  )
  const people = new Set<string>()
  for (const slice of jsonSlices(releaseIds)) {
    for (const r of db.all<{ id: string }>(sql`select distinct beneficiary_id as id from release_targets where release_id in (select value from json_each(${slice}))`)) {
      if (told.has(r.id)) people.add(r.id)
    }
  }
  if (people.size === 0) return 0
  const rows = inSlices([...people], (slice) => db.select().from(beneficiaries).where(inArray(beneficiaries.id, slice)).all())
  for (const b of rows) u.mail(b.email, 'release_withdrawn', releaseWithdrawnEmail({ fullName: b.fullName, ownerName: u.account.displayName }))
  return rows.length
}

/**
 * Re-arms a firing's trigger (under a new generation, in the status it had before it fired; a
 * scheduled one whose date has passed, paused) once none of that firing's releases is left. A
 * verified-death firing the owner cancelled also voids every report link and report: the owner is
 * evidently alive, and a link used (or reused) for a death that did not happen must not start
 * anything again. Fresh links go out only when the owner re-activates the trigger or resends them.
 */
function rearm(u: Unit, firingId: string) {
  const firing = u.db.select().from(firings).where(eq(firings.id, firingId)).get()
  if (!firing?.triggerId) return
  const generation = Number(firingId.split(':')[2])
  const trigger = u.db.select({ fireAt: triggers.fireAt }).from(triggers).where(eq(triggers.id, firing.triggerId)).get()
  // A scheduled trigger whose date has passed would fire again at once: it waits, paused, for the owner.
  const datePassed = trigger?.fireAt != null && trigger.fireAt <= u.now
  const rearmed = u.db
    .update(triggers)
    .set({ status: datePassed ? 'paused' : (firing.priorStatus ?? 'active'), firedAt: null, generation: sql`${triggers.generation} + 1`, updatedAt: u.now })
    .where(
      and(
        eq(triggers.id, firing.triggerId),
        eq(triggers.status, 'triggered'),
        eq(triggers.generation, generation),
        sql`not exists (select 1 from releases where firing_id = ${firingId} and status != 'cancelled')`,
      ),
    )
    .returning({ id: triggers.id })
    .get()
  if (rearmed && firing.kind === 'verified_death') voidDeathReports(u)
}

function voidDeathReports(u: Unit) {
  u.db.update(approvers).set({ deathLinkNonce: null, deathLinkSentAt: null }).run()
  u.db.delete(deathReports).run()
}

/**
 * A check-in re-arms every trigger that fired on something it disproves and has nothing left
 * (an inactivity trigger that fired with nothing to release, say): no trigger stays "Triggered"
 * with nothing under way.
 */
function rearmDisprovedTriggers(u: Unit, disproved: readonly FiringKind[]) {
  const fired = u.db
    .select({ id: triggers.id, generation: triggers.generation })
    .from(triggers)
    .where(eq(triggers.status, 'triggered'))
    .all()
  for (const t of fired) {
    const firingId = `t:${t.id}:${t.generation}`
    const firing = u.db.select({ kind: firings.kind }).from(firings).where(eq(firings.id, firingId)).get()
    if (firing && disproved.includes(firing.kind)) rearm(u, firingId)
  }
}

/** What the owner's cancel link for `firingId` would take back, read before they click. */
export function cancelView(u: Pick<Unit, 'db' | 'now'>, firingId: string): (Omit<CancelView, 'triggerLabel' | 'clockRuns'> & { triggerType: string }) | null {
  const firing = u.db.select().from(firings).where(eq(firings.id, firingId)).get()
  if (!firing) return null
  const rows = u.db.all<{ id: string; status: string; releaseAt: number; live: number }>(sql`
    select r.id, r.status, r.release_at as releaseAt, ${live(u.now)} as live from releases r where r.firing_id = ${firingId}`)
  const liveIds = rows.filter((r) => r.live).map((r) => r.id)
  const waiting = rows.filter((r) => r.status === 'waiting')
  const availableItems = liveIds.length
    ? u.db.get<{ n: number }>(sql`select count(distinct item_id) as n from released_assets
        where release_id in (select value from json_each(${JSON.stringify(liveIds)})) and status = 'available'
          and (expires_at is null or expires_at > ${u.now}) and download_count < max_downloads`).n
    : 0
  const state: CancelView['state'] =
    liveIds.length === 0 ? (rows.length > 0 && rows.every((r) => r.status === 'cancelled') ? 'cancelled' : 'over') : availableItems > 0 ? 'available' : 'waiting'
  return {
    triggerType: firing.triggerType,
    state,
    earliestAt: waiting.length ? new Date(Math.min(...waiting.map((r) => r.releaseAt))).toISOString() : null,
    waitingReleases: waiting.length,
    availableItems,
    downloaded: downloadsOf(u, rows.filter((r) => r.status !== 'waiting').map((r) => r.id)),
  }
}
