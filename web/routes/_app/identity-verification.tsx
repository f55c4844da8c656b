import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { IdentityVerificationPage } from '@/features/identity/identity-page'

export const Route = createFileRoute('/_app/identity-verification')({
  // The chosen beneficiary lives in the address, so a reload or a shared link keeps it.
  validateSearch: z.object({ beneficiary: z.string().max(64).optional().catch(undefined) }),
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
