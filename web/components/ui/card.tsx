import type { LucideIcon } from 'lucide-react'
import type { ComponentProps } from 'react'
import { Heading, NestedHeadings } from '@/components/ui/heading-level'
import { cn } from '@/lib/utils'

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('rounded-xl border border-slate-200 bg-white shadow-sm', className)} {...props} />
}
export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1.5 p-6', className)} {...props} />
}
export function CardTitle({ className, ...props }: ComponentProps<'h2'>) {
  return <Heading className={cn('text-lg font-semibold leading-tight text-slate-900', className)} {...props} />
}
/** A card title led by its icon, brand-coloured unless `iconClassName` says otherwise. */
export function CardIconTitle({
  icon: Icon,
  iconClassName = 'text-brand-700',
  className,
  children,
  ...props
}: ComponentProps<'h3'> & { icon: LucideIcon; iconClassName?: string }) {
  return (
    <CardTitle className={cn('flex items-center gap-2', className)} {...props}>
      <Icon className={cn('size-5', iconClassName)} aria-hidden /> {children}
    </CardTitle>
  )
}
export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p className={cn('text-sm text-slate-600', className)} {...props} />
}
export function CardContent({ className, children, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('p-6 pt-0', className)} {...props}>
      <NestedHeadings>{children}</NestedHeadings>
    </div>
  )
}
export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex items-center p-6 pt-0', className)} {...props} />
}
