import { canonicalJson, GENESIS_HASH, type AuditEntry } from '../../../contract/audit'

// The Export menu's two files. Both take the list as GET /api/audit returns it (newest first) and
// hold every entry oldest first, whatever the page's filters, so an export can be re-checked on its
// own. Reversed rather than sorted by seq: a reordered chain must stay visibly reordered.

export const AUDIT_HASH_ALGORITHM = 'SHA-256 over prevHash + "\\n" + canonical entry'
export const CSV_COLUMNS = ['seq', 'id', 'createdAt', 'actor', 'action', 'details', 'prevHash', 'hash'] as const

export interface AuditJsonExport {
  exportedAt: string
  algorithm: string
  genesisHash: string
  entries: AuditEntry[]
}

function oldestFirst(newestFirst: readonly AuditEntry[]): AuditEntry[] {
  return [...newestFirst].reverse()
}

export function auditJsonExport(newestFirst: readonly AuditEntry[], now: Date = new Date()): string {
  const doc: AuditJsonExport = { exportedAt: now.toISOString(), algorithm: AUDIT_HASH_ALGORITHM, genesisHash: GENESIS_HASH, entries: oldestFirst(newestFirst) }
  return `${JSON.stringify(doc, null, 2)}\n`
}

/** Details as the hash sees them (the contract's canonical form). */
export const canonicalDetails = (details: AuditEntry['details']): string => canonicalJson(details)

/** RFC 4180: quoted when it holds a comma, quote, CR or LF, or edge spaces; quotes doubled. */
export function csvField(value: string | number): string {
  const text = String(value)
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

// No cell can start with a formula character: details always start with '{' and every other
// column is written by the server (ids, hashes, ISO dates, fixed action names).
export function auditCsv(newestFirst: readonly AuditEntry[]): string {
  const rows = oldestFirst(newestFirst).map((e) =>
    [e.seq, e.id, e.createdAt, e.actor, e.action, canonicalDetails(e.details), e.prevHash, e.hash].map(csvField).join(','),
  )
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n'
}

export function exportFileName(format: 'json' | 'csv', now: Date = new Date()): string {
  return `audit-log-${now.toISOString().slice(0, 10)}.${format}`
}
