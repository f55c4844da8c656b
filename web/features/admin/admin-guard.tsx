import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useRef } from 'react'
import { TOASTS } from '../../../contract/messages'
import { currentUserKey } from '@/features/auth/api'
import { tokenStore } from '@/lib/api-client'
import { toast } from '@/lib/toast-store'
import { ADMIN_COPY, guardOutcome } from './logic'

/**
 * The admin guard (seeds 001 §6): the route only shows the dashboard to a signed-in admin; this
 * re-checks while it is open. No stored token: 'Authentication Required' and /login. An admin
 * call refused with 401: 'Authentication Failed' and /login. With 403: 'Admin Access Required'
 * and /. The server checks the role on every call whatever this does.
 */
export function useAdminGuard(error: unknown) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const handled = useRef(false)

  useEffect(() => {
    if (handled.current) return
    if (!tokenStore.get()) {
      handled.current = true
      toast({ title: TOASTS.authRequired, description: ADMIN_COPY.authRequiredBody, variant: 'destructive' })
      void navigate({ to: '/login' })
      return
    }
    const outcome = guardOutcome(error)
    if (outcome === 'authFailed') {
      handled.current = true
      tokenStore.clear()
      queryClient.setQueryData(currentUserKey, null)
      toast({ title: TOASTS.authFailed, description: ADMIN_COPY.authFailedBody, variant: 'destructive' })
      void navigate({ to: '/login' })
    } else if (outcome === 'adminRequired') {
      handled.current = true
      void queryClient.invalidateQueries({ queryKey: currentUserKey })
      toast({ title: TOASTS.adminRequired, description: ADMIN_COPY.adminRequiredBody, variant: 'destructive' })
      void navigate({ to: '/' })
    }
  }, [error, navigate, queryClient])
}
