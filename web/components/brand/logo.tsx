import { ShieldCheck } from 'lucide-react'
import { PRODUCT_NAME } from '../../../contract/constants'
import { cn } from '@/lib/utils'

/** `nameClassName`: e.g. hide the name on a phone where a page title sits beside the mark. */
export function Logo({ className, nameClassName, inverted = false }: { className?: string; nameClassName?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold', inverted ? 'text-white' : 'text-slate-900', className)}>
      <span className={cn('flex size-8 items-center justify-center rounded-lg', inverted ? 'bg-white text-brand-800' : 'bg-brand-700 text-white')}>
        <ShieldCheck className="size-5" aria-hidden />
      </span>
      <span className={cn('text-lg', nameClassName)}>{PRODUCT_NAME}</span>
    </span>
  )
}
