import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { VerifyApproverPage } from '@/features/circle/verify-page'

export const Route = createFileRoute('/verify-approver')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function VerifyApproverRoute() {
    const { token } = Route.useSearch()
    return <VerifyApproverPage token={token} />
  },
})
