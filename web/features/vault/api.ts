import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PublicUser } from '../../../contract/auth'
import type { SigningKeyBody } from '../../../contract/key-signing'
import type { VaultSetupBody } from '../../../contract/vault'
import { currentUserKey } from '@/features/auth/api'
import { apiJson } from '@/lib/api-client'
import { vaultSession, type StoredVault } from './vault-session'

async function signedInUser(cached: PublicUser | undefined): Promise<PublicUser> {
  return cached ?? (await apiJson<{ user: PublicUser }>('GET', '/api/auth/me')).user
}

/**
 * Creates the vault: keys made in the browser; sent are the salt, the check value, the signing
 * public key and the signing private key wrapped by the master key (POST /api/vault/setup).
 */
export function useCreateVault() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (passphrase: string) => {
      const owner = await signedInUser(queryClient.getQueryData<PublicUser>(currentUserKey))
      let user: PublicUser | undefined
      const recoveryCode = await vaultSession.create(passphrase, owner.id, async (setup: VaultSetupBody) => {
        user = (await apiJson<{ user: PublicUser }>('POST', '/api/vault/setup', setup)).user
      })
      return { user: user!, recoveryCode }
    },
    onSuccess: ({ user }) => queryClient.setQueryData(currentUserKey, user),
  })
}

/** The vault's keys as the signed-in user's view holds them, for unlocking. */
export function storedVault(user: Pick<PublicUser, 'id' | 'vaultSalt' | 'vaultCheck' | 'vaultSigningKey' | 'vaultKey' | 'vaultRecovery'>): StoredVault | null {
  if (!user.vaultSalt || !user.vaultCheck) return null
  return {
    ownerId: user.id,
    salt: user.vaultSalt,
    check: user.vaultCheck,
    signingKey: user.vaultSigningKey,
    vaultKey: user.vaultKey ?? null,
    recovery: user.vaultRecovery ?? null,
  }
}

/** A vault set up before signing keys gets its one at its next unlock (POST /api/vault/signing-key). */
export async function addSigningKey(body: SigningKeyBody): Promise<PublicUser> {
  return (await apiJson<{ user: PublicUser }>('POST', '/api/vault/signing-key', body)).user
}
