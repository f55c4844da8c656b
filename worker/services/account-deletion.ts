import { and, count, eq, isNotNull, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { Db } from '../db/client'
import { blobDeletions, emailOutbox, identityDocuments, users, vaultItems, type UserRow } from '../db/schema'
import { conflict } from '../lib/errors'
import { ownerGuard } from './owner-activity'

export const ACCOUNT_DELETION_MESSAGES = {
  deleted: 'Your account has been permanently deleted.',
  lastAdmin: 'You are the only administrator. Make another account an administrator before deleting yours.',
} as const

/** Every R2 prefix that holds an owner's objects (vault-items.ts, identity.ts). */
export const ownerBlobPrefixes = (ownerId: string) => [`items/${ownerId}/`, `identity/${ownerId}/`]

// D1 binds at most 100 parameters per statement (a blob_deletions row binds 3).
const ROWS_PER_INSERT = 30
const R2_DELETE_BATCH = 1000

/** Refuses before anything happens (billing included) when the owner is the last admin. */
export async function assertAccountDeletable(db: Db, user: UserRow): Promise<void> {
  if (user.role !== 'admin') return
  const [admins] = await db.select({ n: count() }).from(users).where(eq(users.role, 'admin'))
  if ((admins?.n ?? 0) <= 1) throw conflict(ACCOUNT_DELETION_MESSAGES.lastAdmin)
}

/**
 * Deletes an owner and everything of theirs. The order never leaves a usable half-deleted account
 * and never drops a blob unaccounted for (billing was cancelled by the caller, before this):
 *
 * 1. One D1 batch (a transaction): records every R2 key the owner's rows name in blob_deletions,
 *    drops the outbox mail addressed to the owner, and deletes the users row, which cascades to
 *    every owner table (sessions included, so every token dies with it). It applies only if the
 *    owner is not the last admin, checked inside the same transaction.
 * 2. R2: aborts the open multipart uploads, then deletes every object under the owner's prefixes
 *    and clears the blob_deletions rows it confirmed; anything unconfirmed stays for the sweep.
 * 3. The owner's Durable Object: alarm and storage (the audit chain) go.
 *
 * Mail decision: every outbox row addressed to the owner goes, sent ones too: a sent row has done
 * its job and is only the owner's address and message text; pending ones must not go out after
 * deletion. Mail to beneficiaries and approvers is theirs and stays.
 */
export async function deleteAccount(env: Env, db: Db, user: UserRow, now = Date.now()): Promise<{ deletedUserEmail: string }> {
  const ownerId = user.id
  const email = user.email.toLowerCase()
  const allowed = sql`exists (select 1 from ${users} where ${users.id} = ${ownerId} and (${users.role} <> 'admin' or (select count(*) from ${users} where ${users.role} = 'admin') > 1))`
  const toOwner = sql`lower(${emailOutbox.toAddress}) = ${email}`
  const recordBlob = (key: AnyColumn, from: typeof vaultItems | typeof identityDocuments, where: SQL | undefined) =>
    db
      .insert(blobDeletions)
      .select(
        db
          .select({ r2Key: sql<string>`${key}`.as('r2_key'), createdAt: sql<number>`${now}`.as('created_at'), attempts: sql<number>`0`.as('attempts') })
          .from(from)
          .where(and(where, allowed)),
      )
      .onConflictDoNothing()

  // 1. D1.
  const [items, documents, , , , , deleted] = await db.batch([
    db.select({ r2Key: vaultItems.r2Key, uploadId: vaultItems.uploadId }).from(vaultItems).where(eq(vaultItems.ownerId, ownerId)),
    db.select({ front: identityDocuments.frontKey, back: identityDocuments.backKey }).from(identityDocuments).where(eq(identityDocuments.ownerId, ownerId)),
    recordBlob(vaultItems.r2Key, vaultItems, eq(vaultItems.ownerId, ownerId)),
    recordBlob(identityDocuments.frontKey, identityDocuments, eq(identityDocuments.ownerId, ownerId)),
    recordBlob(identityDocuments.backKey, identityDocuments, and(eq(identityDocuments.ownerId, ownerId), isNotNull(identityDocuments.backKey))),
    db.delete(emailOutbox).where(and(toOwner, allowed)),
    db.delete(users).where(and(eq(users.id, ownerId), allowed)).returning({ id: users.id }),
  ])
  if (deleted.length === 0) {
    // Still there: another admin left meanwhile. Gone: a concurrent deletion won; finish its cleanup.
    if (await db.query.users.findFirst({ where: eq(users.id, ownerId), columns: { id: true } })) throw conflict(ACCOUNT_DELETION_MESSAGES.lastAdmin)
  }
  const recorded = deleted.length ? [...items.map((i) => i.r2Key), ...documents.flatMap((d) => (d.back ? [d.front, d.back] : [d.front]))] : []

  // 2. R2. Uploads first, so a completion racing with this cannot assemble an object after the listing.
  const unconfirmed = new Set<string>()
  for (const { r2Key, uploadId } of items) {
    if (!uploadId) continue
    try {
      await env.BLOBS.resumeMultipartUpload(r2Key, uploadId).abort()
    } catch (error) {
      console.error(`account ${ownerId}: aborting upload ${r2Key} failed`, error)
      unconfirmed.add(r2Key)
    }
  }
  const cleared: string[] = []
  for (const prefix of ownerBlobPrefixes(ownerId)) {
    const result = await deletePrefix(env, prefix)
    result.failed.forEach((k) => unconfirmed.add(k))
    if (result.listed) cleared.push(prefix)
    else recorded.filter((k) => k.startsWith(prefix)).forEach((k) => unconfirmed.add(k))
  }
  // Clears the rows of fully listed prefixes and keeps (or adds) the unconfirmed keys, atomically.
  const keep = [...unconfirmed]
  const statements = [
    ...cleared.map((prefix) => db.delete(blobDeletions).where(sql`substr(${blobDeletions.r2Key}, 1, ${prefix.length}) = ${prefix}`)),
    ...chunks(keep, ROWS_PER_INSERT).map((keys) =>
      db.insert(blobDeletions).values(keys.map((r2Key) => ({ r2Key, createdAt: now, attempts: 0 }))).onConflictDoNothing(),
    ),
  ]
  if (statements.length) await db.batch(statements as [(typeof statements)[0], ...typeof statements])

  // 3. The Durable Object, after D1: a tick it runs meanwhile finds no owner and does nothing.
  try {
    await ownerGuard(env, ownerId).purge()
  } catch (error) {
    console.error(`account ${ownerId}: purging the owner's Durable Object failed, retrying once`, error)
    await ownerGuard(env, ownerId).purge()
  }
  // A tick that was running during step 1 may have queued a check-in mail; it must not go out.
  await db.delete(emailOutbox).where(and(toOwner, eq(emailOutbox.status, 'pending')))
  console.log(`account ${ownerId} deleted; ${keep.length} blob deletion(s) left to the sweep`)
  return { deletedUserEmail: user.email }
}

/** Deletes every object under the prefix; `listed` is false when the listing did not finish. */
async function deletePrefix(env: Pick<Env, 'BLOBS'>, prefix: string): Promise<{ listed: boolean; failed: string[] }> {
  const keys: string[] = []
  let listed = true
  try {
    let cursor: string | undefined
    do {
      const page = await env.BLOBS.list({ prefix, cursor, limit: R2_DELETE_BATCH })
      keys.push(...page.objects.map((o) => o.key))
      cursor = page.truncated ? page.cursor : undefined
    } while (cursor)
  } catch (error) {
    console.error(`listing ${prefix} failed`, error)
    listed = false
  }
  const failed: string[] = []
  for (const batch of chunks(keys, R2_DELETE_BATCH)) {
    try {
      await env.BLOBS.delete(batch)
    } catch (error) {
      console.error(`deleting ${batch.length} blob(s) under ${prefix} failed; the sweep will retry`, error)
      failed.push(...batch)
    }
  }
  return { listed, failed }
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size))
  return out
}
