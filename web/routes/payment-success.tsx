import { createFileRoute } from '@tanstack/react-router'
import { PaymentSuccessPage } from '@/features/marketing/payment-success-page'
import { optionalString } from '@/lib/search-params'

// The payment provider returns here with ?payment_intent=… (and its own extra parameters, which are
// ignored). A malformed value is dropped rather than turning the page into an error.
function searchSchema(search: Record<string, unknown>): { payment_intent?: string } {
  return { payment_intent: optionalString(search.payment_intent, 255) }
}

export const Route = createFileRoute('/payment-success')({
  validateSearch: searchSchema,
  component: PaymentSuccessRoute,
})

function PaymentSuccessRoute() {
  const { payment_intent: paymentIntent } = Route.useSearch()
  return <PaymentSuccessPage paymentIntent={paymentIntent} />
}
