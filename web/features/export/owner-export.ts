import type { VaultItem } from '../../../contract/vault-items'
import { EXPORT_AUDIT_ACTION, type ExportRecordBody } from '../../../contract/vault-export'
import type { MasterKey } from '@/crypto'
import { apiJson } from '@/lib/api-client'
import { decryptItemMetadata } from '@/features/vault/items/decrypt-items'
import { decryptItemContent, parsePasswordEntry } from '@/features/vault/items/download'
import type { FetchLike } from '@/features/vault/items/http'
import { formatDate, ITEM_TYPE_META } from '@/features/vault/items/item-format'
import type { ExportOutcome } from './run-export'
import type { ExportOptions, ExportSource } from './vault-zip'

/** Re-fetches of an item's content after a network error, resuming where it broke off. */
export const EXPORT_CONTENT_RETRIES = 2

/** The owner's items as the export opens them: metadata and content, both with the unlocked vault's key. */
export function ownerSources(items: readonly VaultItem[], master: MasterKey, options: { signal?: AbortSignal; fetch?: FetchLike } = {}): ExportSource[] {
  return items.map((item) => ({
    label: `${ITEM_TYPE_META[item.type].label} added ${formatDate(item.createdAt)}`.trim(),
    type: item.type,
    createdAt: item.createdAt,
    async open() {
      const metadata = await decryptItemMetadata(item, master)
      return {
        filename: metadata.filename,
        mimetype: metadata.mimetype,
        tags: metadata.tags,
        content: decryptItemContent(item, master, { ...options, retries: EXPORT_CONTENT_RETRIES }),
      }
    },
  }))
}

export const ownerExportOptions: Pick<ExportOptions, 'parsePassword'> = { parsePassword: parsePasswordEntry }

/** What the owner's audit chain is told of an export: a saved one's counts; a cancelled one is not recorded. */
export function exportRecordOf(outcome: ExportOutcome): ExportRecordBody | null {
  return outcome.kind === 'saved' ? { included: outcome.report.manifest.included, leftOut: outcome.report.manifest.leftOut } : null
}

/** Enters the finished export in the owner's audit chain, by counts only; a failure does not undo the export. */
export async function recordExport(body: ExportRecordBody): Promise<void> {
  try {
    await apiJson('POST', '/api/vault/exports', body)
  } catch (error) {
    console.warn(`${EXPORT_AUDIT_ACTION} could not be recorded`, error)
  }
}
