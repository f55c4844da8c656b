import { Hono } from 'hono'
import { z } from 'zod'
import { IDENTITY_MESSAGES } from '../../contract/identity'
import { renewalDecisionBodySchema } from '../../contract/renewals'
import {
  beneficiaryAccessQuerySchema,
  deathConfirmationBodySchema,
  linkActionBodySchema,
  portalLinkRequestSchema,
  RELEASE_MESSAGES,
  releaseApprovalBodySchema,
  type AssetDownload,
  type CancelLinkResult,
} from '../../contract/releases'
import { badRequest, conflict, forbidden, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { jsonBodyLimit } from '../middleware/body-limit'
import { enforceLimit, rateLimitByIp } from '../middleware/rate-limit'
import { ownerVault } from '../owner/client'
import { ownersNamingHeir } from '../owner/directory'
import { ask } from '../owner/outcome'
import { signLinkToken, verifyLinkToken, type LinkPurpose } from '../lib/link-tokens'
import { decisionSubject } from '../services/renewals'
import type { AppEnv } from '../types'
import { readIdentityUpload, uploadLimit } from './identity'

// Pages opened from the release engine's e-mails, by people who have no account here (or, for
// check-ins and cancel links, an owner who need not sign in). The signed token is the credential,
// and names the owner whose object answers.

const linkLimit = rateLimitByIp('LINK_LIMITER', 'link')
const tokenQuery = z.object({ token: z.string().min(10, RELEASE_MESSAGES.linkInvalid).max(2048) })
const beneficiaryParam = z.object({ id: z.uuid(RELEASE_MESSAGES.linkInvalid) })
const assetParam = beneficiaryParam.extend({ assetId: z.string().regex(/^[0-9a-f]{32}$/, RELEASE_MESSAGES.assetNotFound) })
const ticketQuery = z.object({ ticket: z.string().min(10).max(2048) })

async function linkOf(env: Env, purpose: LinkPurpose, token: string) {
  const result = await verifyLinkToken(env, purpose, token)
  if (!result.ok) throw badRequest(result.reason === 'expired' ? RELEASE_MESSAGES.linkExpired : RELEASE_MESSAGES.linkInvalid)
  return { subject: result.subject, owner: result.owner, nonce: result.nonce, vault: ownerVault(env, result.owner) }
}

/** "releaseId:email" → its two parts. */
function approvalOf(subject: string) {
  const split = subject.indexOf(':')
  return { releaseId: subject.slice(0, split), email: subject.slice(split + 1) }
}

/** The beneficiary a portal token names; the path's id must be the same person. */
async function portalLink(env: Env, id: string, token: string) {
  const link = await linkOf(env, 'beneficiaryAccess', token)
  if (link.subject !== id) throw forbidden(RELEASE_MESSAGES.linkInvalid)
  return link
}

/** The heir's "send me a new link": the owners naming the address each send one if something waits. */
async function sendPortalLinks(env: Env, email: string): Promise<void> {
  for (const ownerId of await ownersNamingHeir(env, email)) {
    try {
      await ownerVault(env, ownerId).portal().sendPortalLink(email)
    } catch (error) {
      console.error(`portal link for an heir of ${ownerId} failed`, error)
    }
  }
}

export const releaseLinkRoutes = new Hono<AppEnv>()
  // Always the same answer, sent before any lookup is made, so it tells nobody whether the address
  // is anyone's heir; the lookup and the e-mail run after it.
  .post('/beneficiary-portal/link', rateLimitByIp('RESET_LIMITER', 'portal-link'), jsonBodyLimit, validate('json', portalLinkRequestSchema), async (c) => {
    const { email } = c.req.valid('json')
    await enforceLimit(c.env, 'RESET_LIMITER', `portal-link:address:${email}`)
    c.executionCtx.waitUntil(sendPortalLinks(c.env, email))
    return c.json({ message: RELEASE_MESSAGES.portalLinkSent })
  })
  // The owner's "I'm still here" from a check-in e-mail.
  .post('/inactivity/check-in', linkLimit, jsonBodyLimit, validate('json', linkActionBodySchema), async (c) => {
    const link = await linkOf(c.env, 'checkIn', c.req.valid('json').token)
    if (link.subject !== link.owner) throw badRequest(RELEASE_MESSAGES.linkInvalid)
    const { clock, cancelledReleases } = await ask(link.vault.checkIn('email'))
    return c.json({ message: clock.schedule ? RELEASE_MESSAGES.checkedIn : RELEASE_MESSAGES.checkedInNoClock, cancelledReleases })
  })
  // The owner's one-click cancel of a release, from the "release started" e-mail: first what it
  // would take back, then the cancel itself.
  .get('/releases/cancel', linkLimit, validate('query', tokenQuery), async (c) => {
    const link = await linkOf(c.env, 'releaseCancel', c.req.valid('query').token)
    return c.json(await ask(link.vault.engine().cancelView(link.subject)))
  })
  .post('/releases/cancel', linkLimit, jsonBodyLimit, validate('json', linkActionBodySchema), async (c) => {
    const link = await linkOf(c.env, 'releaseCancel', c.req.valid('json').token)
    const outcome = await ask(link.vault.engine().cancelFiring(link.subject))
    const body: CancelLinkResult = { message: outcome.clockReset ? RELEASE_MESSAGES.releaseCancelled : RELEASE_MESSAGES.releaseCancelledNoClock, ...outcome }
    return c.json(body)
  })
  .get('/release-approvals', linkLimit, validate('query', tokenQuery), async (c) => {
    const link = await linkOf(c.env, 'releaseApproval', c.req.valid('query').token)
    const { releaseId, email } = approvalOf(link.subject)
    return c.json(await ask(link.vault.portal().approvalView(releaseId, email)))
  })
  .post('/release-approvals', linkLimit, jsonBodyLimit, validate('json', releaseApprovalBodySchema), async (c) => {
    const body = c.req.valid('json')
    const link = await linkOf(c.env, 'releaseApproval', body.token)
    const { releaseId, email } = approvalOf(link.subject)
    return c.json(await ask(link.vault.portal().decideApproval(releaseId, email, body.decision, body.notes)))
  })
  .get('/death-reports', linkLimit, validate('query', tokenQuery), async (c) => {
    const link = await linkOf(c.env, 'deathReport', c.req.valid('query').token)
    return c.json(await ask(link.vault.portal().deathReportView(link.subject, link.nonce)))
  })
  .post('/death-reports', linkLimit, jsonBodyLimit, validate('json', deathConfirmationBodySchema), async (c) => {
    const { token, certificateNumber, dateOfDeath, issuingAuthority } = c.req.valid('json')
    const link = await linkOf(c.env, 'deathReport', token)
    await ask(link.vault.portal().confirmDeath(link.subject, link.nonce, { certificateNumber, dateOfDeath, issuingAuthority }))
    return c.json({ message: RELEASE_MESSAGES.deathConfirmed })
  })
  // The beneficiary portal.
  .get('/beneficiaries/:id/portal', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    return c.json(await ask(link.vault.portal().portalView(id)))
  })
  .get('/beneficiaries/:id/assets', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    return c.json(await ask(link.vault.portal().listAssets(id)))
  })
  .get('/beneficiaries/:id/assets/:assetId/download', linkLimit, validate('param', assetParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id, assetId } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    const counted = await ask(link.vault.portal().prepareDownload(id, assetId))
    // The ticket's id: its first fetch of the content counts the download, later ones are free.
    const ticket = signLinkToken(c.env, 'assetContent', `${assetId}:${id}`, { owner: link.owner, nonce: crypto.randomUUID() })
    const body: AssetDownload = { ...counted, contentUrl: `/api/beneficiaries/${id}/assets/${assetId}/content?ticket=${encodeURIComponent(ticket)}` }
    return c.json(body)
  })
  .get('/beneficiaries/:id/assets/:assetId/content', linkLimit, validate('param', assetParam), validate('query', ticketQuery), async (c) => {
    const { id, assetId } = c.req.valid('param')
    const link = await linkOf(c.env, 'assetContent', c.req.valid('query').ticket)
    if (link.subject !== `${assetId}:${id}`) throw forbidden(RELEASE_MESSAGES.linkInvalid)
    const key = await ask(link.vault.portal().serveTicket(id, assetId, link.nonce))
    const object = await c.env.BLOBS.get(key)
    if (!object) throw notFound(RELEASE_MESSAGES.assetNotFound)
    return new Response(object.body, {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(object.size), 'cache-control': 'no-store' },
    })
  })
  // An heir whose items ran out asks for more; each person asked answers through their own link.
  .post('/beneficiaries/:id/renewals', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    return c.json(await ask(link.vault.portal().requestRenewal(id)), 201)
  })
  .get('/renewal-decisions', linkLimit, validate('query', tokenQuery), async (c) => {
    const link = await linkOf(c.env, 'renewalDecision', c.req.valid('query').token)
    const { requestId, key } = decisionSubject(link.subject)
    return c.json(await ask(link.vault.portal().renewalDecisionView(requestId, key)))
  })
  .post('/renewal-decisions', linkLimit, jsonBodyLimit, validate('json', renewalDecisionBodySchema), async (c) => {
    const body = c.req.valid('json')
    const link = await linkOf(c.env, 'renewalDecision', body.token)
    const { requestId, key } = decisionSubject(link.subject)
    return c.json(await ask(link.vault.portal().decideRenewal(requestId, key, body.decision)))
  })
  // The heir's passphrase backup of their key, for a portal opened without the kit.
  .get('/beneficiaries/:id/key-backup', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    return c.json(await ask(link.vault.links().portalKeyBackup(id)))
  })
  .post('/beneficiaries/:id/identity-document', linkLimit, uploadLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id } = c.req.valid('param')
    const link = await portalLink(c.env, id, c.req.valid('query').token)
    const status = await ask(link.vault.portal().portalIdentityStatus(id))
    if (status === 'pending' || status === 'verified') throw conflict(`Your identity is already ${status === 'pending' ? 'being reviewed' : 'verified'}.`)
    const upload = await readIdentityUpload(c, 'frontImage', IDENTITY_MESSAGES.frontRequired)
    await ask(link.vault.identity().submitIdentityDocument(undefined, id, upload.fields, upload.files, 'beneficiary'))
    return c.json({ identityStatus: 'pending' as const }, 201)
  })
