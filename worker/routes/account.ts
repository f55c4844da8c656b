import { Hono } from 'hono'
import { deleteCookie } from 'hono/cookie'
import { AUTH_COOKIE } from '../../contract/constants'
import { cancelBillingOnDelete } from '../billing/on-delete'
import { requireUser } from '../middleware/auth'
import { requireFreshProof } from '../middleware/fresh-proof'
import { ACCOUNT_DELETION_MESSAGES, assertAccountDeletable, deleteAccount } from '../services/account-deletion'
import type { AppEnv } from '../types'

// /api/account/*: subscription, cancellation and deletion. requireUser is attached per route.
export const accountRoutes = new Hono<AppEnv>()

// --- Account deletion: DELETE /api/account/delete (seeds 000: 'Delete account: then logout') ---
accountRoutes.delete('/delete', requireUser, requireFreshProof, async (c) => {
  const user = c.var.user
  await assertAccountDeletable(c.var.db, user)
  // Billing is cancelled before anything is deleted: if it fails, the account stays whole.
  await cancelBillingOnDelete(c.env, user)
  const { deletedUserEmail } = await deleteAccount(c.env, c.var.db, user)
  deleteCookie(c, AUTH_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict' })
  return c.json({ message: ACCOUNT_DELETION_MESSAGES.deleted, deletedUserEmail })
})
// --- End of account deletion ---
