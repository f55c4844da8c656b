import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { TRIGGER_TYPES } from '../../../contract/triggers'
import { TriggersPage } from '@/features/triggers/triggers-page'

// `?create=<type>` opens Create Trigger for that type (the readiness list's fix links).
export const Route = createFileRoute('/_app/triggers')({
  validateSearch: z.object({ create: z.enum(TRIGGER_TYPES).optional().catch(undefined) }),
  component: TriggersPage,
})
