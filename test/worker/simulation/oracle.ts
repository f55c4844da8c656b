import { SAFETY_WINDOW } from '../../../contract/settings'
import { parseEmailDate } from '../../../worker/mail/dates'

// The oracle of the release-promise simulation: an independent model of what
// docs/release-engine.md promises, written from that page (and the shapes of the API), not
// from the engine's code. The driver (world.ts) applies each owner action to both the server and
// this model; after every step the model checks what the server wrote (firings, releases, assets,
// trigger states, check-in e-mails) against these rules, then carries the observed facts forward
// (an e-mail's actual send time, a firing's actual time) once they are shown to be allowed.
//
// THE RULES (times in ms; "day" = 86 400 000 ms)
//
// Clock (per owner), from the docs' table. L = the last check-in: a check-in from the app or the
// e-mailed link, a sign-in, or a cancel link that cancelled something sets L = now (a sign-in only
// moves it forward). The clock runs on the running trigger R: the owner's active inactivity
// trigger (of several, the least F + G, the oldest on a tie; the API allows only one). F = R's
// check-in frequency in days (daily 1, weekly 7, monthly 30, or its number of days), G = R's grace
// period in days. The /settings frequency plays no part. No R: no clock, nothing is due.
//  - The check-in e-mail of a cycle may go out at a time t only if R exists and t >= L + F days;
//    at most once per cycle. E = when it actually went out, under R as it then stood.
//  - The schedule changes when R is created, paused, activated, edited or re-armed, or another
//    trigger becomes R (here: R's id or its armedAt changed): an e-mail sent under another
//    schedule no longer counts, and the cycle's e-mail is due again at L + F (at once if passed).
//  - The grace runs from the e-mail actually sent, never from before it was due:
//    S = max(L + F days, E); the deadline D = S + G days, rounded up to the whole second.
//  - The reminder may go out only if G >= 2, in [S + (G - 1) days, D), at most once per e-mail.
//  - Both e-mails name D ("If we hear nothing by <D>"): the e-mailed deadline must equal it.
//  - An owner has one inactivity trigger: creating a second answers 409 (whatever the first's status).
// Conditions of a firing, C(t):
//  - inactivity trigger: it is R, E counts, t >= D; an inactivity firing must also be at or
//    after the deadline its last e-mail named;
//  - scheduled trigger (active): t >= its date;
//  - Failed unlock attempts trigger (biometric_failure, active): at least failureThreshold
//    failures reported after the trigger was last armed (created, activated, re-armed) that count
//    at t: a failure at time a counts from a + 15 minutes (a successful unlock within them would
//    forgive it; the simulation reports none) while t < a + timeWindow days;
//  - Loss of trusted devices trigger (device_loss, active): t >= max(U, armedAt) + days, where U
//    is the last use of a device the owner marked as trusted (a trusted sign-in or a trusted
//    browser's request); nothing else (a sign-in or check-in from elsewhere) moves U;
//  - an item's own schedule (SCHEDULED protocol, not yet fired): t >= its date;
//  - and for all of these: no payment grace running (users.payment_grace_until > t holds
//    everything; firing resumes at its end or when the payment is restored);
//  - a verified-death trigger fires once an approver's confirmation made while it was armed is on
//    file (a confirmation goes when its approver is removed);
//  - paused triggers never fire automatically; a manual release fires at the owner's request
//    (active or paused trigger), never otherwise.
// What a firing at time f releases (one release per source, never waiting on approvals here):
//  - every active policy naming the trigger's type: the granted (item, beneficiary) pairs among
//    the items it covers and the beneficiaries it names; release time f + delayHours, but never
//    before f + the safety window unless the owner acted (a delay lengthens the wait, never shortens it);
//  - every item whose own protocol rides on the type (INACTIVITY_N_DAYS on inactivity,
//    BIOMETRIC_FAILURE on biometric failure; MANUAL_RELEASE/EMERGENCY on a manual release), for
//    its directly chosen beneficiaries; release time f + the safety window (72 h) unless the owner
//    released it by hand, or max(that, L + N days) for INACTIVITY_N_DAYS ("waits until the owner
//    has been silent N days");
//  - a scheduled trigger: everything granted to the beneficiaries it names, at f; an item's own
//    schedule: that item to its direct beneficiaries, at f.
// Access on request (a policy with a waiting time of W days lets its beneficiaries ask):
//  - a request by heir h for policy p is accepted (201) only while p is active and names h, no
//    earlier request of h for p still waits, a refusal of h's last request for p is at least 7 days
//    old, and p covers something granted to h; else 409 (404 when p cannot be asked at all);
//  - it is a firing of its own (kind access_request, id r:<request id>, no trigger) with one release:
//    the items p covers that are granted to h, to h alone, at f + max(W days, the safety window,
//    p's delay); no "release started" e-mail (the owner is asked to approve or refuse instead);
//  - only the owner's refusal cancels it: a check-in, a sign-in (trusted or not) never does; a
//    refusal after it was released is refused (409) and takes nothing back.
// Releases: released (assets created) only at or after their release time; one asset per
// (item, beneficiary) at a time. A check-in or a sign-in cancels every live release of an
// inactivity, verified-death or biometric-failure firing (manual and scheduled ones stay; a
// device_loss one only when the sign-in came from a trusted device, never a check-in): one
// waiting, or released with an asset still downloadable (not withdrawn, under 90 days old). A
// cancelled release's assets are all withdrawn, except one whose (item, beneficiary) another
// released release also hands over: it moves to that release (the lowest id). Then every fired
// trigger whose current firing is of those kinds and has no release left but cancelled ones is
// re-armed (new generation, armed now); a re-armed verified-death trigger voids every report and
// every report link (fresh links go out only when the owner re-activates it or resends them). A
// report link reports once.
//
// THE PROMISE, with "one sweep interval" defined. The cron sweep runs at every step boundary of the
// simulation (in production every 5 minutes; between two boundaries nothing happens, so simulated
// steps are sweeps that are further apart). The sweep rings an owner whose alarm is LOST_MARGIN
// (60 s) overdue. So: a condition that has held continuously since time T must have been acted on
// by the end of every sweep that runs at a time s >= T + 60 s (with a 5-minute cron: at most
// 60 s + 5 min after T). "Acted on" = the firing exists, the check-in e-mail went out, the release
// is released. And nothing happens before its condition: every firing, e-mail and release is
// checked against C at the moment it was written.

export const MINUTE = 60_000
export const HOUR = 3_600_000
export const DAY = 86_400_000
/** The owner's safety window: never set in the simulation, so the default (contract/settings.ts). */
const SAFETY_WINDOW_MS = SAFETY_WINDOW.defaultHours * HOUR
/** Days a released asset stays downloadable (contract/releases.ts RELEASE_LIMITS, the spec's 90). */
const ASSET_DAYS = 90
/** A failed unlock counts once this has passed without a successful unlock (the docs' 15 minutes). */
export const UNLOCK_FORGIVE = 15 * MINUTE
export const PAYMENT_GRACE = 7 * DAY
/** How overdue an alarm must be before the sweep rings it (the docs' "more than a minute"). */
export const LOST_MARGIN = 60_000
export const PING_DAYS = { daily: 1, weekly: 7, monthly: 30 } as const
/** A trigger's check-in frequency: a name, or a number of days. */
export type PingFrequency = keyof typeof PING_DAYS | number

export type SimTriggerType = 'inactivity' | 'scheduled' | 'biometric_failure' | 'verified_death' | 'device_loss'
export type FiringKind = 'inactivity' | 'scheduled' | 'biometric_failure' | 'verified_death' | 'device_loss' | 'manual' | 'scheduled_item' | 'access_request'
export type Protocol = 'INACTIVITY_30_DAYS' | 'INACTIVITY_60_DAYS' | 'MANUAL_RELEASE' | 'BIOMETRIC_FAILURE' | 'SCHEDULED' | 'VERIFIED_DEATH'

const DISPROVED_BY_CHECK_IN: ReadonlySet<string> = new Set(['inactivity', 'verified_death', 'biometric_failure'])
/** What a sign of life from a trusted device disproves: the above, and a Loss of trusted devices firing. */
const DISPROVED_BY_TRUSTED: ReadonlySet<string> = new Set([...DISPROVED_BY_CHECK_IN, 'device_loss'])
/** Causes that are not the owner acting now: nothing they start is available before the safety window. */
const NOT_OWNER: ReadonlySet<string> = new Set([...DISPROVED_BY_TRUSTED, 'access_request'])
/** How long a refusal holds before the same person may ask again for the same policy. */
export const REASK_AFTER = 7 * DAY
const RIDES_ON: Record<SimTriggerType, Protocol[]> = {
  inactivity: ['INACTIVITY_30_DAYS', 'INACTIVITY_60_DAYS'],
  biometric_failure: ['BIOMETRIC_FAILURE'],
  verified_death: ['VERIFIED_DEATH'],
  device_loss: [],
  scheduled: [],
}
const RIDES_ON_MANUAL: Protocol[] = ['MANUAL_RELEASE']

export interface MTrigger {
  id: string
  type: SimTriggerType
  status: 'active' | 'paused' | 'triggered'
  generation: number
  /** Created, activated, paused or re-armed at. */
  armedAt: number
  pingFrequency?: PingFrequency
  gracePeriod?: number
  failureThreshold?: number
  timeWindow?: number
  /** device_loss: days without a trusted device used. */
  deviceDays?: number
  fireAt?: number
  beneficiaries?: string[]
}

export interface MItem {
  id: string
  protocol: Protocol
  scheduledAt: number | null
  /** beneficiary id → chosen directly (Add Item dialog) or only through a policy. */
  grants: Map<string, boolean>
  fired: boolean
}

export interface MPolicy {
  id: string
  active: boolean
  on: SimTriggerType[]
  delayHours: number
  items: string[]
  beneficiaries: string[]
  /** Access on request: the waiting time in days, or null when nobody may ask. */
  requestDays: number | null
}

export interface MRequest {
  id: string
  firingId: string
  policyId: string
  heir: string
  at: number
  refusedAt: number | null
}

export interface MFiring {
  id: string
  triggerId: string | null
  kind: FiringKind
  /** The trigger's status before it fired: what a cancel re-arms it to. */
  priorStatus: 'active' | 'paused'
  firedAt: number
  releases: string[]
}

export interface MRelease {
  id: string
  firingId: string
  kind: FiringKind
  sourceKey: string
  releaseAt: number
  status: 'waiting' | 'released' | 'cancelled'
  releasedAt: number | null
  cancelledAt: number | null
  targets: string[]
}

export interface MOwner {
  index: number
  id: string
  email: string
  lastCheckIn: number
  /** Check-in e-mail and reminder of the current cycle, as actually sent, and the schedule the e-mail went under. */
  mailAt: number | null
  mailUnder: string | null
  /** The deadline the last check-in e-mail named, as read from its text. */
  mailedDeadline: number | null
  reminderAt: number | null
  graceUntil: number | null
  pastDue: boolean
  beneficiaries: string[]
  triggers: MTrigger[]
  items: MItem[]
  policies: MPolicy[]
  failures: number[]
  /** The last use of a trusted device (null: none since the owner joined). */
  lastTrustedUse: number | null
  /** Approver id → when their confirmation of the owner's death was recorded (removed with them). */
  deathReports: Map<string, number>
  firings: Map<string, MFiring>
  releases: Map<string, MRelease>
  /** Condition key → the time since which it has held without a break. */
  since: Map<string, number>
  /** This step's manual release, expected to show as exactly one manual firing. */
  expectManual: { triggerId: string; generation: number } | null
  /** Access requests by firing id, as the API accepted them. */
  requests: Map<string, MRequest>
  /** The assets last observed (with the model's withdrawals applied since). */
  assets: AssetRow[]
  /** A cancel re-armed a verified-death trigger: every report link was voided (the driver drops them). */
  reportLinksVoided: boolean
  /** Misses already reported (condition keys, release ids): each is reported once. */
  reported: Set<string>
  log: string[]
}

export function newOwner(index: number, id: string, email: string, now: number): MOwner {
  return {
    index,
    id,
    email,
    lastCheckIn: now,
    mailAt: null,
    mailUnder: null,
    mailedDeadline: null,
    reminderAt: null,
    graceUntil: null,
    pastDue: false,
    beneficiaries: [],
    triggers: [],
    items: [],
    policies: [],
    failures: [],
    lastTrustedUse: null,
    deathReports: new Map(),
    firings: new Map(),
    releases: new Map(),
    since: new Map(),
    expectManual: null,
    requests: new Map(),
    assets: [],
    reportLinksVoided: false,
    reported: new Set(),
    log: [],
  }
}

// ---- Conditions ----------------------------------------------------------------------------

interface Condition {
  key: string
  /** C(t) holds for start <= t < end, while the model's state stays as it is. */
  start: number
  end: number
}

export function triggerKey(t: MTrigger): string {
  return `t:${t.id}:${t.generation}`
}

const frequencyOf = (t: MTrigger) => (typeof t.pingFrequency === 'number' ? t.pingFrequency : PING_DAYS[t.pingFrequency ?? 'weekly'])
const graceOf = (t: MTrigger) => t.gracePeriod ?? 14
const scheduleKey = (t: MTrigger) => `${t.id}@${t.armedAt}`
const toWholeSecond = (t: number) => Math.ceil(t / 1000) * 1000

/** R: the active inactivity trigger the clock runs on (the least F + G, the oldest on a tie), if any. */
export function running(o: MOwner): MTrigger | null {
  let best: MTrigger | null = null
  for (const t of o.triggers) {
    if (t.type !== 'inactivity' || t.status !== 'active') continue
    if (!best || frequencyOf(t) + graceOf(t) < frequencyOf(best) + graceOf(best)) best = t
  }
  return best
}

/** E, if the cycle's e-mail went out under the schedule running now. */
export function mailCounts(o: MOwner): number | null {
  const r = running(o)
  return r && o.mailAt !== null && o.mailUnder === scheduleKey(r) ? o.mailAt : null
}

/** When the cycle's check-in e-mail is due under R. */
function mailDue(o: MOwner, r: MTrigger): number {
  return o.lastCheckIn + frequencyOf(r) * DAY
}

/** S, the start of the grace, once the e-mail counts. */
export function graceFrom(o: MOwner): number | null {
  const r = running(o)
  const e = mailCounts(o)
  return r && e !== null ? Math.max(mailDue(o, r), e) : null
}

/** D, the firing time of R, once the e-mail counts. */
export function deadline(o: MOwner): number | null {
  const from = graceFrom(o)
  return from === null ? null : toWholeSecond(from + graceOf(running(o)!) * DAY)
}

/** A check-in e-mail went out now, under R: the model's cycle carries it. */
export function mailSent(o: MOwner, now: number): void {
  o.mailAt = now
  o.mailUnder = scheduleKey(running(o)!)
  o.reminderAt = null
}

/** The deadline a check-in e-mail or reminder names ("If we hear nothing by <time>, …"), or null. */
export function deadlineIn(text: string): number | null {
  const match = /If we hear nothing by (.+?), your inactivity triggers/.exec(text.replace(/\s+/g, ' '))
  return match ? parseEmailDate(match[1]!) : null
}

/**
 * The spans [start, end) in which a Failed unlock attempts trigger's count is reached, from the
 * failures so far: T of them count at t exactly when some T consecutive ones (in time order)
 * a[i] <= ... <= a[i+T-1] all do, i.e. t >= a[i+T-1] + 15 min and t < a[i] + window. Merged.
 */
function biometricSpans(o: MOwner, t: MTrigger): Array<{ start: number; end: number }> {
  const counted = o.failures.filter((a) => a > t.armedAt).sort((x, y) => x - y)
  const threshold = t.failureThreshold ?? 5
  const window = (t.timeWindow ?? 30) * DAY
  const spans: Array<{ start: number; end: number }> = []
  for (let i = 0; i + threshold - 1 < counted.length; i++) {
    const start = counted[i + threshold - 1]! + UNLOCK_FORGIVE
    const end = counted[i]! + window
    if (start >= end) continue
    const last = spans.at(-1)
    if (last && start <= last.end) last.end = Math.max(last.end, end)
    else spans.push({ start, end })
  }
  return spans
}

export function heldAt(o: MOwner, t: number): boolean {
  return o.graceUntil !== null && o.graceUntil > t
}

export function hasActiveInactivity(o: MOwner): boolean {
  return running(o) !== null
}

/** Every condition of the owner that can hold under the current state ('mail' = check-in e-mail due). */
export function conditionsOf(o: MOwner): Condition[] {
  const out: Condition[] = []
  // Held while graceUntil > t: nothing fires before graceUntil.
  const free = o.graceUntil ?? -Infinity
  const r = running(o)
  if (r && mailCounts(o) === null) out.push({ key: 'mail', start: mailDue(o, r), end: Infinity })
  for (const t of o.triggers) {
    if (t.status !== 'active') continue
    if (t.type === 'inactivity') {
      // Only R fires, at D.
      const at = t === r ? deadline(o) : null
      if (at !== null) out.push({ key: triggerKey(t), start: Math.max(at, free), end: Infinity })
    } else if (t.type === 'scheduled') {
      out.push({ key: triggerKey(t), start: Math.max(t.fireAt!, free), end: Infinity })
    } else if (t.type === 'verified_death') {
      // An approver's confirmation made while the trigger was armed fires it.
      const reports = [...o.deathReports.values()].filter((at) => at >= t.armedAt)
      if (reports.length > 0) out.push({ key: triggerKey(t), start: Math.max(Math.min(...reports), free), end: Infinity })
    } else if (t.type === 'device_loss') {
      out.push({ key: triggerKey(t), start: Math.max(Math.max(o.lastTrustedUse ?? -Infinity, t.armedAt) + (t.deviceDays ?? 30) * DAY, free), end: Infinity })
    } else {
      for (const span of biometricSpans(o, t)) out.push({ key: triggerKey(t), start: Math.max(span.start, free), end: span.end })
    }
  }
  for (const item of o.items) {
    if (item.protocol === 'SCHEDULED' && !item.fired) out.push({ key: `i:${item.id}`, start: Math.max(item.scheduledAt!, free), end: Infinity })
  }
  return out.filter((c) => c.start < c.end)
}

const holds = (c: Condition, t: number) => c.start <= t && t < c.end

/** The state of [prev, now) was fixed: carry each condition's "held since" across the gap. */
export function advanceGap(o: MOwner, prev: number, now: number): void {
  const next = new Map<string, number>()
  for (const c of conditionsOf(o)) {
    const lo = Math.max(prev, c.start)
    const hi = Math.min(now, c.end)
    if (lo < hi && hi === now) next.set(c.key, o.since.has(c.key) && lo === prev ? o.since.get(c.key)! : lo)
  }
  o.since = next
}

/** After this step's actions: which conditions hold at `now`, and since when. */
export function settle(o: MOwner, now: number): void {
  const next = new Map<string, number>()
  for (const c of conditionsOf(o)) if (holds(c, now)) next.set(c.key, o.since.get(c.key) ?? now)
  o.since = next
}

/** Times at which something is due for the owner: the driver aims some steps at (or next to) them. */
export function dueTimes(o: MOwner): number[] {
  const out: number[] = []
  for (const c of conditionsOf(o)) out.push(c.start, c.end)
  const from = graceFrom(o)
  const at = deadline(o)
  if (from !== null && at !== null) out.push(from + (graceOf(running(o)!) - 1) * DAY, at)
  if (o.graceUntil !== null) out.push(o.graceUntil)
  for (const r of o.releases.values()) if (r.status === 'waiting') out.push(r.releaseAt)
  return out.filter((t) => Number.isFinite(t))
}

// ---- Owner actions (the model's side) --------------------------------------------------------

export function lockedOut(o: MOwner, now: number): boolean {
  return o.pastDue && !heldAt(o, now)
}

/** A check-in (app or e-mailed link): resets the clock, cancels what it disproves, re-arms. */
export function checkIn(o: MOwner, now: number): void {
  o.lastCheckIn = now
  o.mailAt = null
  o.mailUnder = null
  o.mailedDeadline = null
  o.reminderAt = null
  cancelDisproved(o, now)
}

/** Whether a release is still under way: waiting, or released with an asset an heir can still fetch. */
function live(o: MOwner, r: MRelease, now: number): boolean {
  if (r.status === 'waiting') return true
  return r.status === 'released' && o.assets.some((a) => a.release_id === r.id && a.status !== 'withdrawn' && a.created_at + ASSET_DAYS * DAY > now)
}

/** What the owner's sign of life disproves: live releases a non-owner cause started; re-arms. */
function cancelDisproved(o: MOwner, now: number, trusted = false): void {
  const disproved = trusted ? DISPROVED_BY_TRUSTED : DISPROVED_BY_CHECK_IN
  cancel(o, [...o.releases.values()].filter((r) => disproved.has(r.kind) && live(o, r, now)), now)
  // Every fired trigger of those kinds with nothing left, including one that fired with nothing to release.
  for (const t of o.triggers) {
    const firing = t.status === 'triggered' ? o.firings.get(triggerKey(t)) : undefined
    if (firing && disproved.has(firing.kind)) rearm(o, firing, now)
  }
}

/** A trusted device was used (not a sign-in): the Loss of trusted devices clock restarts, nothing is cancelled. */
export function trustedUse(o: MOwner, now: number): void {
  if (o.lastTrustedUse === null || now > o.lastTrustedUse) o.lastTrustedUse = now
}

/**
 * The owner's e-mailed cancel link of one firing: every release of it not yet cancelled, whatever
 * its kind; a sign of life (the clock restarts) when it cancelled anything. Returns how many.
 */
export function cancelFiring(o: MOwner, firingId: string, now: number): number {
  const firing = o.firings.get(firingId)
  if (!firing) return 0
  const releases = firing.releases.map((id) => o.releases.get(id)!).filter((r) => r.status !== 'cancelled')
  if (releases.length === 0) return 0
  cancel(o, releases, now)
  const t = o.triggers.find((x) => x.id === firing.triggerId)
  if (t?.status === 'triggered' && triggerKey(t) === firing.id) rearm(o, firing, now)
  o.lastCheckIn = now
  o.mailAt = null
  o.mailUnder = null
  o.mailedDeadline = null
  o.reminderAt = null
  return releases.length
}

/** Cancels releases: their assets are withdrawn, except a pair another released release also hands over (it moves there). */
function cancel(o: MOwner, releases: MRelease[], now: number): void {
  for (const r of releases) {
    r.status = 'cancelled'
    r.cancelledAt = now
  }
  for (const a of o.assets) {
    if (a.status === 'withdrawn' || !releases.some((r) => r.id === a.release_id)) continue
    const keeper = [...o.releases.values()]
      .filter((r) => r.status === 'released' && r.targets.includes(pair(a.item_id, a.beneficiary_id)))
      .map((r) => r.id)
      .sort()[0]
    if (keeper) a.release_id = keeper
    else a.status = 'withdrawn'
  }
}

/** A fired trigger whose firing has nothing left but cancelled releases is armed again (a verified-death one voids every report). */
function rearm(o: MOwner, firing: MFiring, now: number): void {
  const t = o.triggers.find((x) => x.id === firing.triggerId)
  if (!t || t.status !== 'triggered' || triggerKey(t) !== firing.id) return
  if (!firing.releases.every((id) => o.releases.get(id)!.status === 'cancelled')) return
  t.status = t.type === 'scheduled' && t.fireAt! <= now ? 'paused' : firing.priorStatus
  t.generation++
  t.armedAt = now
  if (firing.kind === 'verified_death') {
    o.deathReports.clear()
    o.reportLinksVoided = true
  }
}

/**
 * A sign-in: resets the clock (only forwards) and, a sign of life, cancels as a check-in does;
 * from a trusted device it is also that device's use and cancels a Loss of trusted devices firing.
 */
export function signIn(o: MOwner, now: number, trusted = false): void {
  if (trusted) trustedUse(o, now)
  if (now >= o.lastCheckIn) {
    o.lastCheckIn = now
    o.mailAt = null
    o.mailUnder = null
    o.mailedDeadline = null
    o.reminderAt = null
  }
  cancelDisproved(o, now, trusted)
}

export function paymentFailed(o: MOwner, now: number): void {
  // A failure during a running grace keeps its end; otherwise a new 7-day grace starts.
  if (o.graceUntil === null || o.graceUntil <= now) o.graceUntil = now + PAYMENT_GRACE
  o.pastDue = true
}

export function paymentRestored(o: MOwner): void {
  o.graceUntil = null
  o.pastDue = false
}

// ---- Access on request ------------------------------------------------------------------------

/** Whether the request's release still waits (its only release: waiting, not yet released or refused). */
export function requestWaiting(o: MOwner, req: MRequest): boolean {
  const firing = o.firings.get(req.firingId)
  return !!firing && firing.releases.some((id) => o.releases.get(id)?.status === 'waiting')
}

/** What the API must answer to heir `heir` asking for policy `policyId` now (201, 404 or 409). */
export function expectedAsk(o: MOwner, policyId: string, heir: string, now: number): 201 | 404 | 409 {
  const p = o.policies.find((x) => x.id === policyId)
  if (!p || !p.active || p.requestDays === null || !p.beneficiaries.includes(heir)) return 404
  const latest = [...o.requests.values()].filter((r) => r.policyId === policyId && r.heir === heir).sort((a, b) => b.at - a.at)[0]
  if (latest && requestWaiting(o, latest)) return 409
  if (latest?.refusedAt != null && now < latest.refusedAt + REASK_AFTER) return 409
  return requestTargets(o, p, heir).length > 0 ? 201 : 409
}

function requestTargets(o: MOwner, p: MPolicy, heir: string): string[] {
  return o.items.filter((i) => p.items.includes(i.id) && i.grants.has(heir)).map((i) => pair(i.id, heir))
}

/** A request's one release: the policy's items granted to the requester, after the longest of its waits. */
export function requestPlan(o: MOwner, req: MRequest, firedAt: number): PlannedRelease[] {
  const p = o.policies.find((x) => x.id === req.policyId)!
  const wait = Math.max(p.requestDays! * DAY, SAFETY_WINDOW_MS, p.delayHours * HOUR)
  return [{ sourceKey: `policy:${p.id}`, releaseAt: firedAt + wait, targets: requestTargets(o, p, req.heir).sort() }]
}

/** The owner's refusal: the request's waiting release is cancelled (nothing else; the clock does not move). Returns how many. */
export function refuseRequest(o: MOwner, req: MRequest, now: number): number {
  if (!requestWaiting(o, req)) return 0
  const releases = o.firings.get(req.firingId)!.releases.map((id) => o.releases.get(id)!).filter((r) => r.status === 'waiting')
  cancel(o, releases, now)
  req.refusedAt = now
  return releases.length
}

// ---- What a firing releases -----------------------------------------------------------------

export interface PlannedRelease {
  sourceKey: string
  releaseAt: number
  targets: string[]
}

const pair = (itemId: string, beneficiaryId: string) => `${itemId}|${beneficiaryId}`

function directTargets(item: MItem): string[] {
  return [...item.grants].filter(([, direct]) => direct).map(([b]) => pair(item.id, b))
}

export function expectedPlan(o: MOwner, source: { trigger: MTrigger | null; manual: boolean; itemId?: string }, firedAt: number): PlannedRelease[] {
  const out: PlannedRelease[] = []
  // The owner's manual release, their scheduled trigger or an item's own date: no safety window.
  const ownerActingNow = source.manual || !!source.itemId || source.trigger?.type === 'scheduled'
  const earliest = ownerActingNow ? firedAt : firedAt + SAFETY_WINDOW_MS
  const itemRelease = (item: MItem) => {
    const n = /^INACTIVITY_(\d+)_DAYS$/.exec(item.protocol)
    out.push({ sourceKey: `item:${item.id}`, releaseAt: n ? Math.max(earliest, o.lastCheckIn + Number(n[1]) * DAY) : earliest, targets: directTargets(item) })
  }
  if (source.itemId) {
    itemRelease(o.items.find((i) => i.id === source.itemId)!)
  } else if (source.trigger!.type === 'scheduled') {
    const named = new Set(source.trigger!.beneficiaries)
    const targets = o.items.flatMap((i) => [...i.grants.keys()].filter((b) => named.has(b)).map((b) => pair(i.id, b)))
    out.push({ sourceKey: `scheduled:${source.trigger!.id}`, releaseAt: firedAt, targets })
  } else {
    const type = source.trigger!.type
    for (const p of o.policies) {
      if (!p.active || !p.on.includes(type)) continue
      const targets = o.items.filter((i) => p.items.includes(i.id)).flatMap((i) => p.beneficiaries.filter((b) => i.grants.has(b)).map((b) => pair(i.id, b)))
      out.push({ sourceKey: `policy:${p.id}`, releaseAt: Math.max(firedAt + p.delayHours * HOUR, earliest), targets })
    }
    const protocols = [...RIDES_ON[type], ...(source.manual ? RIDES_ON_MANUAL : [])]
    for (const item of o.items) if (protocols.includes(item.protocol)) itemRelease(item)
  }
  return out.filter((p) => p.targets.length > 0).map((p) => ({ ...p, targets: [...p.targets].sort() }))
}

// ---- Observing the server ---------------------------------------------------------------------

export interface FiringRow {
  id: string
  owner_id: string
  trigger_id: string | null
  kind: string
  fired_at: number
}
export interface ReleaseRow {
  id: string
  owner_id: string
  firing_id: string
  source_key: string
  status: 'waiting' | 'released' | 'cancelled'
  release_at: number
  required_approvals: number
  released_at: number | null
  cancelled_at: number | null
}
export interface TriggerRow {
  id: string
  owner_id: string
  status: string
  generation: number
}
export interface MailRow {
  id: string
  to_address: string
  kind: string
  created_at: number
  /** The e-mail as the owner reads it (the check-in e-mails name their deadline). */
  text: string
}
export interface AssetRow {
  owner_id: string
  status: string
  release_id: string
  item_id: string
  beneficiary_id: string
  created_at: number
}
export interface Snapshot {
  firings: FiringRow[]
  releases: ReleaseRow[]
  /** release id → sorted "item|beneficiary" pairs (new releases only). */
  targets: Map<string, string[]>
  triggers: TriggerRow[]
  /** Check-in e-mails, reminders and "a release has started" e-mails written since the last observation. */
  mails: MailRow[]
  assets: AssetRow[]
}

export class Oracle {
  readonly violations: string[] = []

  constructor(
    readonly seed: number,
    readonly owners: MOwner[],
    readonly start: number,
  ) {}

  private day(t: number): string {
    return `day ${((t - this.start) / DAY).toFixed(4)}`
  }

  fail(o: MOwner, now: number, step: number, what: string): void {
    const trail = o.log.slice(-14).join('\n      ')
    this.violations.push(`seed ${this.seed}, step ${step}, ${this.day(now)}, owner #${o.index}: ${what}\n    last actions of owner #${o.index}:\n      ${trail}`)
  }

  note(o: MOwner, now: number, what: string): void {
    o.log.push(`[${this.day(now)}] ${what}`)
  }

  /**
   * Checks everything the server wrote during the step at `now` against the model (as it stood
   * before the engine ran), then carries the facts forward.
   */
  observe(now: number, step: number, snap: Snapshot): void {
    for (const o of this.owners) {
      const before = conditionsOf(o).filter((c) => holds(c, now))
      const holdsNow = (key: string) => before.some((c) => c.key === key)

      // Check-in e-mails and reminders.
      const mails = snap.mails.filter((m) => m.to_address === o.email.toLowerCase()).sort((a, b) => a.kind.localeCompare(b.kind))
      const releaseStarted = mails.filter((m) => m.kind === 'release_started')
      for (const m of mails) {
        if (m.kind === 'release_started') continue
        if (m.created_at !== now) this.fail(o, now, step, `${m.kind} e-mail written at ${m.created_at}, not at the step time ${now}`)
        const r = running(o)
        if (m.kind === 'check_in') {
          if (!holdsNow('mail') || !r) {
            this.fail(o, now, step, `EARLY check-in e-mail: last check-in ${this.day(o.lastCheckIn)}, running trigger ${r ? `${r.id.slice(0, 8)} every ${frequencyOf(r)} d` : 'none'}, e-mail already counting ${mailCounts(o) === null ? 'no' : this.day(mailCounts(o)!)}`)
          }
          if (r) mailSent(o, now)
          this.note(o, now, 'server: check-in e-mail sent')
        } else {
          const from = graceFrom(o)
          const at = deadline(o)
          const g = r ? graceOf(r) : 0
          const ok = from !== null && at !== null && g >= 2 && o.reminderAt === null && now >= from + (g - 1) * DAY && now < at
          if (!ok) this.fail(o, now, step, `reminder e-mail out of place: grace from ${from === null ? 'none' : this.day(from)} for ${g} d, reminder already sent: ${o.reminderAt !== null}`)
          o.reminderAt = now
          this.note(o, now, 'server: reminder e-mail sent')
        }
        // The e-mailed deadline is the engine's firing time, to the millisecond.
        const named = deadlineIn(m.text)
        const want = deadline(o)
        const when = (t: number | null) => (t === null ? 'none' : `${this.day(t)} (${new Date(t).toISOString()})`)
        if (named !== want) this.fail(o, now, step, `the ${m.kind} e-mail names the deadline ${when(named)}; the firing time is ${when(want)}`)
        o.mailedDeadline = named
      }

      // New firings.
      const releaseRows = snap.releases.filter((r) => r.owner_id === o.id)
      const newFirings = snap.firings.filter((f) => f.owner_id === o.id && !o.firings.has(f.id)).sort((a, b) => a.id.localeCompare(b.id))
      // Every firing that hands anything over e-mails the owner at once, whatever caused it.
      // (An access request asks the owner to approve or refuse instead.)
      const handingOver = newFirings.filter((f) => f.kind !== 'access_request' && releaseRows.some((r) => r.firing_id === f.id)).length
      if (releaseStarted.length !== handingOver) {
        this.fail(o, now, step, `${handingOver} firing(s) handed something over; the owner was e-mailed ${releaseStarted.length} time(s)`)
      }
      let manualSeen = false
      for (const f of newFirings) {
        if (f.fired_at !== now) this.fail(o, now, step, `firing ${f.id} written at ${f.fired_at}, not at the step time ${now}`)
        const trigger = f.trigger_id ? o.triggers.find((t) => t.id === f.trigger_id) : undefined
        let plan: PlannedRelease[] = []
        let priorStatus: MFiring['priorStatus'] = 'active'
        if (f.kind === 'access_request') {
          const req = o.requests.get(f.id)
          if (!req || req.at !== now) {
            this.fail(o, now, step, `access request firing ${f.id} nobody made now`)
            continue
          }
          plan = requestPlan(o, req, now)
          this.note(o, now, `server: access request ${f.id.slice(0, 10)} of policy ${req.policyId.slice(0, 8)} waits until ${this.day(plan[0]!.releaseAt)}`)
        } else if (f.kind === 'scheduled_item') {
          const item = o.items.find((i) => `i:${i.id}` === f.id)
          if (!item) {
            this.fail(o, now, step, `unexpected item firing ${f.id}`)
            continue
          }
          if (!holdsNow(f.id)) this.fail(o, now, step, `EARLY firing of item ${item.id}'s own date (${this.day(item.scheduledAt!)}; payment grace until ${o.graceUntil === null ? 'none' : this.day(o.graceUntil)})`)
          plan = expectedPlan(o, { trigger: null, manual: false, itemId: item.id }, now)
          item.fired = true
          this.note(o, now, `server: item ${item.id.slice(0, 8)} fired on its own date`)
        } else if (!trigger) {
          this.fail(o, now, step, `firing ${f.id} of an unknown trigger (kind ${f.kind})`)
          continue
        } else {
          if (f.id !== triggerKey(trigger)) this.fail(o, now, step, `firing ${f.id} does not carry the trigger's current generation ${trigger.generation} (a second firing?)`)
          if (trigger.status === 'triggered') this.fail(o, now, step, `DOUBLE firing: trigger ${trigger.id} (${trigger.type}) had already fired in generation ${trigger.generation}`)
          if (f.kind === 'manual') {
            const expected = o.expectManual
            if (!expected || expected.triggerId !== trigger.id || manualSeen) this.fail(o, now, step, `manual firing ${f.id} nobody asked for`)
            manualSeen = true
          } else {
            if (f.kind !== trigger.type) this.fail(o, now, step, `firing ${f.id} of kind ${f.kind} for a ${trigger.type} trigger`)
            if (trigger.type === 'inactivity' && (o.mailedDeadline === null || now < o.mailedDeadline)) {
              this.fail(o, now, step, `inactivity firing ${f.id} before the deadline its e-mail named (${o.mailedDeadline === null ? 'no e-mail' : this.day(o.mailedDeadline)})`)
            }
            if (!holdsNow(f.id)) {
              this.fail(
                o,
                now,
                step,
                `EARLY ${trigger.type} firing ${f.id}: status ${trigger.status}, ` +
                  (trigger.type === 'inactivity'
                    ? `last check-in ${this.day(o.lastCheckIn)}, running ${running(o) === trigger ? 'this trigger' : 'another'}, check-in e-mail ${mailCounts(o) === null ? 'not counting' : this.day(mailCounts(o)!)}, due ${(() => {
                        const at = deadline(o)
                        return at === null ? 'never (no e-mail)' : this.day(at)
                      })()}`
                    : trigger.type === 'scheduled'
                      ? `date ${this.day(trigger.fireAt!)}`
                      : trigger.type === 'device_loss'
                        ? `last trusted use ${o.lastTrustedUse === null ? 'never' : this.day(o.lastTrustedUse)}, armed ${this.day(trigger.armedAt)}, ${trigger.deviceDays} days`
                      : `failures ${o.failures.map((a) => this.day(a)).join(', ')}, armed ${this.day(trigger.armedAt)}`) +
                  `, payment grace until ${o.graceUntil === null ? 'none' : this.day(o.graceUntil)}`,
              )
            }
          }
          plan = expectedPlan(o, { trigger, manual: f.kind === 'manual' }, now)
          priorStatus = trigger.status === 'paused' ? 'paused' : 'active'
          trigger.status = 'triggered'
          this.note(o, now, `server: trigger ${trigger.id.slice(0, 8)} (${trigger.type}) fired as ${f.kind}, generation ${trigger.generation}`)
        }
        // Its releases: exactly the planned ones, with the planned times and targets.
        const rows = releaseRows.filter((r) => r.firing_id === f.id)
        const firing: MFiring = { id: f.id, triggerId: f.trigger_id, kind: f.kind as FiringKind, priorStatus, firedAt: f.fired_at, releases: rows.map((r) => r.id) }
        o.firings.set(f.id, firing)
        const got = rows.map((r) => `${r.source_key}@${r.release_at - now}:${(snap.targets.get(r.id) ?? []).join(',')}`).sort()
        const want = plan.map((p) => `${p.sourceKey}@${p.releaseAt - now}:${p.targets.join(',')}`).sort()
        if (got.join(' ; ') !== want.join(' ; ')) this.fail(o, now, step, `firing ${f.id} wrote releases\n      ${got.join('\n      ')}\n    expected\n      ${want.join('\n      ')}`)
        for (const r of rows) {
          if (r.required_approvals !== 0) this.fail(o, now, step, `release ${r.id} waits for ${r.required_approvals} approvals; none were asked for`)
          o.releases.set(r.id, {
            id: r.id,
            firingId: f.id,
            kind: f.kind as FiringKind,
            sourceKey: r.source_key,
            releaseAt: r.release_at,
            status: 'waiting',
            releasedAt: null,
            cancelledAt: null,
            targets: snap.targets.get(r.id) ?? [],
          })
        }
      }
      if (o.expectManual && !manualSeen) this.fail(o, now, step, `the manual release of trigger ${o.expectManual.triggerId} wrote no firing`)
      o.expectManual = null
      for (const req of o.requests.values()) if (req.at === now && !o.firings.has(req.firingId)) this.fail(o, now, step, `the access request ${req.firingId} was accepted and wrote no firing`)

      // Releases: only forward, never early, cancelled only by a check-in.
      for (const row of releaseRows) {
        const r = o.releases.get(row.id)
        if (!r) {
          this.fail(o, now, step, `release ${row.id} of firing ${row.firing_id} appeared without its firing`)
          continue
        }
        if (row.status === r.status) continue
        if (r.status === 'waiting' && row.status === 'released') {
          if (row.released_at !== now) this.fail(o, now, step, `release ${r.sourceKey} released at ${row.released_at}, not the step time`)
          if (now < r.releaseAt) this.fail(o, now, step, `EARLY release ${r.sourceKey} (${r.kind}): released ${this.day(now)}, due ${this.day(r.releaseAt)}`)
          r.status = 'released'
          r.releasedAt = now
          this.note(o, now, `server: release ${r.sourceKey.slice(0, 14)} (${r.kind}) released`)
        } else if (r.status === 'waiting' && row.status === 'cancelled') {
          this.fail(o, now, step, `release ${r.sourceKey} (${r.kind}) cancelled without a check-in or sign-in`)
          r.status = 'cancelled'
        } else if (r.status === 'cancelled' && r.cancelledAt === now && (row.status === 'waiting' || row.status === 'released')) {
          this.fail(o, now, step, `the check-in did not cancel release ${r.sourceKey} (${r.kind})`)
          r.status = 'waiting'
          r.cancelledAt = null
        } else {
          this.fail(o, now, step, `release ${r.sourceKey} (${r.kind}) went from ${r.status} to ${row.status}`)
          r.status = row.status
        }
      }

      // Trigger states: every change explained (owner action, firing, re-arm by a check-in).
      for (const row of snap.triggers.filter((t) => t.owner_id === o.id)) {
        const t = o.triggers.find((x) => x.id === row.id)
        if (!t) {
          this.fail(o, now, step, `unknown trigger ${row.id}`)
          continue
        }
        if (row.status !== t.status || row.generation !== t.generation) {
          this.fail(o, now, step, `trigger ${t.id} (${t.type}) is ${row.status} in generation ${row.generation}; expected ${t.status} in generation ${t.generation}`)
          t.status = row.status as MTrigger['status']
          t.generation = row.generation
        }
      }

      // Assets: exactly the targets of released releases, one per (item, beneficiary), none early;
      // every asset of a cancelled release withdrawn (nothing of it can be fetched).
      const assets = snap.assets.filter((a) => a.owner_id === o.id)
      const held = assets.filter((a) => a.status !== 'withdrawn')
      const want = new Set([...o.releases.values()].filter((r) => r.status === 'released').flatMap((r) => r.targets))
      const got = new Set(held.map((a) => pair(a.item_id, a.beneficiary_id)))
      if (new Set(assets.map((a) => pair(a.item_id, a.beneficiary_id))).size !== assets.length) this.fail(o, now, step, 'duplicate released assets')
      for (const p of want) if (!got.has(p)) this.fail(o, now, step, `released pair ${p} has no asset`)
      for (const a of assets) {
        const r = o.releases.get(a.release_id)
        const p = pair(a.item_id, a.beneficiary_id)
        if (a.status === 'withdrawn') {
          if (r?.status !== 'cancelled') this.fail(o, now, step, `asset for ${p} withdrawn though its release is ${r?.status ?? 'unknown'}`)
        } else if (!want.has(p) || !r || r.status !== 'released' || !r.targets.includes(p)) {
          this.fail(o, now, step, `asset for ${p} (${a.status}) without a released release${r?.status === 'cancelled' ? ': its release was CANCELLED and it can still be fetched' : ''}`)
        } else if (a.created_at === r.releasedAt && a.created_at < r.releaseAt) {
          this.fail(o, now, step, `EARLY asset for ${p}: created ${this.day(a.created_at)}, release due ${this.day(r.releaseAt)}`)
        } else if (a.created_at === r.releasedAt && NOT_OWNER.has(r.kind) && a.created_at < o.firings.get(r.firingId)!.firedAt + SAFETY_WINDOW_MS) {
          // Whatever the policies say, nothing a non-owner cause started is available before its window
          // (an asset another release made earlier, moved here by a cancel, was not made by this one).
          this.fail(o, now, step, `asset for ${p} (${r.kind}) available ${((a.created_at - o.firings.get(r.firingId)!.firedAt) / HOUR).toFixed(2)} h after its firing: INSIDE the safety window`)
        }
      }
      o.assets = assets
    }
  }

  /** After the sweep at `now`: nothing that has held since `now - LOST_MARGIN` or before may still wait. */
  lateCheck(now: number, step: number): void {
    for (const o of this.owners) {
      for (const c of conditionsOf(o)) {
        const since = o.since.get(c.key)
        if (since === undefined || since > now - LOST_MARGIN || o.reported.has(c.key)) continue
        const what = c.key === 'mail' ? 'check-in e-mail' : c.key.startsWith('i:') ? `item schedule ${c.key}` : `firing ${c.key} (${o.triggers.find((t) => c.key === triggerKey(t))?.type})`
        this.fail(o, now, step, `MISSED/LATE ${what}: due since ${this.day(since)} (${((now - since) / HOUR).toFixed(2)} h), still not done after the sweep; payment grace until ${o.graceUntil === null ? 'none' : this.day(o.graceUntil)}`)
        o.reported.add(c.key)
      }
      for (const r of o.releases.values()) {
        if (r.status === 'waiting' && r.releaseAt <= now - LOST_MARGIN && !o.reported.has(r.id)) {
          this.fail(o, now, step, `LATE release ${r.sourceKey} (${r.kind}): due ${this.day(r.releaseAt)}, still waiting after the sweep`)
          o.reported.add(r.id)
        }
      }
    }
  }
}
