import { createFileRoute } from '@tanstack/react-router'
import { NotMePage } from '@/features/fresh-proof/not-me-page'
import { tokenSearch } from '@/lib/search-params'

// Opened from "This wasn't me" in an e-mail about a change of trust; the token is the only credential.
export const Route = createFileRoute('/not-me')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <NotMePage token={token} />
  },
})
