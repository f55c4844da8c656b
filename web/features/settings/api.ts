import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import type { PingSettingsBody, SafetyWindowBody } from '../../../contract/settings'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'

/** PUT /api/user/ping-settings; success refreshes the current user (seeds 000 §7). */
export function useUpdatePingSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: PingSettingsBody) => apiJson<{ user: PublicUser }>('PUT', '/api/user/ping-settings', body),
    onSuccess: ({ user }) => queryClient.setQueryData(currentUserKey, user),
  })
}

export const safetyWindowKey = ['/api/user/safety-window'] as const

export const safetyWindowQuery = queryOptions({
  queryKey: safetyWindowKey,
  queryFn: () => apiJson<{ hours: number }>('GET', '/api/user/safety-window'),
})

export function useSafetyWindow() {
  return useQuery(safetyWindowQuery)
}

export function useUpdateSafetyWindow() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: SafetyWindowBody) => apiJson<{ hours: number; message: string }>('PUT', '/api/user/safety-window', body),
    onSuccess: ({ hours }) => queryClient.setQueryData(safetyWindowKey, { hours }),
  })
}
