import { Hono } from 'hono'
import { z } from 'zod'
import { POLICY_MESSAGES, policyCreateBodySchema, policyItemsBodySchema, policyStatusBodySchema } from '../../contract/policies'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { audit } from '../services/audit'
import { addPolicyItems, createPolicy, deletePolicy, listPolicies, setPolicyStatus } from '../services/policies'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(POLICY_MESSAGES.policyNotFound) })

export const policyRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json(await listPolicies(c.var.db, c.var.user.id)))
  .post('/', validate('json', policyCreateBodySchema), async (c) => {
    const policy = await createPolicy(c.var.db, c.var.user.id, c.req.valid('json'))
    await audit(c, 'policy.created', {
      policyId: policy.id,
      status: policy.status,
      triggers: policy.ruleJson.release.on.join(','),
      delayHours: policy.ruleJson.release.delayHours,
      beneficiaries: policy.ruleJson.assign.length,
      requiresApprover: policy.requiresApprover,
      requiresIdentityVerification: policy.requiresIdentityVerification,
      minimumApprovals: policy.minimumApprovals,
    })
    return c.json(policy, 201)
  })
  .put('/:id', validate('param', idParam), validate('json', policyStatusBodySchema), async (c) => {
    const policy = await setPolicyStatus(c.var.db, c.var.user.id, c.req.valid('param').id, c.req.valid('json').status)
    await audit(c, 'policy.status_changed', { policyId: policy.id, status: policy.status })
    return c.json(policy)
  })
  .put('/:id/items', validate('param', idParam), validate('json', policyItemsBodySchema), async (c) => {
    const policyId = c.req.valid('param').id
    const itemCount = await addPolicyItems(c.var.db, c.var.user.id, policyId, c.req.valid('json').itemIds)
    await audit(c, 'policy.items_recorded', { policyId, itemCount })
    return c.json({ itemCount })
  })
  .delete('/:id', validate('param', idParam), async (c) => {
    const policyId = c.req.valid('param').id
    await deletePolicy(c.var.db, c.var.user.id, policyId)
    await audit(c, 'policy.deleted', { policyId })
    return c.json({ message: 'Policy deleted.' })
  })
