// Numbers the spec fixes (seeds 000 §9, 001 §9) and the ones we chose, in one place.

export const PASSWORD_MIN_LOGIN = 6
export const PASSWORD_MIN_REGISTER = 8
// An upper bound keeps a multi-megabyte "password" from costing 100 000 PBKDF2 rounds over it.
export const PASSWORD_MAX = 256
export const DISPLAY_NAME_MIN = 2
export const DISPLAY_NAME_MAX = 100
export const EMAIL_MAX = 254
export const VAULT_PASSPHRASE_MIN = 12

export const HOUR_MS = 3_600_000
export const DAY_MS = 24 * HOUR_MS

// The /settings request's gracePeriod, which the spec fixes; the grace that runs is the inactivity
// trigger's own (contract/triggers.ts), as is the frequency (these options only seed a new trigger).
export const CHECKIN_GRACE_DAYS = 3
/** An inactivity trigger's grace period unless the owner chooses another (seeds 001 §9). */
export const INACTIVITY_GRACE_DEFAULT_DAYS = 14
export const CHECKIN_FREQUENCY_OPTIONS = [7, 14, 30, 60, 90] as const
export const CHECKIN_FREQUENCY_SUMMARY_FALLBACK = 7
export const PAYMENT_GRACE_DAYS = 7
/** The dunning reminder goes this many days before a payment issue's grace ends. */
export const PAYMENT_REMINDER_DAYS = 3
export const FREE_TRIAL_DAYS = 30

export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60
export const AUTH_COOKIE = 'auth_token'
// Signed, HttpOnly: this browser has signed in to that account before (worker/services/sign-in-guard.ts).
export const DEVICE_COOKIE = 'known_device'
export const DEVICE_COOKIE_TTL_SECONDS = 365 * 24 * 60 * 60
/**
 * The per-account hold on password sign-ins: failures only count; past `freeFailures` the address
 * is held `firstHoldMs`, doubling with each further failure up to `maxHoldMs`; a quiet day forgets.
 */
export const SIGN_IN_GUARD = { freeFailures: 5, firstHoldMs: 60_000, maxHoldMs: HOUR_MS, forgetAfterMs: DAY_MS } as const
// Local storage key the spec names for the session token (seeds 000 §3).
export const AUTH_TOKEN_STORAGE_KEY = 'auth_token'

export const TERMS_EFFECTIVE_DATE = 'August 11, 2025'
export const CONTACT_EMAIL = 'privacy@legacyvault.example'
export const SUPPORT_EMAIL = 'support@legacyvault.example'
export const PRODUCT_NAME = 'Legacy Vault'

export const REDIRECT_DELAY_MS = { afterPayment: 1000, afterFreeSignup: 2000, afterAuthFailure: 2000, landingScroll: 100 } as const
