import { ShieldCheck } from 'lucide-react'
import { PRODUCT_NAME } from '../../../contract/constants'
import { cn } from '@/lib/utils'

export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold', inverted ? 'text-white' : 'text-slate-900', className)}>
      <span className={cn('flex size-8 items-center justify-center rounded-lg', inverted ? 'bg-white text-brand-800' : 'bg-brand-700 text-white')}>
        <ShieldCheck className="size-5" aria-hidden />
      </span>
      <span className="text-lg">{PRODUCT_NAME}</span>
    </span>
  )
}
