import { createFileRoute } from '@tanstack/react-router'
import { CancelReleaseLinkPage } from '@/features/releases/cancel-release-page'
import { tokenSearch } from '@/lib/search-params'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/cancel-release')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <CancelReleaseLinkPage token={token} />
  },
})
