import { z } from 'zod'
import { emailField, publicUserSchema, registerBodySchema, type PublicUser } from './auth'
import { PASSWORD_MAX, PASSWORD_MIN_REGISTER } from './constants'
import { VALIDATION } from './messages'

// Profile Settings (seeds 000 §2 'Profile Settings page', §3 user profile, §5, §7 PUT /api/profile,
// §8 profile toasts, §9 country and time-zone options).

export const COUNTRY_OPTIONS = [
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
  { value: 'UK', label: 'United Kingdom' },
  { value: 'AU', label: 'Australia' },
  { value: 'DE', label: 'Germany' },
  { value: 'FR', label: 'France' },
  { value: 'other', label: 'Other' },
] as const
export type Country = (typeof COUNTRY_OPTIONS)[number]['value']
export const COUNTRY_VALUES = COUNTRY_OPTIONS.map((o) => o.value) as [Country, ...Country[]]
export const DEFAULT_COUNTRY: Country = 'US'

// The spec names the cities; the stored values are their IANA zone names.
export const TIMEZONE_OPTIONS = [
  { value: 'America/New_York', label: 'New York' },
  { value: 'America/Chicago', label: 'Chicago' },
  { value: 'America/Denver', label: 'Denver' },
  { value: 'America/Los_Angeles', label: 'Los Angeles' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Europe/Paris', label: 'Paris' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
  { value: 'Australia/Sydney', label: 'Sydney' },
] as const
export type Timezone = (typeof TIMEZONE_OPTIONS)[number]['value']
export const TIMEZONE_VALUES = TIMEZONE_OPTIONS.map((o) => o.value) as [Timezone, ...Timezone[]]
export const DEFAULT_TIMEZONE: Timezone = 'America/New_York'

export const PHONE_MAX = 32

export const PROFILE_MESSAGES = {
  // Toasts (seeds 000 §8), to the letter.
  updatedTitle: 'Profile updated',
  updatedBody: 'Your profile has been saved.',
  failedTitle: 'Update failed',
  failedBody: 'Failed to update profile.',
  networkError: 'Network error. Please try again.',
  // Ours.
  emailReadOnly: 'Email cannot be changed: it is the address you sign in with.',
  phoneInvalid: 'Please enter a valid phone number',
  countryInvalid: 'Please choose a country from the list',
  timezoneInvalid: 'Please choose a time zone from the list',
  emergencyContactInvalid: 'Emergency contact must be a valid email address',
  emailNotificationsInvalid: 'Email notifications must be on or off',
  twoFactorInvalid: 'Two-factor sign-in must be on or off',
  currentPasswordRequired: 'Please enter your current password',
  currentPasswordIncorrect: 'Current password is incorrect',
  newPasswordSame: 'New password must be different from the current password',
  passwordChangeConflict: 'Your password was changed elsewhere at the same time. Please try again.',
  passwordUpdatedTitle: 'Password updated',
  passwordUpdatedBody: 'Other devices signed in to your account have been signed out.',
  passwordFailedTitle: 'Password update failed',
  passwordFailedBody: 'Failed to update your password. Please try again.',
  passwordChanged: 'Your password has been updated. Other devices have been signed out.',
  removeKeyIdsInvalid: 'Security keys to remove must be a list of key ids',
  removeKeyIdsTooMany: 'At most 50 security keys can be removed at once',
  // The optional list of the password form.
  removeKeysTitle: 'Also remove security keys',
  removeKeysBody:
    'A security key signs in without your password. If someone else added a key to your account, a new password does not keep them out: remove any key you do not recognise.',
  removeAllKeys: 'Remove all security keys',
  removeAllKeysTurnsOffTwoFactor: 'With no security key left, two-factor sign-in will be turned off: your new password alone will sign you in.',
  removeKeysLoading: 'Loading your security keys',
  removeKeysLoadFailed: 'Unable to load your security keys.',
} as const

/** The most security keys one password change may remove (an owner has at most 10). */
export const REMOVE_KEY_IDS_MAX = 50

const keyCount = (n: number) => `${n} security ${n === 1 ? 'key' : 'keys'}`

export interface KeysAfterPasswordChange {
  /** Keys removed with the change. */
  removedKeys: number
  /** Keys that can still sign in to the account. */
  keysLeft: number
  /** Two-factor sign-in was on and has been turned off, no key being left. */
  twoFactorTurnedOff?: boolean
}

/**
 * What a password change did and did not do to the account's security keys, in sentences (the
 * answer and the e-mail say the same): empty when there were none and none was removed.
 */
export function keysAfterPasswordChangeText({ removedKeys, keysLeft, twoFactorTurnedOff = false }: KeysAfterPasswordChange): string {
  if (removedKeys === 0 && keysLeft === 0) return ''
  const removed = removedKeys === 0 ? 'No security key was removed.' : `${keyCount(removedKeys)} ${removedKeys === 1 ? 'was' : 'were'} removed.`
  const left =
    keysLeft === 0
      ? 'No security key can sign in to your account now.'
      : `${keyCount(keysLeft)} can still sign in to your account: if you did not add ${keysLeft === 1 ? 'it, remove it' : 'them, remove them'} from your Profile Settings.`
  const twoFactor = twoFactorTurnedOff ? ' Two-factor sign-in has been turned off, since no security key is left: your password alone signs you in.' : ''
  return `${removed} ${left}${twoFactor}`
}

/** The answer to a password change: the message with what happened to the security keys. */
export function passwordChangedMessage(keys: KeysAfterPasswordChange): string {
  const text = keysAfterPasswordChangeText(keys)
  return text ? `${PROFILE_MESSAGES.passwordChanged} ${text}` : PROFILE_MESSAGES.passwordChanged
}

/** Optional text: blank, absent or null is "none", stored as null; anything else must pass `inner`. */
function optionalText(typeMessage: string, inner: z.ZodType<string, string>) {
  return z
    .string({ error: typeMessage })
    .nullish()
    .transform((value) => value?.trim() || null)
    .pipe(inner.nullable())
}

// Loose on purpose: digits with the usual separators and an optional leading +, 7 to 15 digits.
const PHONE_PATTERN = /^\+?[0-9][0-9 ().-]*$/
const phoneNumber = z.string().refine((value) => {
  const digits = value.replace(/\D/g, '').length
  return value.length <= PHONE_MAX && PHONE_PATTERN.test(value) && digits >= 7 && digits <= 15
}, PROFILE_MESSAGES.phoneInvalid)

const emergencyContact = z
  .string()
  .max(254, PROFILE_MESSAGES.emergencyContactInvalid)
  .pipe(z.email(PROFILE_MESSAGES.emergencyContactInvalid))
  .transform((email) => email.toLowerCase())

export const profileBodySchema = z.object({
  displayName: registerBodySchema.shape.displayName,
  // Read-only (seeds 000 §5): accepted only when it is the account's own address (the route checks).
  email: emailField.optional(),
  phoneNumber: optionalText(PROFILE_MESSAGES.phoneInvalid, phoneNumber),
  country: z.enum(COUNTRY_VALUES, { error: PROFILE_MESSAGES.countryInvalid }),
  timezone: z.enum(TIMEZONE_VALUES, { error: PROFILE_MESSAGES.timezoneInvalid }),
  emergencyContact: optionalText(PROFILE_MESSAGES.emergencyContactInvalid, emergencyContact),
  // "true unless false" (seeds 000 §3).
  emailNotifications: z.boolean({ error: PROFILE_MESSAGES.emailNotificationsInvalid }).default(true),
  // On: a password sign-in also needs one of the owner's security keys (the route checks one exists).
  twoFactorEnabled: z.boolean({ error: PROFILE_MESSAGES.twoFactorInvalid }).default(false),
})
export type ProfileBody = z.input<typeof profileBodySchema>
export type ProfileUpdate = z.output<typeof profileBodySchema>

/** The stored profile fields PUT /api/profile may change, by name (for the audit entry). */
export const PROFILE_FIELDS = [
  'displayName',
  'phoneNumber',
  'country',
  'timezone',
  'emergencyContact',
  'emailNotifications',
  'twoFactorEnabled',
] as const satisfies ReadonlyArray<keyof ProfileUpdate & keyof PublicUser>
export type ProfileField = (typeof PROFILE_FIELDS)[number]

export const profileResponseSchema = z.object({ message: z.string(), user: publicUserSchema })
export type ProfileResponse = z.infer<typeof profileResponseSchema>

export const changePasswordBodySchema = z
  .object({
    currentPassword: z
      .string({ error: PROFILE_MESSAGES.currentPasswordRequired })
      .min(1, PROFILE_MESSAGES.currentPasswordRequired)
      .max(PASSWORD_MAX, PROFILE_MESSAGES.currentPasswordIncorrect),
    // The registration rules (seeds 000 §5).
    newPassword: registerBodySchema.shape.password,
    confirmPassword: z.string({ error: VALIDATION.passwordsDontMatch }),
    // Security keys of the account to remove with the change (ids that are not the owner's are ignored).
    removeKeyIds: z
      .array(z.string({ error: PROFILE_MESSAGES.removeKeyIdsInvalid }).min(1, PROFILE_MESSAGES.removeKeyIdsInvalid).max(1024, PROFILE_MESSAGES.removeKeyIdsInvalid), {
        error: PROFILE_MESSAGES.removeKeyIdsInvalid,
      })
      .max(REMOVE_KEY_IDS_MAX, PROFILE_MESSAGES.removeKeyIdsTooMany)
      .optional(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: VALIDATION.passwordsDontMatch,
    path: ['confirmPassword'],
  })
  .refine((v) => !v.currentPassword || (v.newPassword ?? '').length < PASSWORD_MIN_REGISTER || v.newPassword !== v.currentPassword, {
    message: PROFILE_MESSAGES.newPasswordSame,
    path: ['newPassword'],
  })
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>

export const changePasswordResponseSchema = z.object({
  message: z.string(),
  /** Security keys removed with the change. */
  removedKeys: z.number().int(),
  /** Security keys that can still sign in. */
  keysLeft: z.number().int(),
  /** Two-factor sign-in was turned off because no key is left. */
  twoFactorTurnedOff: z.boolean(),
})
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>
