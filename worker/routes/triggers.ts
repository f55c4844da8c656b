import { Hono } from 'hono'
import { z } from 'zod'
import { TRIGGER_MESSAGES, triggerCreateBodySchema, triggerStatusBodySchema } from '../../contract/triggers'
import { engineCtx } from '../engine/context'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { ownerGuard } from '../services/owner-activity'
import { createTrigger, listTriggers, setTriggerStatus, toTrigger } from '../services/triggers'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(TRIGGER_MESSAGES.triggerNotFound) })

export const triggerRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(requireSubscription)
  .use(jsonBodyLimit)
  .get('/', async (c) => {
    const owner = c.var.user
    const [rows, clock] = await Promise.all([listTriggers(c.var.db, owner.id), ownerGuard(c.env, owner.id).clockView(owner.id)])
    return c.json(rows.map((r) => toTrigger(r, { state: clock.state, pingFrequency: owner.pingFrequency })))
  })
  .post('/', validate('json', triggerCreateBodySchema), async (c) => {
    const owner = c.var.user
    const row = await createTrigger(engineCtx(c.env), owner.id, c.req.valid('json'))
    // Arms the owner's alarm for the new trigger (check-ins, a scheduled date).
    const clock = await ownerGuard(c.env, owner.id).tick(owner.id)
    return c.json(toTrigger(row, { state: clock.state, pingFrequency: owner.pingFrequency }), 201)
  })
  .put('/:id', validate('param', idParam), validate('json', triggerStatusBodySchema), async (c) => {
    const owner = c.var.user
    const row = await setTriggerStatus(engineCtx(c.env), owner.id, c.req.valid('param').id, c.req.valid('json').status)
    const clock = await ownerGuard(c.env, owner.id).tick(owner.id)
    return c.json(toTrigger(row, { state: clock.state, pingFrequency: owner.pingFrequency }))
  })
