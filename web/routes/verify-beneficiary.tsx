import { createFileRoute } from '@tanstack/react-router'
import { VerifyBeneficiaryRoute } from '@/features/circle/verify-page'
import { beneficiaryLinkSearch } from '@/lib/search-params'

export const Route = createFileRoute('/verify-beneficiary')({
  validateSearch: beneficiaryLinkSearch,
  component: VerifyBeneficiaryRoute,
})
