import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ApproveReleasePage } from '@/features/releases/approve-release-page'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/approve-release')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <ApproveReleasePage token={token} />
  },
})
