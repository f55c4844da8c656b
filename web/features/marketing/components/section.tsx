import type { LucideIcon } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { cn } from '@/lib/utils'

/** A full-width page band with the public pages' content width and vertical rhythm. */
export function Section({ className, children, ...props }: ComponentProps<'section'>) {
  return (
    <section className={cn('scroll-mt-20 px-4 py-16 sm:px-6 sm:py-20', className)} {...props}>
      <div className="mx-auto max-w-6xl">{children}</div>
    </section>
  )
}

/** A section's eyebrow, h2 and lead paragraph. Pass `id` to label the section with it. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  description,
  className,
  inverted = false,
}: {
  id?: string
  eyebrow?: string
  title: ReactNode
  description?: ReactNode
  className?: string
  inverted?: boolean
}) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      {eyebrow && (
        <p
          className={cn(
            'text-sm font-semibold uppercase tracking-wide',
            inverted ? 'text-brand-100' : 'text-brand-700',
          )}
        >
          {eyebrow}
        </p>
      )}
      <h2
        id={id}
        className={cn(
          'mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl',
          inverted ? 'text-white' : 'text-slate-900',
        )}
      >
        {title}
      </h2>
      {description && (
        <p className={cn('mt-4 text-lg leading-relaxed text-pretty', inverted ? 'text-brand-100' : 'text-slate-600')}>
          {description}
        </p>
      )}
    </div>
  )
}

/** A rounded square holding a feature's icon. */
export function IconBadge({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span
      className={cn(
        'flex size-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700 ring-1 ring-brand-100 [&_svg]:size-5',
        className,
      )}
      aria-hidden
    >
      {children}
    </span>
  )
}

export interface IconCardItem {
  icon: LucideIcon
  title: string
  description: string
}

/** A grid of cards, each an icon, a title and a sentence or two (features, privacy pillars). */
export function IconCardGrid({ items, className }: { items: readonly IconCardItem[]; className?: string }) {
  return (
    <ul className={cn('mt-12 grid gap-6', className)}>
      {items.map(({ icon: Icon, title, description }) => (
        <li key={title}>
          <Card className="h-full transition-shadow hover:shadow-md">
            <CardHeader>
              <IconBadge>
                <Icon />
              </IconBadge>
              <CardTitle className="mt-3">{title}</CardTitle>
              <CardDescription className="leading-relaxed">{description}</CardDescription>
            </CardHeader>
          </Card>
        </li>
      ))}
    </ul>
  )
}
