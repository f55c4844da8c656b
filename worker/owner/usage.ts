import { inArray, sql } from 'drizzle-orm'
import type { OwnerDb } from './db'
import { vaultItems, type VaultItemRow } from './schema'

/** Items and bytes the vault holds, uploads in progress included (they count against the plan). */
export function vaultUsage(db: OwnerDb, statuses: Array<VaultItemRow['status']> = ['active', 'uploading']) {
  const row = db
    .select({ items: sql<number>`count(*)`, bytes: sql<number>`coalesce(sum(${vaultItems.cipherSize}), 0)` })
    .from(vaultItems)
    .where(inArray(vaultItems.status, statuses))
    .get()
  return { items: row?.items ?? 0, bytes: row?.bytes ?? 0 }
}
