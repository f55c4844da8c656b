import { createFileRoute } from '@tanstack/react-router'
import { BeneficiariesPage } from '@/features/circle/beneficiaries-page'

export const Route = createFileRoute('/_app/beneficiaries')({
  component: BeneficiariesPage,
})
