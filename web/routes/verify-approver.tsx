import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/verify-approver')({
  component: () => (
    <PublicComingSoon
      title="Approver verification"
      description="Verification links for approvers arrive with the next release."
    />
  ),
})
