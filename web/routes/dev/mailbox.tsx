import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router'
import { NotFoundPage } from '@/components/layout/not-found'

// Only builds made for a local run carry the mailbox; in a deployment this path is a 404 and the
// page's code is not in the bundle (__DEV_TOOLS__ is a build-time constant).
export const Route = createFileRoute('/dev/mailbox')({
  component: __DEV_TOOLS__ ? lazyRouteComponent(() => import('@/features/dev/mailbox-page'), 'MailboxPage') : NotFoundPage,
})
