import { Link } from '@tanstack/react-router'
import { Link2Off, type LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { PublicLayout } from '@/components/layout/public-layout'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { cn } from '@/lib/utils'

const tones = {
  brand: 'bg-brand-100 text-brand-700',
  success: 'bg-emerald-100 text-emerald-700',
  warning: 'bg-amber-100 text-amber-700',
  destructive: 'bg-red-100 text-red-700',
} as const

/** A page opened from an e-mailed link: public layout, one centred card with an icon and a title. */
export function LinkPage({
  icon: Icon,
  tone = 'brand',
  title,
  description,
  children,
  wide = false,
}: {
  icon: LucideIcon
  tone?: keyof typeof tones
  title: string
  description?: ReactNode
  children?: ReactNode
  wide?: boolean
}) {
  return (
    <PublicLayout>
      <div className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10 sm:py-16">
        <Card className={cn('mx-auto w-full', wide ? 'max-w-2xl' : 'max-w-lg')}>
          <CardHeader className="items-center pt-8 text-center">
            <span className={cn('flex size-14 items-center justify-center rounded-full', tones[tone])}>
              <Icon className="size-7" aria-hidden />
            </span>
            <h1 className="mt-3 text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
            {description && <div className="text-sm leading-relaxed text-slate-600">{description}</div>}
          </CardHeader>
          {children && <CardContent className="grid gap-5 pb-8">{children}</CardContent>}
        </Card>
      </div>
    </PublicLayout>
  )
}

export function ReturnHomeButton({ variant = 'default' }: { variant?: 'default' | 'outline' }) {
  return (
    <Button asChild variant={variant} className="w-full sm:w-auto sm:justify-self-center">
      <Link to="/">Return Home</Link>
    </Button>
  )
}

/** A link without its token, or one the server does not accept. */
export function InvalidLinkPage({ reason, children }: { reason: string; children?: ReactNode }) {
  return (
    <LinkPage icon={Link2Off} tone="destructive" title="Invalid Link" description={reason}>
      <p className="text-center text-sm text-slate-600">
        Check the e-mail you received and open the link again, making sure the whole address was copied. If it still
        does not work, contact the person who designated you and ask them to send a new one.
      </p>
      {children}
      <ReturnHomeButton variant="outline" />
    </LinkPage>
  )
}
