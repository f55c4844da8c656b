import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/verify-beneficiary')({
  component: () => (
    <PublicComingSoon
      title="Beneficiary verification"
      description="Verification links for beneficiaries arrive with the next release."
    />
  ),
})
