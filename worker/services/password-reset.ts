import type { Context } from 'hono'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { PASSWORD_RESET_TTL_SECONDS } from '../../contract/constants'
import type { Db } from '../db/client'
import { passwordResets, users, type UserRow } from '../db/schema'
import { ownerVault } from '../owner/client'
import { randomToken, sha256Hex } from '../lib/crypto'
import { sendEmail } from '../mail'
import { passwordResetEmail } from '../mail/templates'
import type { AppEnv } from '../types'
import { hashPassword } from './passwords'
import { isKnownDevice } from './sign-in-guard'
import { findUserByEmail } from './users'

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
 * How long the answer to a forgot-password request has to be on its way before the work that
 * depends on the address starts. Without it that work shares the isolate (and, locally, the one
 * workerd process whose SQLite holds D1) with the answer still being sent, and an existing address
 * answered measurably later than an unknown one (`npm run bench -- forgot`). The e-mail is only
 * this much later.
 */
const ANSWER_HEAD_START_MS = 50

/**
 * What a forgot-password request does once it has been answered (so that neither the answer nor
 * its time tells whether `email` has an account): finds the account and, unless it is paused or
 * past its per-account limit, e-mails it a fresh reset link. The limit keeps a stranger from
 * flooding the owner's inbox (past it the request is dropped: its answer is long gone, the same as
 * everyone's); it never holds the owner's own browser. Resolves once the e-mail is delivered or
 * left to the outbox's retries.
 */
export async function sendResetLink(c: Context<AppEnv>, email: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ANSWER_HEAD_START_MS))
  const db = c.var.db
  const user = await findUserByEmail(db, email)
  if (!user || user.pausedAt) return
  if (!(await isKnownDevice(c, user))) {
    const { success } = await c.env.RESET_LIMITER.limit({ key: `forgot:account:${email}` })
    if (!success) {
      console.log(`forgot-password: reset link for user ${user.id} not sent, past the per-account limit`)
      return
    }
  }
  const token = await issueResetToken(db, user)
  const resetUrl = `${c.env.APP_ORIGIN}/reset-password?token=${encodeURIComponent(token)}`
  // Already after the answer: the delivery is awaited here rather than left to another waitUntil.
  const deliveries: Array<Promise<unknown>> = []
  await sendEmail(c.env, { waitUntil: (p) => void deliveries.push(p) }, db, {
    to: user.email,
    kind: 'password_reset',
    ...passwordResetEmail({ displayName: user.displayName, resetUrl }),
  })
  await Promise.all(deliveries)
}

/**
 * Sets a new password from a reset token in one transaction (a token can win only once even when
 * two requests race), then revokes every session of the account in its object. Returns the user, or null when the token is unknown, expired or used.
 */
export async function resetPasswordWithToken(
  env: Pick<Env, 'OWNER_VAULT'>,
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
  const [, claimed] = await db.batch([
    db.update(users).set({ passwordHash, updatedAt: now }).where(and(eq(users.id, pending.userId), stillLive)),
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, pending.id), isNull(passwordResets.usedAt)))
      .returning({ userId: passwordResets.userId }),
  ])
  if (claimed.length === 0) return null
  // Every session ends, in the owner's object where they are checked (after the reset is in).
  await ownerVault(env, pending.userId).revokeSessions()
  return (await db.query.users.findFirst({ where: eq(users.id, pending.userId) })) ?? null
}
