import { and, asc, eq } from 'drizzle-orm'
import type { Approver, ApproverForm } from '../../contract/circle'
import type { Db } from '../db/client'
import { approvers, type ApproverRow } from '../db/schema'
import { randomToken } from '../lib/crypto'

export function toApprover(row: ApproverRow): Approver {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    role: row.role,
    verified: row.emailVerifiedAt !== null,
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

export async function listApprovers(db: Db, ownerId: string): Promise<ApproverRow[]> {
  return db.select().from(approvers).where(eq(approvers.ownerId, ownerId)).orderBy(asc(approvers.createdAt))
}

export async function createApprover(
  db: Db,
  ownerId: string,
  body: Required<Omit<ApproverForm, 'sendVerificationEmail'>>,
  now = Date.now(),
): Promise<ApproverRow | null> {
  const rows = await db
    .insert(approvers)
    .values({
      id: crypto.randomUUID(),
      ownerId,
      fullName: body.fullName,
      email: body.email,
      role: body.role,
      verificationNonce: randomToken(),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [approvers.ownerId, approvers.email] })
    .returning()
  return rows[0] ?? null
}

export async function deleteApprover(db: Db, ownerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(approvers)
    .where(and(eq(approvers.id, id), eq(approvers.ownerId, ownerId)))
    .returning({ id: approvers.id })
  return rows.length > 0
}
