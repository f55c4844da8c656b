import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/profile')({
  component: () => (
    <ComingSoon
      title="Profile Settings"
      description="Editing your profile and changing your password arrive with the account release."
    />
  ),
})
