import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { CheckInLinkPage } from '@/features/releases/check-in-page'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/check-in')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <CheckInLinkPage token={token} />
  },
})
