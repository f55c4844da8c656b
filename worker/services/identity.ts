import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import {
  acceptedDocumentsText,
  acceptedDocumentTypes,
  DOCUMENT_TYPE_LABELS,
  ID_DOCUMENT_MAX_BYTES,
  IDENTITY_MESSAGES,
  sniffDocumentType,
  type DocumentType,
  type IdentityDocument,
  type IdentityReviewView,
} from '../../contract/identity'
import { advanceReleases } from '../engine/advance'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import { identityRejectedEmail, identityReviewRequestEmail } from '../mail/templates'
import { inSlices, type OwnerDb } from '../owner/db'
import {
  approvers,
  beneficiaries,
  identityDocuments,
  identityReviews,
  policies,
  policyBeneficiaries,
  type ApproverRow,
  type IdentityDocumentRow,
} from '../owner/schema'
import type { Unit } from '../owner/unit'

// Identity documents and their reviews, run inside the owner's object (the files are in R2).

export interface DocumentFile {
  bytes: ArrayBuffer
  contentType: string
}

/** A file as uploaded, checked for its size and its real type (by its first bytes). */
export async function readDocumentFile(file: File): Promise<DocumentFile> {
  if (file.size > ID_DOCUMENT_MAX_BYTES) throw new ApiError(413, `${IDENTITY_MESSAGES.fileTooLargeTitle}: ${IDENTITY_MESSAGES.fileTooLarge}`)
  const bytes = await file.arrayBuffer()
  const contentType = sniffDocumentType(new Uint8Array(bytes, 0, Math.min(8, bytes.byteLength)))
  if (!contentType) throw badRequest(`${IDENTITY_MESSAGES.invalidFileTypeTitle}: ${IDENTITY_MESSAGES.invalidFileType}`)
  return { bytes, contentType }
}

export interface DocumentFields {
  documentType: DocumentType
  documentNumber: string
  issuingAuthority: string
  expirationDate: string
}

export const identityBlobPrefix = (ownerId: string, documentId: string) => `identity/${ownerId}/${documentId}`

/**
 * Who reviews a beneficiary's document, and how many approvals it needs: the approvers named by
 * the owner's active policies that require identity verification for this beneficiary (all the
 * owner's approvers when none are named), and the largest minimum those policies ask for, but
 * never more than there are reviewers. Only verified approvers are asked (`reviewers`); the others
 * (`waiting`) are asked when they verify their address.
 */
export function reviewersFor(db: OwnerDb, beneficiaryId: string): { reviewers: ApproverRow[]; waiting: ApproverRow[]; required: number } {
  const rules = db
    .select({ named: policies.identityVerificationApprovers, minimum: policies.minimumApprovals })
    .from(policies)
    .innerJoin(policyBeneficiaries, eq(policyBeneficiaries.policyId, policies.id))
    .where(and(eq(policies.status, 'active'), eq(policies.requiresIdentityVerification, true), eq(policyBeneficiaries.beneficiaryId, beneficiaryId)))
    .all()
  const named = [...new Set(rules.flatMap((r) => r.named))]
  const reviewers = named.length
    ? inSlices(named, (slice) => db.select().from(approvers).where(inArray(approvers.id, slice)).all())
    : db.select().from(approvers).all()
  if (reviewers.length === 0) throw conflict(IDENTITY_MESSAGES.noApprovers)
  const minimum = Math.max(1, ...rules.map((r) => r.minimum))
  return {
    reviewers: reviewers.filter((a) => a.emailVerifiedAt !== null),
    waiting: reviewers.filter((a) => a.emailVerifiedAt === null),
    required: Math.min(minimum, reviewers.length),
  }
}

/** What this beneficiary's identity can be verified with, from their active policies (null: any type). */
export function acceptedTypesFor(db: OwnerDb, beneficiaryId: string): DocumentType[] | null {
  const lists = db
    .select({ types: policies.requiredDocumentTypes })
    .from(policies)
    .innerJoin(policyBeneficiaries, eq(policyBeneficiaries.policyId, policies.id))
    .where(and(eq(policies.status, 'active'), eq(policies.requiresIdentityVerification, true), eq(policyBeneficiaries.beneficiaryId, beneficiaryId)))
    .all()
  return acceptedDocumentTypes(lists.map((l) => l.types as DocumentType[]))
}

/**
 * Refuses before anything is stored: the beneficiary must be the owner's, someone must review, and
 * the document must be of a type their policies accept.
 */
export function assertDocumentAccepted(db: OwnerDb, beneficiaryId: string, documentType: DocumentType): void {
  if (!db.select({ id: beneficiaries.id }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()) {
    throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  }
  reviewersFor(db, beneficiaryId)
  const accepted = acceptedTypesFor(db, beneficiaryId)
  if (accepted && !accepted.includes(documentType)) throw badRequest(IDENTITY_MESSAGES.typeNotAccepted(acceptedDocumentsText(accepted)))
}

/**
 * Records a document whose files the object has put in R2 (`keys`), marks the beneficiary's
 * identity pending and asks each reviewer, by e-mail, through a link of their own.
 */
export function recordDocument(
  u: Unit,
  documentId: string,
  beneficiaryId: string,
  fields: DocumentFields,
  files: { front: { key: string; contentType: string }; back: { key: string; contentType: string } | null },
): IdentityDocument {
  const { db, now } = u
  const beneficiary = db.select().from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!beneficiary) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  const { reviewers, required } = reviewersFor(db, beneficiaryId)
  const row = db
    .insert(identityDocuments)
    .values({
      id: documentId,
      beneficiaryId,
      ...fields,
      frontKey: files.front.key,
      frontContentType: files.front.contentType,
      backKey: files.back?.key ?? null,
      backContentType: files.back?.contentType ?? null,
      status: 'pending',
      requiredApprovals: required,
      submittedAt: now,
    })
    .returning()
    .get()!
  db.update(beneficiaries).set({ identityStatus: 'pending', updatedAt: now }).where(eq(beneficiaries.id, beneficiaryId)).run()
  for (const approver of reviewers) askForReview(u, row, beneficiary.fullName, approver)
  return toIdentityDocument(row, [])
}

function askForReview(u: Unit, document: IdentityDocumentRow, beneficiaryName: string, approver: ApproverRow): void {
  u.mail(approver.email, 'identity_review_request', identityReviewRequestEmail({
    approverName: approver.fullName,
    ownerName: u.account.displayName,
    beneficiaryName,
    documentLabel: DOCUMENT_TYPE_LABELS[document.documentType as DocumentType],
    reviewUrl: u.signedLink('/review-identity', 'identityReview', `${document.id}:${approver.id}`),
  }))
}

/** An approver just verified: the documents waiting that they are to review are sent to them now. */
export function sendWaitingReviews(u: Unit, approverId: string): number {
  const pending = u.db
    .select({ document: identityDocuments, beneficiaryName: beneficiaries.fullName })
    .from(identityDocuments)
    .innerJoin(beneficiaries, eq(beneficiaries.id, identityDocuments.beneficiaryId))
    .where(eq(identityDocuments.status, 'pending'))
    .all()
  let sent = 0
  for (const { document, beneficiaryName } of pending) {
    const { reviewers } = reviewersFor(u.db, document.beneficiaryId)
    const approver = reviewers.find((a) => a.id === approverId)
    const reviewed = u.db
      .select({ at: identityReviews.createdAt })
      .from(identityReviews)
      .where(and(eq(identityReviews.documentId, document.id), eq(identityReviews.approverId, approverId)))
      .get()
    if (!approver || reviewed) continue
    askForReview(u, document, beneficiaryName, approver)
    sent++
  }
  return sent
}

function toIdentityDocument(row: IdentityDocumentRow, reviews: IdentityDocument['reviews']): IdentityDocument {
  return {
    id: row.id,
    beneficiaryId: row.beneficiaryId,
    documentType: row.documentType as DocumentType,
    documentNumber: row.documentNumber,
    issuingAuthority: row.issuingAuthority,
    expirationDate: row.expirationDate,
    status: row.status,
    submittedAt: new Date(row.submittedAt).toISOString(),
    decidedAt: row.decidedAt ? new Date(row.decidedAt).toISOString() : null,
    rejectionReason: row.rejectionReason,
    hasBack: row.backKey !== null,
    requiredApprovals: row.requiredApprovals,
    reviews,
  }
}

export function listDocuments(db: OwnerDb, beneficiaryId: string): IdentityDocument[] {
  if (!db.select({ id: beneficiaries.id }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()) {
    throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  }
  const rows = db.select().from(identityDocuments).where(eq(identityDocuments.beneficiaryId, beneficiaryId)).orderBy(desc(identityDocuments.submittedAt)).all()
  if (rows.length === 0) return []
  const reviews = db
    .select({ documentId: identityReviews.documentId, approverName: approvers.fullName, status: identityReviews.status, notes: identityReviews.notes, createdAt: identityReviews.createdAt })
    .from(identityReviews)
    .innerJoin(approvers, eq(approvers.id, identityReviews.approverId))
    .innerJoin(identityDocuments, and(eq(identityDocuments.id, identityReviews.documentId), eq(identityDocuments.beneficiaryId, beneficiaryId)))
    .all()
  return rows.map((r) =>
    toIdentityDocument(
      r,
      reviews
        .filter((v) => v.documentId === r.id)
        .map((v) => ({ approverName: v.approverName, status: v.status, notes: v.notes, createdAt: new Date(v.createdAt).toISOString() })),
    ),
  )
}

export interface StoredFile {
  key: string
  contentType: string
}

function fileOf(row: IdentityDocumentRow | undefined, side: 'front' | 'back'): StoredFile {
  const key = side === 'front' ? row?.frontKey : row?.backKey
  const contentType = side === 'front' ? row?.frontContentType : row?.backContentType
  if (!row || !key) throw notFound(IDENTITY_MESSAGES.documentNotFound)
  return { key, contentType: contentType ?? 'application/octet-stream' }
}

export function documentFile(db: OwnerDb, documentId: string, side: 'front' | 'back'): StoredFile {
  return fileOf(db.select().from(identityDocuments).where(eq(identityDocuments.id, documentId)).get(), side)
}

/** The document and approver a review link names, or 400 for a link whose document or approver is gone. */
function reviewTarget(db: OwnerDb, documentId: string, approverId: string) {
  const found = db
    .select({ document: identityDocuments, approver: approvers, beneficiaryName: beneficiaries.fullName })
    .from(identityDocuments)
    .innerJoin(approvers, eq(approvers.id, approverId))
    .innerJoin(beneficiaries, eq(beneficiaries.id, identityDocuments.beneficiaryId))
    .where(eq(identityDocuments.id, documentId))
    .get()
  // Review links go only to verified approvers: one reaching anyone else is not ours.
  if (!found || found.approver.emailVerifiedAt === null) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
  return found
}

export function reviewView(db: OwnerDb, ownerName: string, documentId: string, approverId: string): IdentityReviewView {
  const { document, approver, beneficiaryName } = reviewTarget(db, documentId, approverId)
  const previous = db
    .select({ at: identityReviews.createdAt })
    .from(identityReviews)
    .where(and(eq(identityReviews.documentId, document.id), eq(identityReviews.approverId, approver.id)))
    .get()
  return {
    documentType: document.documentType as DocumentType,
    documentNumber: document.documentNumber,
    issuingAuthority: document.issuingAuthority,
    expirationDate: document.expirationDate,
    beneficiaryName,
    ownerName,
    approverName: approver.fullName,
    status: document.status,
    hasBack: document.backKey !== null,
    frontContentType: document.frontContentType,
    backContentType: document.backContentType,
    alreadyReviewed: !!previous,
  }
}

export function reviewerDocumentFile(db: OwnerDb, documentId: string, approverId: string, side: 'front' | 'back'): StoredFile {
  return fileOf(reviewTarget(db, documentId, approverId).document, side)
}

/**
 * Records one approver's decision. A rejection decides the document at once (with the notes as
 * the reason); approvals decide it when they reach the required number. A verified beneficiary's
 * assets that waited on identity open in the same act.
 */
export function submitReview(
  u: Unit,
  documentId: string,
  approverId: string,
  body: { status: 'approved' | 'rejected'; verificationNotes: string; approverSignature?: string },
): IdentityDocument['status'] {
  const { db, now } = u
  const { document, approver, beneficiaryName } = reviewTarget(db, documentId, approverId)
  if (document.status !== 'pending') throw conflict(IDENTITY_MESSAGES.alreadyDecided)
  // The policies may have changed since the upload: a type they no longer accept cannot pass.
  const accepted = acceptedTypesFor(db, document.beneficiaryId)
  const type = document.documentType as DocumentType
  if (body.status === 'approved' && accepted && !accepted.includes(type)) {
    throw conflict(IDENTITY_MESSAGES.approveTypeNotAccepted(DOCUMENT_TYPE_LABELS[type], acceptedDocumentsText(accepted)))
  }
  const inserted = db
    .insert(identityReviews)
    .values({ documentId, approverId, status: body.status, notes: body.verificationNotes, signature: body.approverSignature ?? null, createdAt: now })
    .onConflictDoNothing()
    .returning({ documentId: identityReviews.documentId })
    .get()
  if (!inserted) throw conflict(IDENTITY_MESSAGES.alreadyReviewed)
  const approvals = db
    .select({ n: sql<number>`count(*)` })
    .from(identityReviews)
    .where(and(eq(identityReviews.documentId, documentId), eq(identityReviews.status, 'approved')))
    .get()?.n ?? 0
  const status: IdentityDocument['status'] = body.status === 'rejected' ? 'rejected' : approvals >= document.requiredApprovals ? 'verified' : 'pending'
  if (status !== 'pending') {
    db.update(identityDocuments)
      .set({ status, decidedAt: now, ...(status === 'rejected' ? { rejectionReason: body.verificationNotes } : {}) })
      .where(eq(identityDocuments.id, documentId))
      .run()
    db.update(beneficiaries).set({ identityStatus: status, updatedAt: now }).where(eq(beneficiaries.id, document.beneficiaryId)).run()
  }
  // The approver's act, in the owner's chain: the decision and the document's status, not the notes.
  u.audit({
    actor: 'approver',
    action: 'circle.identity_reviewed',
    details: { documentId, beneficiaryId: document.beneficiaryId, approverId: approver.id, decision: body.status, status },
  })
  if (status === 'rejected') tellRejected(u, document.beneficiaryId, beneficiaryName, body.verificationNotes, accepted)
  if (status === 'verified') advanceReleases(u)
  return status
}

/** The heir hears of a rejection: the approver's note, what to send instead, and their portal link to send it. */
function tellRejected(u: Unit, beneficiaryId: string, fullName: string, reason: string, accepted: DocumentType[] | null): void {
  const b = u.db.select({ email: beneficiaries.email }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!b) return
  u.mail(b.email, 'identity_rejected', identityRejectedEmail({
    fullName,
    ownerName: u.account.displayName,
    reason,
    accepted: accepted ? acceptedDocumentsText(accepted) : null,
    portalUrl: u.signedLink('/beneficiary-portal', 'beneficiaryAccess', beneficiaryId, { id: beneficiaryId, view: 'assets' }),
  }))
}
