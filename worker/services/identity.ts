import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import {
  DOCUMENT_TYPE_LABELS,
  ID_DOCUMENT_MAX_BYTES,
  IDENTITY_MESSAGES,
  sniffDocumentType,
  type DocumentType,
  type IdentityDocument,
  type IdentityReviewView,
} from '../../contract/identity'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import type { Db } from '../db/client'
import { inSlices } from '../db/in-slices'
import {
  approvers,
  beneficiaries,
  identityDocuments,
  identityReviews,
  policies,
  policyBeneficiaries,
  users,
  type ApproverRow,
  type IdentityDocumentRow,
  type UserRow,
} from '../db/schema'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import { sendEmail } from '../mail'
import { identityReviewRequestEmail } from '../mail/templates'
import { signLinkToken, verifyLinkToken } from './link-tokens'

type Ctx = Pick<ExecutionContext, 'waitUntil'>

async function checkedFile(file: File): Promise<{ bytes: ArrayBuffer; contentType: string }> {
  if (file.size > ID_DOCUMENT_MAX_BYTES) throw new ApiError(413, `${IDENTITY_MESSAGES.fileTooLargeTitle}: ${IDENTITY_MESSAGES.fileTooLarge}`)
  const bytes = await file.arrayBuffer()
  const contentType = sniffDocumentType(new Uint8Array(bytes, 0, Math.min(8, bytes.byteLength)))
  if (!contentType) throw badRequest(`${IDENTITY_MESSAGES.invalidFileTypeTitle}: ${IDENTITY_MESSAGES.invalidFileType}`)
  return { bytes, contentType }
}

/**
 * Who reviews a beneficiary's document, and how many approvals it needs: the approvers named by
 * the owner's active policies that require identity verification for this beneficiary (all the
 * owner's approvers when none are named), and the largest minimum those policies ask for, but
 * never more than there are reviewers.
 */
export async function reviewersFor(db: Db, ownerId: string, beneficiaryId: string): Promise<{ reviewers: ApproverRow[]; required: number }> {
  const rules = await db
    .select({ named: policies.identityVerificationApprovers, minimum: policies.minimumApprovals })
    .from(policies)
    .innerJoin(policyBeneficiaries, eq(policyBeneficiaries.policyId, policies.id))
    .where(
      and(
        eq(policies.ownerId, ownerId),
        eq(policies.status, 'active'),
        eq(policies.requiresIdentityVerification, true),
        eq(policyBeneficiaries.beneficiaryId, beneficiaryId),
      ),
    )
  const named = [...new Set(rules.flatMap((r) => r.named))]
  const reviewers = named.length
    ? await inSlices(named, (slice) => db.select().from(approvers).where(and(eq(approvers.ownerId, ownerId), inArray(approvers.id, slice))))
    : await db.select().from(approvers).where(eq(approvers.ownerId, ownerId))
  if (reviewers.length === 0) throw conflict(IDENTITY_MESSAGES.noApprovers)
  const minimum = Math.max(1, ...rules.map((r) => r.minimum))
  return { reviewers, required: Math.min(minimum, reviewers.length) }
}

export interface DocumentUpload {
  documentType: DocumentType
  documentNumber: string
  issuingAuthority: string
  expirationDate: string
  front: File
  back?: File
}

/** Stores the document (front and optional back) in R2 and asks each reviewer, by e-mail, to review it. */
export async function submitDocument(
  db: Db,
  env: Env,
  ctx: Ctx,
  owner: UserRow,
  beneficiaryId: string,
  upload: DocumentUpload,
  now = Date.now(),
): Promise<IdentityDocument> {
  const beneficiary = await db.query.beneficiaries.findFirst({
    where: and(eq(beneficiaries.id, beneficiaryId), eq(beneficiaries.ownerId, owner.id)),
  })
  if (!beneficiary) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  const { reviewers, required } = await reviewersFor(db, owner.id, beneficiaryId)
  const front = await checkedFile(upload.front)
  const back = upload.back ? await checkedFile(upload.back) : null

  const id = crypto.randomUUID()
  const prefix = `identity/${owner.id}/${id}`
  await env.BLOBS.put(`${prefix}/front`, front.bytes, { httpMetadata: { contentType: front.contentType } })
  if (back) await env.BLOBS.put(`${prefix}/back`, back.bytes, { httpMetadata: { contentType: back.contentType } })
  const [[row]] = await db.batch([
    db
      .insert(identityDocuments)
      .values({
        id,
        ownerId: owner.id,
        beneficiaryId,
        documentType: upload.documentType,
        documentNumber: upload.documentNumber,
        issuingAuthority: upload.issuingAuthority,
        expirationDate: upload.expirationDate,
        frontKey: `${prefix}/front`,
        frontContentType: front.contentType,
        backKey: back ? `${prefix}/back` : null,
        backContentType: back?.contentType ?? null,
        status: 'pending',
        requiredApprovals: required,
        submittedAt: now,
      })
      .returning(),
    db.update(beneficiaries).set({ identityStatus: 'pending', updatedAt: now }).where(eq(beneficiaries.id, beneficiaryId)),
  ])
  for (const approver of reviewers) {
    const token = await signLinkToken(env, 'identityReview', `${id}:${approver.id}`)
    await sendEmail(env, ctx, db, {
      to: approver.email,
      kind: 'identity_review_request',
      ...identityReviewRequestEmail({
        approverName: approver.fullName,
        ownerName: owner.displayName,
        beneficiaryName: beneficiary.fullName,
        documentLabel: DOCUMENT_TYPE_LABELS[upload.documentType],
        reviewUrl: `${env.APP_ORIGIN}/review-identity?token=${encodeURIComponent(token)}`,
      }),
    })
  }
  return toIdentityDocument(row!, [])
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

export async function listDocuments(db: Db, ownerId: string, beneficiaryId: string): Promise<IdentityDocument[]> {
  const beneficiary = await db.query.beneficiaries.findFirst({
    where: and(eq(beneficiaries.id, beneficiaryId), eq(beneficiaries.ownerId, ownerId)),
  })
  if (!beneficiary) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  const rows = await db
    .select()
    .from(identityDocuments)
    .where(and(eq(identityDocuments.beneficiaryId, beneficiaryId), eq(identityDocuments.ownerId, ownerId)))
    .orderBy(desc(identityDocuments.submittedAt))
  if (rows.length === 0) return []
  const reviews = await db
    .select({ documentId: identityReviews.documentId, approverName: approvers.fullName, status: identityReviews.status, notes: identityReviews.notes, createdAt: identityReviews.createdAt })
    .from(identityReviews)
    .innerJoin(approvers, eq(approvers.id, identityReviews.approverId))
    .innerJoin(
      identityDocuments,
      and(eq(identityDocuments.id, identityReviews.documentId), eq(identityDocuments.beneficiaryId, beneficiaryId), eq(identityDocuments.ownerId, ownerId)),
    )
  return rows.map((r) =>
    toIdentityDocument(
      r,
      reviews
        .filter((v) => v.documentId === r.id)
        .map((v) => ({ approverName: v.approverName, status: v.status, notes: v.notes, createdAt: new Date(v.createdAt).toISOString() })),
    ),
  )
}

export async function ownerDocumentFile(db: Db, env: Pick<Env, 'BLOBS'>, ownerId: string, id: string, side: 'front' | 'back') {
  const row = await db.query.identityDocuments.findFirst({ where: and(eq(identityDocuments.id, id), eq(identityDocuments.ownerId, ownerId)) })
  return documentFile(env, row, side)
}

async function documentFile(env: Pick<Env, 'BLOBS'>, row: IdentityDocumentRow | undefined, side: 'front' | 'back') {
  const key = side === 'front' ? row?.frontKey : row?.backKey
  const object = key ? await env.BLOBS.get(key) : null
  if (!row || !object) throw notFound(IDENTITY_MESSAGES.documentNotFound)
  return new Response(object.body, {
    headers: {
      'content-type': (side === 'front' ? row.frontContentType : row.backContentType) ?? 'application/octet-stream',
      'content-disposition': 'inline',
      'cache-control': 'no-store',
    },
  })
}

/** The document and approver a review link names, or a 4xx for a bad, expired or stale link. */
async function reviewTarget(db: Db, env: Env, token: string) {
  const link = await verifyLinkToken(env, 'identityReview', token)
  if (!link.ok) throw badRequest(link.reason === 'expired' ? CIRCLE_MESSAGES.linkExpired : CIRCLE_MESSAGES.linkInvalid)
  const [documentId, approverId] = link.subject.split(':')
  const [found] = await db
    .select({ document: identityDocuments, approver: approvers, beneficiaryName: beneficiaries.fullName, ownerName: users.displayName })
    .from(identityDocuments)
    .innerJoin(approvers, and(eq(approvers.id, approverId ?? ''), eq(approvers.ownerId, identityDocuments.ownerId)))
    .innerJoin(beneficiaries, eq(beneficiaries.id, identityDocuments.beneficiaryId))
    .innerJoin(users, eq(users.id, identityDocuments.ownerId))
    .where(eq(identityDocuments.id, documentId ?? ''))
    .limit(1)
  if (!found) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
  return found
}

export async function reviewView(db: Db, env: Env, token: string): Promise<IdentityReviewView> {
  const { document, approver, beneficiaryName, ownerName } = await reviewTarget(db, env, token)
  const previous = await db.query.identityReviews.findFirst({
    where: and(eq(identityReviews.documentId, document.id), eq(identityReviews.approverId, approver.id)),
  })
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

export async function reviewerDocumentFile(db: Db, env: Env, token: string, side: 'front' | 'back') {
  const { document } = await reviewTarget(db, env, token)
  return documentFile(env, document, side)
}

/** A recorded review: the document's status after it, and whose chain the review belongs to. */
export interface ReviewOutcome {
  status: IdentityDocument['status']
  ownerId: string
  documentId: string
  beneficiaryId: string
  approverId: string
}

/**
 * Records one approver's decision. A rejection decides the document at once (with the notes as
 * the reason); approvals decide it when they reach the required number. Both decisions are single
 * conditional statements, so concurrent reviews cannot decide it twice or differently.
 */
export async function submitReview(
  db: Db,
  env: Env,
  body: { token: string; status: 'approved' | 'rejected'; verificationNotes: string; approverSignature?: string },
  now = Date.now(),
): Promise<ReviewOutcome> {
  const { document, approver } = await reviewTarget(db, env, body.token)
  if (document.status !== 'pending') throw conflict(IDENTITY_MESSAGES.alreadyDecided)
  const inserted = await db
    .insert(identityReviews)
    .values({
      documentId: document.id,
      approverId: approver.id,
      status: body.status,
      notes: body.verificationNotes,
      signature: body.approverSignature ?? null,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ documentId: identityReviews.documentId })
  if (inserted.length === 0) throw conflict(IDENTITY_MESSAGES.alreadyReviewed)

  const decided =
    body.status === 'rejected'
      ? await db
          .update(identityDocuments)
          .set({ status: 'rejected', rejectionReason: body.verificationNotes, decidedAt: now })
          .where(and(eq(identityDocuments.id, document.id), eq(identityDocuments.status, 'pending')))
          .returning({ status: identityDocuments.status })
      : await db
          .update(identityDocuments)
          .set({ status: 'verified', decidedAt: now })
          .where(
            and(
              eq(identityDocuments.id, document.id),
              eq(identityDocuments.status, 'pending'),
              sql`(select count(*) from ${identityReviews} where ${identityReviews.documentId} = ${document.id} and ${identityReviews.status} = 'approved') >= ${identityDocuments.requiredApprovals}`,
            ),
          )
          .returning({ status: identityDocuments.status })
  const status = decided[0]?.status ?? 'pending'
  if (status !== 'pending') {
    await db
      .update(beneficiaries)
      .set({ identityStatus: status === 'verified' ? 'verified' : 'rejected', updatedAt: now })
      .where(eq(beneficiaries.id, document.beneficiaryId))
  }
  return { status, ownerId: document.ownerId, documentId: document.id, beneficiaryId: document.beneficiaryId, approverId: approver.id }
}
