import { makeZip } from 'client-zip'
import type { ItemType, PasswordEntry } from '../../../contract/vault-items'
import { byteSource } from '@/lib/byte-source'
import { EXPORT_MESSAGES, type ExportManifest, type ManifestEntry } from '../../../contract/vault-export'

export type { ExportManifest, ManifestEntry }

// Taking a vault out (issue 0.3 · 5 of 7): every item, decrypted in this browser, written one
// after the other into one ZIP (client-zip: stored, streamed, ZIP64 past 4 GiB) that is pulled by
// the save path a piece at a time, so memory holds a piece or two whatever the vault's size. The
// owner's export (owner-export.ts) and the heir's Download all (heir-export.ts) differ only in
// how an item is opened; naming, the manifest and what a failure does are decided here.
//
// A failure before an item's first decrypted piece (its key, its metadata, its fetch, its first
// chunk or, for a sealed single-chunk item, its seal) leaves that item out, lists it in the
// manifest with the reason, and the export goes on. A failure after its first piece has gone into
// the ZIP cannot be taken back (the ZIP would hold a cut file under a whole file's name), so it
// stops the export, naming the item, and the save fails rather than finishing as if complete.

type Bytes = Uint8Array<ArrayBuffer>

/** One item as the export meets it, before it is opened. */
export interface ExportSource {
  /** How to name the item before its own name is decrypted (in a failure). */
  label: string
  type: ItemType
  createdAt: string | null
  /** When it was released (an heir's item). */
  releasedAt?: string
  open(): Promise<OpenedItem>
  /** Why it is left out without being opened (an heir's item that cannot be downloaded now). */
  leaveOut?: string
}

/** An item opened: its decrypted metadata and its plaintext, each piece authenticated before it is yielded. */
export interface OpenedItem {
  filename: string
  mimetype: string
  tags: readonly string[]
  content: AsyncIterable<Bytes>
}

export interface ExportProgress {
  /** Items finished (written or left out). */
  done: number
  total: number
  /** The item being written now, by its name once known. */
  current: string | null
}

export interface ExportReport {
  manifest: ExportManifest
  leftOut: { name: string; problem: string }[]
}

/** An item failed after part of it was written: the export stops. */
export class ExportStoppedError extends Error {
  constructor(
    readonly itemName: string,
    cause: unknown,
  ) {
    super(EXPORT_MESSAGES.stoppedAt(itemName), { cause })
    this.name = 'ExportStoppedError'
  }
}

export const MANIFEST_JSON = 'manifest.json'
export const MANIFEST_CSV = 'manifest.csv'
export const FILES_FOLDER = 'files'
export const PASSWORDS_FOLDER = 'passwords'
/** A password entry is a few hundred bytes of JSON; anything much larger is not one. */
export const MAX_PASSWORD_ENTRY_BYTES = 256 * 1024
/** Characters kept of a name, before " (n)" and the extension. */
const MAX_NAME_CHARS = 120

const RESERVED_WINDOWS = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i

/**
 * A name that is one safe path segment on any system: no slashes or characters Windows refuses,
 * no control characters or direction marks, no runs of dots (so never "." or ".."), no trailing dot or space, not a
 * reserved device name, and not too long. Empty: the fallback.
 */
export function safeFileName(name: string, fallback: string = EXPORT_MESSAGES.untitled): string {
  let s = name
    .normalize('NFC')
    // Control characters, and the direction marks that can disguise an extension ("invoice‮fdp.exe").
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\.{2,}/g, '.')
    .trim()
    .replace(/[. ]+$/, '')
  if (s === '' || s === '.') return fallback === name ? EXPORT_MESSAGES.untitled : safeFileName(fallback)
  if (RESERVED_WINDOWS.test(s)) s = `_${s}`
  const { stem, ext } = splitExtension(s)
  if ([...stem].length > MAX_NAME_CHARS) s = [...stem].slice(0, MAX_NAME_CHARS).join('').trim() + ext
  return s
}

function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.')
  // ".env" has no extension; "a.tar.gz" keeps ".gz" (the copy number goes before it).
  if (dot <= 0 || name.length - dot > 12) return { stem: name, ext: '' }
  return { stem: name.slice(0, dot), ext: name.slice(dot) }
}

/**
 * Hands out paths in the ZIP: each name made safe, and a name already given in the same folder
 * (letter case aside, as on Windows and macOS disks) gets " (2)", " (3)"… before its extension.
 */
export function createNamer() {
  const used = new Set<string>([MANIFEST_JSON, MANIFEST_CSV])
  return (folder: string, name: string, fallback?: string): string => {
    const safe = safeFileName(name, fallback)
    const { stem, ext } = splitExtension(safe)
    for (let n = 1; ; n++) {
      const candidate = `${folder}/${n === 1 ? safe : `${stem} (${n})${ext}`}`
      const key = candidate.toLowerCase()
      if (!used.has(key)) {
        used.add(key)
        return candidate
      }
    }
  }
}

/** A password entry as a small text file a person can read. */
export function passwordEntryText(title: string, entry: PasswordEntry): string {
  const lines = [`${EXPORT_MESSAGES.passwordFileTitle}: ${title}`, `Website: ${entry.site}`, `Username: ${entry.username}`, `Password: ${entry.password}`]
  if (entry.notes) lines.push('Notes:', entry.notes)
  return `${lines.join('\r\n')}\r\n`
}

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value)
  // A leading =, +, - or @ would be a formula to a spreadsheet.
  const guarded = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded
}

/** The manifest as CSV (UTF-8 with a byte-order mark, so spreadsheets read names in any script). */
export function manifestCsv(manifest: ExportManifest): string {
  const rows: (string | number | null)[][] = [['name', 'file', 'type', 'mimetype', 'size', 'createdAt', 'releasedAt', 'tags', 'problem']]
  for (const e of manifest.items) rows.push([e.name, e.file, e.type, e.mimetype, e.size, e.createdAt, e.releasedAt ?? null, e.tags.join('; '), e.problem ?? null])
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`
}

async function collectText(pieces: AsyncIterable<Bytes>, max: number): Promise<string> {
  const parts: Bytes[] = []
  let total = 0
  for await (const piece of pieces) {
    total += piece.length
    if (total > max) throw new Error(EXPORT_MESSAGES.passwordTooLarge)
    parts.push(piece)
  }
  return new TextDecoder().decode(await new Blob(parts).arrayBuffer())
}

/** The plaintext from its first piece on, counting bytes; a failure from here on stops the export. */
async function* rest(first: IteratorResult<Bytes>, iterator: AsyncIterator<Bytes>, name: string, counted: { bytes: number }) {
  try {
    for (let result = first; !result.done; result = await iterator.next()) {
      counted.bytes += result.value.length
      yield result.value
    }
  } catch (error) {
    throw new ExportStoppedError(name, error)
  } finally {
    await iterator.return?.()
  }
}

/** An item left out for a reason known before it is opened. */
class LeftOut extends Error {}

function problemText(error: unknown, describe: (error: unknown) => string): string {
  if (error instanceof LeftOut) return error.message
  return describe(error) || EXPORT_MESSAGES.itemFailed
}

export interface ExportOptions {
  onProgress?: (progress: ExportProgress) => void
  /** A person's words for why an item could not be opened. */
  describeError?: (error: unknown) => string
  /** Parses a decrypted password entry (the vault's own parser). */
  parsePassword: (text: string) => PasswordEntry
  /** Cancels the export: nothing after it is opened, and an item it cuts short is not 'left out'. */
  signal?: AbortSignal
  now?: () => Date
}

type ZipInput = { name: string; input: string | AsyncIterable<Bytes>; lastModified?: Date }

function dateOf(iso: string | null, fallback: Date): Date {
  const date = iso ? new Date(iso) : fallback
  // The ZIP's dates run from 1980.
  return Number.isNaN(date.getTime()) || date.getFullYear() < 1980 ? fallback : date
}

/**
 * The ZIP's files in order: each item opened only when the ZIP reaches it (so one item at a time
 * is in flight), then the manifests. `report` settles once the manifests are written.
 */
export function exportFiles(sources: readonly ExportSource[], options: ExportOptions): { files: AsyncGenerator<ZipInput, void, undefined>; report: Promise<ExportReport> } {
  const describe = options.describeError ?? ((error: unknown) => (error instanceof Error ? error.message : ''))
  const now = options.now ?? (() => new Date())
  let finish!: (report: ExportReport) => void
  let fail!: (error: unknown) => void
  const report = new Promise<ExportReport>((resolve, reject) => ((finish = resolve), (fail = reject)))
  report.catch(() => undefined)

  async function* files(): AsyncGenerator<ZipInput, void, undefined> {
    const exportedAt = now()
    const name = createNamer()
    const items: ManifestEntry[] = []
    const leftOut: ExportReport['leftOut'] = []
    const total = sources.length
    try {
      for (const [index, source] of sources.entries()) {
        options.signal?.throwIfAborted()
        options.onProgress?.({ done: index, total, current: source.label })
        const base = { type: source.type, createdAt: source.createdAt, ...(source.releasedAt ? { releasedAt: source.releasedAt } : {}) }
        let opened: OpenedItem | null = null
        try {
          if (source.leaveOut) throw new LeftOut(source.leaveOut)
          opened = await source.open()
          const title = opened.filename.trim() || source.label
          options.onProgress?.({ done: index, total, current: title })
          const lastModified = dateOf(source.createdAt ?? source.releasedAt ?? null, exportedAt)
          const tags = [...opened.tags]
          if (source.type === 'password') {
            const text = passwordEntryText(title, options.parsePassword(await collectText(opened.content, MAX_PASSWORD_ENTRY_BYTES)))
            const file = name(PASSWORDS_FOLDER, `${safeFileName(title, EXPORT_MESSAGES.passwordFileTitle)}.txt`)
            items.push({ ...base, file, name: title, mimetype: 'text/plain', size: new TextEncoder().encode(text).length, tags })
            yield { name: file, input: text, lastModified }
            continue
          }
          const iterator = opened.content[Symbol.asyncIterator]()
          // The first piece is authenticated (and, for a sealed one-chunk item, its seal checked) before anything is written.
          const first = await iterator.next().catch(async (error: unknown) => {
            await iterator.return?.().catch(() => undefined)
            throw error
          })
          const file = name(FILES_FOLDER, title)
          const counted = { bytes: 0 }
          const entry: ManifestEntry = { ...base, file, name: title, mimetype: opened.mimetype, size: null, tags }
          items.push(entry)
          yield { name: file, input: rest(first, iterator, title, counted), lastModified }
          entry.size = counted.bytes
        } catch (error) {
          if (error instanceof ExportStoppedError) throw error
          options.signal?.throwIfAborted()
          const title = opened?.filename.trim() || source.label
          const problem = problemText(error, describe)
          items.push({ ...base, file: null, name: title, mimetype: opened?.mimetype ?? null, size: null, tags: opened ? [...opened.tags] : [], problem })
          leftOut.push({ name: title, problem })
        }
      }
      options.onProgress?.({ done: total, total, current: null })
      const manifest: ExportManifest = {
        format: 'legacy-vault/export',
        version: 1,
        exportedAt: exportedAt.toISOString(),
        included: items.length - leftOut.length,
        leftOut: leftOut.length,
        items,
      }
      yield { name: MANIFEST_JSON, input: `${JSON.stringify(manifest, null, 2)}\n`, lastModified: exportedAt }
      yield { name: MANIFEST_CSV, input: manifestCsv(manifest), lastModified: exportedAt }
      finish({ manifest, leftOut })
    } catch (error) {
      fail(error)
      throw error
    }
  }
  return { files: files(), report }
}

/** The ZIP's bytes, pulled a piece at a time (nothing is read ahead of the consumer beyond a piece). */
export function zipPieces(files: AsyncIterable<ZipInput>): AsyncIterable<Bytes> {
  return byteSource(makeZip(files, { buffersAreUTF8: true })) as AsyncIterable<Bytes>
}

/** "vault-export-2026-11-27.zip" */
export function exportFileName(prefix: string, date = new Date()): string {
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
  return `${prefix}-${day}.zip`
}
