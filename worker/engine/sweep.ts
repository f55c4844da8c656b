import { and, eq, isNotNull, lte, sql } from 'drizzle-orm'
import { getDb } from '../db/client'
import { ownerClocks, releases, triggers, vaultItems } from '../db/schema'
import { advanceReleases } from './advance'
import { engineCtx } from './context'

// An alarm this late is taken as lost (alarms are retried by the runtime, but not forever).
const LOST_AFTER_MS = 60_000

/**
 * The safety net under the owners' alarms: every owner with something overdue (an alarm that did
 * not ring, a scheduled date passed, a release whose time has come) gets their object ticked, and
 * whatever remains is moved on directly. Everything it calls is idempotent.
 */
export async function sweepEngine(env: Env, now = Date.now()): Promise<{ ownersTicked: number; releasesCompleted: number }> {
  const db = getDb(env)
  const overdue = await db
    .select({ ownerId: ownerClocks.ownerId })
    .from(ownerClocks)
    .where(and(isNotNull(ownerClocks.nextAlarmAt), lte(ownerClocks.nextAlarmAt, now - LOST_AFTER_MS)))
    .limit(200)
  const scheduled = await db
    .selectDistinct({ ownerId: triggers.ownerId })
    .from(triggers)
    .where(and(eq(triggers.status, 'active'), eq(triggers.type, 'scheduled'), lte(triggers.fireAt, now)))
    .limit(200)
  const items = await db
    .selectDistinct({ ownerId: vaultItems.ownerId })
    .from(vaultItems)
    .where(
      and(
        eq(vaultItems.status, 'active'),
        eq(vaultItems.releaseProtocol, 'SCHEDULED'),
        lte(vaultItems.scheduledAt, now),
        sql`not exists (select 1 from firings where firings.id = 'i:' || ${vaultItems.id})`,
      ),
    )
    .limit(200)
  const waiting = await db
    .selectDistinct({ ownerId: releases.ownerId })
    .from(releases)
    .where(and(eq(releases.status, 'waiting'), lte(releases.releaseAt, now - LOST_AFTER_MS)))
    .limit(200)
  const owners = new Set([...overdue, ...scheduled, ...items, ...waiting].map((r) => r.ownerId))
  for (const ownerId of owners) {
    try {
      await env.OWNER_GUARD.get(env.OWNER_GUARD.idFromName(ownerId)).tick(ownerId, now)
    } catch (error) {
      console.error(`sweep: tick for ${ownerId} failed`, error)
    }
  }
  // Approvals or identity checks that arrived between alarms, and any notices still owed.
  const advanced = await advanceReleases(engineCtx(env, now))
  return { ownersTicked: owners.size, releasesCompleted: advanced.completed }
}
