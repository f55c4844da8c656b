import type { Policy } from '../../../contract/policies'
import type { DecryptedSelectors } from './use-policy-selectors'

/** "Apply to items" is offered only on an active policy, with the vault unlocked and its settings decrypted. */
export function offersApply(card: { active: boolean; unlocked: boolean; selectors: DecryptedSelectors | undefined }): boolean {
  return card.active && card.unlocked && card.selectors?.status === 'ready'
}

/** Deactivate an active policy; activate any other (inactive, draft). */
export function policyToggleTarget(status: Policy['status']): 'inactive' | 'active' {
  return status === 'active' ? 'inactive' : 'active'
}
