import { Hono } from 'hono'
import { deleteCookie } from 'hono/cookie'
import { AUTH_COOKIE } from '../../contract/constants'
import { requireUser, userOf } from '../middleware/auth'
import { requireFreshProof } from '../middleware/fresh-proof'
import { DELETION_MESSAGES, deletionDueAt } from '../../contract/account-deletion'
import { assertAccountDeletable, keepAccount, requestDeletion } from '../services/account-deletion'
import { ownerVault } from '../owner/client'
import { tellOwner } from '../services/trust-mail'
import { publicUserOf } from '../services/users'
import type { AppEnv } from '../types'

// /api/account/*: subscription, cancellation and deletion. requireUser is attached per route.
export const accountRoutes = new Hono<AppEnv>()

// --- Account deletion: DELETE /api/account/delete (seeds 000: 'Delete account: then logout') ---
// Taken back within DELETION_GRACE_DAYS: the account is frozen and every session ends (a stolen one
// too); the owner is e-mailed at once, and keeps it by signing in or with the e-mail's link.
accountRoutes.delete('/delete', requireUser, requireFreshProof, async (c) => {
  const user = (await userOf(c))
  await assertAccountDeletable(c.var.db, user)
  const requestedAt = await requestDeletion(c.env, c.var.db, user)
  const deleteAt = deletionDueAt(requestedAt)
  await tellOwner(c, user, 'deletion_requested', { detail: DELETION_MESSAGES.emailDetail(deleteAt) })
  await ownerVault(c.env, user.id).revokeSessions()
  deleteCookie(c, AUTH_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict' })
  return c.json({ message: DELETION_MESSAGES.scheduled(deleteAt), deletionScheduledFor: new Date(deleteAt).toISOString(), deletedUserEmail: user.email })
})
// Keeping the account: after signing in (fresh proof), never with a session alone.
accountRoutes.post('/deletion/cancel', requireUser, requireFreshProof, async (c) => {
  const user = await keepAccount(c.env, c.var.db, (await userOf(c)))
  return c.json({ message: DELETION_MESSAGES.kept, user: await publicUserOf(c.env, c.var.db, user) })
})
// --- End of account deletion ---
