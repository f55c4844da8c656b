import type { ReactNode } from 'react'
import { errorText } from '@/lib/api-client'
import { Button } from './button'
import { Spinner } from './spinner'

/**
 * A small list inside a form (e.g. the beneficiaries to choose from): a spinner while it loads,
 * the reason and a retry when it failed, otherwise the list itself.
 */
export function InlineLoadState({
  query,
  loadingLabel,
  errorFallback,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }
  loadingLabel: string
  errorFallback: string
  children: ReactNode
}) {
  if (query.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner className="size-4" label={loadingLabel} /> {loadingLabel}...
      </div>
    )
  }
  if (query.isError) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm text-red-700">
        {errorText(query.error, errorFallback)}
        <Button variant="outline" size="sm" onClick={() => query.refetch()}>
          Try again
        </Button>
      </div>
    )
  }
  return <>{children}</>
}
