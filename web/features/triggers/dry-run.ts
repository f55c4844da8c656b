import type { DryRunCause, DryRunResult, ReleasePlanEntry } from '../../../contract/triggers'
import { RELEASE_PROTOCOL_LABELS, type ItemType, type ReleaseProtocol } from '../../../contract/vault-items'
import { formatWhen, listNames, plural } from './copy'

// What a dry run would release, in words. The server lists item ids only: names exist in clear
// only in this browser, and only while the vault is unlocked, so the caller passes what it knows.

/** What the browser knows of an item: its type from the vault list, its file name if decrypted. */
export interface KnownItem {
  type: ItemType
  filename?: string
}

export const ITEM_TYPE_NAMES: Record<ItemType, { one: string; many: string }> = {
  doc: { one: 'Document', many: 'Documents' },
  photo: { one: 'Photo', many: 'Photos' },
  video: { one: 'Video', many: 'Videos' },
  password: { one: 'Password', many: 'Passwords' },
}
const TYPE_ORDER: readonly ItemType[] = ['doc', 'photo', 'video', 'password']

export interface DryRunItemGroup {
  /** 'Documents (2)'; 'Other items (1)' for ids no longer in the vault list. */
  heading: string
  type: ItemType | null
  /** File names when known, else "Document item". */
  labels: string[]
}

export interface DryRunEntryView {
  key: string
  source: string
  conditions: string[]
  beneficiaries: Array<{ id: string; name: string; note: string | null }>
  groups: DryRunItemGroup[]
  itemCount: number
}

/** One cause's section: "If a death report came now", "If you release now". */
export interface DryRunCauseView {
  key: string
  label: string
  empty: boolean
  summary: string
  /** When the first of it would be available, in words; null when nothing would go. */
  when: string | null
  entries: DryRunEntryView[]
}

export interface DryRunView {
  paymentHold: boolean
  /** What the safety window does when the trigger fires by itself (null: a scheduled trigger). */
  safetyWindow: string | null
  causes: DryRunCauseView[]
  /** Some items are shown by type only because their names are not known here. */
  namesHidden: boolean
}

export function sourceText(source: ReleasePlanEntry['source']): string {
  switch (source.kind) {
    case 'policy':
      return `Policy "${source.name}"`
    case 'item': {
      const label = RELEASE_PROTOCOL_LABELS[source.protocol as ReleaseProtocol] ?? source.protocol
      return `Item release condition: ${label}`
    }
    case 'scheduled':
      return 'Scheduled release'
  }
}

export function conditionTexts(conditions: ReleasePlanEntry['conditions']): string[] {
  const result = [conditions.delayHours > 0 ? `Waits ${plural(conditions.delayHours, 'hour')} after the trigger` : 'No delay']
  if (conditions.minimumApprovals > 0) {
    const from = conditions.approvers.length ? ` from ${listNames(conditions.approvers)}` : ''
    result.push(`${plural(conditions.minimumApprovals, 'approval')} needed${from}`)
  }
  if (conditions.identityRequired) result.push('Identity verification required')
  return result
}

function beneficiaryNote(b: ReleasePlanEntry['beneficiaries'][number]): string | null {
  if (b.identityRequired && !b.identityVerified) return 'identity not yet verified'
  return null
}

function groupItems(itemIds: readonly string[], known: ReadonlyMap<string, KnownItem>): { groups: DryRunItemGroup[]; namesHidden: boolean } {
  const byType = new Map<ItemType | null, string[]>()
  let namesHidden = false
  for (const id of new Set(itemIds)) {
    const item = known.get(id)
    const type = item?.type ?? null
    let label: string
    if (item?.filename) label = item.filename
    else {
      namesHidden = true
      label = item ? `${ITEM_TYPE_NAMES[item.type].one} item` : 'Unknown item'
    }
    byType.set(type, [...(byType.get(type) ?? []), label])
  }
  const groups: DryRunItemGroup[] = []
  for (const type of [...TYPE_ORDER, null] as const) {
    const labels = byType.get(type)
    if (!labels) continue
    labels.sort((a, b) => a.localeCompare(b))
    groups.push({ type, heading: `${type ? ITEM_TYPE_NAMES[type].many : 'Other items'} (${labels.length})`, labels })
  }
  return { groups, namesHidden }
}

/** What the window does to a firing by itself, in the owner's words. */
export function safetyWindowText(hours: number): string {
  return `When this trigger fires by itself, nothing becomes available before your ${hours}-hour safety window has passed (a policy's delay can make it longer, never shorter). You are e-mailed at once, and a check-in, a sign-in or the cancel link stops it.`
}

function causeView(cause: DryRunCause, known: ReadonlyMap<string, KnownItem>, now: Date): { view: DryRunCauseView; namesHidden: boolean } {
  let namesHidden = false
  const entries = cause.entries.map((entry, index): DryRunEntryView => {
    const { groups, namesHidden: hidden } = groupItems(entry.itemIds, known)
    namesHidden ||= hidden
    return {
      key: `${cause.cause}-${entry.source.kind}-${index}`,
      source: sourceText(entry.source),
      conditions: conditionTexts(entry.conditions),
      beneficiaries: entry.beneficiaries.map((b) => ({ id: b.id, name: b.fullName, note: beneficiaryNote(b) })),
      groups,
      itemCount: new Set(entry.itemIds).size,
    }
  })
  const empty = entries.length === 0
  const at = cause.earliestAt ? Date.parse(cause.earliestAt) : null
  return {
    namesHidden,
    view: {
      key: cause.cause,
      label: cause.label,
      empty,
      summary: empty
        ? 'Nothing would be released'
        : `Would release ${plural(cause.itemCount, 'item')} to ${plural(cause.beneficiaryCount, 'beneficiary', 'beneficiaries')} in ${plural(cause.deliveryCount, 'delivery', 'deliveries')}`,
      when: at === null ? null : at <= now.getTime() + 60_000 ? 'Available at once' : `Available from ${formatWhen(new Date(at).toISOString())} at the earliest`,
      entries,
    },
  }
}

export function dryRunView(result: DryRunResult, known: ReadonlyMap<string, KnownItem>, now = new Date()): DryRunView {
  let namesHidden = false
  const causes = result.causes.map((c) => {
    const { view, namesHidden: hidden } = causeView(c, known, now)
    namesHidden ||= hidden
    return view
  })
  return {
    paymentHold: result.paymentHold,
    safetyWindow: result.safetyWindowHours === null ? null : safetyWindowText(result.safetyWindowHours),
    causes,
    namesHidden,
  }
}

/** A dry run's result is shown only under the trigger it was run for: choosing another trigger hides it. */
export function dryRunShown<T extends Pick<DryRunResult, 'triggerId'>>(result: T | undefined, selectedTriggerId: string): T | undefined {
  return result && result.triggerId === selectedTriggerId ? result : undefined
}
