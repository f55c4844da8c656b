import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/unsubscribe')({
  component: () => (
    <PublicComingSoon
      title="Unsubscribe"
      description="Unsubscribing from beneficiary notifications arrives with the next release."
    />
  ),
})
