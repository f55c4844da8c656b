import type { UserRow } from '../db/schema'
import { ApiError } from '../lib/errors'

/**
 * Ends the owner's paid subscription as their account is deleted. The deletion calls this before
 * it deletes anything, so a failure here leaves the account whole (and still billable to cancel).
 * Billing provider 'none' has nothing to cancel. The Stripe provider hooks in here: it cancels the
 * subscription at once, while `user.stripeSubscriptionId` still exists. Until it does, a Stripe
 * account is refused rather than deleted with a subscription nobody could cancel any more.
 */
export async function cancelBillingOnDelete(_env: Env, user: UserRow): Promise<void> {
  if (user.billingProvider === 'none') return
  throw new ApiError(503, 'Your subscription could not be cancelled, so your account was not deleted. Please try again or contact support.')
}
