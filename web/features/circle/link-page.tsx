import { Link } from '@tanstack/react-router'
import { CircleCheckBig, Link2Off, RotateCw, type LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { PublicLayout } from '@/components/layout/public-layout'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import { ICON_TONES, IconHeading, type IconTone } from '@/components/ui/icon-heading'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/utils'

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
  tone?: IconTone
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
            <span className={cn('flex size-14 items-center justify-center rounded-full', ICON_TONES[tone])}>
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

/** While a link page's first request is under way. */
export function LoadingLinkPage({ label }: { label: string }) {
  return (
    <PublicLayout>
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner className="size-8" label={label} />
      </div>
    </PublicLayout>
  )
}

/** A link page whose first request failed for a reason other than the link (an outage): try again. */
export function RetryLinkPage({ title, description, onRetry, retrying }: { title: string; description: string; onRetry: () => void; retrying: boolean }) {
  return (
    <LinkPage icon={RotateCw} tone="warning" title={title} description={description}>
      <Button onClick={onRetry} disabled={retrying} className="w-full sm:w-auto sm:justify-self-center">
        {retrying ? 'Retrying...' : 'Try again'}
      </Button>
    </LinkPage>
  )
}

export const NOTHING_MORE_TO_DO = 'You can close this page. There is nothing more to do.'

/** What the link was for is done: the outcome (`children`), a closing note and the way home. */
export function LinkDonePage({
  title,
  description,
  note = NOTHING_MORE_TO_DO,
  children,
}: {
  title: string
  description: ReactNode
  note?: string
  children?: ReactNode
}) {
  return (
    <LinkPage icon={CircleCheckBig} tone="success" title={title} description={description}>
      {children}
      <p className="text-center text-sm text-slate-600">{note}</p>
      <ReturnHomeButton variant="outline" />
    </LinkPage>
  )
}

/**
 * A link page with more to it than one card (details to check, a form to fill): public layout, a
 * card with the page's icon, title and introduction (and `aside` under them), then `children`.
 */
export function LinkFormPage({
  icon,
  tone,
  title,
  intro,
  aside,
  wide = false,
  children,
}: {
  icon: LucideIcon
  tone?: IconTone
  title: string
  intro: ReactNode
  aside?: ReactNode
  wide?: boolean
  children: ReactNode
}) {
  return (
    <PublicLayout>
      <div className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-8 sm:py-12">
        <div className={cn('mx-auto grid w-full gap-6', wide ? 'max-w-3xl' : 'max-w-2xl')}>
          <Card className="grid gap-3 p-5 sm:p-6">
            <IconHeading icon={icon} tone={tone} size="page" title={title}>
              {intro}
            </IconHeading>
            {aside}
          </Card>
          {children}
        </div>
      </div>
    </PublicLayout>
  )
}
