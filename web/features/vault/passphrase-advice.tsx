import { GUESSING_MESSAGES, type GuessingVerdict } from './passphrase-guessing'

/** The estimator's advice under a new passphrase, once it finds it too easy to guess. */
export function PassphraseAdvice({ verdict }: { verdict: GuessingVerdict | null }) {
  if (!verdict || verdict.ok) return null
  return (
    <div className="grid gap-1 text-xs text-red-700" aria-live="polite" data-testid="passphrase-guessing">
      <p className="font-semibold">{GUESSING_MESSAGES.tooGuessable}</p>
      <ul className="list-disc pl-5">
        {verdict.advice.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  )
}
