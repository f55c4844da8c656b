import { createFileRoute } from '@tanstack/react-router'
import { VerifyBackupPage } from '@/features/channels/verify-backup-page'
import { tokenSearch } from '@/lib/search-params'

export const Route = createFileRoute('/verify-backup-email')({
  validateSearch: tokenSearch,
  component: function VerifyBackupEmailRoute() {
    const { token } = Route.useSearch()
    return <VerifyBackupPage token={token} />
  },
})
