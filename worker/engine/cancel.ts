import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AuditActor } from '../../contract/audit'
import { firings, releases, triggers } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Firings the owner's own sign of life disproves. A manual release was the owner's own act and a
// scheduled one the owner's own date: a check-in leaves those alone.
const DISPROVED_BY_CHECK_IN = ['inactivity', 'verified_death', 'biometric_failure'] as const

export type CancelScope = { checkIn: true; via?: 'sign-in' } | { firingId: string } | { releaseId: string }

/**
 * Cancels the owner's waiting releases: all that a check-in disproves, one firing's (the e-mailed
 * cancel link), or one release (the monitor). A trigger none of whose releases went out is
 * re-armed under a new generation, so it can fire again later.
 */
export function cancelWaiting(u: Unit, scope: CancelScope, actor: AuditActor): number {
  const cancelled = u.db
    .update(releases)
    .set({ status: 'cancelled', cancelledAt: u.now })
    .where(
      and(
        eq(releases.status, 'waiting'),
        'checkIn' in scope
          ? sql`${releases.firingId} in (select ${firings.id} from ${firings} where ${inArray(firings.kind, [...DISPROVED_BY_CHECK_IN])})`
          : undefined,
        'firingId' in scope ? eq(releases.firingId, scope.firingId) : undefined,
        'releaseId' in scope ? eq(releases.id, scope.releaseId) : undefined,
      ),
    )
    .returning({ id: releases.id, firingId: releases.firingId })
    .all()
  for (const firingId of new Set(cancelled.map((c) => c.firingId))) rearm(u, firingId)
  if ('checkIn' in scope) rearmSilentTriggers(u)
  if (cancelled.length === 0) return 0
  u.audit({
    actor,
    action: 'release.cancelled',
    details: { releases: cancelled.length, by: 'checkIn' in scope ? (scope.via ?? 'check-in') : 'firingId' in scope ? 'cancel link' : 'owner' },
  })
  return cancelled.length
}

/** Re-arms a firing's trigger if nothing of that firing was released. */
function rearm(u: Unit, firingId: string) {
  const firing = u.db.select().from(firings).where(eq(firings.id, firingId)).get()
  if (!firing?.triggerId) return
  const generation = Number(firingId.split(':')[2])
  u.db
    .update(triggers)
    .set({ status: 'active', firedAt: null, generation: sql`${triggers.generation} + 1`, updatedAt: u.now })
    .where(
      and(
        eq(triggers.id, firing.triggerId),
        eq(triggers.status, 'triggered'),
        eq(triggers.generation, generation),
        sql`not exists (select 1 from releases where firing_id = ${firingId} and status != 'cancelled')`,
      ),
    )
    .run()
}

/** An inactivity trigger that fired with nothing to release is re-armed by the owner's check-in. */
function rearmSilentTriggers(u: Unit) {
  const fired = u.db
    .select({ id: triggers.id, generation: triggers.generation })
    .from(triggers)
    .where(and(eq(triggers.type, 'inactivity'), eq(triggers.status, 'triggered')))
    .all()
  for (const t of fired) rearm(u, `t:${t.id}:${t.generation}`)
}
