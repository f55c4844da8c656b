import { PRODUCT_NAME } from './constants'

// The authenticator app (TOTP, RFC 6238) and its recovery codes: settings, words and paths, without
// the schemas of contract/authenticator.ts (which re-exports them). The sign-in page reads these,
// and zod is no part of what a public page loads.

export const AUTHENTICATOR = {
  /** What Google Authenticator, 1Password, Authy and the rest all accept. */
  algorithm: 'SHA1',
  digits: 6,
  periodSeconds: 30,
  /** A code of the step before or after the current one is accepted too (clocks drift). */
  window: 1,
  secretBytes: 20,
  /** The name the app shows beside the code, and the otpauth:// issuer. */
  issuer: PRODUCT_NAME,
  /** A setup not confirmed with a code within this time must be started again. */
  pendingTtlMs: 30 * 60_000,
  /** The pending sign-in a right password opens for the code step. */
  ticketTtlSeconds: 5 * 60,
  recoveryCodeCount: 10,
  /** Groups of characters in a recovery code, and their length: xxxx-xxxx-xxxx. */
  recoveryCodeGroups: 3,
  recoveryCodeGroupLength: 4,
  /** No 0/o, 1/l/i: nothing a person can misread when copying a code from paper. */
  recoveryCodeAlphabet: '23456789abcdefghjkmnpqrstuvwxyz',
} as const

export type SecondFactorMethod = 'authenticator' | 'security_key'

export const AUTHENTICATOR_MESSAGES = {
  codeInvalid: `Enter the ${AUTHENTICATOR.digits}-digit code from your authenticator app.`,
  codeOrRecoveryInvalid: `Enter the ${AUTHENTICATOR.digits}-digit code from your authenticator app, or one of your recovery codes (like abcd-efgh-jkmn).`,
  ticketInvalid: 'This sign-in has expired. Please sign in again with your password.',
  ticketMissing: 'The sign-in ticket is missing. Please sign in again with your password.',
  wrongCode: 'That code is not right. Check the code in your authenticator app (it changes every 30 seconds) and try again, or use a recovery code.',
  wrongConfirmCode: 'That code is not right. Check that your authenticator app shows this account, wait for a new code and try again.',
  codeAlreadyUsed: 'That code was already used. Wait for the next code in your authenticator app.',
  alreadyOn: 'An authenticator app is already on for your account.',
  noPendingSetup: 'Start the setup again: no authenticator app is waiting to be confirmed, or its setup has expired.',
  notOn: 'No authenticator app is on for your account.',
  enabledTitle: 'Authenticator app on',
  enabledBody: 'Signing in with your password now also asks for a code from your authenticator app.',
  disabledTitle: 'Authenticator app turned off',
  disabledBody: 'Your authenticator app and its recovery codes no longer sign you in.',
  codesRegeneratedTitle: 'New recovery codes',
  codesRegeneratedBody: 'Your old recovery codes no longer work. Save the new ones now.',
  failedTitle: 'Something went wrong',
  secondFactorPrompt: 'Two-factor sign-in is on: enter the code from your authenticator app.',
  secondFactorPromptWithKey: 'Two-factor sign-in is on: enter the code from your authenticator app, or use your security key.',
  recoveryCodeUsed: (left: number) =>
    left === 0
      ? 'You used your last recovery code. Make new ones in your profile now.'
      : `You used a recovery code: ${left} ${left === 1 ? 'is' : 'are'} left. Each one works only once.`,
} as const

export const AUTHENTICATOR_PATHS = {
  status: '/api/auth/authenticator',
  setup: '/api/auth/authenticator/setup',
  confirm: '/api/auth/authenticator/confirm',
  recoveryCodes: '/api/auth/authenticator/recovery-codes',
  signIn: '/api/auth/authenticator/sign-in',
} as const

/** Six digits, spaces and dashes dropped (the way apps show them, "123 456", may be pasted). */
export function normalizeTotpCode(input: string): string {
  return input.replace(/[\s-]/g, '')
}

/** A recovery code as typed: lower case, without spaces or dashes. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '')
}

export const isTotpCode = (input: string) => new RegExp(`^\\d{${AUTHENTICATOR.digits}}$`).test(normalizeTotpCode(input))

export function isRecoveryCode(input: string): boolean {
  const code = normalizeRecoveryCode(input)
  const length = AUTHENTICATOR.recoveryCodeGroups * AUTHENTICATOR.recoveryCodeGroupLength
  return code.length === length && [...code].every((ch) => AUTHENTICATOR.recoveryCodeAlphabet.includes(ch))
}

/** The base32 key in groups of four, for typing it into an app by hand. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ')
}
