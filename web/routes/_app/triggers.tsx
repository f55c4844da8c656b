import { createFileRoute } from '@tanstack/react-router'
import { TriggersPage } from '@/features/triggers/triggers-page'

export const Route = createFileRoute('/_app/triggers')({
  component: TriggersPage,
})
