import { createFileRoute } from '@tanstack/react-router'
import { TRIGGER_TYPES, type TriggerType } from '../../../contract/trigger-types'
import { TriggersPage } from '@/features/triggers/triggers-page'
import { optionalOneOf } from '@/lib/search-params'

// `?create=<type>` opens Create Trigger for that type (the readiness list's fix links).
export const Route = createFileRoute('/_app/triggers')({
  validateSearch: (search: Record<string, unknown>): { create?: TriggerType } => ({ create: optionalOneOf(search.create, TRIGGER_TYPES) }),
  component: TriggersPage,
})
