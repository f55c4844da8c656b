import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/beneficiaries')({
  component: () => (
    <ComingSoon
      title="Beneficiaries"
      description="Naming beneficiaries and approvers, with their Access Kits and verification links, arrives with the next release."
    />
  ),
})
