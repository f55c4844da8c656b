import { z } from 'zod'
import { INACTIVITY_GRACE_DEFAULT_DAYS } from './constants'
import { DEVICE_LOSS_TRIGGER_NAME, FAILED_UNLOCK_TRIGGER_NAME, TRIGGER_TYPES, type TriggerType } from './trigger-types'

// Triggers and the engine that fires them (seeds 001 §2 'Security Triggers', 'Trigger Monitor',
// §3, §5, §7, §9; ARCHITECTURE §5).

export { DEVICE_LOSS_TRIGGER_NAME, FAILED_UNLOCK_TRIGGER_NAME, TRIGGER_TYPES, type TriggerType }
// Failed unlock attempts (the 'biometric_failure' trigger type): see UNLOCK_KINDS below.
/** How long a failed unlock waits for the owner's own successful unlock before it counts. */
export const UNLOCK_FORGIVE_MS = 15 * 60_000
const FORGIVE_MINUTES = UNLOCK_FORGIVE_MS / 60_000

export const TRIGGER_STATUSES = ['active', 'paused', 'triggered'] as const
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number]

export const TRIGGER_TYPE_LABELS: Record<TriggerType, { title: string; description: string }> = {
  inactivity: {
    title: 'Inactivity',
    description: 'Fires when you stop answering check-ins: after the check-in e-mail, a reminder and the grace period.',
  },
  verified_death: {
    title: 'Verified Death',
    description: 'Fires when one of your approvers confirms a death certificate through their own signed link.',
  },
  biometric_failure: {
    title: FAILED_UNLOCK_TRIGGER_NAME,
    description:
      `Fires when wrong vault passphrases or failed security-key answers reach your threshold within your time window. An attempt counts only if nobody unlocks successfully within ${FORGIVE_MINUTES} minutes after it, so your own typing mistakes do not.`,
  },
  scheduled: {
    title: 'Scheduled Date',
    description: 'Fires on a date you choose and releases to the beneficiaries you name.',
  },
  device_loss: {
    title: DEVICE_LOSS_TRIGGER_NAME,
    description:
      'Fires when none of the devices you marked as trusted (security keys, passkeys, browsers) has been used for the number of days you choose, even if your account is used from elsewhere.',
  },
  manual_release: {
    title: 'Manual Release',
    description: 'Fires only when you release by hand from the Trigger Monitor, with a reason and a confirmation. Nothing fires it by itself.',
  },
}

// Seeds 001 §9: "pingFrequency weekly (daily, weekly or monthly), gracePeriod 14 days,
// failureThreshold 5, timeWindow 30 days". (The spec's manual-trigger card showed a 7-day grace
// for every trigger; the card shows the chosen trigger's own settings instead.)
export const PING_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const
export type PingFrequency = (typeof PING_FREQUENCIES)[number]
export const PING_FREQUENCY_DAYS: Record<PingFrequency, number> = { daily: 1, weekly: 7, monthly: 30 }
/**
 * An inactivity trigger's check-in frequency: one of the spec's three names, or a whole number of
 * days, so that a /settings choice (14, 60, 90 days) can be the schedule a new trigger runs.
 */
export type InactivityFrequency = PingFrequency | number
export const FREQUENCY_DAYS_MAX = 365
export const TRIGGER_DEFAULTS = {
  pingFrequency: 'weekly' as PingFrequency,
  gracePeriod: INACTIVITY_GRACE_DEFAULT_DAYS,
  failureThreshold: 5,
  timeWindow: 30,
  /** Loss of trusted devices: days without any trusted device used. */
  deviceDays: 30,
} as const
export const DEVICE_DAYS_MIN = 7
export const DEVICE_DAYS_MAX = 365

const wholeDays = (value: unknown, max: number): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max ? value : null

/** The days a frequency stands for, or null for something that is not one. */
export function frequencyDaysOf(frequency: unknown): number | null {
  if (typeof frequency === 'string') return frequency in PING_FREQUENCY_DAYS ? PING_FREQUENCY_DAYS[frequency as PingFrequency] : null
  return wholeDays(frequency, FREQUENCY_DAYS_MAX)
}

/**
 * The schedule an inactivity trigger's config sets, in days: F (a check-in e-mail F days after the
 * last check-in) and G (the grace after that e-mail). The spec's defaults fill a missing or odd field.
 */
export function inactivitySchedule(config: Record<string, unknown>): { frequencyDays: number; graceDays: number } {
  return {
    frequencyDays: frequencyDaysOf(config.pingFrequency) ?? PING_FREQUENCY_DAYS[TRIGGER_DEFAULTS.pingFrequency],
    graceDays: wholeDays(config.gracePeriod, 3650) ?? TRIGGER_DEFAULTS.gracePeriod,
  }
}

/** The frequency a day count is written as: the spec's name when it has one (7 → 'weekly'), else the days. */
export function frequencyFromDays(days: number): InactivityFrequency {
  return PING_FREQUENCIES.find((f) => PING_FREQUENCY_DAYS[f] === days) ?? days
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`

/** How the check-in clock is described wherever it is shown (monitor, settings, trigger card, e-mails). */
export const CLOCK_MESSAGES = {
  /** "Every 7 days, 14 days grace". */
  schedule: (frequencyDays: number, graceDays: number) => `Every ${days(frequencyDays)}, ${days(graceDays)} grace`,
  /** The sentence the check-in e-mail and its reminder carry. */
  emailSchedule: (frequencyDays: number, graceDays: number) =>
    `Your inactivity trigger asks you to check in every ${days(frequencyDays)}; after each check-in e-mail it waits ${days(graceDays)} before it fires.`,
  notRunning: 'No check-in clock is running: you have no active inactivity trigger, so no check-in e-mails are sent.',
  paused: 'Your inactivity trigger is paused: no check-in e-mails are sent until you activate it.',
  fired: 'Your inactivity trigger has fired: no check-in e-mails are sent. Checking in cancels what it started and arms it again.',
} as const

export const TRIGGER_MESSAGES = {
  reportLinksOnlyDeath: 'Only a verified-death trigger has report links to send.',
  noVerifiedApprovers: 'No approver has verified their address yet, so there is no one to send a report link to. Add an approver and ask them to confirm their e-mail.',
  reportLinksSent: (n: number) => `A report link was sent to ${n} verified ${n === 1 ? 'approver' : 'approvers'}.`,
  typeRequired: 'Please select a trigger type',
  gracePeriodMin: 'Grace period must be at least 1 day',
  failureThresholdMin: 'Failure threshold must be at least 1',
  timeWindowMin: 'Time window must be at least 1 day',
  releaseDateRequired: 'Release date is required',
  releaseDateFuture: 'Release date must be in the future',
  beneficiariesRequired: 'Select at least one beneficiary',
  missingInformation: 'Missing Information',
  reasonRequired: 'Please give a reason for the manual release',
  triggerNotFound: 'Trigger not found.',
  unknownBeneficiary: 'Every beneficiary must be one of yours.',
  alreadyTriggered: 'This trigger has already fired. Its releases are shown on the Trigger Monitor.',
  statusNotSettable: "A trigger's status can only be set to active or paused.",
  confirmationRequired: 'Type RELEASE to confirm a real release.',
  createFailed: 'Failed to create trigger',
  updateFailed: 'Failed to update trigger',
  checkInFailed: 'Check-in failed',
  executionFailed: 'Execution Failed',
  checkInRecorded: 'Check-in recorded.',
  clockReset: 'Your inactivity clock has been reset.',
  inactivityExists:
    'You already have an inactivity trigger, and one check-in clock runs per vault. Edit its schedule or pause it on the Triggers page instead of creating another.',
  pingFrequencyInvalid: `Check-in frequency must be daily, weekly, monthly or a whole number of days from 1 to ${FREQUENCY_DAYS_MAX}`,
  scheduleOnlyInactivity: 'Only an inactivity trigger has a check-in schedule to change.',
  updateRequired: "Send the trigger's status (active or paused) or its new schedule.",
  deviceDaysRange: `Days without a trusted device must be a whole number from ${DEVICE_DAYS_MIN} to ${DEVICE_DAYS_MAX}`,
  noTrustedDevice:
    'Mark at least one security key, passkey or browser as trusted first (Settings), so this trigger has a device to watch.',
  cancelNeedsTrustedDevice:
    'This release was started because none of your trusted devices was used. Only a trusted device can stop it: sign in from a trusted browser or with a trusted security key.',
} as const

const positiveDays = (message: string) => z.number({ error: message }).int(message).min(1, message).max(3650, message)

const frequencyMessage = TRIGGER_MESSAGES.pingFrequencyInvalid
const frequencyField = z.union(
  [z.enum(PING_FREQUENCIES), z.number({ error: frequencyMessage }).int(frequencyMessage).min(1, frequencyMessage).max(FREQUENCY_DAYS_MAX, frequencyMessage)],
  { error: frequencyMessage },
)

export const inactivityConfigSchema = z.object({
  pingFrequency: frequencyField.default(TRIGGER_DEFAULTS.pingFrequency),
  gracePeriod: positiveDays(TRIGGER_MESSAGES.gracePeriodMin).default(TRIGGER_DEFAULTS.gracePeriod),
})
/** A new schedule for an existing inactivity trigger: both fields, no defaults. */
export const inactivityScheduleSchema = z.object({
  pingFrequency: frequencyField,
  gracePeriod: positiveDays(TRIGGER_MESSAGES.gracePeriodMin),
})
export const verifiedDeathConfigSchema = z.object({}).default({})
export const manualReleaseConfigSchema = z.object({}).default({})
export const biometricConfigSchema = z.object({
  failureThreshold: z
    .number({ error: TRIGGER_MESSAGES.failureThresholdMin })
    .int(TRIGGER_MESSAGES.failureThresholdMin)
    .min(1, TRIGGER_MESSAGES.failureThresholdMin)
    .max(100, 'Failure threshold must be at most 100')
    .default(TRIGGER_DEFAULTS.failureThreshold),
  timeWindow: positiveDays(TRIGGER_MESSAGES.timeWindowMin).default(TRIGGER_DEFAULTS.timeWindow),
})
const deviceDaysMessage = TRIGGER_MESSAGES.deviceDaysRange
export const deviceLossConfigSchema = z.object({
  days: z
    .number({ error: deviceDaysMessage })
    .int(deviceDaysMessage)
    .min(DEVICE_DAYS_MIN, deviceDaysMessage)
    .max(DEVICE_DAYS_MAX, deviceDaysMessage)
    .default(TRIGGER_DEFAULTS.deviceDays),
})
export const scheduledConfigSchema = z.object({
  releaseDate: z.iso
    .datetime({ offset: true, error: TRIGGER_MESSAGES.releaseDateRequired })
    .refine((d) => Date.parse(d) > Date.now(), TRIGGER_MESSAGES.releaseDateFuture),
  beneficiaries: z.array(z.uuid(TRIGGER_MESSAGES.unknownBeneficiary)).min(1, TRIGGER_MESSAGES.beneficiariesRequired).max(100),
  description: z.string().trim().max(500).default(''),
})

export type InactivityConfig = z.output<typeof inactivityConfigSchema>
export type BiometricConfig = z.output<typeof biometricConfigSchema>
export type ScheduledConfig = z.output<typeof scheduledConfigSchema>
export type DeviceLossConfig = z.output<typeof deviceLossConfigSchema>
export type TriggerConfig = InactivityConfig | BiometricConfig | ScheduledConfig | DeviceLossConfig | Record<string, never>

const statusField = z.enum(['active', 'paused'], { error: TRIGGER_MESSAGES.statusNotSettable }).default('active')

/** POST /api/triggers: `{type, config, status:'active'}`. */
export const triggerCreateBodySchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('inactivity'), config: inactivityConfigSchema.prefault({}), status: statusField }),
    z.object({ type: z.literal('verified_death'), config: verifiedDeathConfigSchema, status: statusField }),
    z.object({ type: z.literal('biometric_failure'), config: biometricConfigSchema.prefault({}), status: statusField }),
    z.object({ type: z.literal('scheduled'), config: scheduledConfigSchema, status: statusField }),
    z.object({ type: z.literal('manual_release'), config: manualReleaseConfigSchema, status: statusField }),
    z.object({ type: z.literal('device_loss'), config: deviceLossConfigSchema.prefault({}), status: statusField }),
  ],
  { error: TRIGGER_MESSAGES.typeRequired },
)
export type TriggerCreateBody = z.input<typeof triggerCreateBodySchema>

/** PUT /api/triggers/{id}: the owner's Pause/Activate (`{status}`), or an inactivity trigger's new schedule (`{config}`). */
export const triggerUpdateBodySchema = z
  .object({
    status: z.enum(['active', 'paused'], { error: TRIGGER_MESSAGES.statusNotSettable }).optional(),
    config: inactivityScheduleSchema.optional(),
  })
  .refine((body) => body.status !== undefined || body.config !== undefined, { message: TRIGGER_MESSAGES.updateRequired, path: ['status'] })
export type TriggerUpdateBody = z.infer<typeof triggerUpdateBodySchema>

export const triggerSchema = z.object({
  id: z.string(),
  type: z.enum(TRIGGER_TYPES),
  status: z.enum(TRIGGER_STATUSES),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  firedAt: z.string().nullable(),
  /** When it will fire if nothing changes (inactivity: from the clock; scheduled: its date). */
  nextFireAt: z.string().nullable(),
})
export type Trigger = Omit<z.infer<typeof triggerSchema>, 'config'> & { config: TriggerConfig & Record<string, unknown> }

/** POST /api/trigger-engine/manual/{id}. `confirm` must be the word RELEASE: a real release is never one click. */
export const manualReleaseBodySchema = z.object({
  reason: z.string({ error: TRIGGER_MESSAGES.reasonRequired }).trim().min(1, TRIGGER_MESSAGES.reasonRequired).max(500),
  confirm: z.literal('RELEASE', { error: TRIGGER_MESSAGES.confirmationRequired }),
})
export type ManualReleaseBody = z.infer<typeof manualReleaseBodySchema>

export const manualReleaseResultSchema = z.object({
  /** Releases the firing started (one per policy or item condition that named it), as the release list shows them. */
  releases: z.number().int(),
  /** Item–beneficiary deliveries made available now (the spec's name; one item to three people is three). */
  transferredItems: z.number().int(),
  /** Distinct items among them: what the dry run's item count counts. */
  releasedItems: z.number().int(),
  beneficiariesNotified: z.number().int(),
  /** Releases still waiting (delay, approvals, identity); they finish on their own. */
  pendingReleases: z.number().int(),
  /** When the first waiting release's delay ends (approvals may hold it longer); null when none waits. */
  waitingUntil: z.string().nullable(),
  /**
   * Why nothing was handed over, when nothing was: nothing names the trigger, or everything it
   * names had already been released to the same people.
   */
  nothingBecause: z.enum(['nothing_named', 'already_released']).nullable(),
})
export type ManualReleaseResult = z.infer<typeof manualReleaseResultSchema>

// Failed unlock attempts (the 'biometric_failure' trigger type): a wrong vault passphrase or a
// failed security-key answer of the owner's. An attempt counts toward the trigger only once
// UNLOCK_FORGIVE_MS have passed without a successful unlock (a right passphrase, or a security key
// the server verified); a success forgives the attempts of the UNLOCK_FORGIVE_MS before it.


export const UNLOCK_KINDS = ['vault_unlock', 'passkey'] as const
export type UnlockKind = (typeof UNLOCK_KINDS)[number]

/** POST /api/trigger-engine/biometric-failure: the app reports a wrong vault passphrase (or a key's failure). */
export const biometricFailureBodySchema = z.object({ kind: z.enum(UNLOCK_KINDS) })
export type BiometricFailureBody = z.infer<typeof biometricFailureBodySchema>

export const unlockFailureResultSchema = z.object({
  /** Failed attempts on file from the last year, counted or not yet. */
  failures: z.number().int(),
  /** Firings this report's tick made (failures that had waited out their 15 minutes). */
  fired: z.number().int(),
  /**
   * Further failed attempts before an active Failed unlock attempts trigger starts a release (its
   * threshold less the attempts in its window, this one included; 0: it will, unless the owner
   * unlocks in time), the least over such triggers; null when none is active.
   */
  attemptsLeft: z.number().int().nullable(),
})
export type UnlockFailureResult = z.infer<typeof unlockFailureResultSchema>

/** POST /api/trigger-engine/unlock-success: the app reports a right vault passphrase. */
export const unlockSuccessBodySchema = z.object({ kind: z.literal('vault_unlock') })
export type UnlockSuccessBody = z.infer<typeof unlockSuccessBodySchema>

export const unlockSuccessResultSchema = z.object({
  /** Failed attempts of the last 15 minutes this success forgave. */
  forgiven: z.number().int(),
  attemptsLeft: z.number().int().nullable(),
})
export type UnlockSuccessResult = z.infer<typeof unlockSuccessResultSchema>

const attempts = (n: number) => `${n} ${n === 1 ? 'attempt' : 'attempts'}`

export const FAILED_UNLOCK_MESSAGES = {
  /** The policy form's hint for the trigger type. */
  policyHint: 'Someone keeps failing to unlock your vault (wrong passphrase or security key).',
  thresholdHint: `Wrong vault passphrases or failed security-key answers, each counted only if nobody unlocks successfully within ${FORGIVE_MINUTES} minutes after it.`,
  timeWindowHint: 'The attempts must fall within this many days.',
  /**
   * Under the unlock dialog's "Invalid passphrase" (null: no active trigger, nothing to say).
   * `left` is the answer's attemptsLeft.
   */
  attemptsLeft: (left: number | null): string | null =>
    left === null
      ? null
      : left > 0
        ? `${attempts(left)} left before your ${FAILED_UNLOCK_TRIGGER_NAME} trigger starts a release. Unlocking successfully within ${FORGIVE_MINUTES} minutes forgives these attempts.`
        : `No attempts left: your ${FAILED_UNLOCK_TRIGGER_NAME} trigger will start a release within ${FORGIVE_MINUTES} minutes unless you unlock your vault successfully before then.`,
} as const

export const DEVICE_LOSS_MESSAGES = {
  /** The policy form's hint for the trigger type. */
  policyHint: 'None of the devices you marked as trusted is used for a while.',
  daysLabel: 'Days without a trusted device',
  daysHint: 'Only security keys, passkeys and browsers you marked as trusted count. Use from any other device does not.',
} as const

/** One source of a release: a policy naming the trigger, or an item's own release protocol. */
export const releasePlanEntrySchema = z.object({
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('policy'), policyId: z.string(), name: z.string() }),
    z.object({ kind: z.literal('item'), itemId: z.string(), protocol: z.string() }),
    z.object({ kind: z.literal('scheduled'), triggerId: z.string() }),
  ]),
  itemIds: z.array(z.string()),
  beneficiaries: z.array(
    z.object({ id: z.string(), fullName: z.string(), identityRequired: z.boolean(), identityVerified: z.boolean(), secrecyMode: z.boolean() }),
  ),
  conditions: z.object({ delayHours: z.number(), minimumApprovals: z.number().int(), approvers: z.array(z.string()), identityRequired: z.boolean() }),
})
export type ReleasePlanEntry = z.infer<typeof releasePlanEntrySchema>

/** A dry run answers per cause: what the trigger firing by itself would do, and what releasing it now would. */
export const DRY_RUN_CAUSES = ['fires', 'release_now'] as const
export type DryRunCauseKind = (typeof DRY_RUN_CAUSES)[number]

/** The words for each cause, by trigger type ('release_now' is the same for all). */
export const DRY_RUN_CAUSE_LABELS: Record<TriggerType, string | null> & { release_now: string } = {
  verified_death: 'If a death report came now',
  inactivity: 'If your check-in grace ran out now',
  biometric_failure: 'If failed unlock attempts reached the limit now',
  scheduled: 'On its date',
  device_loss: 'If your trusted devices went unused long enough now',
  // A manual-release trigger never fires by itself.
  manual_release: null,
  release_now: 'If you release now',
}

export const dryRunCauseSchema = z.object({
  cause: z.enum(DRY_RUN_CAUSES),
  label: z.string(),
  entries: z.array(releasePlanEntrySchema),
  /** Distinct items and people it would reach, and the item–person deliveries between them. */
  itemCount: z.number().int(),
  beneficiaryCount: z.number().int(),
  deliveryCount: z.number().int(),
  /** When the first of it would become available (the safety window and delays included); null when nothing would go. */
  earliestAt: z.string().nullable(),
})
export type DryRunCause = z.infer<typeof dryRunCauseSchema>

export const dryRunResultSchema = z.object({
  triggerId: z.string(),
  type: z.enum(TRIGGER_TYPES),
  /** 'fires' first (absent for a manual-release trigger), then 'release_now'. */
  causes: z.array(dryRunCauseSchema),
  /** True while a payment issue's grace period holds every trigger. */
  paymentHold: z.boolean(),
  /**
   * The owner's safety window: when the trigger fires by itself (a death report, silence, failed
   * unlocks) nothing is available before it has passed. Null for a scheduled trigger (your own date).
   */
  safetyWindowHours: z.number().int().nullable(),
})
export type DryRunResult = z.infer<typeof dryRunResultSchema>

export const RELEASE_STATUSES = ['waiting', 'released', 'cancelled'] as const
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number]

export const releaseSummarySchema = z.object({
  id: z.string(),
  triggerId: z.string().nullable(),
  kind: z.string(),
  source: z.enum(['policy', 'item', 'scheduled'] satisfies ReleasePlanEntry['source']['kind'][]),
  sourceName: z.string(),
  status: z.enum(RELEASE_STATUSES),
  releaseAt: z.string(),
  approvals: z.number().int(),
  requiredApprovals: z.number().int(),
  identityRequired: z.boolean(),
  createdAt: z.string(),
  releasedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  /** Which items go (ids: their names are decrypted in the owner's browser) and to whom (names). */
  itemIds: z.array(z.string()),
  beneficiaryNames: z.array(z.string()),
})
export type ReleaseSummary = z.infer<typeof releaseSummarySchema>

export const engineStatusSchema = z.object({
  isRunning: z.boolean(),
  /** The owner's Durable Object alarm, if armed. */
  nextAlarmAt: z.string().nullable(),
  lastSweepAt: z.string().nullable(),
  lastCheckInAt: z.string().nullable(),
  /**
   * The check-in clock, which runs on the owner's active inactivity trigger (its id here); every
   * field below is null when there is none.
   */
  inactivityTriggerId: z.string().nullable(),
  /** When the cycle's check-in e-mail is (or was) due: the last check-in plus the trigger's frequency. */
  nextCheckInAt: z.string().nullable(),
  /** The reminder a day before the grace ends (none for a one-day grace). */
  reminderAt: z.string().nullable(),
  /** When the trigger fires unless the owner checks in: the deadline the check-in e-mails name. */
  firesAt: z.string().nullable(),
  /** ok → checkin_sent → reminder_sent → expired (grace over) */
  phase: z.enum(['ok', 'checkin_sent', 'reminder_sent', 'expired']),
  pingFrequencyDays: z.number().int().nullable(),
  graceDays: z.number().int().nullable(),
  paymentHoldUntil: z.string().nullable(),
  releases: z.array(releaseSummarySchema),
})
export type EngineStatus = z.infer<typeof engineStatusSchema>
