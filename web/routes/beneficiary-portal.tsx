import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/beneficiary-portal')({
  component: () => (
    <PublicComingSoon
      title="Beneficiary portal"
      description="The portal where beneficiaries receive released items arrives with the release engine."
    />
  ),
})
