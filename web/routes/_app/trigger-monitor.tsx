import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/trigger-monitor')({
  component: () => (
    <ComingSoon
      title="Trigger Monitor"
      description="The engine status, your triggers and a dry run of each arrive with the release engine."
    />
  ),
})
