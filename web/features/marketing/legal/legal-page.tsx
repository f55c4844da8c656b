import { Link } from '@tanstack/react-router'
import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'
import { AppShell } from '@/components/layout/app-shell'
import { PublicFooter } from '@/components/layout/public-footer'
import { PublicLayout } from '@/components/layout/public-layout'
import { Button } from '@/components/ui/button'
import { PageSpinner } from '@/components/ui/spinner'
import { useCurrentUser } from '@/features/auth/api'
import { SimpleHeader } from '../components/simple-header'

/**
 * /terms and /privacy "receive the optional user" (seeds 000 §2): inside the signed-in shell for a
 * signed-in user, otherwise a plain public page with a 'Back to Home' button.
 */
export function OptionalUserLegalPage({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  if (user) {
    return (
      <AppShell user={user}>
        <div className="py-2 sm:py-4">{children}</div>
      </AppShell>
    )
  }
  return (
    <div className="flex min-h-screen flex-col">
      <SimpleHeader>
        <Button asChild variant="outline">
          <Link to="/">
            <ArrowLeft aria-hidden /> Back to Home
          </Link>
        </Button>
      </SimpleHeader>
      <main id="main" className="flex-1 px-4 py-12 sm:px-6 sm:py-16">
        {children}
      </main>
      <PublicFooter />
    </div>
  )
}

/** /public-terms and /public-privacy: the same documents in the public layout. */
export function PublicLegalPage({ children }: { children: ReactNode }) {
  return (
    <PublicLayout>
      <div className="px-4 py-12 sm:px-6 sm:py-16">{children}</div>
    </PublicLayout>
  )
}
