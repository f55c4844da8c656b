import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { VerifyBeneficiaryPage } from '@/features/circle/verify-page'

// The same page as /verify-beneficiary (seeds 001 §2); the Access Kit points beneficiaries here.
export const Route = createFileRoute('/beneficiary-portal')({
  validateSearch: z.object({
    token: z.string().optional().catch(undefined),
    id: z.string().optional().catch(undefined),
  }),
  component: function BeneficiaryPortalRoute() {
    const { token, id } = Route.useSearch()
    return <VerifyBeneficiaryPage token={token} id={id} />
  },
})
