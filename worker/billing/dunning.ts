import { mirrorAccount } from '../owner/account'
import { and, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm'
import { DAY_MS, PAYMENT_GRACE_DAYS, PAYMENT_REMINDER_DAYS } from '../../contract/constants'
import type { Db } from '../db/client'
import { paymentIssues, stripeEvents, users, type UserRow } from '../db/schema'
import { sendEmail } from '../mail'
import { enqueueEmail } from '../mail/outbox'
import { graceEndedEmail, paymentIssueEmail, paymentRecoveredEmail, paymentReminderEmail } from './emails'
import { STRIPE_RESEND_MS } from './stripe-constants'

// Dunning (seeds 000 §4 'Payment lifecycle'): a renewal invoice that fails starts the owner's grace
// (unless one is running) and four e-mails follow it, each at most once per invoice: the failure,
// a reminder PAYMENT_REMINDER_DAYS before the grace ends, the grace's end, and the recovery. The
// gates are rows (payment_issues), never the events: Stripe sends an invoice's failure once per
// attempt, may send any event again, and in any order.

type Ctx = Pick<ExecutionContext, 'waitUntil'>

export interface FailedInvoice {
  id: string
  /** Epoch ms. */
  createdAt: number
  amountDue: number
  currency: string
}

/** The key under which a paid invoice is applied once (by its webhook or by the owner's own payment). */
export const paidInvoiceKey = (invoiceId: string) => `paid:${invoiceId}`

/** Whether this invoice's payment has been applied (within the time Stripe can still send its events). */
export async function invoiceWasPaid(db: Db, invoiceId: string): Promise<boolean> {
  const [row] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, paidInvoiceKey(invoiceId)))
  return !!row
}

const accountUrl = (env: Env) => `${env.APP_ORIGIN}/account`

/**
 * An attempt to charge the invoice failed. Its first failure starts a grace of PAYMENT_GRACE_DAYS
 * (or falls in the one running) and tells the owner; later attempts change nothing but the status.
 * The same invoice never starts a second grace.
 */
export async function invoiceFailed(env: Env, ctx: Ctx, db: Db, owner: UserRow, invoice: FailedInvoice, now: number): Promise<void> {
  const running = owner.paymentGraceUntil !== null && owner.paymentGraceUntil > now
  const graceUntil = running ? owner.paymentGraceUntil! : now + PAYMENT_GRACE_DAYS * DAY_MS
  const [issue] = await db
    .insert(paymentIssues)
    .values({
      invoiceId: invoice.id,
      userId: owner.id,
      invoiceCreatedAt: invoice.createdAt,
      amountDue: invoice.amountDue,
      currency: invoice.currency,
      graceUntil,
      failedAt: now,
      failureNoticeAt: running ? null : now,
    })
    .onConflictDoNothing()
    .returning()
  const pastDue = async () => {
    await db.update(users).set({ subscriptionStatus: 'past_due', updatedAt: now }).where(eq(users.id, owner.id))
    await mirrorAccount(owner.id)
  }
  // Another attempt at an invoice already failed, or a second invoice within a running grace
  // (whose owner was told, and whose grace keeps its end).
  if (!issue || running) return void (await pastDue())
  const [started] = await db
    .update(users)
    .set({ subscriptionStatus: 'past_due', paymentGraceUntil: graceUntil, updatedAt: now })
    .where(and(eq(users.id, owner.id), or(isNull(users.paymentGraceUntil), lte(users.paymentGraceUntil, now))))
    .returning()
  if (started) await mirrorAccount(owner.id, started)
  if (!started) {
    // A grace started meanwhile (another invoice's failure, concurrently): this one falls in it.
    await db
      .update(paymentIssues)
      .set({ graceUntil: sql`(select payment_grace_until from users where id = ${owner.id})`, failureNoticeAt: null })
      .where(eq(paymentIssues.invoiceId, invoice.id))
    return void (await pastDue())
  }
  await sendEmail(env, ctx, db, {
    to: started.email,
    kind: 'payment_failed',
    ...paymentIssueEmail({ displayName: started.displayName, amountDue: invoice.amountDue, graceUntil, accountUrl: accountUrl(env), timeZone: started.timezone }),
  })
}

/**
 * The invoice is paid. Returns whether the owner's payment issue is over: no grace was running, or
 * no unpaid invoice newer than this one is left in it (paying an older invoice does not end the
 * issue of a newer one).
 */
export async function invoiceSettled(db: Db, owner: UserRow, invoiceId: string | null, invoiceCreatedAt: number, now: number): Promise<boolean> {
  if (invoiceId) await db.update(paymentIssues).set({ paidAt: now }).where(and(eq(paymentIssues.invoiceId, invoiceId), isNull(paymentIssues.paidAt)))
  if (owner.paymentGraceUntil === null) return true
  const [newer] = await db
    .select({ id: paymentIssues.invoiceId })
    .from(paymentIssues)
    .where(and(eq(paymentIssues.userId, owner.id), isNull(paymentIssues.paidAt), gt(paymentIssues.invoiceCreatedAt, invoiceCreatedAt)))
    .limit(1)
  return !newer
}

/** After an issue is over: the recovery e-mail, once for each invoice that had failed and not yet told of. */
export async function sendRecovery(env: Env, ctx: Ctx, db: Db, owner: UserRow, now: number): Promise<void> {
  const told = await db
    .update(paymentIssues)
    .set({ recoveryNoticeAt: now })
    .where(and(eq(paymentIssues.userId, owner.id), isNotNull(paymentIssues.paidAt), isNull(paymentIssues.recoveryNoticeAt)))
    .returning({ amountDue: paymentIssues.amountDue })
  if (told.length === 0) return
  await sendEmail(env, ctx, db, {
    to: owner.email,
    kind: 'payment_recovered',
    ...paymentRecoveredEmail({ displayName: owner.displayName, amountDue: told.reduce((sum, t) => sum + t.amountDue, 0), accountUrl: accountUrl(env) }),
  })
}

/** How long after its grace (or its payment) an issue is kept: past the time Stripe may resend its events. */
const KEEP_MS = STRIPE_RESEND_MS + 5 * DAY_MS
/** At most this many owners are written to per run; the next run takes the rest. */
const BATCH = 200

/**
 * Cron: the reminder before a grace ends and the notice at its end, for unpaid invoices whose grace
 * is still the owner's (a payment clears users.payment_grace_until). One e-mail per owner and grace
 * covers every invoice in it; each invoice is marked, so none is told twice. Reads only unpaid issues
 * near or past their grace's end (payment_issues_open_idx).
 */
export async function sweepDunning(env: Env, db: Db, now = Date.now()): Promise<{ paymentReminders: number; gracesEnded: number; paymentIssuesForgotten: number }> {
  const reminderFrom = now + PAYMENT_REMINDER_DAYS * DAY_MS
  const open = await db
    .select({
      userId: paymentIssues.userId,
      graceUntil: paymentIssues.graceUntil,
      amountDue: sql<number>`sum(${paymentIssues.amountDue})`,
      remind: sql<number>`max(${paymentIssues.reminderAt} is null and ${paymentIssues.graceUntil} > ${now})`,
      end: sql<number>`max(${paymentIssues.graceEndedAt} is null and ${paymentIssues.graceUntil} <= ${now})`,
      email: users.email,
      displayName: users.displayName,
      timezone: users.timezone,
    })
    .from(paymentIssues)
    .innerJoin(users, and(eq(users.id, paymentIssues.userId), eq(users.paymentGraceUntil, paymentIssues.graceUntil)))
    .where(
      and(
        isNull(paymentIssues.paidAt),
        lte(paymentIssues.graceUntil, reminderFrom),
        gt(paymentIssues.graceUntil, now - KEEP_MS),
        or(and(isNull(paymentIssues.reminderAt), gt(paymentIssues.graceUntil, now)), and(isNull(paymentIssues.graceEndedAt), lte(paymentIssues.graceUntil, now))),
      ),
    )
    .groupBy(paymentIssues.userId, paymentIssues.graceUntil)
    .limit(BATCH)
  let paymentReminders = 0
  let gracesEnded = 0
  for (const o of open) {
    const ending = o.end === 1
    // Claimed before it is sent: a run that overlaps this one finds nothing left to send.
    const claimed = await db
      .update(paymentIssues)
      .set(ending ? { graceEndedAt: now } : { reminderAt: now })
      .where(
        and(
          eq(paymentIssues.userId, o.userId),
          eq(paymentIssues.graceUntil, o.graceUntil),
          isNull(paymentIssues.paidAt),
          ending ? isNull(paymentIssues.graceEndedAt) : isNull(paymentIssues.reminderAt),
        ),
      )
      .returning({ id: paymentIssues.invoiceId })
    if (claimed.length === 0) continue
    const parts = { displayName: o.displayName, amountDue: o.amountDue, graceUntil: o.graceUntil, accountUrl: accountUrl(env), timeZone: o.timezone }
    await enqueueEmail(db, ending ? { to: o.email, kind: 'payment_grace_ended', ...graceEndedEmail(parts) } : { to: o.email, kind: 'payment_reminder', ...paymentReminderEmail(parts) }, now)
    if (ending) gracesEnded++
    else paymentReminders++
  }
  const forgotten = await db
    .delete(paymentIssues)
    .where(or(lt(paymentIssues.paidAt, now - KEEP_MS), and(isNull(paymentIssues.paidAt), lt(paymentIssues.graceUntil, now - KEEP_MS))))
    .returning({ id: paymentIssues.invoiceId })
  return { paymentReminders, gracesEnded, paymentIssuesForgotten: forgotten.length }
}
