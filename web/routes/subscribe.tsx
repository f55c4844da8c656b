import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { PAID_PLANS } from '../../contract/plans'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/subscribe')({
  // An unknown plan is dropped rather than failing the page; the billing release defaults it.
  validateSearch: z.object({ plan: z.enum(PAID_PLANS).optional().catch(undefined) }),
  component: () => (
    <PublicComingSoon
      title="Subscribe"
      description="Choosing and paying for a plan arrives with the billing release. On this server every new account starts on the Basic plan."
    />
  ),
})
