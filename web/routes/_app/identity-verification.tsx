import { createFileRoute } from '@tanstack/react-router'
import { IdentityVerificationPage } from '@/features/identity/identity-page'
import { optionalString } from '@/lib/search-params'

export const Route = createFileRoute('/_app/identity-verification')({
  // The chosen beneficiary lives in the address, so a reload or a shared link keeps it.
  validateSearch: (search: Record<string, unknown>): { beneficiary?: string } => ({ beneficiary: optionalString(search.beneficiary, 64) }),
  component: function IdentityVerificationRoute() {
    const { beneficiary } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <IdentityVerificationPage
        beneficiaryId={beneficiary}
        onSelectBeneficiary={(id) => navigate({ search: { beneficiary: id }, replace: true })}
      />
    )
  },
})
