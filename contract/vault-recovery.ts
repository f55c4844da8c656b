export { recoveryWrapSchema, type RecoveryWrapBody } from './vault'

// The owner's recovery code (0.3 · 4 of 7, FORMAT.md "Recovery code"): 27 random symbols of
// Crockford's base32 (135 bits) and one check symbol, printed in seven groups of four. It wraps
// the vault key in the browser; the server keeps only the salt and the wrap, never the code.

/** Crockford's base32: no I, L, O or U, so nothing reads as another symbol. */
export const RECOVERY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const RECOVERY_RANDOM_SYMBOLS = 27
export const RECOVERY_GROUP = 4
const SYMBOLS = RECOVERY_RANDOM_SYMBOLS + 1

/**
 * Luhn mod 32 over the symbols' values: any one mistyped symbol, and any two different neighbours
 * swapped except `0` and `Z` (values 0 and 31, Luhn's one blind pair), change it.
 */
export function recoveryCheckSymbol(symbols: string): string {
  const n = RECOVERY_ALPHABET.length
  let factor = 2
  let sum = 0
  for (let i = symbols.length - 1; i >= 0; i--) {
    const product = factor * RECOVERY_ALPHABET.indexOf(symbols[i]!)
    sum += Math.floor(product / n) + (product % n)
    factor = factor === 2 ? 1 : 2
  }
  return RECOVERY_ALPHABET[(n - (sum % n)) % n]!
}

/** The printed form: seven groups of four, joined by hyphens. */
export function formatRecoveryCode(symbols: string): string {
  return symbols.match(new RegExp(`.{1,${RECOVERY_GROUP}}`, 'g'))!.join('-')
}

/** A fresh code's 28 symbols from 27 random bytes (each byte's low five bits: uniform over the alphabet). */
export function recoveryCodeFromBytes(random: Uint8Array): string {
  if (random.length < RECOVERY_RANDOM_SYMBOLS) throw new RangeError(`A recovery code needs ${RECOVERY_RANDOM_SYMBOLS} random bytes`)
  const body = Array.from(random.subarray(0, RECOVERY_RANDOM_SYMBOLS), (b) => RECOVERY_ALPHABET[b & 31]).join('')
  return formatRecoveryCode(body + recoveryCheckSymbol(body))
}

export type RecoveryCodeProblem = 'empty' | 'length' | 'symbol' | 'check'

/**
 * What a person typed, as the 27 random symbols, or why not: spaces and hyphens are ignored, case
 * does not matter, and O, I and L are read as 0, 1 and 1 as Crockford's base32 reads them.
 */
export function parseRecoveryCode(typed: string): { ok: true; symbols: string } | { ok: false; problem: RecoveryCodeProblem } {
  const cleaned = typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')
  if (!cleaned) return { ok: false, problem: 'empty' }
  if ([...cleaned].some((c) => !RECOVERY_ALPHABET.includes(c))) return { ok: false, problem: 'symbol' }
  if (cleaned.length !== SYMBOLS) return { ok: false, problem: 'length' }
  const body = cleaned.slice(0, RECOVERY_RANDOM_SYMBOLS)
  if (recoveryCheckSymbol(body) !== cleaned[RECOVERY_RANDOM_SYMBOLS]) return { ok: false, problem: 'check' }
  return { ok: true, symbols: body }
}

export const RECOVERY_MESSAGES = {
  forgotLink: 'Forgot your vault passphrase?',
  enterCode: 'Please enter your recovery code',
  codeEmpty: 'Please enter your recovery code',
  codeLength: `A recovery code has ${SYMBOLS} letters and digits. Check that none is missing or extra.`,
  codeSymbol: 'A recovery code has only letters and digits. Check what you typed.',
  codeCheck: 'There is a typing mistake in this recovery code. Check each group against your printed kit.',
  codeWrong: 'This recovery code does not open your vault. It may be an older code, replaced since.',
  noCode: 'Your vault has no recovery code. Without your passphrase, it cannot be opened.',
  recovered: 'Vault opened with your recovery code',
  recoveredBody:
    'Your new passphrase opens your vault from now on. Your recovery code still works; make a new one from Settings if anyone else may have seen it.',
  made: 'New recovery code made',
  madeBody: 'Your previous recovery code no longer opens your vault.',
  makeNeedsUnlock: 'Unlock your vault to make a new recovery code.',
  makeFailed: 'The recovery code could not be made. Please try again.',
  savedConfirmation: 'I have printed or saved my recovery code',
} as const

export function recoveryCodeProblemText(problem: RecoveryCodeProblem): string {
  return {
    empty: RECOVERY_MESSAGES.codeEmpty,
    length: RECOVERY_MESSAGES.codeLength,
    symbol: RECOVERY_MESSAGES.codeSymbol,
    check: RECOVERY_MESSAGES.codeCheck,
  }[problem]
}
