import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { PASSWORD_RESET_TTL_SECONDS } from '../../contract/constants'
import type { Db } from '../db/client'
import { passwordResets, sessions, users, type UserRow } from '../db/schema'
import { randomToken, sha256Hex } from '../lib/crypto'
import { hashPassword } from './passwords'

/**
 * Issues a single-use reset token for the user, valid for one hour. Earlier unused tokens of the
 * same user stop working, so only the newest e-mail's link can be used.
 */
export async function issueResetToken(db: Db, user: UserRow, now = Date.now()): Promise<string> {
  const token = randomToken()
  await db.batch([
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),
    db.insert(passwordResets).values({
      id: crypto.randomUUID(),
      userId: user.id,
      tokenHash: await sha256Hex(token),
      createdAt: now,
      expiresAt: now + PASSWORD_RESET_TTL_SECONDS * 1000,
    }),
  ])
  return token
}

/**
 * Sets a new password from a reset token and revokes every session of the account, in one
 * transaction: either all of it happens or none, and a token can win only once even when two
 * requests race. Returns the user, or null when the token is unknown, expired or used.
 */
export async function resetPasswordWithToken(
  db: Db,
  token: string,
  newPassword: string,
  now = Date.now(),
): Promise<UserRow | null> {
  const tokenHash = await sha256Hex(token)
  const live = and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now))
  const pending = await db.query.passwordResets.findFirst({ where: live })
  if (!pending) return null

  const passwordHash = await hashPassword(newPassword)
  // Each statement re-checks that the token is still live, inside the batch's transaction.
  const stillLive = sql`exists (select 1 from ${passwordResets} where ${passwordResets.id} = ${pending.id} and ${passwordResets.usedAt} is null)`
  const [, , claimed] = await db.batch([
    db.update(users).set({ passwordHash, updatedAt: now }).where(and(eq(users.id, pending.userId), stillLive)),
    db.delete(sessions).where(and(eq(sessions.userId, pending.userId), stillLive)),
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, pending.id), isNull(passwordResets.usedAt)))
      .returning({ userId: passwordResets.userId }),
  ])
  if (claimed.length === 0) return null
  return (await db.query.users.findFirst({ where: eq(users.id, pending.userId) })) ?? null
}
