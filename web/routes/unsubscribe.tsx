import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { UnsubscribePage } from '@/features/circle/unsubscribe-page'

export const Route = createFileRoute('/unsubscribe')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function UnsubscribeRoute() {
    const { token } = Route.useSearch()
    return <UnsubscribePage token={token} />
  },
})
