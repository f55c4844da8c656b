import { Hono } from 'hono'
import { z } from 'zod'
import { POLICY_MESSAGES, policyCreateBodySchema, policyItemsBodySchema, policyStatusBodySchema } from '../../contract/policies'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { jsonBodyLimit } from '../middleware/body-limit'
import { addPolicyItems, createPolicy, deletePolicy, listPolicies, setPolicyStatus } from '../services/policies'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(POLICY_MESSAGES.policyNotFound) })

export const policyRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json(await listPolicies(c.var.db, c.var.user.id)))
  .post('/', validate('json', policyCreateBodySchema), async (c) =>
    c.json(await createPolicy(c.var.db, c.var.user.id, c.req.valid('json')), 201),
  )
  .put('/:id', validate('param', idParam), validate('json', policyStatusBodySchema), async (c) =>
    c.json(await setPolicyStatus(c.var.db, c.var.user.id, c.req.valid('param').id, c.req.valid('json').status)),
  )
  .put('/:id/items', validate('param', idParam), validate('json', policyItemsBodySchema), async (c) =>
    c.json({ itemCount: await addPolicyItems(c.var.db, c.var.user.id, c.req.valid('param').id, c.req.valid('json').itemIds) }),
  )
  .delete('/:id', validate('param', idParam), async (c) => {
    await deletePolicy(c.var.db, c.var.user.id, c.req.valid('param').id)
    return c.json({ message: 'Policy deleted.' })
  })
