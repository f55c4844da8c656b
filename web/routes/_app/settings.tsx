import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/settings')({
  component: () => (
    <ComingSoon
      title="Account Settings"
      description="Inactivity monitoring settings (check-in frequency, fixed 3-day grace period) arrive with the release engine."
    />
  ),
})
