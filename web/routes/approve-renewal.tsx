import { createFileRoute } from '@tanstack/react-router'
import { ApproveRenewalPage } from '@/features/releases/approve-renewal-page'
import { tokenSearch } from '@/lib/search-params'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/approve-renewal')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <ApproveRenewalPage token={token} />
  },
})
