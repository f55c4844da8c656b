import type { UserRow } from '../db/schema'
import { billingFor } from './provider'

/**
 * Ends the owner's paid subscription as their account is deleted. The deletion calls this before
 * it deletes anything, so a failure here leaves the account whole (and still billable to cancel).
 * Without billing there is nothing to cancel; the Stripe provider cancels the subscription at
 * once, while `user.stripeSubscriptionId` still exists (a 503 if Stripe cannot be reached).
 */
export async function cancelBillingOnDelete(env: Env, user: UserRow): Promise<void> {
  await billingFor(env).cancelOnDelete(user)
}
