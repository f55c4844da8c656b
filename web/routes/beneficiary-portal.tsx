import { createFileRoute } from '@tanstack/react-router'
import { beneficiaryLinkSearch, VerifyBeneficiaryRoute } from '@/features/circle/verify-page'

// The same page as /verify-beneficiary (seeds 001 §2); the Access Kit points beneficiaries here.
export const Route = createFileRoute('/beneficiary-portal')({
  validateSearch: beneficiaryLinkSearch,
  component: VerifyBeneficiaryRoute,
})
