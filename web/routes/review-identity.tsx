import { createFileRoute } from '@tanstack/react-router'
import { ReviewIdentityPage } from '@/features/identity/review-page'
import { tokenSearch } from '@/lib/search-params'

// An approver's review of an identity document, from the link e-mailed to them (no account).
export const Route = createFileRoute('/review-identity')({
  validateSearch: tokenSearch,
  component: function ReviewIdentityRoute() {
    const { token } = Route.useSearch()
    return <ReviewIdentityPage token={token} />
  },
})
