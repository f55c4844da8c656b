import { createFileRoute } from '@tanstack/react-router'
import { PublicLegalPage } from '@/features/marketing/legal/legal-page'
import { TermsContent } from '@/features/marketing/legal/terms-content'

export const Route = createFileRoute('/public-terms')({
  component: () => (
    <PublicLegalPage>
      <TermsContent privacyPath="/public-privacy" />
    </PublicLegalPage>
  ),
})
