import { mirrorAccount } from '../owner/account'
import { and, count, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm'
import { DELETION_GRACE_MS, DELETION_MESSAGES, deletionDueAt } from '../../contract/account-deletion'
import { cancelBillingOnDelete } from '../billing/on-delete'
import { accountOf } from '../owner/account'
import { auditOwner } from './audit'
import type { Db } from '../db/client'
import { blobDeletions, emailOutbox, mailBounces, signInFailures, users, type UserRow } from '../db/schema'
import { conflict } from '../lib/errors'
import { ownerVault } from '../owner/client'
import { forgetHeirs } from '../owner/directory'

export const ACCOUNT_DELETION_MESSAGES = {
  deleted: 'Your account has been permanently deleted.',
  lastAdmin: 'You are the only administrator. Make another account an administrator before deleting yours.',
} as const

/** Every R2 prefix that holds an owner's objects (vault items, identity documents). */
export const ownerBlobPrefixes = (ownerId: string) => [`items/${ownerId}/`, `identity/${ownerId}/`]

const R2_DELETE_BATCH = 1000

/** Refuses before anything happens (billing included) when the owner is the last admin. */
export async function assertAccountDeletable(db: Db, user: UserRow): Promise<void> {
  if (user.role !== 'admin') return
  // Administrators already waiting out their own deletion do not count: they are leaving too.
  const [admins] = await db.select({ n: count() }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletionRequestedAt)))
  if ((admins?.n ?? 0) <= 1) throw conflict(ACCOUNT_DELETION_MESSAGES.lastAdmin)
}

/**
 * Deletes an owner and everything of theirs. The order never leaves a usable half-deleted account
 * and never drops a blob unaccounted for (billing was cancelled by the caller, before this):
 *
 * 1. The owner's object says what lives outside it: open multipart uploads, and the heir keys it
 *    wrote to the directory.
 * 2. One D1 batch (a transaction), applied only if the owner is not the last admin (checked inside
 *    it): records the owner's R2 prefixes in blob_deletions, drops the outbox mail addressed to the
 *    owner, and deletes the users row, which cascades to sessions, security keys, subscriptions
 *    and the directory row (so every token dies with it). Then the owner's heir keys go.
 * 3. R2: aborts the open uploads, then deletes everything under the prefixes and clears their
 *    blob_deletions rows; a prefix not fully deleted stays for the sweep.
 * 4. The owner's object: its alarm and its whole storage (the vault and the audit chain) go.
 *
 * Mail decision: every outbox row addressed to the owner goes, sent ones too; pending ones must
 * not go out after deletion. Mail to beneficiaries and approvers is theirs and stays.
 */
export async function deleteAccount(env: Env, db: Db, user: UserRow, now = Date.now()): Promise<{ deletedUserEmail: string }> {
  const ownerId = user.id
  const vault = ownerVault(env, ownerId)
  const prefixes = ownerBlobPrefixes(ownerId)
  const allowed = sql`exists (select 1 from ${users} where ${users.id} = ${ownerId} and (${users.role} <> 'admin' or (select count(*) from ${users} where ${users.role} = 'admin') > 1))`
  // The owner's own addresses: the one they sign in with and their backup (contact/channels).
  const own = JSON.stringify([user.email, user.backupEmail].filter((a): a is string => !!a).map((a) => a.toLowerCase()))
  const toOwner = sql`lower(${emailOutbox.toAddress}) in (select value from json_each(${own}))`

  // 1. What lives outside the object.
  const manifest = await vault.deletionManifest()

  // 2. D1.
  const [, , , , deleted] = await db.batch([
    db
      .insert(blobDeletions)
      .select(
        db
          .select({ r2Key: sql<string>`p.value`.as('r2_key'), createdAt: sql<number>`${now}`.as('created_at'), attempts: sql<number>`0`.as('attempts') })
          .from(sql`json_each(${JSON.stringify(prefixes)}) as p`)
          .where(allowed),
      )
      .onConflictDoNothing(),
    db.delete(emailOutbox).where(and(toOwner, allowed)),
    db.delete(signInFailures).where(and(eq(signInFailures.email, user.email.toLowerCase()), allowed)),
    db.delete(mailBounces).where(and(sql`${mailBounces.address} in (select value from json_each(${own}))`, allowed)),
    db.delete(users).where(and(eq(users.id, ownerId), allowed)).returning({ id: users.id }),
  ])
  // Its object forgets the account, and every session with it.
  if (deleted.length > 0) await mirrorAccount(ownerId, null)
  if (deleted.length === 0) {
    // Still there: another admin left meanwhile. Gone: a concurrent deletion won; finish its cleanup.
    if (await db.query.users.findFirst({ where: eq(users.id, ownerId), columns: { id: true } })) throw conflict(ACCOUNT_DELETION_MESSAGES.lastAdmin)
  }
  // The account is gone: an heir key left behind by a failure here only costs a lookup one more
  // object, which answers that it knows no such owner.
  await forgetHeirs(env, ownerId, manifest.heirKeys)

  // 3. R2. Uploads first, so a completion racing with this cannot assemble an object after the listing.
  for (const { r2Key, uploadId } of manifest.uploads) {
    try {
      await env.BLOBS.resumeMultipartUpload(r2Key, uploadId).abort()
    } catch (error) {
      console.error(`account ${ownerId}: aborting upload ${r2Key} failed`, error)
    }
  }
  const left = await deleteBlobsUnder(env, db, prefixes)

  // 4. The object, after D1: a tick it runs meanwhile finds no account and does nothing.
  try {
    await vault.purge()
  } catch (error) {
    console.error(`account ${ownerId}: purging the owner's object failed, retrying once`, error)
    await ownerVault(env, ownerId).purge()
  }
  // A tick that was running during step 2 may have handed over a check-in mail; it must not go out.
  await db.delete(emailOutbox).where(and(toOwner, eq(emailOutbox.status, 'pending')))
  console.log(`account ${ownerId} deleted; ${left} blob prefix(es) left to the sweep`)
  return { deletedUserEmail: user.email }
}

/**
 * Deletes everything under each prefix and clears its blob_deletions row; a prefix whose listing
 * or deletion failed keeps its row (with one more attempt counted) for the next sweep. Returns how
 * many are left.
 */
async function deleteBlobsUnder(env: Pick<Env, 'BLOBS'>, db: Db, prefixes: string[]): Promise<number> {
  let left = 0
  for (const prefix of prefixes) {
    try {
      let cursor: string | undefined
      do {
        const page = await env.BLOBS.list({ prefix, cursor, limit: R2_DELETE_BATCH })
        if (page.objects.length) await env.BLOBS.delete(page.objects.map((o) => o.key))
        cursor = page.truncated ? page.cursor : undefined
      } while (cursor)
      await db.delete(blobDeletions).where(eq(blobDeletions.r2Key, prefix))
    } catch (error) {
      console.error(`deleting the blobs under ${prefix} failed; the sweep will retry`, error)
      await db.update(blobDeletions).set({ attempts: sql`${blobDeletions.attempts} + 1` }).where(eq(blobDeletions.r2Key, prefix))
      left++
    }
  }
  return left
}

/** Cron: the blob prefixes of deleted accounts that R2 did not finish deleting. */
export async function sweepBlobDeletions(env: Pick<Env, 'BLOBS'>, db: Db): Promise<{ blobPrefixesDeleted: number }> {
  const pending = await db.select({ r2Key: blobDeletions.r2Key }).from(blobDeletions).limit(20)
  const left = await deleteBlobsUnder(env, db, pending.map((p) => p.r2Key))
  return { blobPrefixesDeleted: pending.length - left }
}

/**
 * The owner asks for their account to be deleted: it is frozen from now (worker/middleware/auth.ts
 * refuses changes, the engine holds) and goes DELETION_GRACE_MS later unless kept. 409 if already asked.
 */
export async function requestDeletion(env: Env, db: Db, user: UserRow, now = Date.now()): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ deletionRequestedAt: now, updatedAt: now })
    .where(and(eq(users.id, user.id), isNull(users.deletionRequestedAt)))
    .returning({ at: users.deletionRequestedAt })
  if (!row) throw conflict(DELETION_MESSAGES.alreadyScheduled)
  await mirrorAccount(user.id)
  await auditOwner(env, user.id, 'account.deletion_requested', { deleteAt: new Date(deletionDueAt(now)).toISOString() })
  return now
}

/** The owner keeps their account: the freeze ends and the engine catches up at once. 409 if none was asked. */
export async function keepAccount(env: Env, db: Db, user: UserRow, now = Date.now()): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ deletionRequestedAt: null, updatedAt: now })
    .where(and(eq(users.id, user.id), isNotNull(users.deletionRequestedAt)))
    .returning()
  if (!row) throw conflict(DELETION_MESSAGES.notScheduled)
  await mirrorAccount(row.id, row)
  await auditOwner(env, user.id, 'account.deletion_cancelled')
  await ownerVault(env, user.id).tick(now, accountOf(row))
  return row
}

/** Cron: accounts whose grace has run out are deleted (billing first, as the owner's own deletion did). */
export async function purgeDueDeletions(env: Env, db: Db, now = Date.now()): Promise<{ accountsDeleted: number }> {
  const due = await db
    .select()
    .from(users)
    .where(and(isNotNull(users.deletionRequestedAt), lte(users.deletionRequestedAt, now - DELETION_GRACE_MS)))
    .limit(10)
  let accountsDeleted = 0
  for (const user of due) {
    try {
      await cancelBillingOnDelete(env, user)
      await deleteAccount(env, db, user, now)
      accountsDeleted++
    } catch (error) {
      console.error(`deleting account ${user.id} after its grace failed; the next sweep retries`, error)
    }
  }
  return { accountsDeleted }
}
