import {
  ACCEPTED_FILE_TYPES,
  MAX_FILE_BYTES,
  MAX_FILES_PER_DROP,
  VAULT_ITEM_MESSAGES,
  type ItemType,
} from '../../../../contract/vault-items'

// What the dropzone takes (seeds 001 §5 'Upload files', widened: an inheritance vault must keep
// any file, a .kdbx, a .zip, a file with no extension): every type, at most MAX_FILES_PER_DROP files
// of MAX_FILE_BYTES each. The spec's types decide only how an item is shown (photo, video, or a
// document, which is also where anything unrecognised goes). Pure functions, so the rules are testable.

/** Types a browser shows as a picture in the preview (anything else is downloaded instead). */
const PREVIEWABLE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/webp'])

export interface CandidateFile {
  name: string
  type: string
  size: number
}

export interface RejectedFile {
  name: string
  reasons: string[]
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot).toLowerCase()
}

const GENERIC_TYPE = 'application/octet-stream'

/**
 * The MIME type kept (encrypted) with a file: a known type from what the system reports or, when
 * it reports none or a generic one (common for .md and .csv), from the extension; otherwise what
 * the system reported, or a generic binary type for a file it could not name.
 */
export function mimeTypeOf(file: Pick<CandidateFile, 'name' | 'type'>): string {
  const reported = file.type.toLowerCase()
  if (reported in ACCEPTED_FILE_TYPES) return reported
  const extension = extensionOf(file.name)
  for (const [mime, extensions] of Object.entries(ACCEPTED_FILE_TYPES)) {
    if (extensions.includes(extension)) return mime
  }
  return reported || GENERIC_TYPE
}

/** Whether the vault can show the item as a picture (else it offers the download only). */
export function isPreviewableImage(mimetype: string): boolean {
  return PREVIEWABLE_IMAGES.has(mimetype.toLowerCase())
}

/**
 * The largest picture the vault previews: a preview decodes the whole decrypted file in memory,
 * so a larger one is refused with PREVIEW_TOO_LARGE (its download streams to disk instead).
 */
export const PREVIEW_MAX_BYTES = 50 * 1024 * 1024
export const PREVIEW_TOO_LARGE = 'This file is too large to preview here. Download it instead.'

/** Why an item of this size cannot be previewed, or null when it can. */
export function previewRefusal(plainSize: number): string | null {
  return plainSize > PREVIEW_MAX_BYTES ? PREVIEW_TOO_LARGE : null
}

/** The `accept` attribute for a category's picker: pictures, videos, or (documents) any file. */
export function acceptAttribute(category?: FileCategory): string {
  if (category === 'photo') return 'image/*'
  if (category === 'video') return 'video/*'
  return ''
}

export type FileCategory = Exclude<ItemType, 'password'>

function sameFile(a: CandidateFile & { lastModified?: number }, b: CandidateFile & { lastModified?: number }): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified
}

/**
 * Adds newly chosen files to a selection: each is accepted, or rejected with its reasons. Files
 * past the per-drop limit are rejected as 'Too many files'; a file already chosen is skipped.
 */
export function sortFiles<F extends CandidateFile & { lastModified?: number }>(
  selected: readonly F[],
  incoming: readonly F[],
): { accepted: F[]; rejected: RejectedFile[] } {
  const accepted: F[] = []
  const rejected: RejectedFile[] = []
  for (const file of incoming) {
    if ([...selected, ...accepted].some((other) => sameFile(other, file))) continue
    const reasons: string[] = []
    if (file.size > MAX_FILE_BYTES) reasons.push(VAULT_ITEM_MESSAGES.fileTooLarge(MAX_FILE_BYTES))
    if (reasons.length === 0 && selected.length + accepted.length >= MAX_FILES_PER_DROP) reasons.push(VAULT_ITEM_MESSAGES.tooManyFiles)
    if (reasons.length) rejected.push({ name: file.name, reasons })
    else accepted.push(file)
  }
  return { accepted, rejected }
}

/** While dragging, 'reject' only when there are too many files (any type is kept). */
export function dragVerdict(items: readonly { kind: string; type: string }[], alreadySelected = 0): 'accept' | 'reject' {
  const files = items.filter((item) => item.kind === 'file')
  if (files.length === 0) return 'reject'
  return alreadySelected + files.length > MAX_FILES_PER_DROP ? 'reject' : 'accept'
}
