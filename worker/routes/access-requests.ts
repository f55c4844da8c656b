import { Hono } from 'hono'
import { z } from 'zod'
import {
  ACCESS_REQUEST_MESSAGES,
  accessRefuseLinkBodySchema,
  accessRequestBodySchema,
  accessRequestLinkBodySchema,
  type AccessRequestResult,
} from '../../contract/access-requests'
import { beneficiaryAccessQuerySchema, RELEASE_MESSAGES } from '../../contract/releases'
import { badRequest, forbidden } from '../lib/errors'
import { validate } from '../lib/validate'
import { jsonBodyLimit } from '../middleware/body-limit'
import { requireFreshProof } from '../middleware/fresh-proof'
import { rateLimitByIp } from '../middleware/rate-limit'
import { requireOwner } from '../middleware/subscription'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { ownerVault } from '../owner/client'
import { ask } from '../owner/outcome'
import { verifyLinkToken, type LinkPurpose } from '../lib/link-tokens'
import type { AppEnv } from '../types'

// Access on request (contract/access-requests.ts): heirs ask from the portal, approvers from their
// own link, the owner refuses by a one-click link or in the app, and approves only in the app.

const linkLimit = rateLimitByIp('LINK_LIMITER', 'link')
const tokenQuery = z.object({ token: z.string().min(10, RELEASE_MESSAGES.linkInvalid).max(2048) })
const requestParam = z.object({ id: z.uuid(ACCESS_REQUEST_MESSAGES.requestNotFound) })
const beneficiaryParam = z.object({ id: z.uuid(RELEASE_MESSAGES.linkInvalid) })

async function linkOf(env: Env, purpose: LinkPurpose, token: string) {
  const result = await verifyLinkToken(env, purpose, token)
  if (!result.ok) throw badRequest(result.reason === 'expired' ? RELEASE_MESSAGES.linkExpired : RELEASE_MESSAGES.linkInvalid)
  return { subject: result.subject, vault: ownerVault(env, result.owner) }
}

async function portalLink(env: Env, id: string, token: string) {
  const link = await linkOf(env, 'beneficiaryAccess', token)
  if (link.subject !== id) throw forbidden(RELEASE_MESSAGES.linkInvalid)
  return link
}

export const accessRequestRoutes = new Hono<AppEnv>()
  // The owner, signed in.
  .get('/access-requests', requireOwner, async (c) => c.json(await ask(vaultOf(c).access().ownerAccessRequests(accountIn(c)))))
  .post('/access-requests/:id/approve', requireOwner, requireFreshProof, validate('param', requestParam), async (c) =>
    c.json(await ask(vaultOf(c).access().approveAccessRequest(accountIn(c), c.req.valid('param').id))),
  )
  .post('/access-requests/:id/refuse', requireOwner, validate('param', requestParam), async (c) =>
    c.json(await ask(vaultOf(c).access().refuseAccessRequest(accountIn(c), c.req.valid('param').id))),
  )
  // The owner's one-click Refuse from the e-mail: first what it refuses, then the refusal.
  .get('/access-requests/refuse', linkLimit, validate('query', tokenQuery), async (c) => {
    const link = await linkOf(c.env, 'accessRefuse', c.req.valid('query').token)
    return c.json(await ask(link.vault.access().accessRefuseView(link.subject)))
  })
  .post('/access-requests/refuse', linkLimit, jsonBodyLimit, validate('json', accessRefuseLinkBodySchema), async (c) => {
    const link = await linkOf(c.env, 'accessRefuse', c.req.valid('json').token)
    const request = await ask(link.vault.access().refuseAccessRequestByLink(link.subject))
    return c.json({ message: ACCESS_REQUEST_MESSAGES.refused, request })
  })
  // An approver, by their own link.
  .get('/access-requests/by-link', linkLimit, validate('query', tokenQuery), async (c) => {
    const link = await linkOf(c.env, 'accessRequest', c.req.valid('query').token)
    return c.json(await ask(link.vault.access().requesterView({ kind: 'approver', id: link.subject })))
  })
  .post('/access-requests/by-link', linkLimit, jsonBodyLimit, validate('json', accessRequestLinkBodySchema), async (c) => {
    const { token, policyId } = c.req.valid('json')
    const link = await linkOf(c.env, 'accessRequest', token)
    const request = await ask(link.vault.access().askForAccess({ kind: 'approver', id: link.subject }, policyId))
    const body: AccessRequestResult = { message: ACCESS_REQUEST_MESSAGES.requested(request.decideBy ?? request.opensAt), request }
    return c.json(body, 201)
  })
  // A beneficiary, at the portal.
  .get('/beneficiaries/:id/access-requests', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    return c.json(await ask(link.vault.access().requesterView({ kind: 'beneficiary', id })))
  })
  .post(
    '/beneficiaries/:id/access-requests',
    linkLimit,
    jsonBodyLimit,
    validate('param', beneficiaryParam),
    validate('query', beneficiaryAccessQuerySchema),
    validate('json', accessRequestBodySchema),
    async (c) => {
      const { id } = c.req.valid('param')
      const link = await portalLink(c.env, id, c.req.valid('query').token)
      const request = await ask(link.vault.access().askForAccess({ kind: 'beneficiary', id }, c.req.valid('json').policyId))
      const body: AccessRequestResult = { message: ACCESS_REQUEST_MESSAGES.requested(request.decideBy ?? request.opensAt), request }
      return c.json(body, 201)
    },
  )
