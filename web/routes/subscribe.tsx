import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/subscribe')({
  component: () => (
    <PublicComingSoon
      title="Subscribe"
      description="Choosing and paying for a plan arrives with the billing release. On this server every new account starts on the Basic plan."
    />
  ),
})
