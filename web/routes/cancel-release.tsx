import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { CancelReleaseLinkPage } from '@/features/releases/cancel-release-page'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/cancel-release')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <CancelReleaseLinkPage token={token} />
  },
})
