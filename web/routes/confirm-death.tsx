import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ConfirmDeathPage } from '@/features/releases/confirm-death-page'

// Opened from a signed link in an e-mail; the token is the only credential.
export const Route = createFileRoute('/confirm-death')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function LinkRoute() {
    const { token } = Route.useSearch()
    return <ConfirmDeathPage token={token} />
  },
})
