import { Hono } from 'hono'
import { z } from 'zod'
import { POLICY_MESSAGES, policyCreateBodySchema, policyItemsBodySchema, policyStatusBodySchema } from '../../contract/policies'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { askWithProof, hasFreshProof } from '../middleware/fresh-proof'
import { TRUST_DETAILS } from '../mail/trust-templates'
import { tellOwner } from '../services/trust-mail'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ask } from '../owner/outcome'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(POLICY_MESSAGES.policyNotFound) })

export const policyRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json(await ask(vaultOf(c).policies().listPolicies())))
  // Access on request lets people start a release: turning it on needs fresh proof, and the owner is told.
  .post('/', validate('json', policyCreateBodySchema), async (c) => {
    const body = c.req.valid('json')
    const policy = await askWithProof(c, vaultOf(c).policies().createPolicy(accountIn(c), body, hasFreshProof(c)))
    if (policy.accessRequest && policy.status === 'active') await tellOwner(c, c.var.account, 'release_sooner', { detail: TRUST_DETAILS.accessRequestOn(policy.name) })
    return c.json(policy, 201)
  })
  .put('/:id', validate('param', idParam), validate('json', policyStatusBodySchema), async (c) => {
    const { policy, armsRequests } = await askWithProof(c, vaultOf(c).policies().setPolicyStatus(accountIn(c), c.req.valid('param').id, c.req.valid('json').status, hasFreshProof(c)))
    if (armsRequests) await tellOwner(c, c.var.account, 'release_sooner', { detail: TRUST_DETAILS.accessRequestOn(policy.name) })
    return c.json(policy)
  })
  .put('/:id/items', validate('param', idParam), validate('json', policyItemsBodySchema), async (c) => {
    const itemCount = await ask(vaultOf(c).policies().addPolicyItems(accountIn(c), c.req.valid('param').id, c.req.valid('json').itemIds))
    return c.json({ itemCount })
  })
  .delete('/:id', validate('param', idParam), async (c) => {
    await ask(vaultOf(c).policies().deletePolicy(accountIn(c), c.req.valid('param').id))
    return c.json({ message: 'Policy deleted.' })
  })
