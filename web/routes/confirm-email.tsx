import { createFileRoute } from '@tanstack/react-router'
import { ConfirmEmailPage } from '@/features/auth/email-confirmation'
import { tokenSearch } from '@/lib/search-params'

export const Route = createFileRoute('/confirm-email')({
  validateSearch: tokenSearch,
  component: function ConfirmEmailRoute() {
    const { token } = Route.useSearch()
    return <ConfirmEmailPage token={token} />
  },
})
