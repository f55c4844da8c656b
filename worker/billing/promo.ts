import { and, eq } from 'drizzle-orm'
import { sql, type SQL } from 'drizzle-orm'
import { BILLING_MESSAGES } from '../../contract/billing'
import type { Db } from '../db/client'
import { promoCodes } from '../db/schema'
import { badRequest } from '../lib/errors'

export type PromoRow = typeof promoCodes.$inferSelect

/** A code as typed (trimmed, upper-cased by the schema) that can be used now, or a 400 naming promotion codes. */
export async function usablePromo(db: Db, code: string, now: number): Promise<PromoRow> {
  const [row] = await db.select().from(promoCodes).where(and(eq(promoCodes.code, code), eq(promoCodes.isActive, true)))
  if (!row || row.usedCount >= row.maxUses || (row.validUntil !== null && row.validUntil <= now)) {
    throw badRequest(BILLING_MESSAGES.promoInvalid)
  }
  return row
}

/**
 * The statement that counts one use, only while the code is still usable. In the same D1 batch
 * (one transaction), the next statement can test `changes() > 0` to act only if this counted, so
 * concurrent subscriptions can never use a code more than `maxUses` times.
 */
export function redeemStatement(promoId: string, now: number): SQL {
  return sql`update promo_codes set used_count = used_count + 1
    where id = ${promoId} and is_active = 1 and used_count < max_uses and (valid_until is null or valid_until > ${now})`
}
