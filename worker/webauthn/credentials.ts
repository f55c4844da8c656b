import { and, asc, eq, sql } from 'drizzle-orm'
import type { SecurityKey } from '../../contract/webauthn'
import type { Db } from '../db/client'
import { users, webauthnCredentials, type WebauthnCredentialRow } from '../db/schema'

export function toSecurityKey(row: WebauthnCredentialRow): SecurityKey {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
    transports: row.transports,
    backedUp: row.backedUp,
    trusted: row.trustedAt !== null,
  }
}

export async function listKeys(db: Db, userId: string): Promise<WebauthnCredentialRow[]> {
  return db.select().from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId)).orderBy(asc(webauthnCredentials.createdAt))
}

export async function countKeys(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(webauthnCredentials).where(eq(webauthnCredentials.userId, userId))
  return row?.n ?? 0
}

export async function findKey(db: Db, credentialId: string): Promise<WebauthnCredentialRow | undefined> {
  const [row] = await db.select().from(webauthnCredentials).where(eq(webauthnCredentials.id, credentialId)).limit(1)
  return row
}

/** Stores a verified credential; undefined when that credential id is already registered. */
export async function insertKey(db: Db, row: WebauthnCredentialRow): Promise<WebauthnCredentialRow | undefined> {
  const [inserted] = await db.insert(webauthnCredentials).values(row).onConflictDoNothing({ target: webauthnCredentials.id }).returning()
  return inserted
}

/**
 * Moves the counter forward after a verified assertion. Guarded by the counter the verification
 * read, so of two concurrent uses of one counting key only the first stands.
 */
export async function recordKeyUse(db: Db, key: WebauthnCredentialRow, newCounter: number, now = Date.now()): Promise<boolean> {
  const updated = await db
    .update(webauthnCredentials)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(and(eq(webauthnCredentials.id, key.id), eq(webauthnCredentials.counter, key.counter)))
    .returning({ id: webauthnCredentials.id })
  return updated.length === 1
}

export async function renameKey(db: Db, userId: string, keyId: string, name: string): Promise<WebauthnCredentialRow | undefined> {
  const [row] = await db
    .update(webauthnCredentials)
    .set({ name })
    .where(and(eq(webauthnCredentials.id, keyId), eq(webauthnCredentials.userId, userId)))
    .returning()
  return row
}

export type RemoveOutcome = 'removed' | 'not_found' | 'last_key_with_two_factor'

/**
 * Removes one of the owner's keys, unless it is the last one and two-factor sign-in is on (the
 * owner could no longer sign in with a password). One statement decides, so a concurrent
 * second removal cannot slip past the rule.
 */
export async function removeKey(db: Db, userId: string, keyId: string): Promise<RemoveOutcome> {
  const removed = await db
    .delete(webauthnCredentials)
    .where(
      and(
        eq(webauthnCredentials.id, keyId),
        eq(webauthnCredentials.userId, userId),
        sql`not (
          (select ${users.twoFactorEnabled} from ${users} where ${users.id} = ${userId}) = 1
          and (select count(*) from ${webauthnCredentials} where ${webauthnCredentials.userId} = ${userId}) <= 1
        )`,
      ),
    )
    .returning({ id: webauthnCredentials.id })
  if (removed.length === 1) return 'removed'
  const [stillThere] = await db
    .select({ id: webauthnCredentials.id })
    .from(webauthnCredentials)
    .where(and(eq(webauthnCredentials.id, keyId), eq(webauthnCredentials.userId, userId)))
  return stillThere ? 'last_key_with_two_factor' : 'not_found'
}
