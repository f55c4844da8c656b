import { Navigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { PublicUser } from '../../../contract/auth'
import { PageSpinner } from '@/components/ui/spinner'
import { isAdmin, useCurrentUser } from '@/features/auth/api'
import { AppShell } from './app-shell'
import { SubscriptionRequired } from './subscription-required'

/**
 * Protected pages: signed-out visitors go to /login; signed-in users without an active
 * subscription see 'Subscription Required' (admins pass regardless, seeds 000 §6).
 */
export function Protected({ children }: { children: (user: PublicUser) => ReactNode }) {
  const { data: user, isPending } = useCurrentUser()
  if (isPending) return <PageSpinner />
  if (!user) return <Navigate to="/login" replace />
  if (!user.hasActiveSubscription && !isAdmin(user)) return <SubscriptionRequired user={user} />
  return <AppShell user={user}>{children(user)}</AppShell>
}
