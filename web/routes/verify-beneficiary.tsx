import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { VerifyBeneficiaryPage } from '@/features/circle/verify-page'

export const Route = createFileRoute('/verify-beneficiary')({
  validateSearch: z.object({
    token: z.string().optional().catch(undefined),
    id: z.string().optional().catch(undefined),
  }),
  component: function VerifyBeneficiaryRoute() {
    const { token, id } = Route.useSearch()
    return <VerifyBeneficiaryPage token={token} id={id} />
  },
})
