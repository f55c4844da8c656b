import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import type { PingSettingsBody } from '../../../contract/settings'
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
