import { VAULT_MESSAGES } from '../../../contract/vault'
import type { GuessingVerdict } from './passphrase-guessing'
import { STRENGTH_MIN } from './passphrase-strength'

// The rules of a new vault passphrase, as the vault's setup and the passphrase change apply them.

/** A new vault passphrase may be sent only when given, typed the same twice, strong enough, and not found guessable. */
export function passphraseReady(next: string, confirmation: string, score: number, guessing: GuessingVerdict | null): boolean {
  return next.length > 0 && next === confirmation && score >= STRENGTH_MIN && guessing?.ok !== false
}

/** The first of the spec's rules a new passphrase breaks, in words, or null: given, the same twice, `also`, strong enough. */
export function passphraseRuleProblem(next: string, confirmation: string, score: number, also: (next: string) => string | null = () => null): string | null {
  if (!next) return VAULT_MESSAGES.enterPassphrase
  if (next !== confirmation) return VAULT_MESSAGES.passphrasesDoNotMatch
  const extra = also(next)
  if (extra) return extra
  return score < STRENGTH_MIN ? VAULT_MESSAGES.tooWeak : null
}

/** "Passphrases do not match" shows under the confirmation only once something is typed there. */
export function confirmationMismatch(next: string, confirmation: string): boolean {
  return confirmation.length > 0 && confirmation !== next
}

/** The setup dialog cannot be closed while the vault is being made, and once the first recovery code is shown it closes only through Done. */
export function setupDialogMayChange(state: { creating: boolean; recoveryCodeShown: boolean; opening: boolean }): boolean {
  return !(state.creating || (state.recoveryCodeShown && !state.opening))
}
