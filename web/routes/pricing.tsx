import { createFileRoute } from '@tanstack/react-router'
import { billingConfigKey } from '@/features/billing/config-key'
import { PricingPage } from '@/features/marketing/pricing-page'

export const Route = createFileRoute('/pricing')({
  // Whether this server takes payments decides a notice above the plans: asked for while the page's
  // chunk downloads (or on intent, when a link to /pricing is hovered), so the notice is there when
  // the page first renders instead of pushing the plans down after (a layout shift). Not awaited.
  beforeLoad: ({ context }) => {
    void context.queryClient.prefetchQuery({ queryKey: billingConfigKey })
  },
  component: PricingPage,
})
