import { useEffect, useState } from 'react'
import type { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { VAULT_MESSAGES } from '../../../contract/vault'

// How hard a new passphrase is to guess, by a maintained estimator (zxcvbn-ts, its English and
// common dictionaries), beside the spec's character rules (passphrase-strength.ts), which accept
// "abcdefghijk1". The server keeps what allows guessing offline (the passphrase check, the wrapped
// keys), so a passphrase must hold against a patient attacker with that data, not a login form:
// at 600 000 PBKDF2 iterations one current GPU tries about 15 000 passphrases a second, so 10^12
// guesses is about two years of it. The estimator and its dictionaries (about 1.6 MB) are loaded
// only where a passphrase is typed.

/** The fewest guesses (the estimator's count) a new passphrase must need. */
export const MIN_GUESSES = 1e12

export const GUESSING_MESSAGES = {
  tooGuessable: VAULT_MESSAGES.tooGuessable,
  /** When the estimator has no advice of its own. */
  longer: VAULT_MESSAGES.guessingLonger,
  unavailable: VAULT_MESSAGES.guessingUnavailable,
} as const

export interface GuessingVerdict {
  ok: boolean
  /** The estimator's warning and suggestions, in plain words (empty when ok). */
  advice: string[]
}

type Estimator = Pick<ZxcvbnFactory, 'check'>

let loading: Promise<Estimator> | null = null

/** The estimator, loaded once (a separate chunk of the app). */
export function loadEstimator(): Promise<Estimator> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')])
    return new ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations })
  })().catch((error: unknown) => {
    loading = null
    throw error
  })
  return loading
}

/**
 * Whether `passphrase` needs at least MIN_GUESSES guesses, counting what is personal to the person
 * (`personal`: their e-mail, name) as easy to guess.
 */
export function judgeGuessing(estimator: Estimator, passphrase: string, personal: readonly string[] = []): GuessingVerdict {
  const result = estimator.check(passphrase, personal.flatMap((p) => [p, ...p.split(/[^\p{L}\p{N}]+/u)]).filter((p) => p.length > 2))
  if (result.guesses >= MIN_GUESSES) return { ok: true, advice: [] }
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter((s): s is string => !!s)
  return { ok: false, advice: advice.length > 0 ? advice : [GUESSING_MESSAGES.longer] }
}

/**
 * The verdict on what is typed now: null while the estimator loads, if it could not be loaded (the
 * submit checks again, and says so), or for an empty passphrase.
 */
export function usePassphraseGuessing(passphrase: string, personal: readonly string[] = []): GuessingVerdict | null {
  const [estimator, setEstimator] = useState<Estimator | null>(null)
  useEffect(() => {
    let live = true
    loadEstimator().then(
      (e) => live && setEstimator(e),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [])
  if (!estimator || !passphrase) return null
  return judgeGuessing(estimator, passphrase, personal)
}

/** At submit: the verdict, loading the estimator if need be; one that cannot be loaded refuses, in words. */
export async function checkGuessing(passphrase: string, personal: readonly string[] = []): Promise<GuessingVerdict> {
  try {
    return judgeGuessing(await loadEstimator(), passphrase, personal)
  } catch {
    return { ok: false, advice: [GUESSING_MESSAGES.unavailable] }
  }
}
