import { desc, eq, sql } from 'drizzle-orm'
import type { AdminAction } from '../../../contract/admin'
import type { Db } from '../../db/client'
import { adminActions, users } from '../../db/schema'

// The administrators' audit trail (admin_actions). Written after the act succeeded; details carry
// amounts, days, codes and statuses only (never secrets, e-mail addresses or free-text reasons).

export type AdminActionName = AdminAction['action']
export type AdminActionDetails = AdminAction['details']

export async function recordAdminAction(
  db: Db,
  adminId: string,
  action: AdminActionName,
  targetUserId: string | null,
  details: AdminActionDetails = {},
  now = Date.now(),
): Promise<void> {
  try {
    await db.insert(adminActions).values({ id: crypto.randomUUID(), adminId, action, targetUserId, details, createdAt: now })
  } catch (error) {
    // The act itself happened: a failed trail entry is logged, not turned into a failed request.
    console.error(`admin action ${action} by ${adminId}: recording it failed`, error)
  }
}

export async function listAdminActions(db: Db, limit = 100): Promise<AdminAction[]> {
  const rows = await db
    .select({ action: adminActions, adminEmail: users.email })
    .from(adminActions)
    .leftJoin(users, eq(users.id, adminActions.adminId))
    .orderBy(desc(adminActions.createdAt), desc(sql`"admin_actions"."rowid"`))
    .limit(limit)
  return rows.map(({ action: a, adminEmail }) => ({
    id: a.id,
    adminId: a.adminId,
    adminEmail: adminEmail ?? null,
    action: a.action as AdminActionName,
    targetUserId: a.targetUserId,
    details: a.details,
    createdAt: new Date(a.createdAt).toISOString(),
  }))
}
