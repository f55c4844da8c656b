import type { ReactNode } from 'react'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { linkErrorText } from '@/features/circle/api'
import { InvalidLinkPage, RetryLinkPage } from '@/features/circle/link-page'
import { isBadLink } from './http'

// Pieces the release link pages share.

export const FAILURE_FALLBACK = 'Something went wrong. Please try again.'

/** A page whose first request failed: the link refused (Invalid Link), or an outage to retry. */
export function LoadFailedPage({ error, title, onRetry, retrying }: { error: unknown; title: string; onRetry: () => void; retrying: boolean }) {
  if (isBadLink(error)) return <InvalidLinkPage reason={linkErrorText(error, FAILURE_FALLBACK)} />
  return <RetryLinkPage title={title} description={linkErrorText(error, FAILURE_FALLBACK)} onRetry={onRetry} retrying={retrying} />
}

/** An action's failure, in the server's words (a 409 included) or the network message. */
export function FailureAlert({ title, error }: { title?: ReactNode; error: unknown }) {
  return (
    <Alert variant="destructive" role="alert">
      {title && <AlertTitle>{title}</AlertTitle>}
      <AlertDescription>{linkErrorText(error, FAILURE_FALLBACK)}</AlertDescription>
    </Alert>
  )
}

/** A label and its value in a details list. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words text-sm text-slate-900">{children}</dd>
    </div>
  )
}
