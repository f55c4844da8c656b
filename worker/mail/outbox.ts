import { and, asc, desc, eq, lt, lte, or, sql } from 'drizzle-orm'
import { OUTBOX_RETENTION_MS } from './retention'
import type { OutboxMessage } from '../../contract/auth'
import type { Db } from '../db/client'
import { emailOutbox } from '../db/schema'
import type { MailSender } from './sender'
import type { RenderedEmail } from './templates'

const MAX_ATTEMPTS = 8
export { OUTBOX_RETENTION_MS }
const RETRY_BASE_MS = 60_000
// A delivery first claims its row for this long, so a sweep running at the same moment as the
// request's own delivery cannot send the same message twice.
const CLAIM_LEASE_MS = 5 * 60_000

export interface EnqueuedEmail {
  id: string
}

/**
 * Records a message in the outbox. The row is the durable promise to send: the caller delivers it
 * right away (deliverOne, usually in waitUntil), and the cron sweep retries whatever failed.
 */
export async function enqueueEmail(
  db: Db,
  message: RenderedEmail & { to: string; kind: string },
  now = Date.now(),
): Promise<EnqueuedEmail> {
  const id = crypto.randomUUID()
  await db.insert(emailOutbox).values({
    id,
    toAddress: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    kind: message.kind,
    createdAt: now,
    nextAttemptAt: now,
  })
  return { id }
}

export async function deliverOne(db: Db, sender: MailSender, id: string, now = Date.now()): Promise<boolean> {
  const [row] = await db
    .update(emailOutbox)
    .set({ nextAttemptAt: now + CLAIM_LEASE_MS })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
    .returning()
  if (!row) return false
  try {
    await sender.send({ to: row.toAddress, subject: row.subject, text: row.text, html: row.html })
    await db
      .update(emailOutbox)
      .set({ status: 'sent', sentAt: now, attempts: row.attempts + 1, lastError: null, ...(sender.keepDelivered ? {} : { text: '', html: '' }) })
      .where(eq(emailOutbox.id, id))
    return true
  } catch (error) {
    const attempts = row.attempts + 1
    const message = error instanceof Error ? error.message : String(error)
    console.error(`email ${id} (${row.kind}) attempt ${attempts} failed: ${message}`)
    await db
      .update(emailOutbox)
      .set({
        attempts,
        lastError: message.slice(0, 500),
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        nextAttemptAt: now + RETRY_BASE_MS * 2 ** (attempts - 1),
      })
      .where(eq(emailOutbox.id, id))
    return false
  }
}

/** Cron: retries every pending message whose next attempt is due. */
export async function deliverDue(db: Db, sender: MailSender, now = Date.now(), batch = 50): Promise<number> {
  const due = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(batch)
  let sent = 0
  for (const { id } of due) if (await deliverOne(db, sender, id, now)) sent++
  return sent
}

/** Cron: the outbox keeps messages only while they matter (pending ones are never pruned). */
export async function pruneOutbox(db: Db, now = Date.now()): Promise<number> {
  const gone = await db
    .delete(emailOutbox)
    .where(
      or(
        and(eq(emailOutbox.status, 'sent'), lt(emailOutbox.createdAt, now - OUTBOX_RETENTION_MS.sent)),
        and(eq(emailOutbox.status, 'failed'), lt(emailOutbox.createdAt, now - OUTBOX_RETENTION_MS.failed)),
      ),
    )
    .returning({ id: emailOutbox.id })
  return gone.length
}

/** The local mailbox: every message, newest first. */
export async function listOutbox(db: Db, limit = 200): Promise<OutboxMessage[]> {
  const rows = await db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt), desc(sql`rowid`)).limit(limit)
  return rows.map((row) => ({
    to: row.toAddress,
    subject: row.subject,
    text: row.text,
    html: row.html,
    createdAt: new Date(row.createdAt).toISOString(),
  }))
}
