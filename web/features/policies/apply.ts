import { useQueryClient } from '@tanstack/react-query'
import type { PolicySelectors } from '../../../contract/policies'
import { beneficiariesQuery } from '@/features/circle/api'
import { vaultItemsKey, vaultItemsQuery } from '@/features/vault/items/api'
import { vaultSession } from '@/features/vault/vault-session'
import { applyPolicyGrants, type PolicyGrantResult } from './grants'
import { assertTrustedKeys } from '@/features/circle/trusted-keys'

export interface AppliedPolicy {
  result: PolicyGrantResult
  /** The names of the beneficiaries the items now go to, in the policy's order. */
  names: string[]
}

/**
 * Runs a policy over the vault as it is now: fresh items and beneficiaries from the server, the
 * grants made in this browser (grants.ts), then the items list refreshed. The vault must be
 * unlocked (VaultLockedError otherwise).
 */
export function useApplyPolicy() {
  const queryClient = useQueryClient()
  return async (policy: { id: string; selectors: PolicySelectors; beneficiaryIds: readonly string[] }): Promise<AppliedPolicy> => {
    const master = vaultSession.requireKey()
    const [items, beneficiaries] = await Promise.all([
      queryClient.fetchQuery({ ...vaultItemsQuery, staleTime: 0 }),
      queryClient.fetchQuery({ ...beneficiariesQuery, staleTime: 0 }),
    ])
    const recipients = policy.beneficiaryIds
      .map((id) => beneficiaries.find((b) => b.id === id))
      .filter((b): b is NonNullable<typeof b> => !!b)
    // Nothing is wrapped for a key this vault did not sign (UntrustedKeyError names the beneficiary).
    const result = await applyPolicyGrants({ policyId: policy.id, selectors: policy.selectors, recipients, assertTrusted: assertTrustedKeys, items, master })
    if (result.updatedItemIds.length > 0) {
      await queryClient.invalidateQueries({ queryKey: vaultItemsKey, exact: true })
    }
    return { result, names: recipients.map((b) => b.fullName) }
  }
}
