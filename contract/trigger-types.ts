// The trigger types alone, without the schemas of contract/triggers.ts: the SPA's route tree reads
// them to validate /triggers?create=, and the route tree is part of every page's first download,
// where zod has no place.
export const TRIGGER_TYPES = ['inactivity', 'verified_death', 'biometric_failure', 'scheduled', 'manual_release'] as const
export type TriggerType = (typeof TRIGGER_TYPES)[number]
