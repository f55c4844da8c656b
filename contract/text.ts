// What no text field of the API accepts: C0 and C1 control characters and the bidirectional
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), which can hide or reorder what a person
// reads in an e-mail, the audit log or a page. Single-line fields (names above all) also refuse the
// line and paragraph separators (U+2028, U+2029) and the invisible characters that make two names
// look the same (zero-width space and joiner U+200B, U+200D, the word joiner U+2060, U+FEFF); the
// zero-width non-joiner (U+200C) stays, as Persian and other scripts spell names with it.
// Multi-line fields keep tab and newline. The worker's validator applies this to every string of
// every validated request (worker/lib/validate.ts).

const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u200B\u200D\u2028\u2029\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/

/** Fields typed in a multi-line box: policy and trigger descriptions, review notes, release reasons. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['description', 'verificationNotes', 'notes', 'reason'])
/** Secrets that are never shown to anyone: taken byte for byte. */
export const UNCHECKED_FIELDS: ReadonlySet<string> = new Set(['password', 'currentPassword', 'newPassword'])

export const TEXT_MESSAGES = {
  controlCharacters: 'must not contain control characters, invisible characters or text-direction marks',
} as const

/** Whether `value`, the text of the field named `field`, carries a character it may not. */
export function hasForbiddenCharacters(field: string, value: string): boolean {
  if (UNCHECKED_FIELDS.has(field)) return false
  return (MULTILINE_FIELDS.has(field) ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value)
}

/** The paths (dotted, as the validator names fields) of every string in `value` that may not be taken. */
export function forbiddenTextPaths(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') return hasForbiddenCharacters(path.at(-1) ?? '', value) ? [path.join('.') || 'body'] : []
  if (Array.isArray(value)) return value.flatMap((v, i) => forbiddenTextPaths(v, [...path, String(i)]))
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).flatMap(([k, v]) => forbiddenTextPaths(v, [...path, k]))
  }
  return []
}
