import { createFileRoute, redirect } from '@tanstack/react-router'
import { checkoutRedirectSearch } from '@/features/billing/payment-rules'

// The spec's /checkout charged an amount the browser chose for a plan it never granted: retired.
// Old links and bookmarks land on /subscribe for that plan (Premium unless named), where the price
// is the server's; the history keeps no entry for /checkout.
export const Route = createFileRoute('/checkout')({
  beforeLoad: ({ search }) => {
    throw redirect({ to: '/subscribe', search: checkoutRedirectSearch(search as Record<string, unknown>), replace: true })
  },
})
