import { z } from 'zod'
import { authResponseSchema } from './auth'
import {
  AUTHENTICATOR,
  AUTHENTICATOR_MESSAGES,
  AUTHENTICATOR_PATHS,
  isRecoveryCode,
  isTotpCode,
  normalizeRecoveryCode,
  normalizeTotpCode,
} from './authenticator-constants'

// An authenticator app as a second factor (TOTP, RFC 6238: SHA-1, 6 digits, 30 seconds), with
// one-time recovery codes. The server keeps the app's secret (it must, to check codes) and only
// the SHA-256 of each recovery code; both are shown to the owner once, on their own screen.

export { AUTHENTICATOR, AUTHENTICATOR_MESSAGES, AUTHENTICATOR_PATHS }

/** A code from the app: six digits ("123 456" and "123-456" are read as "123456"). */
const totpCode = z
  .string({ error: AUTHENTICATOR_MESSAGES.codeInvalid })
  .max(32, AUTHENTICATOR_MESSAGES.codeInvalid)
  .transform(normalizeTotpCode)
  .refine(isTotpCode, AUTHENTICATOR_MESSAGES.codeInvalid)

/** A code from the app, or a recovery code (xxxx-xxxx-xxxx, read in any case, with or without dashes). */
const totpOrRecoveryCode = z
  .string({ error: AUTHENTICATOR_MESSAGES.codeOrRecoveryInvalid })
  .max(64, AUTHENTICATOR_MESSAGES.codeOrRecoveryInvalid)
  .refine((code) => isTotpCode(code) || isRecoveryCode(code), AUTHENTICATOR_MESSAGES.codeOrRecoveryInvalid)
  .transform((code) => (isTotpCode(code) ? normalizeTotpCode(code) : normalizeRecoveryCode(code)))

/** POST /api/auth/authenticator/confirm: the first code the app shows for the new secret. */
export const confirmAuthenticatorBodySchema = z.object({ code: totpCode })
export type ConfirmAuthenticatorBody = z.input<typeof confirmAuthenticatorBodySchema>

/** POST /api/auth/authenticator/sign-in: the ticket of the password step, and a code. */
export const authenticatorSignInBodySchema = z.object({
  ticket: z.string({ error: AUTHENTICATOR_MESSAGES.ticketMissing }).min(1, AUTHENTICATOR_MESSAGES.ticketMissing).max(2048, AUTHENTICATOR_MESSAGES.ticketInvalid),
  code: totpOrRecoveryCode,
})
export type AuthenticatorSignInBody = z.input<typeof authenticatorSignInBodySchema>

export const authenticatorStatusSchema = z.object({
  /** Signing in with the password also asks for a code. */
  enabled: z.boolean(),
  confirmedAt: z.string().nullable(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int(),
  /** A setup was started and waits for its first code. */
  pending: z.boolean(),
})
export type AuthenticatorStatus = z.infer<typeof authenticatorStatusSchema>

/** The new secret, shown once to the owner to put into their app (typed, opened or scanned). */
export const authenticatorSetupSchema = z.object({
  /** Base32, as apps take it when typed. */
  secret: z.string(),
  /** otpauth://totp/… with the issuer, the account, the algorithm, digits and period. */
  uri: z.string(),
  issuer: z.string(),
  accountName: z.string(),
  algorithm: z.literal(AUTHENTICATOR.algorithm),
  digits: z.literal(AUTHENTICATOR.digits),
  period: z.literal(AUTHENTICATOR.periodSeconds),
})
export type AuthenticatorSetup = z.infer<typeof authenticatorSetupSchema>

/** A new set of recovery codes: returned once, never again (the server keeps only their hashes). */
export const recoveryCodesSchema = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()),
  status: authenticatorStatusSchema,
})
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>

/** A sign-in completed with the app or a recovery code; with a recovery code, how many are left. */
export const authenticatorSignInResponseSchema = authResponseSchema.extend({
  method: z.enum(['authenticator', 'recovery_code']),
  recoveryCodesLeft: z.number().int().optional(),
})
export type AuthenticatorSignInResponse = z.infer<typeof authenticatorSignInResponseSchema>
