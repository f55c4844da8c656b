import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { SESSIONS_PATHS, type RevokeSessionResponse, type SessionList, type SignOutOthersResponse } from '../../../contract/sessions'
import { apiJson } from '@/lib/api-client'

export const sessionsKey = [SESSIONS_PATHS.list] as const

/** The owner's signed-in devices, this one first. */
export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: () => apiJson<SessionList>('GET', SESSIONS_PATHS.list) })
}

/** Signs out one other device (its token stops working at once). */
export function useSignOutSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiJson<RevokeSessionResponse>('DELETE', SESSIONS_PATHS.one(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  })
}

/** Signs out every device but this one. */
export function useSignOutOthers() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiJson<SignOutOthersResponse>('POST', SESSIONS_PATHS.signOutOthers),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  })
}
