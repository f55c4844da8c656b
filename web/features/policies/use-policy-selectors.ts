import { useQueries, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { Policy, PolicySelectors } from '../../../contract/policies'
import { useVaultUnlocked, vaultSession } from '@/features/vault/vault-session'
import { decryptSelectors } from './selectors'

// Each policy's selectors in clear, here only, while the vault is unlocked: the cache is per
// policy, dropped on lock and as soon as no screen shows it (like item metadata).

export const policySelectorsKeyRoot = ['policy-selectors'] as const

export type DecryptedSelectors =
  | { status: 'locked' }
  | { status: 'pending' }
  | { status: 'ready'; selectors: PolicySelectors }
  | { status: 'error' }

export function usePolicySelectors(policies: readonly Policy[] | undefined): Map<string, DecryptedSelectors> {
  const unlocked = useVaultUnlocked()
  const queryClient = useQueryClient()

  useEffect(() => {
    const off = vaultSession.subscribe(() => {
      if (!vaultSession.isUnlocked()) queryClient.removeQueries({ queryKey: policySelectorsKeyRoot })
    })
    return () => {
      off()
    }
  }, [queryClient])

  const list = policies ?? []
  const results = useQueries({
    queries: list.map((policy) => ({
      // The ciphertext is part of the key: a policy is never re-sealed today, but if it were, the old
      // clear text would not be shown for it.
      queryKey: [...policySelectorsKeyRoot, policy.id, policy.encryptedSelectors] as const,
      queryFn: () => decryptSelectors(policy, vaultSession.requireKey()),
      enabled: unlocked,
      staleTime: Infinity,
      gcTime: 0,
      retry: false,
    })),
  })

  const map = new Map<string, DecryptedSelectors>()
  list.forEach((policy, i) => {
    const result = results[i]
    if (!unlocked || !result) map.set(policy.id, { status: 'locked' })
    else if (result.data) map.set(policy.id, { status: 'ready', selectors: result.data })
    else if (result.isError) map.set(policy.id, { status: 'error' })
    else map.set(policy.id, { status: 'pending' })
  })
  return map
}
