import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/triggers')({
  component: () => (
    <ComingSoon
      title="Security Triggers"
      description="Inactivity check-ins, verified death, biometric failure and scheduled triggers arrive with the release engine."
    />
  ),
})
