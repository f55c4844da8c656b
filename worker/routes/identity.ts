import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { CIRCLE_MESSAGES, linkTokenQuerySchema } from '../../contract/circle'
import { ID_DOCUMENT_MAX_BYTES, IDENTITY_MESSAGES, identityDocumentFieldsSchema, identityReviewBodySchema } from '../../contract/identity'
import { ApiError, badRequest } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireOwner } from '../middleware/subscription'
import { jsonBodyLimit, limitBody } from '../middleware/body-limit'
import { rateLimitByIp } from '../middleware/rate-limit'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ownerVault } from '../owner/client'
import { ask } from '../owner/outcome'
import { readDocumentFile, type StoredFile } from '../services/identity'
import { verifyLinkToken } from '../lib/link-tokens'
import type { AppEnv } from '../types'

export const uploadLimit = limitBody(2 * ID_DOCUMENT_MAX_BYTES + 64 * 1024, `${IDENTITY_MESSAGES.fileTooLargeTitle}: ${IDENTITY_MESSAGES.fileTooLarge}`)
const beneficiaryParam = z.object({ beneficiaryId: z.uuid(CIRCLE_MESSAGES.beneficiaryNotFound) })
const idParam = z.object({ id: z.uuid(IDENTITY_MESSAGES.documentNotFound) })
const fileParams = idParam.extend({ side: z.enum(['front', 'back']) })

/** Reads a multipart upload: the text fields through zod, the files checked for size and real type. */
export async function readIdentityUpload(c: Context<AppEnv>, fileField: string, missingMessage: string) {
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
  return {
    fields: fields.data,
    files: { front: await readDocumentFile(front), back: back ? await readDocumentFile(back) : null },
    beneficiaryId: text('beneficiaryId'),
  }
}

async function fileResponse(env: Env, file: StoredFile): Promise<Response> {
  const object = await env.BLOBS.get(file.key)
  if (!object) throw new ApiError(404, IDENTITY_MESSAGES.documentNotFound)
  return new Response(object.body, { headers: { 'content-type': file.contentType, 'content-disposition': 'inline', 'cache-control': 'no-store' } })
}

/** The owner's side: upload a beneficiary's document, list documents, view one. */
// requireOwner is attached per route: this router is mounted at /api, where a path-less use()
// would also guard every route registered after it (and turn unknown-route 404s into 401s).
export const identityOwnerRoutes = new Hono<AppEnv>()
  // The beneficiary dialog's upload (seeds 001 §7): one file named `document`.
  .post('/identity-verification/:beneficiaryId', requireOwner, uploadLimit, validate('param', beneficiaryParam), async (c) => {
    const upload = await readIdentityUpload(c, 'document', IDENTITY_MESSAGES.missingInformation)
    const document = await ask(vaultOf(c).identity().submitIdentityDocument(accountIn(c), c.req.valid('param').beneficiaryId, upload.fields, upload.files, 'owner'))
    return c.json(document, 201)
  })
  // The identity page's upload: front (required) and back (optional) images.
  .post('/identity-documents', requireOwner, uploadLimit, async (c) => {
    const upload = await readIdentityUpload(c, 'frontImage', IDENTITY_MESSAGES.frontRequired)
    const beneficiaryId = beneficiaryParam.safeParse({ beneficiaryId: upload.beneficiaryId })
    if (!beneficiaryId.success) throw badRequest(`beneficiaryId: ${IDENTITY_MESSAGES.missingInformation}`)
    const document = await ask(vaultOf(c).identity().submitIdentityDocument(accountIn(c), beneficiaryId.data.beneficiaryId, upload.fields, upload.files, 'owner'))
    return c.json(document, 201)
  })
  .get('/identity-documents/beneficiary/:beneficiaryId', requireOwner, validate('param', beneficiaryParam), async (c) =>
    c.json(await ask(vaultOf(c).identity().listIdentityDocuments(c.req.valid('param').beneficiaryId))),
  )
  .get('/identity-documents/:id/file/:side', requireOwner, validate('param', fileParams), async (c) => {
    const { id, side } = c.req.valid('param')
    return fileResponse(c.env, await ask(vaultOf(c).identity().identityDocumentFile(id, side)))
  })

const reviewLimit = rateLimitByIp('LINK_LIMITER', 'identity-review')

/** The document and approver a review link names, and the owner's object that holds them. */
async function reviewLink(env: Env, token: string) {
  const link = await verifyLinkToken(env, 'identityReview', token)
  if (!link.ok) throw badRequest(link.reason === 'expired' ? CIRCLE_MESSAGES.linkExpired : CIRCLE_MESSAGES.linkInvalid)
  const [documentId = '', approverId = ''] = link.subject.split(':')
  return { documentId, approverId, vault: ownerVault(env, link.owner) }
}

/** The approver's side, through their own signed link (no account). */
export const identityReviewRoutes = new Hono<AppEnv>()
  .get('/identity-reviews', reviewLimit, validate('query', linkTokenQuerySchema), async (c) => {
    const { documentId, approverId, vault } = await reviewLink(c.env, c.req.valid('query').token)
    return c.json(await ask(vault.identity().identityReviewView(documentId, approverId)))
  })
  .get('/identity-reviews/file/:side', reviewLimit, validate('param', z.object({ side: z.enum(['front', 'back']) })), validate('query', linkTokenQuerySchema), async (c) => {
    const { documentId, approverId, vault } = await reviewLink(c.env, c.req.valid('query').token)
    return fileResponse(c.env, await ask(vault.identity().identityReviewFile(documentId, approverId, c.req.valid('param').side)))
  })
  // Seeds 001 §7's review call, made safe: who reviews comes from the signed link, not the body.
  .post('/identity-verifications', reviewLimit, jsonBodyLimit, validate('json', identityReviewBodySchema), async (c) => {
    const { token, ...body } = c.req.valid('json')
    const { documentId, approverId, vault } = await reviewLink(c.env, token)
    const documentStatus = await ask(vault.identity().submitIdentityReview(documentId, approverId, body))
    return c.json({ message: 'Thank you: your review is recorded.', documentStatus })
  })
