// The trigger types alone, without the schemas of contract/triggers.ts: the SPA's route tree reads
// them to validate /triggers?create=, and the route tree is part of every page's first download,
// where zod has no place.
export const TRIGGER_TYPES = ['inactivity', 'verified_death', 'biometric_failure', 'scheduled', 'manual_release', 'device_loss'] as const
export type TriggerType = (typeof TRIGGER_TYPES)[number]

/**
 * The person-readable name of the 'biometric_failure' trigger type (and of the BIOMETRIC_FAILURE
 * release protocol), used for it everywhere people read it: the ids stay as the API has them.
 */
export const FAILED_UNLOCK_TRIGGER_NAME = 'Failed unlock attempts'

/** The person-readable name of the 'device_loss' trigger type. */
export const DEVICE_LOSS_TRIGGER_NAME = 'Loss of trusted devices'
