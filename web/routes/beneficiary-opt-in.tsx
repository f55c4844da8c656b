import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { OptInPage } from '@/features/circle/opt-in-page'

export const Route = createFileRoute('/beneficiary-opt-in')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
  component: function OptInRoute() {
    const { token } = Route.useSearch()
    return <OptInPage token={token} />
  },
})
