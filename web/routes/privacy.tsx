import { createFileRoute } from '@tanstack/react-router'
import { OptionalUserLegalPage } from '@/features/marketing/legal/legal-page'
import { PrivacyContent } from '@/features/marketing/legal/privacy-content'

// Public; inside the signed-in shell when a user is signed in (seeds 000 §2).
export const Route = createFileRoute('/privacy')({
  component: () => (
    <OptionalUserLegalPage>
      <PrivacyContent termsPath="/terms" />
    </OptionalUserLegalPage>
  ),
})
