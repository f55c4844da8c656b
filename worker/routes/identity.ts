import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import { ID_DOCUMENT_MAX_BYTES, IDENTITY_MESSAGES, identityDocumentFieldsSchema, identityReviewBodySchema, type IdentityDocument } from '../../contract/identity'
import { linkTokenQuerySchema } from '../../contract/circle'
import { ApiError, badRequest } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireOwner } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { rateLimitByIp } from '../middleware/rate-limit'
import { listDocuments, ownerDocumentFile, reviewerDocumentFile, reviewView, submitDocument, submitReview } from '../services/identity'
import { audit, auditOwner } from '../services/audit'
import type { AppEnv } from '../types'
import { advanceReleases } from '../engine/advance'
import { engineCtx } from '../engine/context'

export const uploadLimit = bodyLimit({
  maxSize: 2 * ID_DOCUMENT_MAX_BYTES + 64 * 1024,
  onError: () => {
    throw new ApiError(413, `${IDENTITY_MESSAGES.fileTooLargeTitle}: ${IDENTITY_MESSAGES.fileTooLarge}`)
  },
})
const beneficiaryParam = z.object({ beneficiaryId: z.uuid(CIRCLE_MESSAGES.beneficiaryNotFound) })
const idParam = z.object({ id: z.uuid(IDENTITY_MESSAGES.documentNotFound) })
const fileParams = idParam.extend({ side: z.enum(['front', 'back']) })

/** Reads a multipart upload: the text fields through zod, the files as File objects. */
export async function readUpload(c: Context<AppEnv>, fileField: string, missingMessage: string) {
  let form: Record<string, string | File | (string | File)[]>
  try {
    form = await c.req.parseBody({ all: false })
  } catch {
    throw badRequest('The request must be multipart/form-data.')
  }
  const text = (key: string) => (typeof form[key] === 'string' ? (form[key] as string) : undefined)
  const fields = identityDocumentFieldsSchema.safeParse({
    documentType: text('documentType'),
    documentNumber: text('documentNumber'),
    issuingAuthority: text('issuingAuthority'),
    expirationDate: text('expirationDate'),
  })
  if (!fields.success) {
    const issue = fields.error.issues[0]!
    throw badRequest(`${issue.path.join('.')}: ${issue.message}`)
  }
  const front = form[fileField]
  if (!(front instanceof File) || front.size === 0) throw badRequest(`${fileField}: ${missingMessage}`)
  const back = form.backImage instanceof File && form.backImage.size > 0 ? form.backImage : undefined
  return { ...fields.data, front, back, beneficiaryId: text('beneficiaryId') }
}

/** Only ids and the document's type and status: its number and authority stay out of the chain. */
function auditDocument(c: Context<AppEnv>, document: IdentityDocument) {
  return audit(c, 'circle.identity_document_submitted', {
    beneficiaryId: document.beneficiaryId,
    documentId: document.id,
    documentType: document.documentType,
    hasBack: document.hasBack,
    requiredApprovals: document.requiredApprovals,
  })
}

/** The owner's side: upload a beneficiary's document, list documents, view one. */
// requireOwner is attached per route: this router is mounted at /api, where a path-less use()
// would also guard every route registered after it (and turn unknown-route 404s into 401s).
export const identityOwnerRoutes = new Hono<AppEnv>()
  // The beneficiary dialog's upload (seeds 001 §7): one file named `document`.
  .post('/identity-verification/:beneficiaryId', requireOwner, uploadLimit, validate('param', beneficiaryParam), async (c) => {
    const upload = await readUpload(c, 'document', IDENTITY_MESSAGES.missingInformation)
    const document = await submitDocument(c.var.db, c.env, c.executionCtx, c.var.user, c.req.valid('param').beneficiaryId, upload)
    await auditDocument(c, document)
    return c.json(document, 201)
  })
  // The identity page's upload: front (required) and back (optional) images.
  .post('/identity-documents', requireOwner, uploadLimit, async (c) => {
    const upload = await readUpload(c, 'frontImage', IDENTITY_MESSAGES.frontRequired)
    const beneficiaryId = beneficiaryParam.safeParse({ beneficiaryId: upload.beneficiaryId })
    if (!beneficiaryId.success) throw badRequest(`beneficiaryId: ${IDENTITY_MESSAGES.missingInformation}`)
    const document = await submitDocument(c.var.db, c.env, c.executionCtx, c.var.user, beneficiaryId.data.beneficiaryId, upload)
    await auditDocument(c, document)
    return c.json(document, 201)
  })
  .get('/identity-documents/beneficiary/:beneficiaryId', requireOwner, validate('param', beneficiaryParam), async (c) =>
    c.json(await listDocuments(c.var.db, c.var.user.id, c.req.valid('param').beneficiaryId)),
  )
  .get('/identity-documents/:id/file/:side', requireOwner, validate('param', fileParams), async (c) => {
    const { id, side } = c.req.valid('param')
    return ownerDocumentFile(c.var.db, c.env, c.var.user.id, id, side)
  })

const reviewLimit = rateLimitByIp('LINK_LIMITER', 'identity-review')

/** The approver's side, through their own signed link (no account). */
export const identityReviewRoutes = new Hono<AppEnv>()
  .get('/identity-reviews', reviewLimit, validate('query', linkTokenQuerySchema), async (c) =>
    c.json(await reviewView(c.var.db, c.env, c.req.valid('query').token)),
  )
  .get('/identity-reviews/file/:side', reviewLimit, validate('param', z.object({ side: z.enum(['front', 'back']) })), validate('query', linkTokenQuerySchema), async (c) =>
    reviewerDocumentFile(c.var.db, c.env, c.req.valid('query').token, c.req.valid('param').side),
  )
  // Seeds 001 §7's review call, made safe: who reviews comes from the signed link, not the body.
  .post('/identity-verifications', reviewLimit, jsonBodyLimit, validate('json', identityReviewBodySchema), async (c) => {
    const review = await submitReview(c.var.db, c.env, c.req.valid('json'))
    const { status } = review
    // The approver's act, in the owner's chain: the decision and the document's status, not the notes.
    await auditOwner(
      c.env,
      review.ownerId,
      'circle.identity_reviewed',
      { documentId: review.documentId, beneficiaryId: review.beneficiaryId, approverId: review.approverId, decision: c.req.valid('json').status, status },
      'approver',
    )
    // A verified beneficiary's assets that waited on identity open now (the sweep would, later).
    if (status === 'verified') await advanceReleases(engineCtx(c.env))
    return c.json({ message: 'Thank you: your review is recorded.', documentStatus: status })
  })
