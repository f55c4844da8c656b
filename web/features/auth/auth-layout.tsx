import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Logo } from '@/components/brand/logo'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card'
import { HeadingsFrom } from '@/components/ui/heading-level'

export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10">
      <header className="mb-8">
        <Link to="/" aria-label="Legacy Vault home">
          <Logo />
        </Link>
      </header>
      <main id="main" className="w-full max-w-md">
        <Card>
          <CardHeader>
            <h1 className="text-2xl font-semibold leading-tight text-slate-900">{title}</h1>
            {description && <CardDescription>{description}</CardDescription>}
          </CardHeader>
          {/* The page's h1 is the card's title: what the card holds starts at h2. */}
          <CardContent>
            <HeadingsFrom level={2}>{children}</HeadingsFrom>
          </CardContent>
        </Card>
        {footer && <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>}
      </main>
    </div>
  )
}
