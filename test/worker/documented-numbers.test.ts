import { describe, expect, it } from 'vitest'
import { ACCESS_REQUEST } from '../../contract/access-requests'
import { DELETION_GRACE_MS } from '../../contract/account-deletion'
import { AUTHENTICATOR } from '../../contract/authenticator-constants'
import { MAIL_LIMITS } from '../../contract/circle'
import {
  CHECKIN_GRACE_DAYS,
  DAY_MS,
  DEVICE_COOKIE_TTL_SECONDS,
  DISPLAY_NAME_MAX,
  DISPLAY_NAME_MIN,
  EMAIL_MAX,
  FREE_TRIAL_DAYS,
  HOUR_MS,
  INACTIVITY_GRACE_DEFAULT_DAYS,
  PASSWORD_MAX,
  PASSWORD_MIN_LOGIN,
  PASSWORD_MIN_REGISTER,
  PASSWORD_RESET_TTL_SECONDS,
  PAYMENT_GRACE_DAYS,
  PAYMENT_REMINDER_DAYS,
  SESSION_TTL_SECONDS,
  SIGN_IN_GUARD,
  VAULT_PASSPHRASE_MIN,
} from '../../contract/constants'
import { FRESH_PROOF_MS } from '../../contract/fresh-proof-constants'
import { ID_DOCUMENT_MAX_BYTES } from '../../contract/identity'
import { DEFAULT_DELAY_HOURS } from '../../contract/policies'
import { SAFETY_WINDOW } from '../../contract/settings'
import { DEVICE_DAYS_MAX, DEVICE_DAYS_MIN, FREQUENCY_DAYS_MAX, UNLOCK_FORGIVE_MS } from '../../contract/triggers'
import { MAX_FILE_BYTES, MAX_FILES_PER_DROP, UPLOAD_CHUNK_BYTES } from '../../contract/vault-items'
import { SECURITY_KEY } from '../../contract/webauthn-constants'
import { STRIPE_RESEND_MS, STRIPE_RETRY_MS } from '../../worker/billing/stripe-constants'
import { LAST_SEEN_EVERY_MS } from '../../worker/owner/sessions'
import { WEBHOOK_TOLERANCE_MS } from '../../worker/services/webhook-signature'

// The numbers the spec, the README and docs/ promise, written out as a person reads them. Every
// rule's own tests take these from contract/ (one place for each number), so a changed number
// moves the rule and its tests together; this file is what notices that the number itself moved.

const MINUTE = 60_000
const MiB = 1024 * 1024

const PROMISED: Array<[rule: string, actual: number, promised: number]> = [
  ['a session lasts 30 days', SESSION_TTL_SECONDS * 1000, 30 * DAY_MS],
  ['a password-reset link works for an hour', PASSWORD_RESET_TTL_SECONDS * 1000, HOUR_MS],
  ['a trusted-browser mark lasts a year', DEVICE_COOKIE_TTL_SECONDS * 1000, 365 * DAY_MS],
  ['proof of identity is fresh for 5 minutes', FRESH_PROOF_MS, 5 * MINUTE],
  ["a session's last use is written at most every 5 minutes", LAST_SEEN_EVERY_MS, 5 * MINUTE],
  ['an account set to be deleted is kept for 7 days', DELETION_GRACE_MS, 7 * DAY_MS],
  ['a failed unlock waits 15 minutes for the owner’s own successful unlock', UNLOCK_FORGIVE_MS, 15 * MINUTE],
  ['the safety window is 72 hours unless the owner sets it', SAFETY_WINDOW.defaultHours, 72],
  ['the safety window is at least 24 hours', SAFETY_WINDOW.minHours, 24],
  ['the safety window is at most 30 days', SAFETY_WINDOW.maxHours, 30 * 24],
  ['a policy delays a release 72 hours unless set otherwise', DEFAULT_DELAY_HOURS, 72],
  ['the settings answer a check-in grace period of 3 days, as the spec fixes it', CHECKIN_GRACE_DAYS, 3],
  ['an inactivity trigger has 14 days of grace unless set otherwise', INACTIVITY_GRACE_DEFAULT_DAYS, 14],
  ['check-ins are at most a year apart', FREQUENCY_DAYS_MAX, 365],
  ['a Loss of trusted devices trigger waits at least 7 days', DEVICE_DAYS_MIN, 7],
  ['a Loss of trusted devices trigger waits at most a year', DEVICE_DAYS_MAX, 365],
  ['a failed payment keeps the plan for 7 days of grace', PAYMENT_GRACE_DAYS, 7],
  ['the payment reminder goes 3 days before a payment issue\'s grace ends', PAYMENT_REMINDER_DAYS, 3],
  ['the free trial lasts 30 days', FREE_TRIAL_DAYS, 30],
  ['Stripe retries a delivery for up to 3 days', STRIPE_RETRY_MS, 3 * DAY_MS],
  ['Stripe lets an event be sent again for 30 days', STRIPE_RESEND_MS, 30 * DAY_MS],
  ['a Stripe signature older than 5 minutes is refused', WEBHOOK_TOLERANCE_MS, 5 * MINUTE],
  ['one person gets at most 3 e-mails an hour from the circle', MAIL_LIMITS.perPersonPerHour, 3],
  ['the circle sends at most 50 e-mails a day to other people', MAIL_LIMITS.thirdPartyPerDay, 50],
  ['sign-in holds start after 5 wrong passwords', SIGN_IN_GUARD.freeFailures, 5],
  ['the first sign-in hold is a minute', SIGN_IN_GUARD.firstHoldMs, MINUTE],
  ['a sign-in hold is at most an hour', SIGN_IN_GUARD.maxHoldMs, HOUR_MS],
  ['wrong passwords are forgotten after a day', SIGN_IN_GUARD.forgetAfterMs, DAY_MS],
  ['an access request waits 7 days unless the policy says otherwise', ACCESS_REQUEST.defaultDays, 7],
  ['an access request waits at least a day', ACCESS_REQUEST.minDays, 1],
  ['an access request waits at most a year', ACCESS_REQUEST.maxDays, 365],
  ['after a refusal, the same person may ask again after 7 days', ACCESS_REQUEST.reaskAfterMs, 7 * DAY_MS],
  ['an authenticator code has 6 digits', AUTHENTICATOR.digits, 6],
  ['an authenticator code changes every 30 seconds', AUTHENTICATOR.periodSeconds, 30],
  ['an authenticator code of the step before or after is accepted', AUTHENTICATOR.window, 1],
  ['an unconfirmed authenticator setup lasts 30 minutes', AUTHENTICATOR.pendingTtlMs, 30 * MINUTE],
  ['the code step after a right password lasts 5 minutes', AUTHENTICATOR.ticketTtlSeconds * 1000, 5 * MINUTE],
  ['an authenticator comes with 10 recovery codes', AUTHENTICATOR.recoveryCodeCount, 10],
  ['an owner may hold 10 security keys', SECURITY_KEY.maxPerOwner, 10],
  ['a security-key prompt waits a minute', SECURITY_KEY.timeoutMs, MINUTE],
  ['a password for signing in has at least 6 characters', PASSWORD_MIN_LOGIN, 6],
  ['a new password has at least 8 characters', PASSWORD_MIN_REGISTER, 8],
  ['a password has at most 256 characters', PASSWORD_MAX, 256],
  ['a name has at least 2 characters', DISPLAY_NAME_MIN, 2],
  ['a name has at most 100 characters', DISPLAY_NAME_MAX, 100],
  ['an e-mail address has at most 254 characters', EMAIL_MAX, 254],
  ['a vault passphrase has at least 12 characters', VAULT_PASSPHRASE_MIN, 12],
  ['a file is at most 100 MB', MAX_FILE_BYTES, 100 * MiB],
  ['at most 10 files are dropped at once', MAX_FILES_PER_DROP, 10],
  ['a file is encrypted and uploaded in pieces of 8 MB', UPLOAD_CHUNK_BYTES, 8 * MiB],
  ['an identity document is at most 10 MB', ID_DOCUMENT_MAX_BYTES, 10 * MiB],
]

describe('the numbers the product promises', () => {
  it.each(PROMISED)('%s', (_rule, actual, promised) => {
    expect(actual).toBe(promised)
  })

  it('an hour and a day are what they say', () => {
    expect(HOUR_MS).toBe(60 * MINUTE)
    expect(DAY_MS).toBe(24 * 60 * MINUTE)
  })
})
