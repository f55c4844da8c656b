import { and, eq, inArray, sql } from 'drizzle-orm'
import type { AuditActor } from '../../contract/audit'
import { firings, releases, triggers } from '../db/schema'
import type { EngineCtx } from './context'

// Firings the owner's own sign of life disproves. A manual release was the owner's own act and a
// scheduled one the owner's own date: a check-in leaves those alone.
const DISPROVED_BY_CHECK_IN = ['inactivity', 'verified_death', 'biometric_failure'] as const

export type CancelScope = { checkIn: true } | { firingId: string } | { releaseId: string }

/**
 * Cancels an owner's waiting releases: all that a check-in disproves, one firing's (the e-mailed
 * cancel link), or one release (the monitor). A trigger none of whose releases went out is
 * re-armed under a new generation, so it can fire again later.
 */
export async function cancelWaiting(ctx: EngineCtx, ownerId: string, scope: CancelScope, actor: AuditActor): Promise<number> {
  const { db, now } = ctx
  // One guarded update, however many releases a firing made (no list of ids to bind).
  const cancelled = await db
    .update(releases)
    .set({ status: 'cancelled', cancelledAt: now })
    .where(
      and(
        eq(releases.ownerId, ownerId),
        eq(releases.status, 'waiting'),
        'checkIn' in scope
          ? sql`${releases.firingId} in (select ${firings.id} from ${firings} where ${and(eq(firings.ownerId, ownerId), inArray(firings.kind, [...DISPROVED_BY_CHECK_IN]))})`
          : undefined,
        'firingId' in scope ? eq(releases.firingId, scope.firingId) : undefined,
        'releaseId' in scope ? eq(releases.id, scope.releaseId) : undefined,
      ),
    )
    .returning({ id: releases.id, firingId: releases.firingId })
  if (cancelled.length === 0) {
    if ('checkIn' in scope) await rearmSilentTriggers(ctx, ownerId)
    return 0
  }
  for (const firingId of new Set(cancelled.map((c) => c.firingId))) await rearm(ctx, firingId)
  if ('checkIn' in scope) await rearmSilentTriggers(ctx, ownerId)
  await ctx.audit(ownerId, {
    actor,
    action: 'release.cancelled',
    details: { releases: cancelled.length, by: 'checkIn' in scope ? 'check-in' : 'firingId' in scope ? 'cancel link' : 'owner' },
  })
  return cancelled.length
}

/** Re-arms a firing's trigger if nothing of that firing was released. */
async function rearm(ctx: EngineCtx, firingId: string) {
  const { db, now } = ctx
  const [firing] = await db.select().from(firings).where(eq(firings.id, firingId))
  if (!firing?.triggerId) return
  const generation = Number(firingId.split(':')[2])
  await db
    .update(triggers)
    .set({ status: 'active', firedAt: null, generation: sql`${triggers.generation} + 1`, updatedAt: now })
    .where(
      and(
        eq(triggers.id, firing.triggerId),
        eq(triggers.status, 'triggered'),
        eq(triggers.generation, generation),
        sql`not exists (select 1 from releases where firing_id = ${firingId} and status != 'cancelled')`,
      ),
    )
}

/** An inactivity trigger that fired with nothing to release is re-armed by the owner's check-in. */
async function rearmSilentTriggers(ctx: EngineCtx, ownerId: string) {
  const fired = await ctx.db
    .select({ id: triggers.id, generation: triggers.generation })
    .from(triggers)
    .where(and(eq(triggers.ownerId, ownerId), eq(triggers.type, 'inactivity'), eq(triggers.status, 'triggered')))
  for (const t of fired) await rearm(ctx, `t:${t.id}:${t.generation}`)
}
