import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import type { AuthenticatorSetup, AuthenticatorStatus, ConfirmAuthenticatorBody, RecoveryCodes } from '../../../contract/authenticator'
import { AUTHENTICATOR_PATHS } from '../../../contract/authenticator-constants'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'

export const authenticatorKey = [AUTHENTICATOR_PATHS.status] as const

export function useAuthenticatorStatus() {
  return useQuery({ queryKey: authenticatorKey, queryFn: () => apiJson<AuthenticatorStatus>('GET', AUTHENTICATOR_PATHS.status) })
}

/** Keeps the status and the signed-in user's `authenticatorEnabled` in step with an answer. */
function useStatusUpdate() {
  const queryClient = useQueryClient()
  return (status: AuthenticatorStatus) => {
    queryClient.setQueryData(authenticatorKey, status)
    queryClient.setQueryData<PublicUser | null>(currentUserKey, (user) => (user ? { ...user, authenticatorEnabled: status.enabled } : user))
  }
}

export function useStartAuthenticatorSetup() {
  return useMutation({ mutationFn: () => apiJson<AuthenticatorSetup>('POST', AUTHENTICATOR_PATHS.setup) })
}

export function useConfirmAuthenticator() {
  const update = useStatusUpdate()
  return useMutation({
    mutationFn: (body: ConfirmAuthenticatorBody) => apiJson<RecoveryCodes>('POST', AUTHENTICATOR_PATHS.confirm, body),
    onSuccess: ({ status }) => update(status),
  })
}

export function useRegenerateRecoveryCodes() {
  const update = useStatusUpdate()
  return useMutation({
    mutationFn: () => apiJson<RecoveryCodes>('POST', AUTHENTICATOR_PATHS.recoveryCodes),
    onSuccess: ({ status }) => update(status),
  })
}

export function useTurnOffAuthenticator() {
  const update = useStatusUpdate()
  return useMutation({
    mutationFn: () => apiJson<{ message: string; status: AuthenticatorStatus }>('DELETE', AUTHENTICATOR_PATHS.status),
    onSuccess: ({ status }) => update(status),
  })
}
