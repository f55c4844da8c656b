import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import type { ChangePasswordBody, ChangePasswordResponse, ProfileBody, ProfileResponse } from '../../../contract/profile'
import { currentUserKey } from '@/features/auth/api'
import { channelsKey } from '@/features/channels/api'
import { securityKeysKey } from '@/features/security-keys/api'
import { sessionsKey } from '@/features/sessions/api'
import { apiJson } from '@/lib/api-client'

/** PUT /api/profile; the answer's user becomes the current user (seeds 000 §7). */
export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ProfileBody) => apiJson<ProfileResponse>('PUT', '/api/profile', body),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(currentUserKey, user)
      // The Settings card shows the same emergency contact.
      void queryClient.invalidateQueries({ queryKey: channelsKey })
    },
  })
}

/**
 * POST /api/profile/password: this session stays signed in, the others are signed out, and the
 * keys named are removed (the user's key count and two-factor setting follow the answer).
 */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiJson<ChangePasswordResponse>('POST', '/api/profile/password', body),
    onSuccess: async ({ keysLeft, twoFactorTurnedOff }) => {
      queryClient.setQueryData<PublicUser | null>(currentUserKey, (user) =>
        user ? { ...user, securityKeyCount: keysLeft, twoFactorEnabled: twoFactorTurnedOff ? false : user.twoFactorEnabled } : user,
      )
      // The other devices were signed out, and keys may have gone.
      await Promise.all([queryClient.invalidateQueries({ queryKey: securityKeysKey }), queryClient.invalidateQueries({ queryKey: sessionsKey })])
    },
  })
}
