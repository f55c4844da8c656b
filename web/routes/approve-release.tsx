import { createFileRoute } from '@tanstack/react-router'
import { ApproveReleasePage } from '@/features/releases/approve-release-page'
import { tokenSearch } from '@/lib/search-params'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/approve-release')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <ApproveReleasePage token={token} />
  },
})
