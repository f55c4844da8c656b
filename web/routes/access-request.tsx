import { createFileRoute } from '@tanstack/react-router'
import { ApproverAccessLinkPage } from '@/features/access-requests/link-pages'
import { tokenSearch } from '@/lib/search-params'

// An approver's own link to ask for access; the token is the only credential.
export const Route = createFileRoute('/access-request')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <ApproverAccessLinkPage token={token} />
  },
})
