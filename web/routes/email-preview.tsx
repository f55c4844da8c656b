import { createFileRoute } from '@tanstack/react-router'
import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export const Route = createFileRoute('/email-preview')({
  component: () => (
    <PublicComingSoon
      title="E-mail preview"
      description="The preview of the beneficiary opt-in e-mail arrives with the next release."
    />
  ),
})
