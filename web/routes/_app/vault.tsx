import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '@/components/layout/coming-soon'

export const Route = createFileRoute('/_app/vault')({
  component: () => (
    <ComingSoon
      title="Secure Vault"
      description="Encrypted documents, photos, videos and password entries, encrypted in your browser before upload, arrive with the vault release."
    />
  ),
})
