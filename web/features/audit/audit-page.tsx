import { ComingSoon } from '@/components/layout/coming-soon'

export function AuditPage() {
  return <ComingSoon title="Audit Log" description="Coming in a later release" />
}
