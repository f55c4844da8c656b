import { createFileRoute } from '@tanstack/react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { AdminDashboard } from '@/features/admin/admin-dashboard'
import { isAdmin, useCurrentUser } from '@/features/auth/api'
import { LandingPage } from '@/features/marketing/landing-page'

// '/' is the admin dashboard for an admin, the public landing page for everyone else.
export const Route = createFileRoute('/')({
  component: HomePage,
})

function HomePage() {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  return isAdmin(user) ? <AdminDashboard /> : <LandingPage />
}
