import { createFileRoute } from '@tanstack/react-router'
import { UnsubscribePage } from '@/features/circle/unsubscribe-page'
import { tokenSearch } from '@/lib/search-params'

export const Route = createFileRoute('/unsubscribe')({
  validateSearch: tokenSearch,
  component: function UnsubscribeRoute() {
    const { token } = Route.useSearch()
    return <UnsubscribePage token={token} />
  },
})
