import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/audit')({
  component: () => (
    <ComingSoon
      title="Audit Log"
      description="The hash-chained audit log of every action arrives with the release engine."
    />
  ),
})
