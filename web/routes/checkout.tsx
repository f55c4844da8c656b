import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'
import { SignedInOrLogin } from '@/components/layout/signed-in-or-login'

export const Route = createFileRoute('/checkout')({
  component: () => (
    <SignedInOrLogin path="/checkout">
      {() => <ComingSoon title="Checkout" description="Card payments arrive with the billing release." />}
    </SignedInOrLogin>
  ),
})
