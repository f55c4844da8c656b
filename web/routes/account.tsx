import { createFileRoute } from '@tanstack/react-router'
import { SignedInOrLogin } from '@/components/layout/signed-in-or-login'
import { AccountPage } from '@/features/billing/account-page'
import { optionalOneOf } from '@/lib/search-params'

export const Route = createFileRoute('/account')({
  // Stripe's page for changing the card returns here with ?payment=updated; anything else is dropped.
  validateSearch: (search: Record<string, unknown>): { payment?: 'updated' } => ({ payment: optionalOneOf(search.payment, ['updated']) }),
  component: AccountRoute,
})

function AccountRoute() {
  const { payment } = Route.useSearch()
  return <SignedInOrLogin path="/account">{() => <AccountPage paymentUpdated={payment === 'updated'} />}</SignedInOrLogin>
}
