import type { ComponentProps, ReactNode } from 'react'
import { LoadError } from '@/components/ui/load-error'
import { Spinner } from '@/components/ui/spinner'
import { errorText } from '@/lib/api-client'
import { cn } from '@/lib/utils'

/**
 * A table that scrolls sideways on a phone instead of squeezing; focusable so keyboards can scroll it.
 * `relative` makes it the containing block of the table's screen-reader-only labels (absolutely
 * placed): without it they escape the scrolling card at the table's far edge and widen the page.
 */
export function ScrollTable({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('relative overflow-x-auto rounded-xl border border-slate-200 bg-white', className)} role="region" aria-label={label} tabIndex={0}>
      <table className="w-full min-w-[640px] text-left text-sm">{children}</table>
    </div>
  )
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={cn('whitespace-nowrap bg-slate-50 px-4 py-3 text-xs font-semibold uppercase tracking-wide text-slate-600', className)} {...props} />
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('border-t border-slate-100 px-4 py-3 align-middle text-slate-800', className)} {...props} />
}

/** Loading, error (with retry) or the content of one admin list. */
export function QueryState({
  query,
  label,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown; isFetching: boolean }
  label: string
  children: () => ReactNode
}) {
  if (query.isPending) {
    return (
      <div className="flex items-center justify-center gap-2 py-12 text-sm text-slate-600">
        <Spinner label={`Loading ${label}`} /> Loading {label}...
      </div>
    )
  }
  if (query.isError) {
    return (
      <LoadError
        title={`Could not load ${label}`}
        message={errorText(query.error, `The ${label} could not be loaded.`)}
        onRetry={() => query.refetch()}
        retrying={query.isFetching}
      />
    )
  }
  return <>{children()}</>
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-sm text-slate-600">{children}</p>
}
