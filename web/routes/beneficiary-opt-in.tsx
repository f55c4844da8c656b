import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/beneficiary-opt-in')({
  component: () => (
    <PublicComingSoon
      title="Beneficiary notifications"
      description="Opting in to notifications as a beneficiary arrives with the next release."
    />
  ),
})
