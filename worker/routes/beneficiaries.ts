import { Hono } from 'hono'
import { z } from 'zod'
import {
  beneficiaryCreateBodySchema,
  beneficiaryKeySignatureBodySchema,
  beneficiaryRotateKeyBodySchema,
  beneficiaryUpdateBodySchema,
  CIRCLE_MESSAGES,
  rotationCommitBodySchema,
  rotationGrantsBodySchema,
  rotationStartBodySchema,
} from '../../contract/circle'
import { badRequest } from '../lib/errors'
import { validate } from '../lib/validate'
import { grantsBodyLimit, jsonBodyLimit } from '../middleware/body-limit'
import { requireUser } from '../middleware/auth'
import { requireFreshProof } from '../middleware/fresh-proof'
import { requireSubscription } from '../middleware/subscription'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ask } from '../owner/outcome'
import { inspectBeneficiaryPublicKey } from '../services/public-keys'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(CIRCLE_MESSAGES.beneficiaryNotFound) })
const rotationParam = idParam.extend({ rotationId: z.uuid(CIRCLE_MESSAGES.rotationNotFound) })

async function checkedKey(publicKey: string) {
  const key = await inspectBeneficiaryPublicKey(publicKey)
  if (!key) throw badRequest(`publicKey: ${CIRCLE_MESSAGES.publicKeyInvalid}`)
  return { publicKey, fingerprint: key.fingerprint }
}

/** The owner's beneficiaries (seeds 001 §7), kept in the signed-in owner's own object. */
export const beneficiaryRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .get('/', async (c) => c.json(await ask(vaultOf(c).circle().listBeneficiaries())))
  .post('/', jsonBodyLimit, validate('json', beneficiaryCreateBodySchema), async (c) => {
    const { privateKey: _refused, verified: _ignored, sendVerificationEmail, statementSequence, ...body } = c.req.valid('json')
    const key = await checkedKey(body.publicKey)
    const created = await ask(vaultOf(c).circle().createBeneficiary(accountIn(c), { ...body, publicKeyFingerprint: key.fingerprint }, statementSequence, sendVerificationEmail ?? false))
    return c.json(created, 201)
  })
  .put('/:id', jsonBodyLimit, validate('param', idParam), validate('json', beneficiaryUpdateBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).circle().updateBeneficiary(accountIn(c), c.req.valid('param').id, c.req.valid('json')))),
  )
  .post('/:id/resend-verification', jsonBodyLimit, validate('param', idParam), async (c) =>
    c.json(await ask(vaultOf(c).circle().resendBeneficiaryVerification(accountIn(c), c.req.valid('param').id))),
  )
  .post('/:id/rotate-key', jsonBodyLimit, validate('param', idParam), validate('json', beneficiaryRotateKeyBodySchema), async (c) => {
    const { publicKey, keySignature, grants, replacesKeyVersion, statementSequence, grantsSignature } = c.req.valid('json')
    const key = { ...(await checkedKey(publicKey)), keySignature, replacesKeyVersion }
    return c.json(await ask(vaultOf(c).circle().rotateBeneficiaryKey(accountIn(c), c.req.valid('param').id, key, grants, { statementSequence, grantsSignature })))
  })
  // The same in pages, for more grants than one request holds: start, grants, commit.
  .post('/:id/rotations', jsonBodyLimit, validate('param', idParam), validate('json', rotationStartBodySchema), async (c) => {
    const { publicKey, keySignature, replacesKeyVersion, statementSequence } = c.req.valid('json')
    const key = { ...(await checkedKey(publicKey)), keySignature, replacesKeyVersion }
    return c.json(await ask(vaultOf(c).circle().startKeyRotation(accountIn(c), c.req.valid('param').id, key, statementSequence)), 201)
  })
  .put('/:id/rotations/:rotationId/grants', grantsBodyLimit, validate('param', rotationParam), validate('json', rotationGrantsBodySchema), async (c) => {
    const { id, rotationId } = c.req.valid('param')
    return c.json(await ask(vaultOf(c).circle().addRotationGrants(id, rotationId, c.req.valid('json').grants)))
  })
  .post('/:id/rotations/:rotationId/commit', jsonBodyLimit, validate('param', rotationParam), validate('json', rotationCommitBodySchema), async (c) => {
    const { id, rotationId } = c.req.valid('param')
    return c.json(await ask(vaultOf(c).circle().commitKeyRotation(accountIn(c), id, rotationId, c.req.valid('json').grantsSignature)))
  })
  .post('/:id/key-signature', jsonBodyLimit, validate('param', idParam), validate('json', beneficiaryKeySignatureBodySchema), async (c) => {
    const { keySignature, statementSequence } = c.req.valid('json')
    return c.json(await ask(vaultOf(c).circle().signBeneficiaryKey(accountIn(c), c.req.valid('param').id, keySignature, statementSequence)))
  })
  .delete('/:id', requireFreshProof, validate('param', idParam), async (c) => {
    await ask(vaultOf(c).circle().deleteBeneficiary(accountIn(c), c.req.valid('param').id))
    return c.json({ message: 'Beneficiary removed.' })
  })
