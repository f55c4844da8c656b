import { useState } from 'react'
import { VAULT_MESSAGES } from '../../../contract/vault'
import { PasswordField } from '@/components/ui/form-field'
import { PassphraseAdvice } from './passphrase-advice'
import { checkGuessing, GUESSING_MESSAGES, usePassphraseGuessing } from './passphrase-guessing'
import { scorePassphrase, STRENGTH_MIN } from './passphrase-strength'
import { confirmationMismatch, passphraseReady, passphraseRuleProblem } from './setup-rules'
import { StrengthMeter } from './strength-meter'

/**
 * A new vault passphrase chosen for a vault that exists (a change from Settings, or one set with
 * the recovery code): the two fields, the strength meter, the estimator's advice, and the rules in
 * the order they are said. `personal` is what the estimator counts as easy to guess.
 */
export function useNewPassphrase(personal: string[]) {
  const [next, setNext] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const strength = scorePassphrase(next)
  const guessing = usePassphraseGuessing(strength.score >= STRENGTH_MIN ? next : '', personal)
  const mismatch = confirmationMismatch(next, confirmation)
  return {
    value: next,
    /** Whether the form may be sent as typed (the estimator's final word comes at `guessingProblem`). */
    ready: passphraseReady(next, confirmation, strength.score, guessing),
    /** The spec's rules: the first one broken, in words, or null. `also` runs after the match check. */
    ruleProblem(also: (next: string) => string | null = () => null): string | null {
      return passphraseRuleProblem(next, confirmation, strength.score, also)
    },
    /** The estimator's refusal with its advice, or null. */
    async guessingProblem(): Promise<string | null> {
      const verdict = await checkGuessing(next, personal)
      return verdict.ok ? null : [GUESSING_MESSAGES.tooGuessable, ...verdict.advice].join(' ')
    },
    reset() {
      setNext('')
      setConfirmation('')
    },
    fields: (options: { autoFocus?: boolean } = {}) => (
      <>
        <PasswordField label="New vault passphrase" autoComplete="new-password" autoFocus={options.autoFocus} value={next} onChange={(e) => setNext(e.target.value)} />
        {next && <StrengthMeter strength={strength} />}
        <PassphraseAdvice verdict={guessing} />
        <PasswordField
          label="Confirm new passphrase"
          autoComplete="new-password"
          error={mismatch ? VAULT_MESSAGES.passphrasesDoNotMatch : undefined}
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
        />
      </>
    ),
  }
}
