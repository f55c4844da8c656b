import { z } from 'zod'
import { CHECKIN_FREQUENCY_OPTIONS, CHECKIN_FREQUENCY_SUMMARY_FALLBACK, CHECKIN_GRACE_DAYS } from './constants'
import { frequencyFromDays, TRIGGER_DEFAULTS, type InactivityFrequency } from './triggers'

// Check-in settings (seeds 000 §2 'Account Settings', §3, §5, §8, §9; seeds 001 §2). The check-in
// clock runs on the owner's inactivity trigger; the frequency chosen here is where a new inactivity
// trigger starts (the spec: "settings apply only to the next trigger setup").

export const SETTINGS_MESSAGES = {
  frequencyMin: 'Minimum frequency is 7 days',
  // The request's gracePeriod field (the spec's API): the grace that runs is the trigger's own.
  graceFixed: 'Grace period is fixed at 3 days',
  updatedTitle: 'Settings Updated',
  updatedBody: 'Your check-in settings have been saved.',
  failedTitle: 'Update Failed',
  failedBody: 'Failed to update your ping settings. Please try again.',
} as const

/** The words of the Inactivity Monitoring card around the spec's own. */
export const SETTINGS_CLOCK_COPY = {
  runningTitle: 'Your check-in schedule, set on your inactivity trigger',
  change: 'Change it on the Triggers page',
  setUp: 'Set one up on the Triggers page',
  frequencyHint: 'Where your next inactivity trigger starts. It does not change a trigger you already have.',
} as const

/**
 * The Inactivity Monitoring card's opening (seeds 000 §2): the spec's sentence while an inactivity
 * trigger runs the clock (engine.inactivityTriggerId); without one no check-in e-mail is sent.
 */
export function inactivityMonitoringText(clockRunning: boolean): string {
  return clockRunning
    ? 'We send you regular check-in e-mails. If you do not respond within the grace period, your inheritance triggers activate automatically.'
    : 'We send check-in e-mails only while an inactivity trigger is active. You have none running, so we send none.'
}

/** The frequency /settings shows as chosen: the owner's choice, else the spec's fallback of 7 days. */
export function settingsFrequencyDays(pingFrequency: number | null): number {
  return pingFrequency ?? CHECKIN_FREQUENCY_SUMMARY_FALLBACK
}

/** What Create Trigger offers a new inactivity trigger: the /settings choice, else the trigger's default (weekly). */
export function newTriggerFrequency(pingFrequency: number | null): InactivityFrequency {
  return pingFrequency === null ? TRIGGER_DEFAULTS.pingFrequency : frequencyFromDays(pingFrequency)
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`

/** The spec's summary notice, made true: the frequency is where the next inactivity trigger starts. */
export function settingsNotice(frequencyDays: number): string {
  return `Settings apply only to the next trigger setup: a new inactivity trigger starts with a check-in e-mail every ${days(frequencyDays)} (you choose its grace period when you set it up). Existing triggers keep their original settings; change your inactivity trigger's schedule on the Triggers page.`
}

/**
 * The grace period /settings shows (the spec's read-only '3 days (fixed)'): the running trigger's,
 * or, with none, where it is chosen.
 */
export function settingsGraceText(runningGraceDays: number | null): string {
  return runningGraceDays === null
    ? `Chosen when you set up an inactivity trigger (${days(TRIGGER_DEFAULTS.gracePeriod)} unless you change it)`
    : `${days(runningGraceDays)}, set on your inactivity trigger`
}

export const CHECKIN_FREQUENCY_LABELS: Record<(typeof CHECKIN_FREQUENCY_OPTIONS)[number], { label: string; description: string }> = {
  7: { label: 'Weekly', description: 'A check-in e-mail every 7 days. For the closest watch.' },
  14: { label: 'Every two weeks', description: 'A check-in e-mail every 14 days.' },
  30: { label: 'Monthly', description: 'A check-in e-mail every 30 days. The usual choice.' },
  60: { label: 'Every two months', description: 'A check-in e-mail every 60 days.' },
  90: { label: 'Quarterly', description: 'A check-in e-mail every 90 days. For frequent travellers.' },
}

export const pingSettingsBodySchema = z.object({
  pingFrequency: z
    .number({ error: SETTINGS_MESSAGES.frequencyMin })
    .int(SETTINGS_MESSAGES.frequencyMin)
    .min(7, SETTINGS_MESSAGES.frequencyMin)
    .max(365, 'Maximum frequency is 365 days'),
  gracePeriod: z.literal(CHECKIN_GRACE_DAYS, { error: SETTINGS_MESSAGES.graceFixed }),
})
export type PingSettingsBody = z.infer<typeof pingSettingsBodySchema>

/**
 * The safety window (issue 0.2 · 2 of 7): a release caused by anyone or anything but the signed-in
 * owner acting now (a death report, inactivity, failed unlock attempts) makes nothing available before
 * it has passed, so the owner has time to see the e-mail and cancel. A policy's delay can make that
 * wait longer, never shorter. The owner's own manual release and a date they scheduled are not
 * held by the window: a policy's delay alone applies to them (0: at once).
 */
export const SAFETY_WINDOW = { defaultHours: 72, minHours: 24, maxHours: 24 * 30 } as const

export const SAFETY_WINDOW_MESSAGES = {
  min: `The safety window is at least ${SAFETY_WINDOW.minHours} hours`,
  max: `The safety window is at most ${SAFETY_WINDOW.maxHours / 24} days (${SAFETY_WINDOW.maxHours} hours)`,
  whole: 'Enter a whole number of hours',
  saved: 'Safety window saved',
} as const

export const safetyWindowBodySchema = z.object({
  hours: z
    .number({ error: SAFETY_WINDOW_MESSAGES.whole })
    .int(SAFETY_WINDOW_MESSAGES.whole)
    .min(SAFETY_WINDOW.minHours, SAFETY_WINDOW_MESSAGES.min)
    .max(SAFETY_WINDOW.maxHours, SAFETY_WINDOW_MESSAGES.max),
})
export type SafetyWindowBody = z.infer<typeof safetyWindowBodySchema>

/** What the settings page says the window does, for `hours`. */
export function safetyWindowNotice(hours: number): string {
  return `When a death report, your inactivity or failed unlocks start a release, nothing becomes available for ${hours} hours. We e-mail you at once; a check-in, a sign-in or the cancel link in that e-mail stops it. Your own manual releases and dates you scheduled are not delayed.`
}
