import { and, eq, gt, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import type { BiometricFailureBody } from '../../contract/triggers'
import type { Db } from '../db/client'
import { firings, unlockFailures } from '../db/schema'
import { ownerGuard } from '../services/owner-activity'

/** What failed: the vault passphrase or a security key (the kinds the app may report). */
export type UnlockFailureKind = BiometricFailureBody['kind']

/**
 * Records a failed vault unlock or security-key answer of an owner and lets the engine look at it
 * at once: biometric-failure triggers count these within their window. Nothing is locked: the
 * owner can keep trying; the trigger's own delay and cancel link protect against a false alarm.
 */
export async function recordUnlockFailure(env: Env, db: Db, ownerId: string, kind: UnlockFailureKind, now = Date.now()) {
  await db.insert(unlockFailures).values({ id: crypto.randomUUID(), ownerId, kind, at: now })
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)` })
    .from(unlockFailures)
    .where(and(eq(unlockFailures.ownerId, ownerId), gt(unlockFailures.at, now - 365 * DAY_MS)))) as [{ n: number }]
  const before = await db.select({ id: firings.id }).from(firings).where(eq(firings.ownerId, ownerId))
  await ownerGuard(env, ownerId).tick(ownerId, now)
  const after = await db.select({ id: firings.id }).from(firings).where(eq(firings.ownerId, ownerId))
  return { failures: n, fired: after.length - before.length }
}
