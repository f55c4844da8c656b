import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ChangePasswordBody, ProfileBody, ProfileResponse } from '../../../contract/profile'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'

/** PUT /api/profile; the answer's user becomes the current user (seeds 000 §7). */
export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ProfileBody) => apiJson<ProfileResponse>('PUT', '/api/profile', body),
    onSuccess: ({ user }) => queryClient.setQueryData(currentUserKey, user),
  })
}

/** POST /api/profile/password: this session stays signed in, the others are signed out. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiJson<{ message: string }>('POST', '/api/profile/password', body),
  })
}
