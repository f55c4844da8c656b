import { createFileRoute } from '@tanstack/react-router'
import { ConfirmDeathPage } from '@/features/releases/confirm-death-page'
import { tokenSearch } from '@/lib/search-params'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/confirm-death')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <ConfirmDeathPage token={token} />
  },
})
