import { createFileRoute } from '@tanstack/react-router'
import { SignedInOrLogin } from '@/components/layout/signed-in-or-login'
import { AccountPage } from '@/features/billing/account-page'

export const Route = createFileRoute('/account')({
  component: () => <SignedInOrLogin path="/account">{() => <AccountPage />}</SignedInOrLogin>,
})
