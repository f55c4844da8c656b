import type { PublicUser } from '../../../contract/auth'
import { PAID_PLANS, type PaidPlan } from '../../../contract/plans'
import { optionalOneOf } from '@/lib/search-params'

// Billing rules read outside the billing pages: by the route tree (in the entry chunk every page,
// public ones too, downloads) and by the signed-in shell. Kept free of zod and of the rest of
// billing's rules (logic.ts, which re-exports these), so neither pulls them into a first load.

/**
 * The retired /checkout (it charged an amount the browser chose and granted nothing) leads to
 * /subscribe, where the plan's price is the server's: the plan /checkout was given if it is one,
 * Premium (the plan the old page sold) otherwise.
 */
export function checkoutRedirectSearch(search: Record<string, unknown>): { plan: PaidPlan } {
  return { plan: optionalOneOf(search.plan, PAID_PLANS) ?? 'premium' }
}

/** The owner's last renewal failed: their subscription is past due (in its grace, or after it). */
export function hasPaymentIssue(user: Pick<PublicUser, 'subscriptionStatus'> | null | undefined): boolean {
  return user?.subscriptionStatus === 'past_due'
}

/** The app-wide banner: a past-due owner anywhere in the app but /account, which shows the whole panel. */
export function showsPaymentIssueBanner(user: Pick<PublicUser, 'subscriptionStatus'> | null | undefined, pathname: string): boolean {
  return hasPaymentIssue(user) && pathname.replace(/\/+$/, '') !== '/account'
}
