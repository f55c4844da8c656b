import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { VerifyBeneficiaryPage } from '@/features/circle/verify-page'

// The same page as /verify-beneficiary (seeds 001 §2); the Access Kit points beneficiaries here.
export const Route = createFileRoute('/beneficiary-portal')({
  validateSearch: z.object({
    token: z.string().optional().catch(undefined),
    id: z.string().optional().catch(undefined),
    // 'assets': the release e-mail's link, showing what was released instead of the verification.
    view: z.literal('assets').optional().catch(undefined),
  }),
  component: function BeneficiaryPortalRoute() {
    const { token, id, view } = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <VerifyBeneficiaryPage
        token={token}
        id={id}
        view={view}
        onBackToVerification={() => void navigate({ search: (prev) => ({ ...prev, view: undefined }) })}
      />
    )
  },
})
