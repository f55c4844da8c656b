import { Hono } from 'hono'
import { z } from 'zod'
import { approverFormSchema, CIRCLE_MESSAGES } from '../../contract/circle'
import { validate } from '../lib/validate'
import { TRUST_DETAILS } from '../mail/trust-templates'
import { assertFreshProof } from '../middleware/fresh-proof'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ask } from '../owner/outcome'
import { tellOwner } from '../services/trust-mail'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(CIRCLE_MESSAGES.approverNotFound) })

export const approverRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json(await ask(vaultOf(c).circle().listApprovers())))
  // A trust change: once verified, an approver can fire a Verified Death trigger and sign off releases.
  .post('/', validate('json', approverFormSchema), async (c) => {
    await assertFreshProof(c)
    const { sendVerificationEmail, ...body } = c.req.valid('json')
    const approver = await ask(vaultOf(c).circle().createApprover(accountIn(c), body, sendVerificationEmail ?? false))
    await tellOwner(c, c.var.account, 'approver_added', { detail: TRUST_DETAILS.approverNamed(approver.fullName, approver.email) })
    return c.json(approver, 201)
  })
  .post('/:id/resend-verification', validate('param', idParam), async (c) =>
    c.json(await ask(vaultOf(c).circle().resendApproverVerification(accountIn(c), c.req.valid('param').id))),
  )
  .delete('/:id', validate('param', idParam), async (c) => {
    await ask(vaultOf(c).circle().deleteApprover(accountIn(c), c.req.valid('param').id))
    return c.json({ message: 'Approver removed.' })
  })
