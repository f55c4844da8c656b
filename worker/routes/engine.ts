import { and, desc, eq, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { CHECKIN_GRACE_DAYS } from '../../contract/constants'
import {
  biometricFailureBodySchema,
  manualReleaseBodySchema,
  TRIGGER_MESSAGES,
  type DryRunResult,
  type EngineStatus,
  type ManualReleaseResult,
  type ReleaseSummary,
} from '../../contract/triggers'
import { beneficiaries, engineState, firings, releases, releaseSignoffs, type ReleaseRow } from '../db/schema'
import type { Db } from '../db/client'
import { cancelWaiting } from '../engine/cancel'
import { engineCtx } from '../engine/context'
import { fire } from '../engine/fire'
import { recordUnlockFailure } from '../engine/unlock-failures'
import { planFiring } from '../engine/plan'
import { conflict, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireOwner } from '../middleware/subscription'
import { jsonBodyLimit } from '../middleware/body-limit'
import { ownerGuard } from '../services/owner-activity'
import { findTrigger } from '../services/triggers'
import type { AppEnv } from '../types'

const triggerParam = z.object({ id: z.uuid(TRIGGER_MESSAGES.triggerNotFound) })
const releaseParam = z.object({ releaseId: z.uuid('Release not found.') })
// Three missed cron runs (every 5 minutes) and the engine is reported stopped.
const SWEEP_STALE_MS = 15 * 60_000
const iso = (at: number | null | undefined) => (at == null ? null : new Date(at).toISOString())

async function releaseSummaries(db: Db, ownerId: string, where?: ReturnType<typeof eq>): Promise<ReleaseSummary[]> {
  const rows = await db
    .select({
      r: releases,
      kind: firings.kind,
      triggerId: firings.triggerId,
      approvals: sql<number>`(select count(*) from ${releaseSignoffs} where ${releaseSignoffs.releaseId} = ${releases.id} and ${releaseSignoffs.decision} = 'approved')`,
    })
    .from(releases)
    .innerJoin(firings, eq(firings.id, releases.firingId))
    .where(and(eq(releases.ownerId, ownerId), where))
    .orderBy(desc(releases.createdAt))
    .limit(100)
  return rows.map(({ r, kind, triggerId, approvals }) => toSummary(r, kind, triggerId, approvals))
}

function toSummary(r: ReleaseRow, kind: string, triggerId: string | null, approvals: number): ReleaseSummary {
  return {
    id: r.id,
    triggerId,
    kind,
    source: r.sourceKey.split(':')[0] as ReleaseSummary['source'],
    sourceName: r.sourceName,
    status: r.status,
    releaseAt: iso(r.releaseAt)!,
    approvals,
    requiredApprovals: r.requiredApprovals,
    identityRequired: r.identityRequired,
    createdAt: iso(r.createdAt)!,
    releasedAt: iso(r.releasedAt),
    cancelledAt: iso(r.cancelledAt),
  }
}

export const engineRoutes = new Hono<AppEnv>()
  .get('/trigger-engine/status', requireOwner, async (c) => {
    const owner = c.var.user
    const now = Date.now()
    const clock = await ownerGuard(c.env, owner.id).clockView(owner.id, now)
    const [sweep] = await c.var.db.select().from(engineState).where(eq(engineState.key, 'lastSweepAt'))
    const sweepFresh = !!sweep && now - sweep.value < SWEEP_STALE_MS
    const alarmArmed = clock.nextAlarmAt !== null && clock.nextAlarmAt > now - SWEEP_STALE_MS
    const status: EngineStatus = {
      isRunning: sweepFresh || alarmArmed,
      nextAlarmAt: iso(clock.nextAlarmAt),
      lastSweepAt: iso(sweep?.value),
      lastCheckInAt: iso(clock.lastCheckInAt),
      nextCheckInAt: iso(clock.nextCheckInAt),
      phase: clock.phase,
      pingFrequencyDays: clock.frequencyDays,
      graceDays: CHECKIN_GRACE_DAYS,
      paymentHoldUntil: owner.paymentGraceUntil !== null && owner.paymentGraceUntil > now ? iso(owner.paymentGraceUntil) : null,
      releases: await releaseSummaries(c.var.db, owner.id),
    }
    return c.json(status)
  })
  .post('/trigger-engine/dry-run/:id', requireOwner, validate('param', triggerParam), async (c) => {
    const owner = c.var.user
    const now = Date.now()
    const trigger = await findTrigger(c.var.db, owner.id, c.req.valid('param').id)
    const clock = await ownerGuard(c.env, owner.id).clockView(owner.id, now)
    const plans = await planFiring(
      c.var.db,
      owner.id,
      {
        type: trigger.type,
        manual: true,
        triggerId: trigger.id,
        scheduledBeneficiaries: trigger.type === 'scheduled' ? ((trigger.config.beneficiaries as string[]) ?? []) : undefined,
      },
      now,
      clock.lastCheckInAt,
    )
    const people = await c.var.db.select().from(beneficiaries).where(eq(beneficiaries.ownerId, owner.id))
    const byId = new Map(people.map((p) => [p.id, p]))
    const result: DryRunResult = {
      triggerId: trigger.id,
      type: trigger.type,
      entries: plans.map((p) => ({
        source: p.source,
        itemIds: [...new Set(p.targets.map((t) => t.itemId))],
        beneficiaries: [...new Set(p.targets.map((t) => t.beneficiaryId))].flatMap((id) => {
          const b = byId.get(id)
          return b
            ? [{ id, fullName: b.fullName, identityRequired: p.identityRequired, identityVerified: b.identityStatus === 'verified', secrecyMode: b.delayNotifications }]
            : []
        }),
        conditions: { delayHours: p.delayHours, minimumApprovals: p.requiredApprovals, approvers: p.signers.map((s) => s.name), identityRequired: p.identityRequired },
      })),
      itemCount: new Set(plans.flatMap((p) => p.targets.map((t) => t.itemId))).size,
      beneficiaryCount: new Set(plans.flatMap((p) => p.targets.map((t) => t.beneficiaryId))).size,
      paymentHold: owner.paymentGraceUntil !== null && owner.paymentGraceUntil > now,
    }
    return c.json(result)
  })
  .post('/trigger-engine/manual/:id', requireOwner, jsonBodyLimit, validate('param', triggerParam), validate('json', manualReleaseBodySchema), async (c) => {
    const owner = c.var.user
    const now = Date.now()
    const trigger = await findTrigger(c.var.db, owner.id, c.req.valid('param').id)
    if (trigger.status === 'triggered') throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
    const clock = await ownerGuard(c.env, owner.id).clockView(owner.id, now)
    const result = await fire(engineCtx(c.env, now), {
      ownerId: owner.id,
      trigger,
      kind: 'manual',
      reason: c.req.valid('json').reason,
      actor: 'user',
      lastCheckInAt: clock.lastCheckInAt,
    })
    if (!result.fired) throw conflict(TRIGGER_MESSAGES.alreadyTriggered)
    // Arms the alarm for whatever now waits (a delay, approvals).
    await ownerGuard(c.env, owner.id).tick(owner.id)
    const body: ManualReleaseResult = {
      transferredItems: result.transferredItems,
      beneficiariesNotified: result.beneficiariesNotified,
      pendingReleases: result.pendingReleases,
    }
    return c.json(body)
  })
  .post('/trigger-engine/releases/:releaseId/cancel', requireOwner, validate('param', releaseParam), async (c) => {
    const owner = c.var.user
    const id = c.req.valid('param').releaseId
    const [existing] = await releaseSummaries(c.var.db, owner.id, eq(releases.id, id))
    if (!existing) throw notFound('Release not found.')
    const n = await cancelWaiting(engineCtx(c.env), owner.id, { releaseId: id }, 'user')
    if (n === 0) throw conflict('This release is no longer waiting: it was already released or cancelled.')
    const [after] = await releaseSummaries(c.var.db, owner.id, eq(releases.id, id))
    return c.json(after!)
  })
  .post('/trigger-engine/biometric-failure', requireOwner, jsonBodyLimit, validate('json', biometricFailureBodySchema), async (c) =>
    c.json(await recordUnlockFailure(c.env, c.var.db, c.var.user.id, c.req.valid('json').kind)),
  )
  .post('/inactivity/ping', requireOwner, async (c) => {
    const owner = c.var.user
    const { clock, cancelledReleases } = await ownerGuard(c.env, owner.id).checkIn(owner.id, Date.now(), 'app')
    return c.json({ lastCheckInAt: iso(clock.lastCheckInAt), nextCheckInAt: iso(clock.nextCheckInAt), cancelledReleases })
  })
  .get('/audit', requireOwner, async (c) => c.json(await ownerGuard(c.env, c.var.user.id).listAudit()))
  .get('/audit/verify', requireOwner, async (c) => c.json(await ownerGuard(c.env, c.var.user.id).verifyAudit()))
