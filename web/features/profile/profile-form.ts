import type { PublicUser } from '../../../contract/auth'
import { PAID_PLANS, PLANS, type PaidPlan } from '../../../contract/plans'
import {
  COUNTRY_VALUES,
  DEFAULT_COUNTRY,
  DEFAULT_TIMEZONE,
  PROFILE_MESSAGES,
  TIMEZONE_VALUES,
  type Country,
  type ProfileBody,
  type ProfileUpdate,
  type Timezone,
} from '../../../contract/profile'
import { ApiRequestError, PaymentRedirectError } from '@/lib/api-client'

// The Profile Settings form (seeds 000 §2, §3, §5, §8, §9): what the fields show for a user, the
// body PUT /api/profile gets, and the toast for a failure. The checks are the contract's own
// schemas (profileBodySchema, changePasswordBodySchema), used as the forms' resolvers.

/** The editable profile as the form holds it: blanks are empty strings, never null. */
export interface ProfileFormValues {
  displayName: string
  email: string
  phoneNumber: string
  country: Country
  timezone: Timezone
  emergencyContact: string
  emailNotifications: boolean
}

export const PASSWORD_FORM_DEFAULTS = { currentPassword: '', newPassword: '', confirmPassword: '' }

const isCountry = (value: string): value is Country => (COUNTRY_VALUES as readonly string[]).includes(value)
const isTimezone = (value: string): value is Timezone => (TIMEZONE_VALUES as readonly string[]).includes(value)

/** The form's values for a user; a stored country or zone outside the lists shows as Other / the default. */
export function profileFormValues(user: PublicUser): ProfileFormValues {
  return {
    displayName: user.displayName,
    email: user.email,
    phoneNumber: user.phoneNumber ?? '',
    country: isCountry(user.country) ? user.country : user.country ? 'other' : DEFAULT_COUNTRY,
    timezone: isTimezone(user.timezone) ? user.timezone : DEFAULT_TIMEZONE,
    emergencyContact: user.emergencyContact ?? '',
    emailNotifications: user.emailNotifications !== false,
  }
}

/**
 * The body of PUT /api/profile from the checked form values: every field, as the spec's call
 * sends them, with the account's own (read-only) e-mail and its two-factor setting (changed on its
 * own switch, in the security keys card).
 */
export function toProfileBody(values: ProfileUpdate, user: Pick<PublicUser, 'email' | 'twoFactorEnabled'>): ProfileBody {
  return {
    displayName: values.displayName,
    email: user.email,
    phoneNumber: values.phoneNumber,
    country: values.country,
    timezone: values.timezone,
    emergencyContact: values.emergencyContact,
    emailNotifications: values.emailNotifications,
    twoFactorEnabled: user.twoFactorEnabled,
  }
}

export interface ToastContent {
  title: string
  description: string
}

/**
 * The toast for a failed save (seeds 000 §8): 'Update failed' with the server's message or
 * 'Failed to update profile.'; a request that never got an answer is a network error. Null when
 * the app is already on its way to /subscribe.
 */
export function profileFailureToast(error: unknown): ToastContent | null {
  if (error instanceof PaymentRedirectError) return null
  if (error instanceof ApiRequestError) return { title: PROFILE_MESSAGES.failedTitle, description: error.detail || PROFILE_MESSAGES.failedBody }
  if (error instanceof TypeError) return { title: PROFILE_MESSAGES.failedTitle, description: PROFILE_MESSAGES.networkError }
  return { title: PROFILE_MESSAGES.failedTitle, description: PROFILE_MESSAGES.failedBody }
}

/** The toast for a failed password change. */
export function passwordFailureToast(error: unknown): ToastContent | null {
  if (error instanceof PaymentRedirectError) return null
  if (error instanceof ApiRequestError) return { title: PROFILE_MESSAGES.passwordFailedTitle, description: error.detail || PROFILE_MESSAGES.passwordFailedBody }
  if (error instanceof TypeError) return { title: PROFILE_MESSAGES.passwordFailedTitle, description: PROFILE_MESSAGES.networkError }
  return { title: PROFILE_MESSAGES.passwordFailedTitle, description: PROFILE_MESSAGES.passwordFailedBody }
}

/**
 * The per-field messages of a 400 (`{ message, errors: [{ field, message }] }`), to show beside
 * the fields as well as in the toast. Fields not in `known` are left out.
 */
export function serverFieldErrors<F extends string>(error: unknown, known: readonly F[]): Partial<Record<F, string>> {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return {}
  const errors = (error.body as { errors?: unknown } | null)?.errors
  if (!Array.isArray(errors)) return {}
  const result: Partial<Record<F, string>> = {}
  for (const entry of errors) {
    const { field, message } = (entry ?? {}) as { field?: unknown; message?: unknown }
    if (typeof field === 'string' && typeof message === 'string' && (known as readonly string[]).includes(field)) {
      result[field as F] ??= message
    }
  }
  return result
}

/** The plan's display name: the priced plans by name, the others (free, pro, paused, admin) capitalised. */
export function planLabel(tier: PublicUser['planTier']): string {
  if ((PAID_PLANS as readonly string[]).includes(tier)) return PLANS[tier as PaidPlan].name
  return tier.charAt(0).toUpperCase() + tier.slice(1)
}

/** 'March 4, 2025' (or '' for an unreadable date). */
export function memberSince(createdAt: string, locale?: string): string {
  const date = new Date(createdAt)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' })
}

/** PUT /api/profile's body that changes only two-factor sign-in: the rest as saved. */
export function twoFactorBody(user: PublicUser, twoFactorEnabled: boolean): ProfileBody {
  return {
    displayName: user.displayName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    country: user.country as ProfileBody['country'],
    timezone: user.timezone as ProfileBody['timezone'],
    emergencyContact: user.emergencyContact,
    emailNotifications: user.emailNotifications,
    twoFactorEnabled,
  }
}

/** The keys a password change removes: only those chosen that are still there (one may have gone meanwhile). */
export function keysToRemove<T extends { id: string }>(list: readonly T[], selected: ReadonlySet<string>): T[] {
  return list.filter((key) => selected.has(key.id))
}

/** Every security key is chosen for removal (and there is at least one): with two-factor sign-in on, the owner is told it goes off. */
export function removesEveryKey(list: readonly { id: string }[], selected: ReadonlySet<string>): boolean {
  return list.length > 0 && keysToRemove(list, selected).length === list.length
}
