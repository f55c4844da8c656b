import {
  ACCEPTED_FILE_TYPES,
  itemTypeFor,
  MAX_FILE_BYTES,
  MAX_FILES_PER_DROP,
  VAULT_ITEM_MESSAGES,
  type ItemType,
} from '../../../../contract/vault-items'

// What the dropzone accepts (seeds 001 §5 'Upload files'): the listed types, at most
// MAX_FILES_PER_DROP files of MAX_FILE_BYTES each. Pure functions, so the rules are testable.

export const ACCEPTED_EXTENSIONS: readonly string[] = Object.values(ACCEPTED_FILE_TYPES).flat()

function humanList(values: readonly string[]): string {
  return values.length < 2 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`
}

export const FILE_TYPE_MESSAGE = `File type must be ${humanList(ACCEPTED_EXTENSIONS)}`

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

/**
 * The accepted MIME type for a file, from its reported type or, when the system reports none or a
 * generic one (common for .md and .csv), from its extension; null when it is not accepted.
 */
export function acceptedMimeType(file: Pick<CandidateFile, 'name' | 'type'>): string | null {
  const reported = file.type.toLowerCase()
  if (reported in ACCEPTED_FILE_TYPES) return reported
  const extension = extensionOf(file.name)
  for (const [mime, extensions] of Object.entries(ACCEPTED_FILE_TYPES)) {
    if (extensions.includes(extension)) return mime
  }
  return null
}

/** The `accept` attribute for a set of MIME types (all of them by default). */
export function acceptAttribute(mimeTypes: readonly string[] = Object.keys(ACCEPTED_FILE_TYPES)): string {
  return mimeTypes.flatMap((mime) => [mime, ...(ACCEPTED_FILE_TYPES[mime] ?? [])]).join(',')
}

export type FileCategory = Exclude<ItemType, 'password'>

/** The accepted MIME types of one category (Documents, Photos, Videos). */
export function mimeTypesOf(category: FileCategory): string[] {
  return Object.keys(ACCEPTED_FILE_TYPES).filter((mime) => itemTypeFor(mime) === category)
}

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
    if (!acceptedMimeType(file)) reasons.push(FILE_TYPE_MESSAGE)
    if (file.size > MAX_FILE_BYTES) reasons.push(VAULT_ITEM_MESSAGES.fileTooLarge(MAX_FILE_BYTES))
    if (reasons.length === 0 && selected.length + accepted.length >= MAX_FILES_PER_DROP) reasons.push(VAULT_ITEM_MESSAGES.tooManyFiles)
    if (reasons.length) rejected.push({ name: file.name, reasons })
    else accepted.push(file)
  }
  return { accepted, rejected }
}

/**
 * While dragging only MIME types are known, not names. 'reject' when a file's type is known and
 * not accepted, or there are too many; an unknown (empty) type is judged on drop, by extension.
 */
export function dragVerdict(items: readonly { kind: string; type: string }[], alreadySelected = 0): 'accept' | 'reject' {
  const files = items.filter((item) => item.kind === 'file')
  if (files.length === 0) return 'reject'
  if (alreadySelected + files.length > MAX_FILES_PER_DROP) return 'reject'
  return files.every((item) => item.type === '' || item.type.toLowerCase() in ACCEPTED_FILE_TYPES) ? 'accept' : 'reject'
}
