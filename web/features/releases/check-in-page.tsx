import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export function CheckInLinkPage(_props: { token: string | undefined }) {
  return <PublicComingSoon title="check-in" description="Coming in a later release" />
}
