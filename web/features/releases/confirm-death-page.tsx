import { PublicComingSoon } from '@/components/layout/public-coming-soon'

export function ConfirmDeathPage(_props: { token: string | undefined }) {
  return <PublicComingSoon title="confirm-death" description="Coming in a later release" />
}
