import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { VerifyBeneficiaryPage } from '@/features/circle/verify-page'

export const Route = createFileRoute('/verify-beneficiary')({
  validateSearch: z.object({
    token: z.string().optional().catch(undefined),
    id: z.string().optional().catch(undefined),
    // 'assets': the release e-mail's link, showing what was released instead of the verification.
    view: z.literal('assets').optional().catch(undefined),
  }),
  component: function VerifyBeneficiaryRoute() {
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
