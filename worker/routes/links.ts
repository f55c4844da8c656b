import { Hono } from 'hono'
import { beneficiaryVerifyBodySchema, CIRCLE_MESSAGES, linkTokenBodySchema, linkTokenQuerySchema } from '../../contract/circle'
import { heirKeyBackupBodySchema } from '../../contract/heir-key-backup'
import { badRequest } from '../lib/errors'
import { validate } from '../lib/validate'
import { jsonBodyLimit } from '../middleware/body-limit'
import { rateLimitByIp } from '../middleware/rate-limit'
import { ownerVault } from '../owner/client'
import { ask } from '../owner/outcome'
import { verifyLinkToken, type LinkPurpose } from '../lib/link-tokens'
import type { AppEnv } from '../types'

// Pages opened from e-mailed links by people without an account. The signed token is the only
// credential: it names the person, the purpose, the owner whose object holds them, and (for
// one-off acts) a nonce the person's row must hold.

async function linkOf(env: Env, purpose: LinkPurpose, token: string) {
  const result = await verifyLinkToken(env, purpose, token)
  if (!result.ok) throw badRequest(result.reason === 'expired' ? CIRCLE_MESSAGES.linkExpired : CIRCLE_MESSAGES.linkInvalid)
  return { ...result, vault: ownerVault(env, result.owner) }
}

// Attached per route, not with use(): this router is mounted at /api, and a path-less use() would
// throttle every owner route registered after it.
const linkLimit = rateLimitByIp('LINK_LIMITER', 'link')

export const linkRoutes = new Hono<AppEnv>()
  .post('/beneficiaries/verify', linkLimit, jsonBodyLimit, validate('json', beneficiaryVerifyBodySchema), async (c) => {
    const { token, id } = c.req.valid('json')
    const link = await linkOf(c.env, 'beneficiaryVerify', token)
    if (id && id !== link.subject) throw badRequest(CIRCLE_MESSAGES.linkWrongPerson)
    const beneficiary = await ask(link.vault.links().verifyBeneficiary(link.subject, link.nonce))
    return c.json({ message: 'Verification complete.', beneficiary })
  })
  .post('/approvers/verify', linkLimit, jsonBodyLimit, validate('json', linkTokenBodySchema), async (c) => {
    const link = await linkOf(c.env, 'approverVerify', c.req.valid('json').token)
    const approver = await ask(link.vault.links().verifyApprover(link.subject, link.nonce))
    return c.json({ message: 'Verification complete.', approver })
  })
  .get('/beneficiary-notifications', linkLimit, validate('query', linkTokenQuerySchema), async (c) => {
    const link = await linkOf(c.env, 'beneficiaryNotifications', c.req.valid('query').token)
    return c.json(await ask(link.vault.links().notificationPreferences(link.subject)))
  })
  .post('/beneficiary-notifications/opt-in', linkLimit, jsonBodyLimit, validate('json', linkTokenBodySchema), async (c) => {
    const link = await linkOf(c.env, 'beneficiaryNotifications', c.req.valid('json').token)
    await ask(link.vault.links().setNotificationStatus(link.subject, 'opted_in'))
    return c.json({ status: 'opted_in' as const })
  })
  .post('/beneficiary-notifications/unsubscribe', linkLimit, jsonBodyLimit, validate('json', linkTokenBodySchema), async (c) => {
    const link = await linkOf(c.env, 'beneficiaryNotifications', c.req.valid('json').token)
    const before = await ask(link.vault.links().setNotificationStatus(link.subject, 'unsubscribed'))
    return c.json({ status: 'unsubscribed' as const, alreadyUnsubscribed: before === 'unsubscribed' })
  })
  // The heir's own passphrase backup of their key, from the invitation's link, until items are released to them.
  .get('/beneficiary-key-backup', linkLimit, validate('query', linkTokenQuerySchema), async (c) => {
    const link = await linkOf(c.env, 'beneficiaryNotifications', c.req.valid('query').token)
    return c.json(await ask(link.vault.links().heirBackupContext(link.subject)))
  })
  .put('/beneficiary-key-backup', linkLimit, jsonBodyLimit, validate('json', heirKeyBackupBodySchema), async (c) => {
    const { token, ...backup } = c.req.valid('json')
    const link = await linkOf(c.env, 'beneficiaryNotifications', token)
    return c.json(await ask(link.vault.links().storeHeirBackup(link.subject, backup)))
  })
