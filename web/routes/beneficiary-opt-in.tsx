import { createFileRoute } from '@tanstack/react-router'
import { OptInPage } from '@/features/circle/opt-in-page'
import { tokenSearch } from '@/lib/search-params'

export const Route = createFileRoute('/beneficiary-opt-in')({
  validateSearch: tokenSearch,
  component: function OptInRoute() {
    const { token } = Route.useSearch()
    return <OptInPage token={token} />
  },
})
