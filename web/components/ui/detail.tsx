import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/** One label–value row of a `<dl>`: a muted label over its value (`className` styles the value). */
export function Detail({ label, children, className, testId }: { label: string; children: ReactNode; className?: string; testId?: string }) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={cn('font-medium text-slate-900', className)} data-testid={testId}>
        {children}
      </dd>
    </div>
  )
}
