import { useQueries, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { z } from 'zod'
import type { ItemMetadata, VaultItem } from '../../../../contract/vault-items'
import { decryptMetadata, unwrapDataKey, type MasterKey } from '@/crypto'
import { useVaultUnlocked, vaultSession } from '../vault-session'

// Each item's file name, MIME type and tags exist in clear only here, in the owner's browser,
// and only while the vault is unlocked: the cache is per item id, dropped on lock and as soon as
// no screen shows it.

const metadataSchema = z.object({
  filename: z.string(),
  mimetype: z.string(),
  size: z.number(),
  tags: z.array(z.string()),
})

export const itemMetadataKeyRoot = ['vault-item-metadata'] as const

/** One item's metadata: its data key unwrapped with the master key, then the metadata opened. */
export async function decryptItemMetadata(item: Pick<VaultItem, 'id' | 'wrappedKey' | 'encryptedMetadata'>, master: MasterKey): Promise<ItemMetadata> {
  const dek = await unwrapDataKey(item.wrappedKey, master)
  return metadataSchema.parse(await decryptMetadata<unknown>(dek, item.id, item.encryptedMetadata))
}

export type DecryptedMetadata =
  | { status: 'locked' }
  | { status: 'pending' }
  | { status: 'ready'; metadata: ItemMetadata }
  | { status: 'error' }

/**
 * Drops every decrypted file name and tag from the query cache as soon as the vault locks; the
 * returned function stops listening.
 */
export function forgetMetadataOnLock(queryClient: QueryClient, session: Pick<typeof vaultSession, 'subscribe' | 'isUnlocked'> = vaultSession): () => void {
  return session.subscribe(() => {
    if (!session.isUnlocked()) queryClient.removeQueries({ queryKey: itemMetadataKeyRoot })
  })
}

/** Decrypted content on screen (an open password entry, a picture's preview) goes away as soon as the vault locks. */
export function closesViewers(unlocked: boolean): boolean {
  return !unlocked
}

/** Metadata by item id; every entry is 'locked' while the vault is. */
export function useDecryptedMetadata(items: readonly VaultItem[] | undefined): Map<string, DecryptedMetadata> {
  const unlocked = useVaultUnlocked()
  const queryClient = useQueryClient()

  useEffect(() => forgetMetadataOnLock(queryClient), [queryClient])

  const list = items ?? []
  const results = useQueries({
    queries: list.map((item) => ({
      // The wrap is part of the key: a vault's move to a vault key gives every item a new one.
      queryKey: [...itemMetadataKeyRoot, item.id, item.wrappedKey] as const,
      queryFn: () => decryptItemMetadata(item, vaultSession.requireKey()),
      enabled: unlocked,
      staleTime: Infinity,
      gcTime: 0,
      retry: false,
    })),
  })

  const map = new Map<string, DecryptedMetadata>()
  list.forEach((item, i) => {
    const result = results[i]
    if (!unlocked || !result) map.set(item.id, { status: 'locked' })
    else if (result.data) map.set(item.id, { status: 'ready', metadata: result.data })
    else if (result.isError) map.set(item.id, { status: 'error' })
    else map.set(item.id, { status: 'pending' })
  })
  return map
}
