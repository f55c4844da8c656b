import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/** The round badge behind a heading's icon. */
export const ICON_TONES = {
  brand: 'bg-brand-100 text-brand-700',
  success: 'bg-emerald-100 text-emerald-700',
  warning: 'bg-amber-100 text-amber-700',
  destructive: 'bg-red-100 text-red-700',
  neutral: 'bg-slate-100 text-slate-700',
} as const

export type IconTone = keyof typeof ICON_TONES

const SIZES = {
  // A page's title (h1), e.g. at the top of a page opened from an e-mailed link.
  page: { badge: 'size-11', icon: 'size-6', title: 'text-xl font-bold tracking-tight text-slate-900 sm:text-2xl', text: 'text-sm leading-relaxed text-slate-600' },
  // A card's title (h2).
  card: { badge: 'size-10', icon: 'size-5', title: 'font-semibold text-slate-900', text: 'text-sm text-slate-600' },
} as const

/** An icon in a round badge beside a title and the text under it. */
export function IconHeading({
  icon: Icon,
  tone = 'brand',
  size,
  title,
  children,
}: {
  icon: LucideIcon
  tone?: IconTone
  size: keyof typeof SIZES
  title: ReactNode
  children: ReactNode
}) {
  const s = SIZES[size]
  const Title = size === 'page' ? 'h1' : 'h2'
  return (
    <div className="flex items-start gap-3">
      <span className={cn('flex shrink-0 items-center justify-center rounded-full', s.badge, ICON_TONES[tone])}>
        <Icon className={s.icon} aria-hidden />
      </span>
      <div className="grid gap-1">
        <Title className={s.title}>{title}</Title>
        <p className={s.text}>{children}</p>
      </div>
    </div>
  )
}
