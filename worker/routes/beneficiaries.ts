import { Hono } from 'hono'
import { z } from 'zod'
import { beneficiaryCreateBodySchema, beneficiaryRotateKeyBodySchema, beneficiaryUpdateBodySchema, CIRCLE_MESSAGES } from '../../contract/circle'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { jsonBodyLimit } from '../middleware/body-limit'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { audit } from '../services/audit'
import {
  beneficiaryLimit,
  createBeneficiary,
  deleteBeneficiary,
  findBeneficiary,
  listBeneficiaries,
  rotateBeneficiaryKey,
  rotateVerificationNonce,
  toBeneficiary,
  updateBeneficiary,
} from '../services/beneficiaries'
import { sendBeneficiaryInvitation } from '../services/invitations'
import { inspectBeneficiaryPublicKey } from '../services/public-keys'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(CIRCLE_MESSAGES.beneficiaryNotFound) })
const UPDATABLE_FIELDS = ['fullName', 'email', 'relationship', 'sendAssetNotifications', 'delayNotifications'] as const

/** The owner's beneficiaries (seeds 001 §7). Every query is scoped by the signed-in owner. */
export const beneficiaryRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json((await listBeneficiaries(c.var.db, c.var.user.id)).map(toBeneficiary)))
  .post('/', validate('json', beneficiaryCreateBodySchema), async (c) => {
    const { privateKey: _refused, verified: _ignored, sendVerificationEmail, ...body } = c.req.valid('json')
    const key = await inspectBeneficiaryPublicKey(body.publicKey)
    if (!key) throw badRequest(`publicKey: ${CIRCLE_MESSAGES.publicKeyInvalid}`)
    const owner = c.var.user
    const result = await createBeneficiary(c.var.db, owner, { ...body, publicKeyFingerprint: key.fingerprint })
    if (!result.ok) {
      if (result.reason === 'duplicate') throw conflict(CIRCLE_MESSAGES.duplicateBeneficiary)
      throw new ApiError(402, CIRCLE_MESSAGES.beneficiaryLimit(beneficiaryLimit(owner) ?? 0))
    }
    const verificationEmailSent = sendVerificationEmail
      ? await sendBeneficiaryInvitation(c.env, c.executionCtx, c.var.db, owner, result.row)
      : false
    await audit(c, 'circle.beneficiary_added', { beneficiaryId: result.row.id, verificationEmailSent })
    return c.json({ ...toBeneficiary(result.row), verificationEmailSent }, 201)
  })
  .put('/:id', validate('param', idParam), validate('json', beneficiaryUpdateBodySchema), async (c) => {
    const { id } = c.req.valid('param')
    const body = c.req.valid('json')
    const result = await updateBeneficiary(c.var.db, c.var.user.id, id, body)
    if (!result.ok) {
      if (result.reason === 'duplicate') throw conflict(CIRCLE_MESSAGES.duplicateBeneficiary)
      throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
    }
    // A changed address must prove itself again: a fresh link goes to the new address.
    const verificationEmailSent = result.emailChanged
      ? await sendBeneficiaryInvitation(c.env, c.executionCtx, c.var.db, c.var.user, result.row)
      : false
    // Which fields changed, by name only: the values are the beneficiary's own details.
    const fields = UPDATABLE_FIELDS.filter((f) => (f === 'email' ? result.emailChanged : body[f] !== undefined))
    await audit(c, 'circle.beneficiary_updated', { beneficiaryId: id, fields: fields.join(','), verificationEmailSent })
    return c.json({ ...toBeneficiary(result.row), verificationEmailSent })
  })
  .post('/:id/resend-verification', validate('param', idParam), async (c) => {
    const { id } = c.req.valid('param')
    const current = await findBeneficiary(c.var.db, c.var.user.id, id)
    if (!current) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
    if (current.emailVerifiedAt !== null) throw conflict(CIRCLE_MESSAGES.alreadyVerified)
    if (current.notificationStatus === 'unsubscribed') throw conflict(CIRCLE_MESSAGES.unsubscribed)
    const row = await rotateVerificationNonce(c.var.db, c.var.user.id, id)
    if (!row) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
    const verificationEmailSent = await sendBeneficiaryInvitation(c.env, c.executionCtx, c.var.db, c.var.user, row)
    await audit(c, 'circle.verification_resent', { beneficiaryId: id, verificationEmailSent })
    return c.json({ ...toBeneficiary(row), verificationEmailSent })
  })
  .post('/:id/rotate-key', validate('param', idParam), validate('json', beneficiaryRotateKeyBodySchema), async (c) => {
    const { id } = c.req.valid('param')
    const { publicKey, grants } = c.req.valid('json')
    const key = await inspectBeneficiaryPublicKey(publicKey)
    if (!key) throw badRequest(`publicKey: ${CIRCLE_MESSAGES.publicKeyInvalid}`)
    const result = await rotateBeneficiaryKey(c.var.db, c.var.user.id, id, publicKey, key.fingerprint, grants)
    if (!result.ok) {
      if (result.reason === 'not_found') throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
      throw conflict(CIRCLE_MESSAGES.rotationIncomplete)
    }
    await audit(c, 'circle.beneficiary_key_rotated', { beneficiaryId: id, items: grants.length, keyVersion: result.row.keyVersion })
    return c.json(toBeneficiary(result.row))
  })
  .delete('/:id', validate('param', idParam), async (c) => {
    const { id } = c.req.valid('param')
    if (!(await deleteBeneficiary(c.var.db, c.var.user.id, id))) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
    await audit(c, 'circle.beneficiary_removed', { beneficiaryId: id })
    return c.json({ message: 'Beneficiary removed.' })
  })
