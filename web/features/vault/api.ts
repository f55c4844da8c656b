import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import type { VaultSetupBody } from '../../../contract/vault'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'
import { vaultSession } from './vault-session'

/** Creates the vault: key made in the browser, only salt and check value sent (POST /api/vault/setup). */
export function useCreateVault() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (passphrase: string) => {
      let user: PublicUser | undefined
      await vaultSession.create(passphrase, async (setup: VaultSetupBody) => {
        user = (await apiJson<{ user: PublicUser }>('POST', '/api/vault/setup', setup)).user
      })
      return user!
    },
    onSuccess: (user) => queryClient.setQueryData(currentUserKey, user),
  })
}
