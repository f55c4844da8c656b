import { createFileRoute } from '@tanstack/react-router'
import { TriggerMonitorPage } from '@/features/triggers/monitor-page'

export const Route = createFileRoute('/_app/trigger-monitor')({
  component: TriggerMonitorPage,
})
