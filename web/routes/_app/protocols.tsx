import { createFileRoute } from '@tanstack/react-router'
import { PoliciesPage } from '@/features/policies/policies-page'

export const Route = createFileRoute('/_app/protocols')({
  component: PoliciesPage,
})
