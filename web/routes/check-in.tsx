import { createFileRoute } from '@tanstack/react-router'
import { CheckInLinkPage } from '@/features/releases/check-in-page'
import { tokenSearch } from '@/lib/search-params'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/check-in')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <CheckInLinkPage token={token} />
  },
})
