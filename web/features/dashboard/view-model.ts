import type { AuditEntry } from '../../../contract/audit'
import type { ReleaseReadiness } from '../../../contract/readiness'
import type { EngineStatus } from '../../../contract/triggers'
import type { ChainState } from '@/features/audit/chain'

// The dashboard's figures, computed from live data (the spec's screen showed fixed text).

export const RECENT_ACTIVITY_COUNT = 5
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

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

export function monitorRow(engine: { data: EngineStatus | undefined; isError: boolean }, hasInactivityTrigger?: boolean): StatusRow {
  const label = 'Inactivity Monitor'
  if (hasInactivityTrigger === false) return { label, value: 'Not set up', tone: 'warn', issue: 'No inactivity trigger' }
  if (engine.isError) return { label, value: 'Unavailable', tone: 'warn', issue: 'Inactivity monitor status unavailable' }
  if (!engine.data) return { label, value: 'Checking...', tone: 'pending' }
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

/** The release plan: ready only when the server's readiness check finds nothing that would stop a release. */
export function planRow(readiness: { data: ReleaseReadiness | undefined; isError: boolean }): StatusRow {
  const label = 'Release plan'
  if (readiness.isError) return { label, value: 'Not checked', tone: 'warn', issue: 'Release plan could not be checked' }
  if (!readiness.data) return { label, value: 'Checking...', tone: 'pending' }
  const errors = readiness.data.problems.filter((p) => p.severity === 'error').length
  if (errors > 0) return { label, value: `${errors} ${errors === 1 ? 'problem' : 'problems'}`, tone: 'bad', issue: 'Release plan needs attention' }
  if (readiness.data.problems.length > 0) return { label, value: 'Ready, with warnings', tone: 'warn', issue: 'Release plan has warnings' }
  return { label, value: 'Ready', tone: 'ok' }
}

/**
 * The dashboard's headline: 'Protected' only when the release plan is ready and nothing has fired
 * (once a trigger fired, the vault is releasing, and 'Protected' would tell the owner otherwise).
 */
export function headline(readiness: { data: ReleaseReadiness | undefined; isError: boolean }, fired = false): string {
  if (fired) return 'A release from your vault has started'
  if (readiness.isError) return 'Your release plan could not be checked'
  if (!readiness.data) return 'Checking your release plan...'
  return readiness.data.ready ? 'Your Digital Legacy is Protected' : 'Your release plan needs attention'
}

/** 'All systems active' only when every row is ok; otherwise what is wrong, worst first. */
export function systemSummary(rows: readonly StatusRow[]): { text: string; tone: StatusTone } {
  const issues = [...rows.filter((r) => r.tone === 'bad'), ...rows.filter((r) => r.tone === 'warn')]
  if (issues.length) return { text: issues.map((r) => r.issue ?? `${r.label}: ${r.value}`).join(' · '), tone: issues[0]!.tone }
  if (rows.some((r) => r.tone === 'pending')) return { text: 'Checking systems...', tone: 'pending' }
  return { text: 'All systems active', tone: 'ok' }
}
