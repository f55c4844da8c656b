import { createFileRoute } from '@tanstack/react-router'
import { lazy, Suspense } from 'react'
import { PageSpinner } from '@/components/ui/spinner'
import { isAdmin, useCurrentUser } from '@/features/auth/api'
import { LandingPage } from '@/features/marketing/landing-page'

// The back office (its charts, tables and API) downloads only when an administrator opens '/'.
const AdminDashboard = lazy(() => import('@/features/admin/admin-dashboard').then((m) => ({ default: m.AdminDashboard })))

// '/' is the admin dashboard for an admin, the public landing page for everyone else.
export const Route = createFileRoute('/')({
  component: HomePage,
})

function HomePage() {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  return isAdmin(user) ? (
    <Suspense fallback={<PageSpinner />}>
      <AdminDashboard />
    </Suspense>
  ) : (
    <LandingPage />
  )
}
