import { createFileRoute } from '@tanstack/react-router'
import { OptionalUserLegalPage } from '@/features/marketing/legal/legal-page'
import { TermsContent } from '@/features/marketing/legal/terms-content'

// Public; inside the signed-in shell when a user is signed in (seeds 000 §2).
export const Route = createFileRoute('/terms')({
  component: () => (
    <OptionalUserLegalPage>
      <TermsContent privacyPath="/privacy" />
    </OptionalUserLegalPage>
  ),
})
