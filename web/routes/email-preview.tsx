import { createFileRoute } from '@tanstack/react-router'
import { EmailPreviewPage } from '@/features/circle/email-preview-page'

export const Route = createFileRoute('/email-preview')({
  component: EmailPreviewPage,
})
