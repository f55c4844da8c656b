import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import { WEBAUTHN_PATHS, type SecurityKeyList } from '../../../contract/webauthn'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'
import { registerSecurityKey } from './ceremonies'

export const securityKeysKey = [WEBAUTHN_PATHS.keys] as const

export function useSecurityKeys() {
  return useQuery({ queryKey: securityKeysKey, queryFn: () => apiJson<SecurityKeyList>('GET', WEBAUTHN_PATHS.keys) })
}

/** Keeps the signed-in user's key count in step without refetching the user. */
function useKeyCountUpdate() {
  const queryClient = useQueryClient()
  return async (securityKeyCount: number) => {
    queryClient.setQueryData<PublicUser | null>(currentUserKey, (user) => (user ? { ...user, securityKeyCount } : user))
    await queryClient.invalidateQueries({ queryKey: securityKeysKey })
  }
}

export function useAddSecurityKey() {
  const updateCount = useKeyCountUpdate()
  return useMutation({
    mutationFn: (name: string | undefined) => registerSecurityKey(name),
    onSuccess: ({ securityKeyCount }) => updateCount(securityKeyCount),
  })
}

export function useRemoveSecurityKey() {
  const updateCount = useKeyCountUpdate()
  return useMutation({
    mutationFn: (id: string) => apiJson<{ message: string; securityKeyCount: number }>('DELETE', `${WEBAUTHN_PATHS.keys}/${encodeURIComponent(id)}`),
    onSuccess: ({ securityKeyCount }) => updateCount(securityKeyCount),
  })
}
