import { DAY_MS } from '../../contract/constants'

/** Stripe retries a delivery for up to 3 days, and lets an event be fetched and sent again for 30. */
export const STRIPE_RETRY_MS = 3 * DAY_MS
export const STRIPE_RESEND_MS = 30 * DAY_MS
