import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'
import { SignedInOrLogin } from '@/components/layout/signed-in-or-login'

export const Route = createFileRoute('/account')({
  component: () => (
    <SignedInOrLogin path="/account">
      {() => (
        <ComingSoon
          title="Account & Billing"
          description="Your plan, payment method, billing history, cancellation and account deletion arrive with the billing release."
        />
      )}
    </SignedInOrLogin>
  ),
})
