import { z } from 'zod'
import {
  DISPLAY_NAME_MAX,
  DISPLAY_NAME_MIN,
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN_LOGIN,
  PASSWORD_MIN_REGISTER,
} from './constants'
import { EMAIL_CONFIRMATION, VALIDATION } from './messages'
import { PLAN_TIERS } from './plans'

// E-mail is compared case-insensitively everywhere, so it is normalised once, here.
export const emailField = z
  .string({ error: VALIDATION.invalidEmail })
  .trim()
  .max(EMAIL_MAX, VALIDATION.invalidEmail)
  .pipe(z.email(VALIDATION.invalidEmail))
  .transform((email) => email.toLowerCase())

const loginPassword = z
  .string({ error: VALIDATION.loginPasswordMin })
  .min(PASSWORD_MIN_LOGIN, VALIDATION.loginPasswordMin)
  .max(PASSWORD_MAX, VALIDATION.passwordTooLong)

const newPassword = z
  .string({ error: VALIDATION.registerPasswordMin })
  .min(PASSWORD_MIN_REGISTER, VALIDATION.registerPasswordMin)
  .max(PASSWORD_MAX, VALIDATION.passwordTooLong)

export const loginBodySchema = z.object({ email: emailField, password: loginPassword })
export type LoginBody = z.input<typeof loginBodySchema>

export const registerBodySchema = z.object({
  email: emailField,
  password: newPassword,
  displayName: z
    .string({ error: VALIDATION.displayNameMin })
    .trim()
    .min(DISPLAY_NAME_MIN, VALIDATION.displayNameMin)
    .max(DISPLAY_NAME_MAX, `Display name must be at most ${DISPLAY_NAME_MAX} characters`),
  // Taken from a pending guest subscription (seeds 000 §3). The server trusts none of them: the
  // billing module attaches a subscription only when its own records confirm it.
  subscriptionId: z.string().max(255).optional(),
  stripeCustomerId: z.string().max(255).optional(),
  planTier: z.enum(PLAN_TIERS).optional(),
})
export type RegisterBody = z.input<typeof registerBodySchema>

export const registerFormSchema = registerBodySchema
  .pick({ email: true, password: true, displayName: true })
  .extend({
    confirmPassword: z.string(),
    acceptTerms: z.boolean().refine((v) => v, VALIDATION.acceptTerms),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: VALIDATION.passwordsDontMatch,
    path: ['confirmPassword'],
  })
export type RegisterForm = z.input<typeof registerFormSchema>

export const forgotPasswordBodySchema = z.object({ email: emailField })
export type ForgotPasswordBody = z.input<typeof forgotPasswordBodySchema>

export const resetPasswordBodySchema = z.object({
  token: z.string().min(16, 'The reset token is missing or malformed.').max(200),
  password: newPassword,
})
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>

export const resetPasswordFormSchema = z
  .object({ password: newPassword, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: VALIDATION.passwordsDontMatch,
    path: ['confirmPassword'],
  })
export type ResetPasswordForm = z.input<typeof resetPasswordFormSchema>

/** POST /api/auth/confirm-email: the token of the link sent to the owner's address. */
export const confirmEmailBodySchema = z.object({
  token: z.string({ error: EMAIL_CONFIRMATION.linkInvalid }).min(20, EMAIL_CONFIRMATION.linkInvalid).max(2048),
})
export const emailConfirmedSchema = z.object({
  message: z.string(),
  /** Invitations that were waiting for the confirmation and went out with it. */
  invitationsSent: z.number().int(),
})
export type EmailConfirmed = z.infer<typeof emailConfirmedSchema>

export const publicUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** The owner followed the link sent to their address; until then invitations wait. */
  emailVerified: z.boolean(),
  displayName: z.string(),
  planTier: z.enum(PLAN_TIERS),
  hasActiveSubscription: z.boolean(),
  subscriptionStatus: z.string().nullable(),
  stripeCustomerId: z.string().nullable(),
  stripeSubscriptionId: z.string().nullable(),
  billingProvider: z.enum(['none', 'stripe']),
  vaultSetup: z.boolean(),
  vaultSalt: z.string().nullable(),
  vaultCheck: z.string().nullable(),
  /** The vault's signing public key and its private key wrapped by the master key; null before the vault has one. */
  vaultSigningKey: z.object({ publicKey: z.string(), wrapped: z.string() }).nullable(),
  /** The vault key wrapped by the passphrase's key (vault format 2); null for a vault of format 1 or none. */
  vaultKey: z.string().nullable(),
  /** The vault key wrapped under the owner's recovery code (contract/vault-recovery.ts), and when it was made; null without one. */
  vaultRecovery: z.object({ salt: z.string(), wrappedVaultKey: z.string(), madeAt: z.string() }).nullable(),
  pingFrequency: z.number().int().nullable(),
  gracePeriod: z.number().int(),
  storageUsed: z.number().int(),
  vaultItemCount: z.number().int(),
  phoneNumber: z.string().nullable(),
  country: z.string(),
  timezone: z.string(),
  emergencyContact: z.string().nullable(),
  emailNotifications: z.boolean(),
  twoFactorEnabled: z.boolean(),
  securityKeyCount: z.number().int(),
  /** An authenticator app is on: signing in with the password also asks for one of its codes. */
  authenticatorEnabled: z.boolean(),
  /** When the account will be deleted (the owner asked; it is frozen until then), or null. */
  deletionScheduledFor: z.string().nullable(),
  createdAt: z.string(),
  profile: z.object({ displayName: z.string() }),
  subscription: z.object({ status: z.string().nullable() }),
})
export type PublicUser = z.infer<typeof publicUserSchema>

export const authResponseSchema = z.object({ token: z.string(), user: publicUserSchema })
export type AuthResponse = z.infer<typeof authResponseSchema>
export const meResponseSchema = z.object({ user: publicUserSchema })

export const messageResponseSchema = z.object({ message: z.string() })

export const outboxMessageSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
})
export type OutboxMessage = z.infer<typeof outboxMessageSchema>
