import { createFileRoute } from '@tanstack/react-router'
import { beneficiaryLinkSearch, VerifyBeneficiaryRoute } from '@/features/circle/verify-page'

export const Route = createFileRoute('/verify-beneficiary')({
  validateSearch: beneficiaryLinkSearch,
  component: VerifyBeneficiaryRoute,
})
