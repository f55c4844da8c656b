import { ID_DOCUMENT_MAX_BYTES, IDENTITY_MESSAGES, sniffDocumentType } from '../../../contract/identity'

// What an identity document file may be (seeds 001 §5, §9): JPEG, PNG or PDF, at most 10 MB.
// The type is read from the file's first bytes, as the server does, so a text file renamed
// "passport.png" is refused here rather than after the upload.

/** For the file picker: what the dialog offers to choose. */
export const ID_FILE_ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf'

export type IdFileProblem = { title: string; description: string }

/** The file's real type from its first bytes, or null when it is none of the accepted ones. */
export async function sniffIdFileType(file: Blob) {
  return sniffDocumentType(new Uint8Array(await file.slice(0, 8).arrayBuffer()))
}

/** Why this file cannot be uploaded, in the spec's words, or null when it can. */
export async function checkIdFile(file: File): Promise<IdFileProblem | null> {
  if ((await sniffIdFileType(file)) === null) {
    return { title: IDENTITY_MESSAGES.invalidFileTypeTitle, description: IDENTITY_MESSAGES.invalidFileType }
  }
  if (file.size > ID_DOCUMENT_MAX_BYTES) {
    return { title: IDENTITY_MESSAGES.fileTooLargeTitle, description: IDENTITY_MESSAGES.fileTooLarge }
  }
  return null
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
