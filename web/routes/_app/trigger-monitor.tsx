import { createFileRoute } from '@tanstack/react-router'
import { TriggerMonitorPage } from '@/features/triggers/monitor-page'

// `?request=<id>`: the access request the owner's "Approve now" e-mail link names, shown highlighted.
export const Route = createFileRoute('/_app/trigger-monitor')({
  validateSearch: (search: Record<string, unknown>): { request?: string } => ({ request: typeof search.request === 'string' ? search.request : undefined }),
  component: TriggerMonitorPage,
})
