import { ownerVault } from '../owner/client'

// An alarm this late is taken as lost (alarms are retried by the runtime, but not forever).
const LOST_AFTER_MS = 60_000
// Owners woken per run, and at once: the rest wait for the next run, five minutes later.
const OWNERS_PER_RUN = 1000
const IN_FLIGHT = 16

/**
 * The safety net under the owners' alarms. Each owner's object writes the time it next needs to
 * run into the directory (users.next_due_at); this reads only the rows whose time passed more than
 * a minute ago (a partial index holds just the owners with something due) and wakes those objects, whose tick runs
 * whatever is due. Everything a tick does is idempotent.
 */
export async function sweepEngine(env: Env, now = Date.now()): Promise<{ ownersWoken: number; directoryRowsRead: number }> {
  const { results, meta } = await env.DB.prepare(
    'select id as ownerId from users where next_due_at is not null and next_due_at <= ? order by next_due_at limit ?',
  )
    .bind(now - LOST_AFTER_MS, OWNERS_PER_RUN)
    .all<{ ownerId: string }>()
  const queue = results.map((r) => r.ownerId)
  const wake = async () => {
    for (let ownerId = queue.shift(); ownerId; ownerId = queue.shift()) {
      try {
        await ownerVault(env, ownerId).tick(now)
      } catch (error) {
        console.error(`sweep: waking ${ownerId} failed`, error)
      }
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, wake))
  return { ownersWoken: results.length, directoryRowsRead: meta.rows_read }
}
