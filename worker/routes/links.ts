import { and, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import {
  beneficiaryVerifyBodySchema,
  CIRCLE_MESSAGES,
  linkTokenBodySchema,
  linkTokenQuerySchema,
  type NotificationPreferences,
} from '../../contract/circle'
import type { Db } from '../db/client'
import { approvers, beneficiaries, users } from '../db/schema'
import { badRequest, conflict } from '../lib/errors'
import { validate } from '../lib/validate'
import { jsonBodyLimit } from '../middleware/body-limit'
import { rateLimitByIp } from '../middleware/rate-limit'
import { verifyLinkToken, type LinkPurpose } from '../services/link-tokens'
import type { AppEnv } from '../types'

// Pages opened from e-mailed links by people without an account. The signed token is the only
// credential: it names the person, the purpose, and (for one-off acts) a nonce the row must hold.

async function subjectOf(env: Env, purpose: LinkPurpose, token: string) {
  const result = await verifyLinkToken(env, purpose, token)
  if (!result.ok) throw badRequest(result.reason === 'expired' ? CIRCLE_MESSAGES.linkExpired : CIRCLE_MESSAGES.linkInvalid)
  return result
}

async function preferencesOf(db: Db, beneficiaryId: string): Promise<NotificationPreferences & { id: string }> {
  const [row] = await db
    .select({ b: beneficiaries, ownerName: users.displayName })
    .from(beneficiaries)
    .innerJoin(users, eq(users.id, beneficiaries.ownerId))
    .where(eq(beneficiaries.id, beneficiaryId))
    .limit(1)
  if (!row) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
  const secrecyMode = row.b.delayNotifications
  return {
    id: row.b.id,
    fullName: row.b.fullName,
    // Secrecy Mode: no details until the owner's conditions are met (seeds 001 §2, opt-in page).
    relationship: secrecyMode ? null : row.b.relationship,
    ownerName: row.ownerName,
    status: row.b.notificationStatus,
    secrecyMode,
  }
}

async function setNotificationStatus(db: Db, id: string, status: 'opted_in' | 'unsubscribed') {
  await db.update(beneficiaries).set({ notificationStatus: status, updatedAt: Date.now() }).where(eq(beneficiaries.id, id))
}

// Attached per route, not with use(): this router is mounted at /api, and a path-less use() would
// throttle every owner route registered after it.
const linkLimit = rateLimitByIp('LINK_LIMITER', 'link')

export const linkRoutes = new Hono<AppEnv>()
  .post('/beneficiaries/verify', linkLimit, jsonBodyLimit, validate('json', beneficiaryVerifyBodySchema), async (c) => {
    const { token, id } = c.req.valid('json')
    const { subject, nonce } = await subjectOf(c.env, 'beneficiaryVerify', token)
    if (id && id !== subject) throw badRequest(CIRCLE_MESSAGES.linkWrongPerson)
    const now = Date.now()
    const [verified] = nonce
      ? await c.var.db
          .update(beneficiaries)
          .set({ emailVerifiedAt: now, verificationNonce: null, updatedAt: now })
          .where(and(eq(beneficiaries.id, subject), eq(beneficiaries.verificationNonce, nonce)))
          .returning({ id: beneficiaries.id })
      : []
    const preferences = await preferencesOf(c.var.db, subject)
    if (!verified) {
      const row = await c.var.db.query.beneficiaries.findFirst({ where: eq(beneficiaries.id, subject) })
      if (row?.emailVerifiedAt) throw conflict(CIRCLE_MESSAGES.alreadyVerified)
      throw badRequest(CIRCLE_MESSAGES.linkInvalid)
    }
    return c.json({ message: 'Verification complete.', beneficiary: { fullName: preferences.fullName, ownerName: preferences.ownerName } })
  })
  .post('/approvers/verify', linkLimit, jsonBodyLimit, validate('json', linkTokenBodySchema), async (c) => {
    const { subject, nonce } = await subjectOf(c.env, 'approverVerify', c.req.valid('json').token)
    const now = Date.now()
    const [verified] = nonce
      ? await c.var.db
          .update(approvers)
          .set({ emailVerifiedAt: now, verificationNonce: null, updatedAt: now })
          .where(and(eq(approvers.id, subject), eq(approvers.verificationNonce, nonce)))
          .returning({ fullName: approvers.fullName })
      : []
    if (!verified) {
      const row = await c.var.db.query.approvers.findFirst({ where: eq(approvers.id, subject) })
      if (row?.emailVerifiedAt) throw conflict(CIRCLE_MESSAGES.alreadyVerified)
      throw badRequest(CIRCLE_MESSAGES.linkInvalid)
    }
    return c.json({ message: 'Verification complete.', approver: { fullName: verified.fullName } })
  })
  .get('/beneficiary-notifications', linkLimit, validate('query', linkTokenQuerySchema), async (c) => {
    const { subject } = await subjectOf(c.env, 'beneficiaryNotifications', c.req.valid('query').token)
    const { id: _id, ...preferences } = await preferencesOf(c.var.db, subject)
    return c.json(preferences)
  })
  .post('/beneficiary-notifications/opt-in', linkLimit, jsonBodyLimit, validate('json', linkTokenBodySchema), async (c) => {
    const { subject } = await subjectOf(c.env, 'beneficiaryNotifications', c.req.valid('json').token)
    const { id } = await preferencesOf(c.var.db, subject)
    await setNotificationStatus(c.var.db, id, 'opted_in')
    return c.json({ status: 'opted_in' as const })
  })
  .post('/beneficiary-notifications/unsubscribe', linkLimit, jsonBodyLimit, validate('json', linkTokenBodySchema), async (c) => {
    const { subject } = await subjectOf(c.env, 'beneficiaryNotifications', c.req.valid('json').token)
    const { id, status } = await preferencesOf(c.var.db, subject)
    if (status !== 'unsubscribed') await setNotificationStatus(c.var.db, id, 'unsubscribed')
    return c.json({ status: 'unsubscribed' as const, alreadyUnsubscribed: status === 'unsubscribed' })
  })
