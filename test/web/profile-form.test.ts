import { describe, expect, it } from 'vitest'
import type { PublicUser } from '../../contract/auth'
import { VALIDATION } from '../../contract/messages'
import {
  changePasswordBodySchema,
  COUNTRY_OPTIONS,
  keysAfterPasswordChangeText,
  passwordChangedMessage,
  DEFAULT_COUNTRY,
  DEFAULT_TIMEZONE,
  PROFILE_MESSAGES,
  profileBodySchema,
  TIMEZONE_OPTIONS,
} from '../../contract/profile'
import {
  memberSince,
  passwordFailureToast,
  planLabel,
  profileFailureToast,
  profileFormValues,
  serverFieldErrors,
  toProfileBody,
  twoFactorBody,
} from '@/features/profile/profile-form'
import { ApiRequestError, PaymentRedirectError } from '@/lib/api-client'
import { keysToRemove, removesEveryKey } from '@/features/profile/profile-form'

// The Profile Settings form (seeds 000 §2, §3, §5, §8, §9).

function user(overrides: Partial<PublicUser> = {}): PublicUser {
  return {
    id: 'u1',
    email: 'ada@example.com',
    emailVerified: true,
    displayName: 'Ada Owner',
    planTier: 'basic',
    hasActiveSubscription: true,
    subscriptionStatus: 'active',
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    billingProvider: 'none',
    vaultSetup: false,
    vaultSalt: null,
    vaultCheck: null,
    vaultSigningKey: null,
    vaultKey: null,
    vaultRecovery: null,
    pingFrequency: null,
    gracePeriod: 3,
    storageUsed: 0,
    vaultItemCount: 0,
    phoneNumber: null,
    country: 'US',
    timezone: 'America/New_York',
    emergencyContact: null,
    emailNotifications: true,
    twoFactorEnabled: false,
    securityKeyCount: 0,
    authenticatorEnabled: false,
    deletionScheduledFor: null,
    createdAt: '2025-03-04T12:00:00.000Z',
    profile: { displayName: 'Ada Owner' },
    subscription: { status: 'active' },
    ...overrides,
  }
}

function errorsOf(values: unknown): Record<string, string> {
  const result = profileBodySchema.safeParse(values)
  if (result.success) return {}
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
}

describe('options (seeds 000 §9)', () => {
  it('lists the spec’s countries and time zones, with their defaults', () => {
    expect(COUNTRY_OPTIONS.map((o) => o.value)).toEqual(['US', 'CA', 'UK', 'AU', 'DE', 'FR', 'other'])
    expect(DEFAULT_COUNTRY).toBe('US')
    expect(TIMEZONE_OPTIONS.map((o) => o.label)).toEqual(['New York', 'Chicago', 'Denver', 'Los Angeles', 'London', 'Paris', 'Tokyo', 'Sydney'])
    expect(DEFAULT_TIMEZONE).toBe('America/New_York')
    // Every value is a real IANA zone.
    for (const { value } of TIMEZONE_OPTIONS) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: value })).not.toThrow()
  })

  it('keeps the profile toasts to the letter (seeds 000 §8)', () => {
    expect(PROFILE_MESSAGES.updatedTitle).toBe('Profile updated')
    expect(PROFILE_MESSAGES.failedTitle).toBe('Update failed')
    expect(PROFILE_MESSAGES.failedBody).toBe('Failed to update profile.')
    expect(`${PROFILE_MESSAGES.failedTitle} - ${PROFILE_MESSAGES.networkError}`).toBe('Update failed - Network error. Please try again.')
  })
})

describe('profileFormValues', () => {
  it('shows blanks for missing values and the defaults for a new account', () => {
    expect(profileFormValues(user())).toEqual({
      displayName: 'Ada Owner',
      email: 'ada@example.com',
      phoneNumber: '',
      country: 'US',
      timezone: 'America/New_York',
      emergencyContact: '',
      emailNotifications: true,
    })
  })

  it('shows stored values, and a stored value outside the lists as Other / the default zone', () => {
    const values = profileFormValues(
      user({ phoneNumber: '+33 1 23 45 67 89', country: 'FR', timezone: 'Europe/Paris', emergencyContact: 'kin@example.com', emailNotifications: false }),
    )
    expect(values).toMatchObject({ phoneNumber: '+33 1 23 45 67 89', country: 'FR', timezone: 'Europe/Paris', emergencyContact: 'kin@example.com', emailNotifications: false })
    expect(profileFormValues(user({ country: 'NZ', timezone: 'Pacific/Auckland' }))).toMatchObject({ country: 'other', timezone: 'America/New_York' })
  })

  it('an account with no country stored shows the default country, not Other', () => {
    expect(profileFormValues(user({ country: '' })).country).toBe(DEFAULT_COUNTRY)
  })

  it('round-trips: the untouched form of any account passes the schema', () => {
    expect(profileBodySchema.safeParse(profileFormValues(user())).success).toBe(true)
  })
})

describe('validation of the form values', () => {
  const valid = profileFormValues(user())

  it('gives each field its message', () => {
    expect(errorsOf({ ...valid, displayName: 'A' })).toEqual({ displayName: VALIDATION.displayNameMin })
    expect(errorsOf({ ...valid, phoneNumber: 'call me maybe' })).toEqual({ phoneNumber: PROFILE_MESSAGES.phoneInvalid })
    expect(errorsOf({ ...valid, phoneNumber: '123' })).toEqual({ phoneNumber: PROFILE_MESSAGES.phoneInvalid })
    expect(errorsOf({ ...valid, emergencyContact: 'mum' })).toEqual({ emergencyContact: PROFILE_MESSAGES.emergencyContactInvalid })
    expect(errorsOf({ ...valid, country: 'XX' })).toEqual({ country: PROFILE_MESSAGES.countryInvalid })
    expect(errorsOf({ ...valid, timezone: 'Mars/Olympus' })).toEqual({ timezone: PROFILE_MESSAGES.timezoneInvalid })
    expect(errorsOf({ ...valid, twoFactorEnabled: 'yes' })).toEqual({ twoFactorEnabled: PROFILE_MESSAGES.twoFactorInvalid })
  })

  it('accepts the usual ways of writing a phone number', () => {
    for (const phone of ['+1 (555) 123-4567', '555.123.4567', '020 7946 0958', '+4915112345678']) {
      expect(errorsOf({ ...valid, phoneNumber: phone }), phone).toEqual({})
    }
  })
})

describe('toProfileBody', () => {
  it('sends every field of the spec’s call, blanks as null, the account’s own e-mail and two-factor setting', () => {
    const parsed = profileBodySchema.parse({
      ...profileFormValues(user()),
      displayName: '  Ada L.  ',
      email: 'typed-over@example.com',
      phoneNumber: '   ',
      emergencyContact: ' Kin@Example.com ',
      country: 'DE',
      timezone: 'Europe/Paris',
      emailNotifications: false,
    })
    expect(toProfileBody(parsed, user())).toEqual({
      displayName: 'Ada L.',
      email: 'ada@example.com',
      phoneNumber: null,
      country: 'DE',
      timezone: 'Europe/Paris',
      emergencyContact: 'kin@example.com',
      emailNotifications: false,
      twoFactorEnabled: false,
    })
    // Saving the profile never turns two-factor sign-in off behind the owner's back.
    expect(toProfileBody(parsed, user({ twoFactorEnabled: true })).twoFactorEnabled).toBe(true)
  })
})

describe('twoFactorBody', () => {
  it('changes two-factor only, sending the rest as saved, and passes the schema', () => {
    const saved = user({ phoneNumber: '+1 555 123 4567', country: 'CA', timezone: 'America/Chicago', emergencyContact: 'kin@example.com', emailNotifications: false })
    const body = twoFactorBody(saved, true)
    expect(body).toEqual({
      displayName: 'Ada Owner',
      email: 'ada@example.com',
      phoneNumber: '+1 555 123 4567',
      country: 'CA',
      timezone: 'America/Chicago',
      emergencyContact: 'kin@example.com',
      emailNotifications: false,
      twoFactorEnabled: true,
    })
    expect(profileBodySchema.safeParse(body).success).toBe(true)
    expect(twoFactorBody(user(), false).twoFactorEnabled).toBe(false)
  })
})

describe('failure toasts and field errors', () => {
  const badRequest = new ApiRequestError(400, 'email: Email cannot be changed', {
    message: 'email: Email cannot be changed',
    errors: [
      { field: 'email', message: 'Email cannot be changed' },
      { field: 'planTier', message: 'ignored' },
    ],
  })

  it('shows the server’s message, the fallback, or the network error (seeds 000 §8)', () => {
    expect(profileFailureToast(badRequest)).toEqual({ title: 'Update failed', description: 'email: Email cannot be changed' })
    expect(profileFailureToast(new ApiRequestError(500, '', ''))).toEqual({ title: 'Update failed', description: 'Failed to update profile.' })
    expect(profileFailureToast(new TypeError('Failed to fetch'))).toEqual({ title: 'Update failed', description: 'Network error. Please try again.' })
    expect(profileFailureToast(new Error('odd'))).toEqual({ title: 'Update failed', description: 'Failed to update profile.' })
    expect(profileFailureToast(new PaymentRedirectError())).toBeNull()
  })

  it('has its own title for the password change', () => {
    expect(passwordFailureToast(new ApiRequestError(400, 'currentPassword: Current password is incorrect', {}))).toEqual({
      title: PROFILE_MESSAGES.passwordFailedTitle,
      description: 'currentPassword: Current password is incorrect',
    })
    expect(passwordFailureToast(new TypeError('Failed to fetch'))?.description).toBe(PROFILE_MESSAGES.networkError)
  })

  it('shows a field’s first message when the server gives it several', () => {
    const twice = new ApiRequestError(400, 'x', {
      errors: [
        { field: 'displayName', message: 'Name is required' },
        { field: 'displayName', message: 'Name is too short' },
      ],
    })
    expect(serverFieldErrors(twice, ['displayName'] as const)).toEqual({ displayName: 'Name is required' })
  })

  it('puts a 400’s field messages beside the known fields only', () => {
    expect(serverFieldErrors(badRequest, ['email', 'displayName'] as const)).toEqual({ email: 'Email cannot be changed' })
    expect(serverFieldErrors(new ApiRequestError(401, 'x', { errors: [{ field: 'email', message: 'm' }] }), ['email'] as const)).toEqual({})
    expect(serverFieldErrors(new TypeError('x'), ['email'] as const)).toEqual({})
  })
})

describe('password change form', () => {
  const errors = (values: unknown) => {
    const result = changePasswordBodySchema.safeParse(values)
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]))
  }

  it('checks the fields inline with the registration rules', () => {
    expect(errors({ currentPassword: '', newPassword: '', confirmPassword: '' })).toEqual({
      currentPassword: PROFILE_MESSAGES.currentPasswordRequired,
      newPassword: VALIDATION.registerPasswordMin,
    })
    expect(errors({ currentPassword: 'old password', newPassword: 'new password', confirmPassword: 'new passwort' })).toEqual({
      confirmPassword: VALIDATION.passwordsDontMatch,
    })
    expect(errors({ currentPassword: 'same password', newPassword: 'same password', confirmPassword: 'same password' })).toEqual({
      newPassword: PROFILE_MESSAGES.newPasswordSame,
    })
    expect(errors({ currentPassword: 'old password', newPassword: 'new password', confirmPassword: 'new password' })).toEqual({})
  })
})

describe('account details', () => {
  it('names the plan and the joining date', () => {
    expect(planLabel('basic')).toBe('Basic')
    expect(planLabel('enterprise')).toBe('Enterprise')
    expect(planLabel('admin')).toBe('Admin')
    expect(memberSince('2025-03-04T12:00:00.000Z', 'en-US')).toBe('March 4, 2025')
    expect(memberSince('not a date')).toBe('')
  })
})

describe('keysAfterPasswordChangeText', () => {
  it('says what was removed and what can still sign in', () => {
    expect(keysAfterPasswordChangeText({ removedKeys: 2, keysLeft: 1 })).toBe(
      '2 security keys were removed. 1 security key can still sign in to your account: if you did not add it, remove it from your Profile Settings.',
    )
    expect(keysAfterPasswordChangeText({ removedKeys: 1, keysLeft: 3 })).toBe(
      '1 security key was removed. 3 security keys can still sign in to your account: if you did not add them, remove them from your Profile Settings.',
    )
    expect(keysAfterPasswordChangeText({ removedKeys: 0, keysLeft: 1 })).toMatch(/^No security key was removed\. 1 security key can still sign in/)
    expect(keysAfterPasswordChangeText({ removedKeys: 2, keysLeft: 0, twoFactorTurnedOff: true })).toBe(
      '2 security keys were removed. No security key can sign in to your account now. Two-factor sign-in has been turned off, since no security key is left: your password alone signs you in.',
    )
    // An account without keys hears nothing of them.
    expect(keysAfterPasswordChangeText({ removedKeys: 0, keysLeft: 0 })).toBe('')
    expect(passwordChangedMessage({ removedKeys: 0, keysLeft: 0 })).toBe('Your password has been updated. Other devices have been signed out.')
  })

  it('lets the password form name at most 50 keys to remove, as a list of ids', () => {
    const body = { currentPassword: 'old password', newPassword: 'a new password', confirmPassword: 'a new password' }
    expect(changePasswordBodySchema.safeParse(body).success).toBe(true)
    expect(changePasswordBodySchema.safeParse({ ...body, removeKeyIds: ['a', 'b'] }).data?.removeKeyIds).toEqual(['a', 'b'])
    const tooMany = changePasswordBodySchema.safeParse({ ...body, removeKeyIds: Array.from({ length: 51 }, (_, i) => `k${i}`) })
    expect(tooMany.error?.issues[0]?.message).toBe(PROFILE_MESSAGES.removeKeyIdsTooMany)
    expect(changePasswordBodySchema.safeParse({ ...body, removeKeyIds: 'a' }).error?.issues[0]?.message).toBe(PROFILE_MESSAGES.removeKeyIdsInvalid)
  })
})

describe('removing security keys with a password change', () => {
  const list = [{ id: 'k1' }, { id: 'k2' }]

  it('removes only the chosen keys that are still there', () => {
    expect(keysToRemove(list, new Set(['k2', 'gone']))).toEqual([{ id: 'k2' }])
  })

  it('says two-factor sign-in goes off only when every key is chosen', () => {
    expect(removesEveryKey(list, new Set(['k1', 'k2']))).toBe(true)
    expect(removesEveryKey(list, new Set(['k1']))).toBe(false)
    // A key chosen, then removed elsewhere, does not make a partial choice "every key".
    expect(removesEveryKey(list, new Set(['k1', 'gone']))).toBe(false)
    expect(removesEveryKey([], new Set())).toBe(false)
  })
})
