import { z } from 'zod'

// Identity verification (seeds 001 §2 'Identity Verification page', §3 'Identity document',
// 'Verification decision', §5, §9). Unlike vault items, identity documents are readable by the
// approvers who review them: that is their purpose.

export const ID_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024
export const ID_DOCUMENT_MIME_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const

export const BENEFICIARY_DIALOG_DOCUMENT_TYPES = ['drivers_license', 'passport', 'government_id', 'birth_certificate'] as const
export const PAGE_DOCUMENT_TYPES = ['drivers_license', 'passport', 'state_id', 'national_id'] as const
export const DOCUMENT_TYPES = ['drivers_license', 'passport', 'government_id', 'birth_certificate', 'state_id', 'national_id'] as const
export type DocumentType = (typeof DOCUMENT_TYPES)[number]
export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  drivers_license: "Driver's licence",
  passport: 'Passport',
  government_id: 'Government/State ID',
  birth_certificate: 'Birth certificate',
  state_id: 'State ID',
  national_id: 'National ID',
}

export const IDENTITY_MESSAGES = {
  missingInformation: 'Missing information',
  frontRequired: 'Front image required',
  invalidFileTypeTitle: 'Invalid File Type',
  invalidFileType: 'Please upload a JPG, PNG, or PDF file of your government-issued ID.',
  fileTooLargeTitle: 'File Too Large',
  fileTooLarge: 'Please upload a file smaller than 10MB.',
  notesRequired: 'Verification notes are required',
  uploadFailed: 'Failed to upload document',
  documentNotFound: 'Identity document not found.',
  alreadyDecided: 'This document has already been decided.',
  alreadyReviewed: 'You have already reviewed this document.',
  noApprovers: 'Add at least one approver before uploading an identity document: approvers are who review it.',
  /** Upload of a type the owner's policies do not accept (400). */
  typeNotAccepted: (accepted: string) => `The vault owner's instructions accept only these documents: ${accepted}. Please upload one of them.`,
  /** Approving a document whose type the policies (since changed) do not accept (409). */
  approveTypeNotAccepted: (type: string, accepted: string) =>
    `This document (${type}) is not one the vault owner's instructions accept (only: ${accepted}). Reject it, and say in your note which document to send instead.`,
} as const

/**
 * The document types a beneficiary's identity can be verified with: those every active policy
 * asking for it accepts (a policy naming none accepts any). Null means any. Policies that accept
 * no type in common fall back to any type one of them accepts, so the heir is never left with
 * no document that could pass.
 */
export function acceptedDocumentTypes(lists: ReadonlyArray<ReadonlyArray<DocumentType>>): DocumentType[] | null {
  const named = lists.filter((l) => l.length > 0)
  if (named.length === 0) return null
  const common = DOCUMENT_TYPES.filter((t) => named.every((l) => l.includes(t)))
  return common.length > 0 ? common : DOCUMENT_TYPES.filter((t) => named.some((l) => l.includes(t)))
}

/** "Driver's licence, Passport", in the order DOCUMENT_TYPES has them. */
export const acceptedDocumentsText = (types: ReadonlyArray<DocumentType>) => types.map((t) => DOCUMENT_TYPE_LABELS[t]).join(', ')

const optionalText = (max: number) => z.string().trim().max(max).optional().default('')

/** The text fields of an upload (multipart form); the files are checked separately. */
export const identityDocumentFieldsSchema = z.object({
  documentType: z.enum(DOCUMENT_TYPES, { error: IDENTITY_MESSAGES.missingInformation }),
  documentNumber: optionalText(64),
  issuingAuthority: optionalText(120),
  expirationDate: z
    .string()
    .trim()
    .regex(/^(\d{4}-\d{2}-\d{2})?$/, 'expirationDate must be a date (YYYY-MM-DD)')
    .optional()
    .default(''),
})

export const IDENTITY_STATUSES = ['pending', 'verified', 'rejected'] as const

export const identityDocumentSchema = z.object({
  id: z.string(),
  beneficiaryId: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  documentNumber: z.string(),
  issuingAuthority: z.string(),
  expirationDate: z.string(),
  status: z.enum(IDENTITY_STATUSES),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  hasBack: z.boolean(),
  requiredApprovals: z.number().int(),
  reviews: z.array(
    z.object({ approverName: z.string(), status: z.enum(['approved', 'rejected']), notes: z.string(), createdAt: z.string() }),
  ),
})
export type IdentityDocument = z.infer<typeof identityDocumentSchema>

/** An approver's decision, made through their own signed link (never "the first approver"). */
export const identityReviewBodySchema = z.object({
  token: z.string().min(20).max(2048),
  status: z.enum(['approved', 'rejected'], { error: 'status must be approved or rejected' }),
  verificationNotes: z.string({ error: IDENTITY_MESSAGES.notesRequired }).trim().min(1, IDENTITY_MESSAGES.notesRequired).max(2000),
  approverSignature: z.string().trim().max(200).optional(),
})

export interface IdentityReviewView {
  documentType: DocumentType
  documentNumber: string
  issuingAuthority: string
  expirationDate: string
  beneficiaryName: string
  ownerName: string
  approverName: string
  status: (typeof IDENTITY_STATUSES)[number]
  hasBack: boolean
  frontContentType: string
  backContentType: string | null
  alreadyReviewed: boolean
}

const SIGNATURES: Array<{ type: (typeof ID_DOCUMENT_MIME_TYPES)[number]; bytes: number[] }> = [
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
]

/**
 * A document's real type from its first bytes (at least 8), or null when it is none of the
 * accepted ones. The browser checks before uploading and the server again; neither trusts the
 * file's name or claimed type.
 */
export function sniffDocumentType(head: Uint8Array): (typeof ID_DOCUMENT_MIME_TYPES)[number] | null {
  return SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b))?.type ?? null
}
