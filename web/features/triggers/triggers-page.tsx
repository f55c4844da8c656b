import { ComingSoon } from '@/components/layout/coming-soon'

export function TriggersPage() {
  return <ComingSoon title="Security Triggers" description="Coming in a later release" />
}
