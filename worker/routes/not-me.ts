import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { NOT_ME_MESSAGES } from '../../contract/fresh-proof'
import { users } from '../db/schema'
import { badRequest } from '../lib/errors'
import { validate } from '../lib/validate'
import { rateLimitByIp } from '../middleware/rate-limit'
import { auditOwner } from '../services/audit'
import { verifyLinkToken } from '../lib/link-tokens'
import { issueResetToken } from '../services/password-reset'
import { undoSince } from '../services/trust-mail'
import type { AppEnv } from '../types'

export const notMeBodySchema = z.object({ token: z.string().min(1).max(4096) })

// Mounted at /api/auth. One click from the owner's mailbox, no session (whoever changed things may
// hold it): sign out everywhere, remove what was added since the sign-in that made the change, and
// hand over a password reset, as the mailbox already could with "Forgot password".
export const notMeRoutes = new Hono<AppEnv>().post('/not-me', rateLimitByIp('LINK_LIMITER', 'not-me'), validate('json', notMeBodySchema), async (c) => {
  const link = await verifyLinkToken(c.env, 'notMe', c.req.valid('json').token)
  if (!link.ok) throw badRequest(link.reason === 'expired' ? NOT_ME_MESSAGES.expired : NOT_ME_MESSAGES.invalid)
  const since = Number(link.nonce)
  // The link names the owner twice (its subject and the vault it acts on): both must agree.
  if (link.owner !== link.subject || !Number.isSafeInteger(since)) throw badRequest(NOT_ME_MESSAGES.invalid)
  const user = await c.var.db.query.users.findFirst({ where: eq(users.id, link.subject) })
  if (!user) throw badRequest(NOT_ME_MESSAGES.invalid)
  const outcome = await undoSince(c.env, c.var.db, user, since)
  const resetToken = await issueResetToken(c.var.db, user)
  await auditOwner(c.env, user.id, 'account.not_me', { ...outcome })
  return c.json({ ...outcome, resetToken, message: NOT_ME_MESSAGES.done(outcome.sessionsSignedOut, outcome.keysRemoved, outcome.authenticatorRemoved) })
})
