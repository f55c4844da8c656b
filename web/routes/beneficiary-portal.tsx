import { createFileRoute } from '@tanstack/react-router'
import { BeneficiaryPortalRoute } from '@/features/circle/verify-page'
import { beneficiaryLinkSearch } from '@/lib/search-params'

// The beneficiary portal: the Access Kit's address and the release e-mail's link (seeds 001 §2).
export const Route = createFileRoute('/beneficiary-portal')({
  validateSearch: beneficiaryLinkSearch,
  component: BeneficiaryPortalRoute,
})
