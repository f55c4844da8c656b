import { createFileRoute, Link, Navigate } from '@tanstack/react-router'
import { PageSpinner } from '@/components/ui/spinner'
import { homeFor, useCurrentUser } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { LoginForm } from '@/features/auth/login-form'
import { HEIR_ENTRY } from '@/components/layout/footer-copy'

export const Route = createFileRoute('/login')({
  component: LoginPage,
})

function LoginPage() {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  if (user) return <Navigate to={homeFor(user)} replace />
  return (
    <AuthLayout
      title="Sign in to your vault"
      description="Welcome back. Sign in with your account e-mail and password."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to="/register" className="font-medium text-brand-700 hover:underline">
            Create one
          </Link>
          <span className="mt-2 block">
            <Link to={HEIR_ENTRY.to} className="font-medium text-brand-700 hover:underline">
              {HEIR_ENTRY.label}
            </Link>{' '}
            Beneficiaries need no account: we e-mail you a link.
          </span>
        </>
      }
    >
      <LoginForm />
    </AuthLayout>
  )
}
