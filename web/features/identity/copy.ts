import type { IdentityDocument } from '../../../contract/identity'

// Words used only by the identity screens. The spec's messages (seeds 001 §5, §8) live in
// contract/identity.ts and are used from there.

export const IDENTITY_TOASTS = {
  uploaded: 'Document uploaded',
  uploadedText: (beneficiaryName: string) => `${beneficiaryName}’s document was sent to your approvers for review.`,
  missingDialog: 'Choose the document type and the file to upload.',
  missingPage: 'Choose the beneficiary and the document type.',
  fallback: 'Please try again.',
  reviewFailed: 'Verification failed',
} as const

export const FIELD_COPY = {
  documentType: 'Document type',
  documentTypePlaceholder: 'Choose a document type',
  documentTypeRequired: 'Choose the type of document',
  beneficiary: 'Beneficiary',
  beneficiaryPlaceholder: 'Choose a beneficiary',
  beneficiaryRequired: 'Choose whose document this is',
  file: 'Document file',
  fileHint: 'A photo or scan of the whole document: max 10MB, JPEG/PNG/PDF.',
  fileRequired: 'Choose the file to upload',
  front: 'Front image',
  frontHint: 'The side with the photo: max 10MB, JPEG/PNG/PDF.',
  back: 'Back image',
  backHint: 'Only if the back carries details, as on most ID cards and licences.',
  documentNumber: 'Document number',
  issuingAuthority: 'Issuing authority',
  issuingAuthorityPlaceholder: 'e.g. HM Passport Office, DMV of California',
  expirationDate: 'Expiration date',
  optional: 'Optional',
} as const

export const STATUS_BADGES: Record<IdentityDocument['status'], { label: string; variant: 'success' | 'warning' | 'destructive' }> = {
  pending: { label: 'Pending', variant: 'warning' },
  verified: { label: 'Verified', variant: 'success' },
  rejected: { label: 'Rejected', variant: 'destructive' },
}

export const DECISION_LABELS: Record<'approved' | 'rejected', string> = {
  approved: 'Approved',
  rejected: 'Rejected',
}

export const WHO_REVIEWS =
  'Each document goes to your approvers by e-mail. Every approver reviews it through their own link, which only they receive: you cannot review documents yourself, and no one can review in another approver’s name.'

export const REVIEW_RULES = [
  'A document is verified once it has the approvals it needs.',
  'A single rejection rejects it; the approver’s notes become the reason, and you can upload a better copy.',
  'Review links expire after 30 days. Uploading the document again sends fresh links.',
] as const

export const REVIEW_PAGE_COPY = {
  title: 'Review an identity document',
  intro: (approverName: string, ownerName: string, beneficiaryName: string) =>
    `${approverName}, ${ownerName} named you as an approver and asks you to check ${beneficiaryName}’s identity document. Compare it with what you know of ${beneficiaryName}, then approve or reject it.`,
  linkIsYours: 'This link is yours alone. Please do not forward it: your decision is recorded in your name.',
  decision: 'Your decision',
  approve: 'Approve',
  approveHint: 'The document is genuine and belongs to this person.',
  reject: 'Reject',
  rejectHint: 'Something is wrong: unreadable, expired, altered or someone else’s.',
  decisionRequired: 'Choose Approve or Reject',
  notes: 'Verification notes',
  notesHint: 'What you checked and why you decided as you did. The owner sees these notes.',
  notesHintReject: 'Say what is wrong. The owner sees these notes as the reason for the rejection.',
  signature: 'Signature (optional)',
  signatureHint: 'Type your full name to sign your decision.',
  submit: 'Submit Review',
  submitting: 'Submitting...',
} as const

export const REVIEW_DONE_TEXT: Record<IdentityDocument['status'], string> = {
  pending: 'The document still needs other approvers’ reviews before it is verified.',
  verified: 'With your approval the document is now verified.',
  rejected: 'The document is now rejected, and the owner will see your notes as the reason.',
}

export const DECIDED_TEXT: Record<IdentityDocument['status'], string> = {
  pending: 'It is still waiting for the other approvers.',
  verified: 'The document is verified.',
  rejected: 'The document was rejected.',
}

/** "Sam Counsel", "Sam Counsel and Ann Lee", "Sam Counsel, Ann Lee and Bo Park". */
export function listNames(names: string[]): string {
  if (names.length === 0) return 'your approvers'
  if (names.length === 1) return names[0]!
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' })

/** A YYYY-MM-DD date as the reader writes dates, without a time-zone shift. */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return day || '—'
  return dateFormat.format(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
}

export function formatMoment(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date)
}

/** True when a YYYY-MM-DD expiry date is before today. */
export function isExpired(day: string, now = new Date()): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
  return day < today
}
