import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { BackupEmailBody, ChannelsView, EmergencyContactBody } from '../../../contract/channels'
import type { PublicUser } from '../../../contract/auth'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'

export const channelsKey = ['/api/channels'] as const

export const channelsQuery = queryOptions({
  queryKey: channelsKey,
  queryFn: () => apiJson<ChannelsView>('GET', '/api/channels'),
})

export function useChannels() {
  return useQuery(channelsQuery)
}

type Changed = { message: string; channels: ChannelsView }

/** A change that answers the channels as they now are: the card shows them at once. */
function useChannelChange<Body>(request: (body: Body) => Promise<Changed>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: request,
    onSuccess: ({ channels }) => queryClient.setQueryData(channelsKey, channels),
  })
}

export const useSetBackup = () => useChannelChange((body: BackupEmailBody) => apiJson<Changed>('PUT', '/api/channels/backup', body))
export const useRemoveBackup = () => useChannelChange(() => apiJson<Changed>('DELETE', '/api/channels/backup'))
export const useVerifyBackup = () => useChannelChange((token: string) => apiJson<Changed>('POST', '/api/channels/backup/verify', { token }))
/** The Profile page shows the same contact: the current user follows the answer. */
export function useSetContact() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: EmergencyContactBody) => apiJson<Changed>('PUT', '/api/channels/contact', body),
    onSuccess: ({ channels }) => {
      queryClient.setQueryData(channelsKey, channels)
      queryClient.setQueryData<PublicUser | null>(currentUserKey, (user) => (user ? { ...user, emergencyContact: channels.contact?.address ?? null } : user))
    },
  })
}
export const useResendBackup = () => useMutation({ mutationFn: () => apiJson<{ message: string }>('POST', '/api/channels/backup/resend') })
