import {
  actionGroup,
  AUDIT_ACTION_GROUPS,
  AUDIT_ACTION_LABELS,
  UNLOCK_KIND_LABELS,
  type AuditActionGroup,
  type AuditActor,
  type AuditEntry,
} from '../../../contract/audit'
import { TRIGGER_TYPE_LABELS, type TriggerType } from '../../../contract/triggers'
import { RELEASE_PROTOCOL_LABELS, type ReleaseProtocol } from '../../../contract/vault-items'

// How entries are shown and filtered on the Audit Log page and the dashboard (seeds 001 §2, §9).

export const HASH_CHARS = 16
export const PREV_HASH_CHARS = 8

/** 'release.completed' → 'Release completed'; 'checkin.recorded' → 'Check-in recorded'; a few by name (AUDIT_ACTION_LABELS). */
export function humaniseAction(action: string): string {
  if (Object.hasOwn(AUDIT_ACTION_LABELS, action)) return AUDIT_ACTION_LABELS[action]!
  const words = action
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/\bcheckin\b/g, 'check-in')
  return words ? words[0]!.toUpperCase() + words.slice(1) : action
}

export const ACTOR_LABELS: Record<AuditActor, string> = {
  user: 'User',
  system: 'System',
  beneficiary: 'Beneficiary',
  approver: 'Approver',
}

export function formatDetailValue(value: AuditEntry['details'][string]): string {
  return value === null ? '—' : String(value)
}

const OPAQUE_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|[ti]:[0-9a-f-]{36}(?::\d+)?)$/i

/** 'beneficiaryId' → 'Beneficiary'; 'verificationEmailSent' → 'Verification email sent'. */
export function detailLabel(key: string): string {
  const words = key
    .replace(/Ids?$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
  return words ? words[0]!.toUpperCase() + words.slice(1) : key
}

/**
 * An entry's details as a person reads them: labels in words, and ids replaced by the names they
 * stand for (`name` knows the owner's people, policies, triggers and, when the vault is unlocked,
 * items). An id with no name (something since removed, or an internal reference) is left out:
 * never a UUID on the screen.
 */
export function describeDetails(details: AuditEntry['details'], name: (id: string) => string | undefined): Array<{ label: string; text: string }> {
  const out: Array<{ label: string; text: string }> = []
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === 'string' && OPAQUE_ID.test(value)) {
      const named = name(value)
      if (named) out.push({ label: detailLabel(key), text: named })
      continue
    }
    const known = typeof value === 'string' ? knownValue(key, value) : undefined
    out.push({ label: detailLabel(key), text: known ?? (typeof value === 'boolean' ? (value ? 'yes' : 'no') : formatDetailValue(value)) })
  }
  return out
}

/** A trigger type, a release protocol or an unlock attempt's kind, in words (own keys only: never an inherited one). */
function knownValue(key: string, value: string): string | undefined {
  if (Object.hasOwn(TRIGGER_TYPE_LABELS, value)) return TRIGGER_TYPE_LABELS[value as TriggerType].title
  if (Object.hasOwn(RELEASE_PROTOCOL_LABELS, value)) return RELEASE_PROTOCOL_LABELS[value as ReleaseProtocol]
  if (key === 'kind' && Object.hasOwn(UNLOCK_KIND_LABELS, value)) return UNLOCK_KIND_LABELS[value]
  return undefined
}

export function formatTimestamp(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

export type ActorFilter = 'all' | AuditActor
export type GroupFilter = 'all' | AuditActionGroup | 'other'

export interface AuditFilters {
  search: string
  actor: ActorFilter
  group: GroupFilter
}

export const NO_FILTERS: AuditFilters = { search: '', actor: 'all', group: 'all' }

export const GROUP_OPTIONS: Array<{ value: GroupFilter; label: string }> = [
  { value: 'all', label: 'All actions' },
  ...(Object.entries(AUDIT_ACTION_GROUPS) as Array<[AuditActionGroup, string]>).map(([value, label]) => ({ value, label })),
  { value: 'other', label: 'Other' },
]

/** Case-insensitive search over the action (raw and as shown), the actor and the details' values. */
export function matchesSearch(entry: AuditEntry, search: string): boolean {
  const needle = search.trim().toLowerCase()
  if (!needle) return true
  const haystack = [entry.action, humaniseAction(entry.action), entry.actor, ...Object.values(entry.details).filter((v) => v !== null).map(String)]
  return haystack.some((text) => text.toLowerCase().includes(needle))
}

export function filterEntries(entries: readonly AuditEntry[], filters: AuditFilters): AuditEntry[] {
  return entries.filter(
    (e) =>
      (filters.actor === 'all' || e.actor === filters.actor) &&
      (filters.group === 'all' || actionGroup(e.action) === filters.group) &&
      matchesSearch(e, filters.search),
  )
}

export function isFiltered(filters: AuditFilters): boolean {
  return filters.search.trim() !== '' || filters.actor !== 'all' || filters.group !== 'all'
}
