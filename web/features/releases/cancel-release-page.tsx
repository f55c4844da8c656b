import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export function CancelReleaseLinkPage(_props: { token: string | undefined }) {
  return <PublicComingSoon title="cancel-release" description="Coming in a later release" />
}
