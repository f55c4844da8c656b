import type { ReactNode } from 'react'
import type { PublicUser } from '../../../contract/auth'
import { PageSpinner } from '@/components/ui/spinner'
import { useCurrentUser } from '@/features/auth/api'
import { AuthLayout } from '@/features/auth/auth-layout'
import { LoginForm } from '@/features/auth/login-form'
import { AppShell } from './app-shell'

/** /account: the page inside the shell when signed in, otherwise a sign-in form. */
export function SignedInOrLogin({ path, children }: { path: string; children: (user: PublicUser) => ReactNode }) {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  if (!user) {
    return (
      <AuthLayout title="Sign in to continue">
        <LoginForm redirectTo={path} />
      </AuthLayout>
    )
  }
  return <AppShell user={user}>{children(user)}</AppShell>
}
