import type { POLICY_TRIGGERS } from '../../../contract/policies'
import { servingTrigger } from '../../../contract/readiness'
import { FAILED_UNLOCK_TRIGGER_NAME, TRIGGER_TYPE_LABELS } from '../../../contract/triggers'
import type { ReleaseProtocol } from '../../../contract/vault-items'

// When a release's items become available at the earliest, in words (issue 0.3 · 1 of 7), for the
// policy form, the policy list and the Add Item dialog. The rule is the engine's (worker/engine/plan.ts):
// a release that is not the owner acting now (a death report, inactivity, failed unlock attempts,
// no trusted device used)
// waits the policy's delay or the owner's safety window, whichever is longer; one the owner starts
// by hand (Release now, on any trigger) waits the delay alone, and a date they scheduled is kept.
// `windowHours` is null while the owner's window is not known (loading, or it failed to load).

/** What starts a release: one of the triggers that fire by themselves, or the owner by hand. */
export type ReleaseCause = 'verified_death' | 'inactivity' | 'biometric_failure' | 'device_loss' | 'manual'
type PolicyTrigger = (typeof POLICY_TRIGGERS)[number]

const CAUSE_ORDER: readonly ReleaseCause[] = ['verified_death', 'inactivity', 'biometric_failure', 'device_loss', 'manual']

export const EARLIEST_COPY = {
  heading: 'Earliest availability',
  /** Policy form and list: how each cause is named, before its time. */
  causes: {
    verified_death: 'If a death report starts it',
    inactivity: 'If your check-in grace runs out',
    biometric_failure: `If ${FAILED_UNLOCK_TRIGGER_NAME.toLowerCase()} reach your limit`,
    device_loss: 'If none of your trusted devices is used for your chosen days',
    manual: 'If you release it by hand',
  } satisfies Record<ReleaseCause, string>,
  /** What each trigger firing by itself is, for an item's own release protocol. */
  events: {
    verified_death: 'an approver confirms a death',
    inactivity: `your ${TRIGGER_TYPE_LABELS.inactivity.title} trigger fires`,
    biometric_failure: `${FAILED_UNLOCK_TRIGGER_NAME.toLowerCase()} reach your limit`,
    device_loss: 'none of your trusted devices is used for your chosen days',
  },
  atOnce: 'at once',
  window: '(your safety window)',
  noTrigger: 'Tick a trigger to see when its items would become available.',
  ifNotCancelled: 'if you do not cancel',
  byHand: 'at once when you release it by hand',
  scheduled: 'on the date you set',
} as const

export function isOwnerActing(cause: ReleaseCause): boolean {
  return cause === 'manual'
}

/**
 * Hours from the cause to the earliest availability, or null when it depends on a window not
 * known yet. Only the owner acting escapes the window.
 */
export function earliestHours(cause: ReleaseCause, delayHours: number, windowHours: number | null): number | null {
  if (isOwnerActing(cause)) return delayHours
  return windowHours === null ? null : Math.max(delayHours, windowHours)
}

const hours = (n: number) => (n === 1 ? '1 hour' : `${n} hours`)

/** "72 hours after (your safety window)", "100 hours after", "at once". */
export function policyWhenText(cause: ReleaseCause, delayHours: number, windowHours: number | null): string {
  const wait = earliestHours(cause, delayHours, windowHours)
  if (wait === null) {
    return delayHours === 0 ? 'once your safety window has passed' : `${hours(delayHours)} after, or later if your safety window is longer`
  }
  if (wait === 0) return EARLIEST_COPY.atOnce
  const byWindow = !isOwnerActing(cause) && windowHours !== null && windowHours > delayHours
  return `${hours(wait)} after${byWindow ? ` ${EARLIEST_COPY.window}` : ''}`
}

/**
 * The causes that release a policy naming `on`: each trigger it names that fires by itself, and the
 * owner by hand (a manual release of any trigger it names, the Manual Release trigger included).
 */
export function policyCauses(on: readonly PolicyTrigger[]): ReleaseCause[] {
  if (on.length === 0) return []
  const named = new Set<ReleaseCause>(on.map((t) => (t === 'manual_release' ? 'manual' : t)))
  named.add('manual')
  return CAUSE_ORDER.filter((c) => named.has(c))
}

const validDelay = (delayHours: number) => Number.isInteger(delayHours) && delayHours >= 0

export interface EarliestLine {
  cause: ReleaseCause
  /** "If a death report starts it: 72 hours after (your safety window)". */
  text: string
}

/** One line per cause of a policy; none while the delay is not a valid number of hours. */
export function policyEarliestLines(on: readonly PolicyTrigger[], delayHours: number, windowHours: number | null): EarliestLine[] {
  if (!validDelay(delayHours)) return []
  return policyCauses(on).map((cause) => ({ cause, text: `${EARLIEST_COPY.causes[cause]}: ${policyWhenText(cause, delayHours, windowHours)}` }))
}

/**
 * The same in one phrase, after "when … fires: ": "72 hours after (your safety window), or at once
 * if you release it by hand"; a single time when every cause has the same.
 */
export function policyEarliestSummary(on: readonly PolicyTrigger[], delayHours: number, windowHours: number | null): string {
  const causes = policyCauses(on)
  if (causes.length === 0 || !validDelay(delayHours)) return ''
  const byHand = policyWhenText('manual', delayHours, windowHours)
  const byItself = causes.find((c) => !isOwnerActing(c))
  if (!byItself) return byHand
  const other = policyWhenText(byItself, delayHours, windowHours)
  return other === byHand ? other : `${other}, or ${byHand} if you release it by hand`
}

/** INACTIVITY_90_DAYS → 90: such an item also waits until the owner has been silent that long. */
export function inactivityDays(protocol: string): number | null {
  const m = /^INACTIVITY_(\d+)_DAYS$/.exec(protocol)
  return m ? Number(m[1]) : null
}

function windowAfter(event: string, windowHours: number | null): string {
  return windowHours === null ? `the end of your safety window after ${event}` : `${hours(windowHours)} after ${event} ${EARLIEST_COPY.window}`
}

/**
 * When an item under its own release protocol becomes available at the earliest, as the Add Item
 * dialog says it: "72 hours after an approver confirms a death (your safety window), if you do not
 * cancel; at once if you release your Verified Death trigger by hand".
 */
export function protocolEarliestText(protocol: ReleaseProtocol, windowHours: number | null): string {
  const kind = servingTrigger(protocol)
  if (kind === null) return EARLIEST_COPY.scheduled
  if (kind === 'manual') return EARLIEST_COPY.byHand
  const trigger = TRIGGER_TYPE_LABELS[kind].title
  if (kind === 'inactivity') {
    const silent = `after ${inactivityDays(protocol)} days without a check-in`
    return `${silent}, and not before ${windowAfter(EARLIEST_COPY.events.inactivity, windowHours)}, ${EARLIEST_COPY.ifNotCancelled}; if you release your ${trigger} trigger by hand, ${silent}`
  }
  return `${windowAfter(EARLIEST_COPY.events[kind], windowHours)}, ${EARLIEST_COPY.ifNotCancelled}; at once if you release your ${trigger} trigger by hand`
}

/** The Add Item dialog's sentence for a protocol. */
export function protocolEarliestSentence(protocol: ReleaseProtocol, windowHours: number | null): string {
  return `${EARLIEST_COPY.heading}: ${protocolEarliestText(protocol, windowHours)}.`
}
