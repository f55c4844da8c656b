import { createFileRoute } from '@tanstack/react-router'
import { PAID_PLANS, type PaidPlan } from '../../contract/plans'
import { SubscribePage } from '@/features/billing/subscribe-page'
import { optionalOneOf } from '@/lib/search-params'

export const Route = createFileRoute('/subscribe')({
  // An unknown plan is dropped rather than failing the page.
  validateSearch: (search: Record<string, unknown>): { plan?: PaidPlan } => ({ plan: optionalOneOf(search.plan, PAID_PLANS) }),
  component: SubscribeRoute,
})

function SubscribeRoute() {
  const { plan } = Route.useSearch()
  return <SubscribePage plan={plan} />
}
