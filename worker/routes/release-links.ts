import { and, eq, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { IDENTITY_MESSAGES } from '../../contract/identity'
import {
  beneficiaryAccessQuerySchema,
  deathConfirmationBodySchema,
  linkActionBodySchema,
  RELEASE_MESSAGES,
  releaseApprovalBodySchema,
  type AssetDownload,
  type BeneficiaryPortalView,
  type DeathReportView,
  type ReleasedAsset,
  type ReleaseApprovalView,
} from '../../contract/releases'
import { TRIGGER_TYPE_LABELS, type TriggerType } from '../../contract/triggers'
import type { Db } from '../db/client'
import {
  approvers,
  beneficiaries,
  deathReports,
  firings,
  itemGrants,
  releasedAssets,
  releases,
  releaseSignoffs,
  releaseTargets,
  users,
  vaultItems,
} from '../db/schema'
import { advanceReleases } from '../engine/advance'
import { cancelWaiting } from '../engine/cancel'
import { engineCtx } from '../engine/context'
import { ApiError, badRequest, conflict, forbidden, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { jsonBodyLimit } from '../middleware/body-limit'
import { rateLimitByIp } from '../middleware/rate-limit'
import { submitDocument } from '../services/identity'
import { signLinkToken, verifyLinkToken, type LinkPurpose } from '../services/link-tokens'
import { ownerGuard } from '../services/owner-activity'
import type { AppEnv } from '../types'
import { readUpload, uploadLimit } from './identity'

// Pages opened from the release engine's e-mails, by people who have no account here (or, for
// check-ins and cancel links, an owner who need not sign in). The signed token is the credential.

const linkLimit = rateLimitByIp('LINK_LIMITER', 'link')
const tokenQuery = z.object({ token: z.string().min(10, RELEASE_MESSAGES.linkInvalid).max(2048) })
const beneficiaryParam = z.object({ id: z.uuid(RELEASE_MESSAGES.linkInvalid) })
const assetParam = beneficiaryParam.extend({ assetId: z.string().regex(/^[0-9a-f]{32}$/, RELEASE_MESSAGES.assetNotFound) })
const ticketQuery = z.object({ ticket: z.string().min(10).max(2048) })

async function subjectOf(env: Env, purpose: LinkPurpose, token: string): Promise<string> {
  const result = await verifyLinkToken(env, purpose, token)
  if (!result.ok) throw badRequest(result.reason === 'expired' ? RELEASE_MESSAGES.linkExpired : RELEASE_MESSAGES.linkInvalid)
  return result.subject
}

/** The beneficiary a portal token names; the path's id must be the same person. */
async function beneficiaryFor(env: Env, db: Db, id: string, token: string) {
  const subject = await subjectOf(env, 'beneficiaryAccess', token)
  if (subject !== id) throw forbidden(RELEASE_MESSAGES.linkInvalid)
  const [row] = await db
    .select({ b: beneficiaries, ownerName: users.displayName })
    .from(beneficiaries)
    .innerJoin(users, eq(users.id, beneficiaries.ownerId))
    .where(eq(beneficiaries.id, id))
  if (!row) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  return row
}

function assetStatus(a: { status: string; downloadCount: number; maxDownloads: number; expiresAt: number | null }, now: number): ReleasedAsset['status'] {
  if (a.status === 'pending_identity') return 'pending_identity'
  if (a.expiresAt !== null && a.expiresAt <= now) return 'expired'
  if (a.downloadCount >= a.maxDownloads) return 'exhausted'
  return 'available'
}

async function approvalSubject(env: Env, db: Db, token: string) {
  const subject = await subjectOf(env, 'releaseApproval', token)
  const split = subject.indexOf(':')
  const releaseId = subject.slice(0, split)
  const email = subject.slice(split + 1)
  const [signoff] = await db
    .select()
    .from(releaseSignoffs)
    .where(and(eq(releaseSignoffs.releaseId, releaseId), eq(releaseSignoffs.email, email)))
  if (!signoff) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  return signoff
}

async function approvalView(db: Db, releaseId: string, email: string): Promise<ReleaseApprovalView> {
  const [row] = await db
    .select({ r: releases, f: firings, ownerName: users.displayName })
    .from(releases)
    .innerJoin(firings, eq(firings.id, releases.firingId))
    .innerJoin(users, eq(users.id, releases.ownerId))
    .where(eq(releases.id, releaseId))
  if (!row) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  const signoffs = await db.select().from(releaseSignoffs).where(eq(releaseSignoffs.releaseId, releaseId))
  const targets = await db
    .select({ itemId: releaseTargets.itemId, name: beneficiaries.fullName })
    .from(releaseTargets)
    .innerJoin(beneficiaries, eq(beneficiaries.id, releaseTargets.beneficiaryId))
    .where(eq(releaseTargets.releaseId, releaseId))
  const mine = signoffs.find((s) => s.email === email)
  return {
    ownerName: row.ownerName,
    approverName: mine?.name ?? email,
    policyName: row.r.sourceName,
    triggerType: TRIGGER_TYPE_LABELS[row.f.triggerType as TriggerType]?.title ?? row.f.triggerType,
    reason: row.f.reason,
    itemCount: new Set(targets.map((t) => t.itemId)).size,
    beneficiaryNames: [...new Set(targets.map((t) => t.name))],
    approvals: signoffs.filter((s) => s.decision === 'approved').length,
    requiredApprovals: row.r.requiredApprovals,
    status: row.r.status,
    yourDecision: mine?.decision ?? null,
  }
}

async function deathReporter(env: Env, db: Db, token: string) {
  const approverId = await subjectOf(env, 'deathReport', token)
  const [row] = await db
    .select({ a: approvers, ownerName: users.displayName })
    .from(approvers)
    .innerJoin(users, eq(users.id, approvers.ownerId))
    .where(eq(approvers.id, approverId))
  if (!row) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  return row
}

export const releaseLinkRoutes = new Hono<AppEnv>()
  // The owner's "I'm still here" from a check-in e-mail.
  .post('/inactivity/check-in', linkLimit, jsonBodyLimit, validate('json', linkActionBodySchema), async (c) => {
    const ownerId = await subjectOf(c.env, 'checkIn', c.req.valid('json').token)
    const [owner] = await c.var.db.select({ id: users.id }).from(users).where(eq(users.id, ownerId))
    if (!owner) throw badRequest(RELEASE_MESSAGES.linkInvalid)
    const { cancelledReleases } = await ownerGuard(c.env, ownerId).checkIn(ownerId, Date.now(), 'email')
    return c.json({ message: RELEASE_MESSAGES.checkedIn, cancelledReleases })
  })
  // The owner's one-click cancel of a release in its delay, from the "release started" e-mail.
  .post('/releases/cancel', linkLimit, jsonBodyLimit, validate('json', linkActionBodySchema), async (c) => {
    const firingId = await subjectOf(c.env, 'releaseCancel', c.req.valid('json').token)
    const [firing] = await c.var.db.select().from(firings).where(eq(firings.id, firingId))
    if (!firing) throw badRequest(RELEASE_MESSAGES.linkInvalid)
    const n = await cancelWaiting(engineCtx(c.env), firing.ownerId, { firingId }, 'user')
    if (n === 0) throw conflict(RELEASE_MESSAGES.releaseNotWaiting)
    await ownerGuard(c.env, firing.ownerId).tick(firing.ownerId)
    return c.json({ message: RELEASE_MESSAGES.releaseCancelled, cancelledReleases: n })
  })
  .get('/release-approvals', linkLimit, validate('query', tokenQuery), async (c) => {
    const signoff = await approvalSubject(c.env, c.var.db, c.req.valid('query').token)
    return c.json(await approvalView(c.var.db, signoff.releaseId, signoff.email))
  })
  .post('/release-approvals', linkLimit, jsonBodyLimit, validate('json', releaseApprovalBodySchema), async (c) => {
    const body = c.req.valid('json')
    const signoff = await approvalSubject(c.env, c.var.db, body.token)
    const [release] = await c.var.db.select().from(releases).where(eq(releases.id, signoff.releaseId))
    if (release?.status !== 'waiting') throw conflict(RELEASE_MESSAGES.releaseNotWaiting)
    const now = Date.now()
    const [decided] = await c.var.db
      .update(releaseSignoffs)
      .set({ decision: body.decision, notes: body.notes, decidedAt: now })
      .where(and(eq(releaseSignoffs.releaseId, signoff.releaseId), eq(releaseSignoffs.email, signoff.email), sql`${releaseSignoffs.decision} is null`))
      .returning()
    if (!decided) throw conflict(RELEASE_MESSAGES.alreadySigned)
    const ctx = engineCtx(c.env, now)
    await ctx.audit(release.ownerId, {
      actor: 'approver',
      action: body.decision === 'approved' ? 'release.approved' : 'release.rejected_by_approver',
      details: { releaseId: release.id },
    })
    await advanceReleases(ctx, { ownerId: release.ownerId, releaseId: release.id })
    return c.json(await approvalView(c.var.db, signoff.releaseId, signoff.email))
  })
  .get('/death-reports', linkLimit, validate('query', tokenQuery), async (c) => {
    const { a, ownerName } = await deathReporter(c.env, c.var.db, c.req.valid('query').token)
    const [report] = await c.var.db.select({ id: deathReports.id }).from(deathReports).where(eq(deathReports.approverId, a.id))
    const view: DeathReportView = { ownerName, approverName: a.fullName, alreadyConfirmed: !!report }
    return c.json(view)
  })
  .post('/death-reports', linkLimit, jsonBodyLimit, validate('json', deathConfirmationBodySchema), async (c) => {
    const body = c.req.valid('json')
    const { a } = await deathReporter(c.env, c.var.db, body.token)
    const now = Date.now()
    await c.var.db
      .insert(deathReports)
      .values({
        id: crypto.randomUUID(),
        ownerId: a.ownerId,
        approverId: a.id,
        certificateNumber: body.certificateNumber,
        dateOfDeath: body.dateOfDeath,
        issuingAuthority: body.issuingAuthority,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [deathReports.ownerId, deathReports.approverId],
        set: { certificateNumber: body.certificateNumber, dateOfDeath: body.dateOfDeath, issuingAuthority: body.issuingAuthority, createdAt: now },
      })
    await engineCtx(c.env, now).audit(a.ownerId, { actor: 'approver', action: 'trigger.death_confirmed', details: { approverId: a.id } })
    // The owner's object fires the verified-death triggers (unless a payment hold applies).
    await ownerGuard(c.env, a.ownerId).tick(a.ownerId, now)
    return c.json({ message: RELEASE_MESSAGES.deathConfirmed })
  })
  // The beneficiary portal.
  .get('/beneficiaries/:id/portal', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { b, ownerName } = await beneficiaryFor(c.env, c.var.db, c.req.valid('param').id, c.req.valid('query').token)
    const [pending] = await c.var.db
      .select({ id: releasedAssets.id })
      .from(releasedAssets)
      .where(and(eq(releasedAssets.beneficiaryId, b.id), eq(releasedAssets.status, 'pending_identity')))
      .limit(1)
    const view: BeneficiaryPortalView = { fullName: b.fullName, ownerName, identityStatus: b.identityStatus, identityRequired: !!pending }
    return c.json(view)
  })
  .get('/beneficiaries/:id/assets', linkLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { b } = await beneficiaryFor(c.env, c.var.db, c.req.valid('param').id, c.req.valid('query').token)
    const now = Date.now()
    const rows = await c.var.db
      .select({ a: releasedAssets, v: vaultItems, wrappedKey: itemGrants.wrappedKey })
      .from(releasedAssets)
      .innerJoin(vaultItems, and(eq(vaultItems.id, releasedAssets.itemId), eq(vaultItems.status, 'active')))
      .innerJoin(itemGrants, and(eq(itemGrants.itemId, releasedAssets.itemId), eq(itemGrants.beneficiaryId, releasedAssets.beneficiaryId)))
      .where(eq(releasedAssets.beneficiaryId, b.id))
      .orderBy(releasedAssets.createdAt)
    const assets: ReleasedAsset[] = rows.map(({ a, v, wrappedKey }) => ({
      id: a.id,
      status: assetStatus(a, now),
      downloadCount: a.downloadCount,
      maxDownloads: a.maxDownloads,
      expiresAt: a.expiresAt === null ? null : new Date(a.expiresAt).toISOString(),
      releasedAt: new Date(a.createdAt).toISOString(),
      vaultItem: { id: v.id, type: v.type, encryptedMetadata: v.encryptedMetadata ?? '', wrappedKey, plainSize: v.plainSize },
    }))
    return c.json(assets)
  })
  .get('/beneficiaries/:id/assets/:assetId/download', linkLimit, validate('param', assetParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { id, assetId } = c.req.valid('param')
    const { b } = await beneficiaryFor(c.env, c.var.db, id, c.req.valid('query').token)
    const now = Date.now()
    // One guarded increment: concurrent downloads can never pass the maximum.
    const [counted] = await c.var.db
      .update(releasedAssets)
      .set({ downloadCount: sql`${releasedAssets.downloadCount} + 1` })
      .where(
        and(
          eq(releasedAssets.id, assetId),
          eq(releasedAssets.beneficiaryId, b.id),
          eq(releasedAssets.status, 'available'),
          sql`${releasedAssets.downloadCount} < ${releasedAssets.maxDownloads}`,
          sql`(${releasedAssets.expiresAt} is null or ${releasedAssets.expiresAt} > ${now})`,
        ),
      )
      .returning()
    if (!counted) {
      const [asset] = await c.var.db
        .select()
        .from(releasedAssets)
        .where(and(eq(releasedAssets.id, assetId), eq(releasedAssets.beneficiaryId, b.id)))
      if (!asset) throw notFound(RELEASE_MESSAGES.assetNotFound)
      const status = assetStatus(asset, now)
      if (status === 'pending_identity') throw conflict(RELEASE_MESSAGES.assetPendingIdentity)
      if (status === 'expired') throw new ApiError(410, RELEASE_MESSAGES.assetExpired)
      throw forbidden(RELEASE_MESSAGES.downloadLimit)
    }
    const [row] = await c.var.db
      .select({ v: vaultItems, wrappedKey: itemGrants.wrappedKey })
      .from(vaultItems)
      .innerJoin(itemGrants, and(eq(itemGrants.itemId, vaultItems.id), eq(itemGrants.beneficiaryId, b.id)))
      .where(and(eq(vaultItems.id, counted.itemId), eq(vaultItems.status, 'active')))
    if (!row) throw notFound(RELEASE_MESSAGES.assetNotFound)
    const ticket = await signLinkToken(c.env, 'assetContent', `${assetId}:${b.id}`, undefined, now)
    await engineCtx(c.env, now).audit(counted.ownerId, {
      actor: 'beneficiary',
      action: 'release.downloaded',
      details: { assetId, beneficiaryId: b.id, downloadCount: counted.downloadCount },
    })
    const body: AssetDownload = {
      encryptedMasterKey: row.wrappedKey,
      downloadCount: counted.downloadCount,
      maxDownloads: counted.maxDownloads,
      item: {
        id: row.v.id,
        type: row.v.type,
        encryptedMetadata: row.v.encryptedMetadata ?? '',
        plainSize: row.v.plainSize,
        cipherSize: row.v.cipherSize,
        chunkBytes: row.v.chunkBytes,
        partCount: row.v.partCount,
      },
      contentUrl: `/api/beneficiaries/${id}/assets/${assetId}/content?ticket=${encodeURIComponent(ticket)}`,
    }
    return c.json(body)
  })
  .get('/beneficiaries/:id/assets/:assetId/content', linkLimit, validate('param', assetParam), validate('query', ticketQuery), async (c) => {
    const { id, assetId } = c.req.valid('param')
    const subject = await subjectOf(c.env, 'assetContent', c.req.valid('query').ticket)
    if (subject !== `${assetId}:${id}`) throw forbidden(RELEASE_MESSAGES.linkInvalid)
    const [row] = await c.var.db
      .select({ r2Key: vaultItems.r2Key })
      .from(releasedAssets)
      .innerJoin(vaultItems, and(eq(vaultItems.id, releasedAssets.itemId), eq(vaultItems.status, 'active')))
      .where(and(eq(releasedAssets.id, assetId), eq(releasedAssets.beneficiaryId, id)))
    if (!row) throw notFound(RELEASE_MESSAGES.assetNotFound)
    const object = await c.env.BLOBS.get(row.r2Key)
    if (!object) throw notFound(RELEASE_MESSAGES.assetNotFound)
    return new Response(object.body, {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(object.size), 'cache-control': 'no-store' },
    })
  })
  .post('/beneficiaries/:id/identity-document', linkLimit, uploadLimit, validate('param', beneficiaryParam), validate('query', beneficiaryAccessQuerySchema), async (c) => {
    const { b } = await beneficiaryFor(c.env, c.var.db, c.req.valid('param').id, c.req.valid('query').token)
    if (b.identityStatus === 'pending' || b.identityStatus === 'verified') throw conflict(`Your identity is already ${b.identityStatus === 'pending' ? 'being reviewed' : 'verified'}.`)
    const upload = await readUpload(c, 'frontImage', IDENTITY_MESSAGES.frontRequired)
    const [owner] = await c.var.db.select().from(users).where(eq(users.id, b.ownerId))
    if (!owner) throw badRequest(RELEASE_MESSAGES.linkInvalid)
    await submitDocument(c.var.db, c.env, c.executionCtx, owner, b.id, upload)
    await engineCtx(c.env).audit(owner.id, { actor: 'beneficiary', action: 'release.identity_submitted', details: { beneficiaryId: b.id } })
    return c.json({ identityStatus: 'pending' as const }, 201)
  })
