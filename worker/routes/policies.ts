import { Hono } from 'hono'
import { z } from 'zod'
import { POLICY_MESSAGES, policyCreateBodySchema, policyItemsBodySchema, policyStatusBodySchema } from '../../contract/policies'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { accountIn, vaultOf } from '../owner/client'
import { ask } from '../owner/outcome'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(POLICY_MESSAGES.policyNotFound) })

export const policyRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json(await ask(vaultOf(c).listPolicies())))
  .post('/', validate('json', policyCreateBodySchema), async (c) => c.json(await ask(vaultOf(c).createPolicy(accountIn(c), c.req.valid('json'))), 201))
  .put('/:id', validate('param', idParam), validate('json', policyStatusBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).setPolicyStatus(accountIn(c), c.req.valid('param').id, c.req.valid('json').status))),
  )
  .put('/:id/items', validate('param', idParam), validate('json', policyItemsBodySchema), async (c) => {
    const itemCount = await ask(vaultOf(c).addPolicyItems(accountIn(c), c.req.valid('param').id, c.req.valid('json').itemIds))
    return c.json({ itemCount })
  })
  .delete('/:id', validate('param', idParam), async (c) => {
    await ask(vaultOf(c).deletePolicy(accountIn(c), c.req.valid('param').id))
    return c.json({ message: 'Policy deleted.' })
  })
