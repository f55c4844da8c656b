import { createFileRoute } from '@tanstack/react-router'
import { SignedInOrLogin } from '@/components/layout/signed-in-or-login'
import { CheckoutPage } from '@/features/billing/checkout-page'

export const Route = createFileRoute('/checkout')({
  component: () => <SignedInOrLogin path="/checkout">{() => <CheckoutPage />}</SignedInOrLogin>,
})
