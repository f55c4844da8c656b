import { KEY_SIGNING_MESSAGES } from '../../../contract/key-signing'
import { VAULT_MESSAGES } from '../../../contract/vault'

/**
 * What follows a right vault passphrase: everything fetched is fetched again after the key moved
 * (every wrap changed); items are sealed in the background only while the vault's signing key is
 * sound; and the owner is told, in red, when that key was replaced outside this browser.
 */
export function afterUnlock(state: { moved: boolean; signingProblem: boolean }): {
  refetchAll: boolean
  sealStored: boolean
  toast: { title: string; description: string; variant: 'destructive' | 'success' }
} {
  return {
    refetchAll: state.moved,
    sealStored: !state.signingProblem,
    toast: state.signingProblem
      ? { title: VAULT_MESSAGES.unlockedTitle, description: KEY_SIGNING_MESSAGES.signingKeyReplaced, variant: 'destructive' }
      : { title: VAULT_MESSAGES.unlockedTitle, description: VAULT_MESSAGES.unlockedBody, variant: 'success' },
  }
}
