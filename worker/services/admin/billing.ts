import { DAY_MS } from '../../../contract/constants'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { ADMIN_MESSAGES, type AdminPromoCode, type AdminRefund, type promoCreateBodySchema } from '../../../contract/admin'
import { billingFor } from '../../billing/provider'
import type { Db } from '../../db/client'
import { promoCodes, refunds, type UserRow } from '../../db/schema'
import { conflict, notFound } from '../../lib/errors'
import { effectivePlanTier } from '../users'

// Promotion codes and refunds, as the back office manages them. Amounts are cents throughout.

type PromoRow = typeof promoCodes.$inferSelect
type RefundRow = typeof refunds.$inferSelect

function toAdminPromo(row: PromoRow): AdminPromoCode {
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    type: row.type,
    value: row.value,
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    // Stored as the first instant it is no longer valid; shown as the last valid day (UTC).
    validUntil: row.validUntil === null ? null : new Date(row.validUntil - 1).toISOString().slice(0, 10),
    isActive: row.isActive,
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

export async function listPromoCodes(db: Db): Promise<AdminPromoCode[]> {
  const rows = await db.select().from(promoCodes).orderBy(desc(promoCodes.createdAt), desc(sql`rowid`))
  return rows.map(toAdminPromo)
}

/** A new code; a code already taken (the unique index decides) is a 409. Valid through the whole of `validUntil` (UTC). */
export async function createPromoCode(db: Db, body: z.output<typeof promoCreateBodySchema>, now = Date.now()): Promise<AdminPromoCode> {
  const [row] = await db
    .insert(promoCodes)
    .values({
      id: crypto.randomUUID(),
      code: body.code,
      description: body.description,
      type: body.type,
      value: body.value,
      maxUses: body.maxUses,
      usedCount: 0,
      validUntil: body.validUntil ? Date.parse(`${body.validUntil}T00:00:00Z`) + DAY_MS : null,
      isActive: true,
      createdAt: now,
    })
    .onConflictDoNothing({ target: promoCodes.code })
    .returning()
  if (!row) throw conflict(ADMIN_MESSAGES.promoExists)
  return toAdminPromo(row)
}

/** Deletes a code never used (checked as it is deleted, so a redemption meanwhile keeps it). */
export async function deletePromoCode(db: Db, id: string): Promise<PromoRow> {
  if (id.length > 100) throw notFound(ADMIN_MESSAGES.promoNotFound)
  const [deleted] = await db.delete(promoCodes).where(and(eq(promoCodes.id, id), eq(promoCodes.usedCount, 0))).returning()
  if (deleted) return deleted
  const exists = await db.query.promoCodes.findFirst({ where: eq(promoCodes.id, id), columns: { id: true } })
  throw exists ? conflict(ADMIN_MESSAGES.promoInUse) : notFound(ADMIN_MESSAGES.promoNotFound)
}

function toAdminRefund(row: RefundRow): AdminRefund {
  return {
    id: row.id,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    // A deleted account's refund keeps its snapshot; its id is then the empty string.
    user: { id: row.userId ?? '', email: row.userEmail, planTier: row.userPlan },
  }
}

export async function listRefunds(db: Db): Promise<AdminRefund[]> {
  const rows = await db.select().from(refunds).orderBy(desc(refunds.createdAt), desc(sql`rowid`))
  return rows.map(toAdminRefund)
}

/**
 * Issues the refund through the billing provider (without billing: recorded as completed, nothing
 * to return; with Stripe: the latest paid charge is refunded) and records it. A provider refusal
 * records nothing and answers its error.
 */
export async function issueRefund(
  env: Env,
  db: Db,
  admin: UserRow,
  target: UserRow,
  req: { amountCents: number; reason: string },
  now = Date.now(),
): Promise<AdminRefund> {
  const id = crypto.randomUUID()
  const outcome = await billingFor(env).refund(target, { ...req, idempotencyKey: id })
  const [row] = await db
    .insert(refunds)
    .values({
      id,
      userId: target.id,
      userEmail: target.email,
      userPlan: effectivePlanTier(target),
      amount: req.amountCents,
      reason: req.reason,
      status: outcome.status,
      providerRef: outcome.providerRef,
      createdBy: admin.id,
      createdAt: now,
    })
    .returning()
  return toAdminRefund(row!)
}
