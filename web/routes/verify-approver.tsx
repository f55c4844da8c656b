import { createFileRoute } from '@tanstack/react-router'
import { VerifyApproverPage } from '@/features/circle/verify-page'
import { tokenSearch } from '@/lib/search-params'

export const Route = createFileRoute('/verify-approver')({
  validateSearch: tokenSearch,
  component: function VerifyApproverRoute() {
    const { token } = Route.useSearch()
    return <VerifyApproverPage token={token} />
  },
})
