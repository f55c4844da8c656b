import { Hono } from 'hono'
import { z } from 'zod'
import { TRIGGER_MESSAGES, TRIGGER_TYPE_LABELS, triggerCreateBodySchema, triggerUpdateBodySchema, type Trigger, type TriggerUpdateBody } from '../../contract/triggers'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireSubscription, requireSubscriptionUnless } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { askWithProof, hasFreshProof } from '../middleware/fresh-proof'
import { TRUST_DETAILS } from '../mail/trust-templates'
import { tellOwner } from '../services/trust-mail'
import { creationIsSooner } from '../services/sooner'
import { countTrusted } from '../services/trusted-devices'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ask } from '../owner/outcome'
import type { AppEnv } from '../types'

const idParam = z.object({ id: z.uuid(TRIGGER_MESSAGES.triggerNotFound) })
// Pausing is open without a plan (worker/middleware/subscription.ts); arming or a new schedule is not.
const unlessPausing = requireSubscriptionUnless((c) => {
  const body = (c.req.valid as (target: 'json') => TriggerUpdateBody)('json')
  return body.status === 'paused' && body.config === undefined
})

export const triggerRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(jsonBodyLimit)
  // Open without a plan: the owner sees what could still fire.
  .get('/', async (c) => c.json(await ask(vaultOf(c).engine().listTriggers(accountIn(c)))))
  // A trigger that can start a release without the owner, armed now, needs fresh proof (worker/services/sooner.ts).
  .post('/', requireSubscription, validate('json', triggerCreateBodySchema), async (c) => {
    const body = c.req.valid('json')
    const trusted = body.type === 'device_loss' ? await countTrusted(c.var.db, c.var.account.id) : 0
    const trigger = await askWithProof(c, vaultOf(c).engine().createTrigger(accountIn(c), body, hasFreshProof(c), trusted))
    if (creationIsSooner(body)) await tellOwner(c, c.var.account, 'release_sooner', { detail: TRUST_DETAILS.triggerArmed(TRIGGER_TYPE_LABELS[body.type].title) })
    return c.json(trigger, 201)
  })
  // Pause/Activate, or an inactivity trigger's new schedule: arming one again, or a shorter schedule, needs fresh proof.
  .put('/:id', validate('param', idParam), validate('json', triggerUpdateBodySchema), unlessPausing, async (c) => {
    const body = c.req.valid('json')
    // (Workers RPC types the answer loosely: a Trigger's open-ended config does not survive its mapping.)
    const trusted = body.status === 'active' ? await countTrusted(c.var.db, c.var.account.id) : 0
    const { trigger, sooner } = (await askWithProof(c, vaultOf(c).engine().updateTrigger(accountIn(c), c.req.valid('param').id, body, hasFreshProof(c), trusted))) as {
      trigger: Trigger
      sooner: boolean
    }
    if (sooner) {
      const detail = body.config ? TRUST_DETAILS.scheduleShortened : TRUST_DETAILS.triggerArmed(TRIGGER_TYPE_LABELS[trigger.type].title)
      await tellOwner(c, c.var.account, 'release_sooner', { detail })
    }
    return c.json(trigger)
  })
  // Sends every verified approver their link to confirm the owner's death again.
  .post('/:id/resend-report-links', requireSubscription, validate('param', idParam), async (c) => {
    const sent = await ask(vaultOf(c).engine().resendDeathReportLinks(accountIn(c), c.req.valid('param').id))
    return c.json({ sent, message: TRIGGER_MESSAGES.reportLinksSent(sent) })
  })
