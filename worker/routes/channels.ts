import { Hono } from 'hono'
import { z } from 'zod'
import { backupEmailBodySchema, backupVerifyBodySchema, CHANNEL_MESSAGES, emergencyContactBodySchema } from '../../contract/channels'
import { GENERIC_ERRORS } from '../../contract/messages'
import { badRequest, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { jsonBodyLimit, limitBody } from '../middleware/body-limit'
import { assertFreshProof, requireFreshProof } from '../middleware/fresh-proof'
import { audit } from '../services/audit'
import { checkContactChange, recordContactChange, storedContact } from '../services/emergency-contact'
import { channelsOf, recordBounces, removeBackup, sendBackupLink, setBackup, setEmergencyContact, verifyBackup } from '../services/channels'
import { tellOwner } from '../services/trust-mail'
import { verifyStandardWebhook } from '../services/webhook-signature'
import type { AppEnv } from '../types'

// The owner's channels: GET /api/channels, the backup address (set and removed with fresh proof:
// it changes who is told of a release and who holds its cancel link), its verification, and the
// emergency contact with its opt-in (a trust change too). Routes name no id: each acts on the
// signed-in owner's own account.
export const channelRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(jsonBodyLimit)
  .get('/', async (c) => c.json(await channelsOf(c.var.db, (await userOf(c)))))
  .put('/backup', validate('json', backupEmailBodySchema), async (c) => {
    await assertFreshProof(c)
    const { email } = c.req.valid('json')
    const user = await setBackup(c.var.db, (await userOf(c)), email)
    await sendBackupLink(c.env, c.executionCtx, c.var.db, user)
    await audit(c, 'account.backup_email_set', {})
    await tellOwner(c, user, 'backup_email_added')
    return c.json({ message: CHANNEL_MESSAGES.backupSent(email), channels: await channelsOf(c.var.db, user) })
  })
  .post('/backup/resend', async (c) => {
    await sendBackupLink(c.env, c.executionCtx, c.var.db, (await userOf(c)))
    return c.json({ message: CHANNEL_MESSAGES.backupSent((await userOf(c)).backupEmail!) })
  })
  .post('/backup/verify', validate('json', backupVerifyBodySchema), async (c) => {
    const { message, already } = await verifyBackup(c.env, c.var.db, (await userOf(c)), c.req.valid('json').token)
    if (!already) await audit(c, 'account.backup_email_verified', {})
    const user = (await c.var.db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, c.var.account.id) }))!
    return c.json({ message, channels: await channelsOf(c.var.db, user) })
  })
  .delete('/backup', requireFreshProof, async (c) => {
    await removeBackup(c.var.db, (await userOf(c)))
    await audit(c, 'account.backup_email_removed', {})
    await tellOwner(c, c.var.account, 'backup_email_removed')
    const user = (await c.var.db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, c.var.account.id) }))!
    return c.json({ message: CHANNEL_MESSAGES.backupRemoved, channels: await channelsOf(c.var.db, user) })
  })
  // A trust change (services/emergency-contact.ts): fresh proof, an audit entry and the owner told,
  // unless the save leaves the contact as it was.
  .put('/contact', validate('json', emergencyContactBodySchema), async (c) => {
    const next = c.req.valid('json')
    const change = await checkContactChange(c, storedContact((await userOf(c))), next)
    if (!change) return c.json({ message: CHANNEL_MESSAGES.contactSaved, channels: await channelsOf(c.var.db, (await userOf(c))) })
    const user = await setEmergencyContact(c.var.db, (await userOf(c)), next)
    await recordContactChange(c, user, change, 'settings')
    return c.json({ message: CHANNEL_MESSAGES.contactSaved, channels: await channelsOf(c.var.db, user) })
  })

// A bounce as the mail provider reports it: Standard Webhooks framing (webhook-id,
// webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256>` over `id.timestamp.body`, secret
// `whsec_…` in MAIL_WEBHOOK_SECRET), with a Resend-shaped event. Only with the secret configured.
const mailEventSchema = z.object({
  type: z.string().max(100),
  created_at: z.string().max(100).optional(),
  data: z
    .object({
      to: z.union([z.string().max(320), z.array(z.string().max(320)).max(50)]),
      bounce: z.object({ type: z.string().max(100).optional(), message: z.string().max(2000).optional() }).optional(),
    })
    .passthrough(),
})

export const mailEventRoutes = new Hono<AppEnv>().post('/events', limitBody(64 * 1024, 'Webhook body too large'), async (c) => {
  const secret = c.env.MAIL_WEBHOOK_SECRET
  if (!secret) throw notFound(GENERIC_ERRORS.apiRouteNotFound)
  const body = await c.req.text()
  const ok = await verifyStandardWebhook(secret, body, {
    id: c.req.header('webhook-id'),
    timestamp: c.req.header('webhook-timestamp'),
    signature: c.req.header('webhook-signature'),
  })
  if (!ok) throw badRequest(CHANNEL_MESSAGES.webhookSignatureInvalid)
  let event: z.infer<typeof mailEventSchema>
  try {
    event = mailEventSchema.parse(JSON.parse(body))
  } catch {
    throw badRequest(CHANNEL_MESSAGES.webhookBodyInvalid)
  }
  // Other events (delivered, opened…) change nothing here.
  if (event.type !== 'email.bounced') return c.json({ received: true, bounced: 0 })
  const to = typeof event.data.to === 'string' ? [event.data.to] : event.data.to
  const bounced = await recordBounces(c.var.db, to, event.data.bounce?.message ?? event.data.bounce?.type ?? null)
  return c.json({ received: true, bounced })
})
