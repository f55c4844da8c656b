import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { PaymentSuccessPage } from '@/features/marketing/payment-success-page'

// The payment provider returns here with ?payment_intent=… (and its own extra parameters, which are
// ignored). A malformed value is dropped rather than turning the page into an error.
const searchSchema = z.object({
  payment_intent: z.string().max(255).optional().catch(undefined),
})

export const Route = createFileRoute('/payment-success')({
  validateSearch: searchSchema,
  component: PaymentSuccessRoute,
})

function PaymentSuccessRoute() {
  const { payment_intent: paymentIntent } = Route.useSearch()
  return <PaymentSuccessPage paymentIntent={paymentIntent} />
}
