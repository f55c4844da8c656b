import { DAY_MS } from '../../contract/constants'
import { lt, or, isNotNull } from 'drizzle-orm'
import { getDb } from '../db/client'
import { engineState, passwordResets } from '../db/schema'
import { sweepEngine } from '../engine/sweep'
import { sweepDunning } from '../billing/dunning'
import { pruneStripeEvents } from '../billing/stripe-events'
import { sweepSubscriptions } from '../billing/subscriptions'
import { deliverDue, pruneOutbox } from '../mail/outbox'
import { cloudflareSender } from '../mail/sender'
import { purgeDueDeletions, sweepBlobDeletions } from '../services/account-deletion'
import { pruneSignInFailures } from '../services/sign-in-guard'
import { sweepChallenges } from '../webauthn/challenges'

/** Every sweep, in order. Each is idempotent: running twice does no harm, missing one is caught next time. */
export async function runSweeps(env: Env, now = Date.now()): Promise<Record<string, number>> {
  const db = getDb(env)
  // Before the outbox is delivered, so its reminders and notices go in this same run.
  const dunning = await sweepDunning(env, db, now)
  const emailsSent = await deliverDue(db, cloudflareSender(env), now)
  const emailsPruned = await pruneOutbox(db, now)
  const oldResets = await db
    .delete(passwordResets)
    .where(or(lt(passwordResets.expiresAt, now - DAY_MS), isNotNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id })
  const expiredChallenges = await sweepChallenges(db, now)
  const signInFailuresForgotten = await pruneSignInFailures(db, now)
  const deletions = await purgeDueDeletions(env, db, now)
  const blobs = await sweepBlobDeletions(env, db)
  const billing = await sweepSubscriptions(db, now)
  const stripeEventsPruned = await pruneStripeEvents(db, now)
  const engine = await sweepEngine(env, now)
  await db
    .insert(engineState)
    .values({ key: 'lastSweepAt', value: now })
    .onConflictDoUpdate({ target: engineState.key, set: { value: now } })
  return { emailsSent, emailsPruned, oldResets: oldResets.length, expiredChallenges, signInFailuresForgotten, ...deletions, ...blobs, ...billing, ...dunning, stripeEventsPruned, ...engine }
}
