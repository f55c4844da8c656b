import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ReviewIdentityPage } from '@/features/identity/review-page'

// An approver's review of an identity document, from the link e-mailed to them (no account).
export const Route = createFileRoute('/review-identity')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function ReviewIdentityRoute() {
    const { token } = Route.useSearch()
    return <ReviewIdentityPage token={token} />
  },
})
