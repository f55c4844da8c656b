import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export function ApproveReleasePage(_props: { token: string | undefined }) {
  return <PublicComingSoon title="approve-release" description="Coming in a later release" />
}
