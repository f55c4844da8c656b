import {
  CLOCK_MESSAGES,
  frequencyDaysOf,
  inactivitySchedule,
  TRIGGER_DEFAULTS,
  TRIGGER_MESSAGES,
  type EngineStatus,
  type InactivityFrequency,
  type ManualReleaseResult,
  type PingFrequency,
  type ReleaseStatus,
  type Trigger,
  type TriggerStatus,
} from '../../../contract/triggers'

// Words used only by the Security Triggers and Trigger Monitor screens. The seeds' own strings
// (toast titles, validation messages, defaults, type names) live in contract/triggers.ts.

export const TRIGGER_TOASTS = {
  fallback: 'Please try again.',
  created: 'Trigger created',
  activated: 'Trigger activated',
  paused: 'Trigger paused',
  checkedIn: 'Checked in',
  releaseCancelled: 'Release cancelled',
  cancelFailed: 'Failed to cancel release',
  dryRunFailed: 'Dry run failed',
  released: 'Release started',
  selectTrigger: 'Please select a trigger',
} as const

/** The words around an inactivity trigger's schedule (Create Trigger, Edit schedule). */
export const SCHEDULE_COPY = {
  graceHint: 'Days after the check-in e-mail before the trigger fires; a reminder goes a day before they end.',
  fromSettings: (frequency: InactivityFrequency) => `From your Settings: ${frequencyLabel(frequency).toLowerCase()}.`,
  taken: 'Inactivity (you have one)',
  edit: 'Edit schedule',
  editTitle: 'Edit check-in schedule',
  editDescription:
    'The new schedule applies at once. A check-in e-mail already sent no longer counts: the next one goes when it is due under the new schedule (at once if that time has passed), with the new deadline.',
  saved: 'Schedule saved',
  saveFailed: 'Failed to save the schedule',
} as const

export const PING_FREQUENCY_LABELS: Record<PingFrequency, string> = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' }

/** A frequency as the Check-in frequency select names it: 'Weekly', or 'Every 14 days'. */
export function frequencyLabel(frequency: InactivityFrequency): string {
  return typeof frequency === 'string' ? PING_FREQUENCY_LABELS[frequency] : `Every ${plural(frequency, 'day')}`
}

/** A frequency as a summary line words it: 'weekly', or 'every 14 days'. */
function frequencyWords(frequency: InactivityFrequency): string {
  return typeof frequency === 'string' ? frequency : `every ${plural(frequency, 'day')}`
}

export const TRIGGER_STATUS_BADGES: Record<TriggerStatus, { label: string; variant: 'success' | 'secondary' | 'destructive' }> = {
  active: { label: 'Active', variant: 'success' },
  paused: { label: 'Paused', variant: 'secondary' },
  triggered: { label: 'Triggered', variant: 'destructive' },
}

export const RELEASE_STATUS_BADGES: Record<ReleaseStatus, { label: string; variant: 'warning' | 'success' | 'secondary' }> = {
  waiting: { label: 'Waiting', variant: 'warning' },
  released: { label: 'Released', variant: 'success' },
  cancelled: { label: 'Cancelled', variant: 'secondary' },
}

export const PHASE_TEXT: Record<EngineStatus['phase'], string> = {
  ok: 'All good: you have checked in recently',
  checkin_sent: 'Check-in e-mail sent, waiting for your answer',
  reminder_sent: 'Reminder sent, grace period running',
  expired: 'Grace period over: inactivity triggers fire',
}

/**
 * Why no check-in clock runs (the engine status has no inactivityTriggerId): the owner's inactivity
 * trigger is paused, has fired, or does not exist.
 */
export function noClockText(triggers: ReadonlyArray<Pick<Trigger, 'type' | 'status'>> | undefined): string {
  const inactivity = triggers?.filter((t) => t.type === 'inactivity') ?? []
  if (inactivity.some((t) => t.status === 'paused')) return CLOCK_MESSAGES.paused
  if (inactivity.some((t) => t.status === 'triggered')) return CLOCK_MESSAGES.fired
  return CLOCK_MESSAGES.notRunning
}

/** The clock's state in words: its phase while it runs, else why it does not. */
export function clockStateText(status: Pick<EngineStatus, 'inactivityTriggerId' | 'phase'>, triggers: ReadonlyArray<Pick<Trigger, 'type' | 'status'>> | undefined): string {
  return status.inactivityTriggerId ? PHASE_TEXT[status.phase] : noClockText(triggers)
}

/** "Every 7 days, 14 days grace" while the clock runs; null when it does not. */
export function scheduleText(status: Pick<EngineStatus, 'pingFrequencyDays' | 'graceDays'>): string | null {
  return status.pingFrequencyDays !== null && status.graceDays !== null ? CLOCK_MESSAGES.schedule(status.pingFrequencyDays, status.graceDays) : null
}

export const LOCKED_NAMES_HINT = 'Unlock your vault to see the file names.'

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** 'Ada', 'Ada and Ben', 'Ada, Ben and Cy'. */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? ''
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

/** A date and time in the reader's locale, or the fallback for none / an unparsable value. */
export function formatWhen(iso: string | null | undefined, fallback = 'Never'): string {
  if (!iso) return fallback
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? fallback
    : date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
}

export function formatDay(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })
}

const num = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? value : fallback)

/** One line on what a trigger waits for, e.g. "Check-ins weekly, 14-day grace"; defaults fill a missing field. */
export function configSummary(trigger: Pick<Trigger, 'type' | 'config'>, beneficiaryNames: readonly string[] = []): string {
  const c = trigger.config as Record<string, unknown>
  switch (trigger.type) {
    case 'inactivity': {
      const frequency = frequencyDaysOf(c.pingFrequency) === null ? TRIGGER_DEFAULTS.pingFrequency : (c.pingFrequency as InactivityFrequency)
      return `Check-ins ${frequencyWords(frequency)}, ${inactivitySchedule(c).graceDays}-day grace`
    }
    case 'biometric_failure': {
      const threshold = num(c.failureThreshold, TRIGGER_DEFAULTS.failureThreshold)
      return `${plural(threshold, 'failed attempt')} within ${plural(num(c.timeWindow, TRIGGER_DEFAULTS.timeWindow), 'day')}`
    }
    case 'verified_death':
      return 'Fires when one of your approvers confirms a death certificate'
    case 'manual_release':
      return 'Fires only when you release by hand'
    case 'device_loss':
      return `No trusted device used for ${plural(num(c.days, TRIGGER_DEFAULTS.deviceDays), 'day')}`
    case 'scheduled': {
      const when = typeof c.releaseDate === 'string' ? formatWhen(c.releaseDate, 'an unknown date') : 'an unknown date'
      return beneficiaryNames.length ? `Releases on ${when} to ${listNames(beneficiaryNames)}` : `Releases on ${when}`
    }
  }
}

/**
 * The toast after a real release: the same releases the release list gains and the same items and
 * deliveries the heirs' e-mails count; when nothing was handed over, it says so and why.
 */
export function manualResultText(result: ManualReleaseResult): string {
  if (result.nothingBecause === 'nothing_named') return 'Nothing was released: no active policy or item release condition names this trigger.'
  const parts = [`${plural(result.releases, 'release')} started.`]
  if (result.transferredItems > 0) {
    parts.push(
      `${plural(result.releasedItems, 'item')} available now in ${plural(result.transferredItems, 'delivery', 'deliveries')}, ${plural(result.beneficiariesNotified, 'beneficiary', 'beneficiaries')} e-mailed.`,
    )
  }
  if (result.pendingReleases > 0) {
    const until = result.waitingUntil ? ` (the first not before ${formatWhen(result.waitingUntil)})` : ''
    parts.push(`${plural(result.pendingReleases, 'release')} still waiting for a delay, approvals or identity checks${until}.`)
  }
  if (result.nothingBecause === 'already_released') parts.push('Nothing new was handed over: everything it names had already been released to the same people.')
  return parts.join(' ')
}

/** The check-in toast: the clock was reset, and the next check-in named, only when a clock runs (`nextCheckInAt`). */
export function checkInText(cancelledReleases: number, nextCheckInAt: string | null): string {
  const parts: string[] = [TRIGGER_MESSAGES.checkInRecorded]
  if (nextCheckInAt) parts.push(TRIGGER_MESSAGES.clockReset)
  if (cancelledReleases > 0) parts.push(`${plural(cancelledReleases, 'pending release')} cancelled.`)
  if (nextCheckInAt) parts.push(`Next check-in: ${formatWhen(nextCheckInAt)}.`)
  return parts.join(' ')
}

export function releaseNowText(triggerTitle: string): string {
  return `This is a real release, not a test. Everything "${triggerTitle}" covers starts going to its beneficiaries now: they are e-mailed, and items whose policies ask for a delay, approvals or identity checks follow once those are met. The trigger is marked as triggered. This cannot be undone.`
}

/** "deeds.pdf, photo.jpg and 3 more", or "5 items" while names are locked in the vault. */
export function releasedItemsText(itemIds: readonly string[], name: (id: string) => string | undefined): string {
  const names = itemIds.map(name)
  if (itemIds.length === 0) return 'No items'
  if (names.some((n) => n === undefined)) return plural(itemIds.length, 'item')
  const shown = names.slice(0, 3).join(', ')
  return itemIds.length > 3 ? `${shown} and ${itemIds.length - 3} more` : shown
}
