import { z } from 'zod'
import { DEVICE_LOSS_TRIGGER_NAME } from './trigger-types'

// Trusted devices (issue 0.3 · 5 of 7): security keys, passkeys and browsers the owner marks as
// trusted. The Loss of trusted devices trigger fires when none of them has been used for its days;
// use from any other device does not count for it. Marking or unmarking one is a change of trust:
// it needs fresh proof and the owner is e-mailed.

export const TRUSTED_DEVICE_PATHS = {
  session: (id: string) => `/api/auth/sessions/${encodeURIComponent(id)}/trust`,
  key: (id: string) => `/api/auth/security-keys/${encodeURIComponent(id)}/trust`,
} as const

// PUT …/trust marks the device as trusted, DELETE …/trust stops trusting it; neither has a body.

export const trustResultSchema = z.object({ trusted: z.boolean(), message: z.string() })
export type TrustResult = z.infer<typeof trustResultSchema>

export const TRUSTED_DEVICE_MESSAGES = {
  trustedBadge: 'Trusted',
  markTrusted: 'Mark as trusted',
  unmarkTrusted: 'Stop trusting',
  marked: 'The device is now trusted.',
  unmarked: 'The device is no longer trusted.',
  changeFailed: 'Could not change whether the device is trusted',
  /** The session list: a session opened before browsers were remembered has none to mark. */
  signInAgain: 'This browser signed in before devices could be trusted. Sign in again on it, then mark it.',
  hint: `Trusted devices are the ones your ${DEVICE_LOSS_TRIGGER_NAME} trigger watches: it fires when none of them is used for the days you choose.`,
  /** Untrusting (or removing) the last trusted device while the trigger watching them is active. */
  lastWatched: `This is your last trusted device, and your ${DEVICE_LOSS_TRIGGER_NAME} trigger watches it: without it, the trigger would fire once its days pass. Trust another device first, or pause that trigger.`,
  /** The e-mail's detail. */
  mailDetail: (what: 'browser' | 'key', name: string, trusted: boolean) =>
    `${what === 'browser' ? 'The browser' : 'The security key'} “${name}” ${trusted ? 'was marked as trusted' : 'is no longer trusted'}.`,
} as const
