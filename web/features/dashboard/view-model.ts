import type { AuditEntry } from '../../../contract/audit'
import type { PublicUser } from '../../../contract/auth'
import { PAID_PLANS, PLANS, type PaidPlan } from '../../../contract/plans'
import { PLAN_HEADLINES, type ReadinessProblem, type ReleaseReadiness } from '../../../contract/readiness'
import type { EngineStatus, ReleaseSummary, Trigger } from '../../../contract/triggers'
import type { ChainState } from '@/features/audit/chain'
import { groupProblems } from '@/features/readiness/group'

// The dashboard's figures, computed from live data (the spec's screen showed fixed text).

export const RECENT_ACTIVITY_COUNT = 5
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * The Next Check-in card's value, or null when there is no card: only a running check-in clock (an
 * active inactivity trigger) has a next check-in.
 */
export function nextCheckInCard(engine: Pick<EngineStatus, 'inactivityTriggerId' | 'nextCheckInAt'> | undefined, now: Date): string | null {
  return engine?.inactivityTriggerId ? nextCheckInText(engine.nextCheckInAt, now) : null
}

/** Whole days until the next check-in, rounded up: '12d'; 'Due' once it has passed; '—' if unknown. */
export function nextCheckInText(nextCheckInAt: string | null | undefined, now: Date): string {
  const at = nextCheckInAt ? Date.parse(nextCheckInAt) : NaN
  if (Number.isNaN(at)) return '—'
  const ms = at - now.getTime()
  return ms <= 0 ? 'Due' : `${Math.ceil(ms / DAY)}d`
}

function ago(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`
}

/** '2 hours ago'; times a little in the future (clock skew) read as 'just now'. */
export function relativeTime(iso: string, now: Date): string {
  const at = Date.parse(iso)
  if (Number.isNaN(at)) return 'unknown'
  const ms = now.getTime() - at
  if (ms < MINUTE) return 'just now'
  if (ms < HOUR) return ago(Math.floor(ms / MINUTE), 'minute')
  if (ms < DAY) return ago(Math.floor(ms / HOUR), 'hour')
  if (ms < 30 * DAY) return ago(Math.floor(ms / DAY), 'day')
  if (ms < 365 * DAY) return ago(Math.floor(ms / (30 * DAY)), 'month')
  return ago(Math.floor(ms / (365 * DAY)), 'year')
}

/** The newer of the last check-in and the newest audit entry, or null when there is neither. */
export function lastActivityAt(lastCheckInAt: string | null | undefined, newestEntry: AuditEntry | undefined): string | null {
  const candidates = [lastCheckInAt, newestEntry?.createdAt].filter((s): s is string => !!s && !Number.isNaN(Date.parse(s)))
  if (candidates.length === 0) return null
  return candidates.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a))
}

export function lastActivityText(at: string | null, now: Date): string {
  return at ? relativeTime(at, now) : 'No activity yet'
}

export type StatusTone = 'ok' | 'warn' | 'bad' | 'pending'

export interface StatusRow {
  label: string
  value: string
  tone: StatusTone
  /** What the banner says when this row is not ok. */
  issue?: string
}

export function encryptionRow(vaultSetup: boolean): StatusRow {
  return vaultSetup
    ? { label: 'Encryption', value: 'Active', tone: 'ok' }
    : { label: 'Encryption', value: 'Set up your vault', tone: 'warn', issue: 'Vault not set up' }
}

/**
 * The check-in clock's row. It runs only on an active inactivity trigger (`triggers`, once loaded,
 * says which kind is missing: none, paused or fired).
 */
export function monitorRow(engine: { data: EngineStatus | undefined; isError: boolean }, triggers?: ReadonlyArray<Pick<Trigger, 'type' | 'status'>>): StatusRow {
  const label = 'Inactivity Monitor'
  const inactivity = triggers?.filter((t) => t.type === 'inactivity')
  const notSetUp: StatusRow = { label, value: 'Not set up', tone: 'warn', issue: 'No inactivity trigger' }
  if (inactivity?.length === 0) return notSetUp
  if (engine.isError) return { label, value: 'Unavailable', tone: 'warn', issue: 'Inactivity monitor status unavailable' }
  if (!engine.data) return { label, value: 'Checking...', tone: 'pending' }
  if (!engine.data.inactivityTriggerId) {
    if (inactivity?.some((t) => t.status === 'paused')) return { label, value: 'Paused', tone: 'warn', issue: 'Inactivity trigger paused' }
    if (inactivity?.some((t) => t.status === 'triggered')) return { label, value: 'Fired', tone: 'warn', issue: 'Inactivity trigger fired' }
    return notSetUp
  }
  if (!engine.data.isRunning) return { label, value: 'Stopped', tone: 'bad', issue: 'Inactivity monitor stopped' }
  if (engine.data.phase !== 'ok') return { label, value: 'Check-in due', tone: 'warn', issue: 'Check-in due' }
  return { label, value: 'Running', tone: 'ok' }
}

export function chainRow(state: ChainState): StatusRow {
  const label = 'Audit chain'
  switch (state.status) {
    case 'verified':
      return { label, value: 'Verified', tone: 'ok' }
    case 'compromised':
      return { label, value: 'Compromised', tone: 'bad', issue: 'Audit chain compromised' }
    case 'unavailable':
      return { label, value: 'Not verified', tone: 'warn', issue: 'Audit chain could not be verified' }
    default:
      return { label, value: 'Checking...', tone: 'pending' }
  }
}

/**
 * The release plan. Its count is of the lines the readiness panel lists (identical problems over
 * many items are one line, groupProblems), so the row and the panel always agree.
 */
export function planRow(readiness: { data: ReleaseReadiness | undefined; isError: boolean }): StatusRow {
  const label = 'Release plan'
  if (readiness.isError) return { label, value: 'Not checked', tone: 'warn', issue: 'Release plan could not be checked' }
  if (!readiness.data) return { label, value: 'Checking...', tone: 'pending' }
  const groups = groupProblems(readiness.data.problems)
  const n = groups.length
  if (groups.some((g) => g.severity === 'error')) return { label, value: `${n} ${n === 1 ? 'problem' : 'problems'}`, tone: 'bad', issue: 'Release plan needs attention' }
  if (n > 0) return { label, value: `Ready, with ${n} ${n === 1 ? 'warning' : 'warnings'}`, tone: 'warn', issue: 'Release plan has warnings' }
  return { label, value: 'Ready', tone: 'ok' }
}

/** A release has started once one is waiting for its time or has handed something over (not when cancelled). */
export function releaseStarted(releases: ReadonlyArray<Pick<ReleaseSummary, 'status'>> | undefined): boolean {
  return releases?.some((r) => r.status === 'waiting' || r.status === 'released') ?? false
}

export interface Headline {
  text: string
  /** Only when the plan is ready with no problem left and no release under way. */
  protected: boolean
  /** The next step, when nothing is protected yet. */
  next?: ReadinessProblem['fix']
}

/**
 * The dashboard's headline: 'Protected' only when the readiness check finds nothing at all, error
 * or warning, and the engine's releases show none under way; before anything is protected, the
 * first thing missing, with its next step.
 */
export function headline(readiness: { data: ReleaseReadiness | undefined; isError: boolean }, engine: { data: EngineStatus | undefined; isError: boolean }): Headline {
  if (releaseStarted(engine.data?.releases)) return { text: PLAN_HEADLINES.started, protected: false }
  if (readiness.isError) return { text: PLAN_HEADLINES.unchecked, protected: false }
  if (!readiness.data) return { text: PLAN_HEADLINES.checking, protected: false }
  const { ready, problems } = readiness.data
  const missing = problems.find((p) => p.kind === 'nothing_protected')
  if (missing) return { text: missing.message, protected: false, next: missing.fix }
  if (!ready || problems.length > 0) return { text: PLAN_HEADLINES.attention, protected: false }
  // Nothing to fix: 'Protected' once the engine has said no release is under way.
  if (engine.isError) return { text: PLAN_HEADLINES.unchecked, protected: false }
  if (!engine.data) return { text: PLAN_HEADLINES.checking, protected: false }
  return { text: PLAN_HEADLINES.protected, protected: true }
}

/** 'All systems active' only when every row is ok; otherwise what is wrong, worst first. */
export function systemSummary(rows: readonly StatusRow[]): { text: string; tone: StatusTone } {
  const issues = [...rows.filter((r) => r.tone === 'bad'), ...rows.filter((r) => r.tone === 'warn')]
  if (issues.length) return { text: issues.map((r) => r.issue ?? `${r.label}: ${r.value}`).join(' · '), tone: issues[0]!.tone }
  if (rows.some((r) => r.tone === 'pending')) return { text: 'Checking systems...', tone: 'pending' }
  return { text: 'All systems active', tone: 'ok' }
}

/** The paid plan whose limits the dashboard shows, or null (free, admin, paused: no limits to show against). */
export function paidPlanOf(planTier: string): (typeof PLANS)[PaidPlan] | null {
  return (PAID_PLANS as readonly string[]).includes(planTier) ? PLANS[planTier as PaidPlan] : null
}

/** The plan card's line: the paid plan's name, an administrator's account, or no paid plan; and whether billing is off. */
export function planLine(user: Pick<PublicUser, 'planTier' | 'billingProvider'>): string {
  const plan = paidPlanOf(user.planTier)
  const name = plan ? `${plan.name} plan` : user.planTier === 'admin' ? 'Administrator account' : 'No paid plan'
  return user.billingProvider === 'none' ? `${name} · billing is off on this server` : name
}
