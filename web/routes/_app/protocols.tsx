import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/protocols')({
  component: () => (
    <ComingSoon
      title="Access Policies"
      description="Release protocols that decide which items pass to whom, and when, arrive with the vault release."
    />
  ),
})
