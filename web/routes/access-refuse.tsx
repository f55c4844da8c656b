import { createFileRoute } from '@tanstack/react-router'
import { RefuseAccessLinkPage } from '@/features/access-requests/link-pages'
import { tokenSearch } from '@/lib/search-params'

// The owner's one-click Refuse of an access request, from the e-mail; the token is the only credential.
export const Route = createFileRoute('/access-refuse')({
  validateSearch: tokenSearch,
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <RefuseAccessLinkPage token={token} />
  },
})
