import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/identity-verification')({
  component: () => (
    <ComingSoon
      title="Identity Verification"
      description="Identity documents for beneficiaries and their review by approvers arrive with the vault release."
    />
  ),
})
