import { createFileRoute } from '@tanstack/react-router'
import { PublicLegalPage } from '@/features/marketing/legal/legal-page'
import { PrivacyContent } from '@/features/marketing/legal/privacy-content'

export const Route = createFileRoute('/public-privacy')({
  component: () => (
    <PublicLegalPage>
      <PrivacyContent termsPath="/public-terms" />
    </PublicLegalPage>
  ),
})
