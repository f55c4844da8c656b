import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { VaultItem } from '../../../../contract/vault-items'
import { readinessKey } from '@/features/readiness/api'
import { currentUserKey } from '@/features/auth/api'
import { apiJson, apiRequest } from '@/lib/api-client'

// The owner's vault items as the server keeps them: type, sizes, dates and policy in clear, the
// rest encrypted (decrypt-items.ts opens it in the browser).

export const vaultItemsKey = ['/api/vault/items'] as const

export const vaultItemsQuery = queryOptions({
  queryKey: vaultItemsKey,
  queryFn: () => apiJson<VaultItem[]>('GET', '/api/vault/items'),
})

export function useVaultItems(options: { enabled?: boolean } = {}) {
  return useQuery({ ...vaultItemsQuery, enabled: options.enabled ?? true })
}

/** After an item is stored or deleted: the list, and the user's item count and storage used. */
export function useInvalidateVaultItems() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: vaultItemsKey, exact: true }),
      queryClient.invalidateQueries({ queryKey: currentUserKey, exact: true }),
      // An item added or removed changes what would reach whom.
      queryClient.invalidateQueries({ queryKey: readinessKey, exact: true }),
    ])
}

export function useDeleteVaultItem() {
  const invalidate = useInvalidateVaultItems()
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/vault/items/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  })
}
