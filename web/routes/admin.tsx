import { createFileRoute } from '@tanstack/react-router'
import { NotFoundPage } from '@/components/layout/not-found'
import { PageSpinner } from '@/components/ui/spinner'
import { AdminDashboard } from '@/features/admin/admin-dashboard'
import { isAdmin, useCurrentUser } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { LoginForm } from '@/features/auth/login-form'

// Seeds 000 §2: a sign-in form without a user, the 404 page for a non-admin, else the dashboard.
// The server checks the role again on every /api/admin call; this is only what the page shows.
export const Route = createFileRoute('/admin')({
  component: AdminPage,
})

function AdminPage() {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  if (!user) {
    return (
      <AuthLayout title="Admin sign in" description="Sign in with an administrator account.">
        <LoginForm />
      </AuthLayout>
    )
  }
  if (!isAdmin(user)) return <NotFoundPage />
  return <AdminDashboard />
}
