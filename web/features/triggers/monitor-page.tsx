import { ComingSoon } from '@/components/layout/coming-soon'

export function TriggerMonitorPage() {
  return <ComingSoon title="Trigger Monitor" description="Coming in a later release" />
}
