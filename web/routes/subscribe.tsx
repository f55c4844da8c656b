import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { PAID_PLANS } from '../../contract/plans'
import { SubscribePage } from '@/features/billing/subscribe-page'

export const Route = createFileRoute('/subscribe')({
  // An unknown plan is dropped rather than failing the page.
  validateSearch: z.object({ plan: z.enum(PAID_PLANS).optional().catch(undefined) }),
  component: SubscribeRoute,
})

function SubscribeRoute() {
  const { plan } = Route.useSearch()
  return <SubscribePage plan={plan} />
}
