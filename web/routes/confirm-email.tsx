import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ConfirmEmailPage } from '@/features/auth/email-confirmation'

export const Route = createFileRoute('/confirm-email')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function ConfirmEmailRoute() {
    const { token } = Route.useSearch()
    return <ConfirmEmailPage token={token} />
  },
})
