import { asc, inArray } from 'drizzle-orm'
import { getDb } from '../db/client'
import { emailOutbox } from '../db/schema'
import { deliverOne } from '../mail/outbox'
import { cloudflareSender } from '../mail/sender'
import type { OwnerDb } from './db'
import { pendingMail } from './schema'

const BATCH = 50

/**
 * Hands the e-mails that committed acts decided to send over to D1's outbox (same ids, so a
 * repeated hand-over inserts nothing twice), drops them here, and returns the ids to deliver.
 * If D1 cannot be reached they stay here and the object's alarm tries again.
 */
export async function handOverMail(env: Env, db: OwnerDb): Promise<string[]> {
  const handed: string[] = []
  for (;;) {
    const rows = db.select().from(pendingMail).orderBy(asc(pendingMail.createdAt)).limit(BATCH).all()
    if (rows.length === 0) return handed
    const d1 = getDb(env)
    const [first, ...rest] = rows.map((r) =>
      d1
        .insert(emailOutbox)
        .values({ id: r.id, toAddress: r.toAddress, subject: r.subject, text: r.text, html: r.html, kind: r.kind, createdAt: r.createdAt, nextAttemptAt: r.createdAt })
        .onConflictDoNothing(),
    )
    await d1.batch([first!, ...rest])
    const ids = rows.map((r) => r.id)
    db.delete(pendingMail).where(inArray(pendingMail.id, ids)).run()
    handed.push(...ids)
  }
}

export function hasPendingMail(db: OwnerDb): boolean {
  return db.select({ id: pendingMail.id }).from(pendingMail).limit(1).get() !== undefined
}

/** Sends what was handed over; anything that fails stays pending in D1 for the cron's retries. */
export async function deliver(env: Env, ids: string[]): Promise<void> {
  const d1 = getDb(env)
  const sender = cloudflareSender(env)
  for (const id of ids) {
    try {
      await deliverOne(d1, sender, id)
    } catch (error) {
      console.error(`email ${id}: delivery failed; the sweep retries it`, error)
    }
  }
}
