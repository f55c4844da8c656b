import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { AUDIT_PAGE_MAX, auditPageQuerySchema } from '../../contract/audit'
import { biometricFailureBodySchema, manualReleaseBodySchema, TRIGGER_MESSAGES, unlockSuccessBodySchema, type EngineStatus } from '../../contract/triggers'
import { engineState } from '../db/schema'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { requireOwner } from '../middleware/subscription'
import { requireFreshProof } from '../middleware/fresh-proof'
import { tellOwner } from '../services/trust-mail'
import { jsonBodyLimit } from '../middleware/body-limit'
import { paymentHeld } from '../owner/account'
import { accountIn, vaultOf } from '../middleware/owner-vault'
import { type OwnerVaultStub } from '../owner/client'
import { ask } from '../owner/outcome'
import type { AppEnv } from '../types'

const triggerParam = z.object({ id: z.uuid(TRIGGER_MESSAGES.triggerNotFound) })
const releaseParam = z.object({ releaseId: z.uuid('Release not found.') })
// Three missed cron runs (every 5 minutes) and the engine is reported stopped.
const SWEEP_STALE_MS = 15 * 60_000
const iso = (at: number | null | undefined) => (at == null ? null : new Date(at).toISOString())

/**
 * GET /api/audit/export: every entry from seq 1 as one JSON array, oldest first, read from the
 * object a page at a time as the client takes it, so a chain of any length streams in flat memory.
 */
function auditExportStream(vault: OwnerVaultStub): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let next = 1
  let done = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return
      const page = await vault.audit().listAuditFrom(next, AUDIT_PAGE_MAX)
      const body = page.map((entry) => JSON.stringify(entry)).join(',')
      const head = next === 1 ? '[' : page.length ? ',' : ''
      done = page.length < AUDIT_PAGE_MAX
      controller.enqueue(encoder.encode(head + body + (done ? ']' : '')))
      if (done) controller.close()
      else next = page.at(-1)!.seq + 1
    },
  })
}

export const engineRoutes = new Hono<AppEnv>()
  // Status, cancelling a release and checking in are open without a plan (worker/middleware/subscription.ts).
  .get('/trigger-engine/status', requireUser, async (c) => {
    const owner = accountIn(c)
    const now = Date.now()
    const [{ clock, releases }, [sweep]] = await Promise.all([
      ask(vaultOf(c).engine().engineStatus(owner, now)),
      c.var.db.select().from(engineState).where(eq(engineState.key, 'lastSweepAt')),
    ])
    const sweepFresh = !!sweep && now - sweep.value < SWEEP_STALE_MS
    const alarmArmed = clock.nextAlarmAt !== null && clock.nextAlarmAt > now - SWEEP_STALE_MS
    const status: EngineStatus = {
      isRunning: sweepFresh || alarmArmed,
      nextAlarmAt: iso(clock.nextAlarmAt),
      lastSweepAt: iso(sweep?.value),
      lastCheckInAt: iso(clock.lastCheckInAt),
      inactivityTriggerId: clock.schedule?.triggerId ?? null,
      nextCheckInAt: iso(clock.nextCheckInAt),
      reminderAt: iso(clock.reminderAt),
      firesAt: iso(clock.firesAt),
      phase: clock.phase,
      pingFrequencyDays: clock.schedule?.frequencyDays ?? null,
      graceDays: clock.schedule?.graceDays ?? null,
      paymentHoldUntil: paymentHeld(owner, now) ? iso(owner.paymentGraceUntil) : null,
      releases,
    }
    return c.json(status)
  })
  .post('/trigger-engine/dry-run/:id', requireOwner, validate('param', triggerParam), async (c) =>
    c.json(await ask(vaultOf(c).engine().dryRun(accountIn(c), c.req.valid('param').id))),
  )
  .post('/trigger-engine/manual/:id', requireOwner, requireFreshProof, jsonBodyLimit, validate('param', triggerParam), validate('json', manualReleaseBodySchema), async (c) => {
    const result = await ask(vaultOf(c).engine().manualRelease(accountIn(c), c.req.valid('param').id, c.req.valid('json').reason))
    await tellOwner(c, c.var.account, 'manual_release')
    return c.json(result)
  })
  .post('/trigger-engine/releases/:releaseId/cancel', requireUser, validate('param', releaseParam), async (c) =>
    c.json(await ask(vaultOf(c).engine().cancelRelease(accountIn(c), c.req.valid('param').releaseId, c.var.trustedDevice === true))),
  )
  .post('/trigger-engine/biometric-failure', requireOwner, jsonBodyLimit, validate('json', biometricFailureBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).engine().recordUnlockFailure(c.req.valid('json').kind, accountIn(c)))),
  )
  // A right vault passphrase: forgives the failed attempts of the minutes before it.
  .post('/trigger-engine/unlock-success', requireOwner, jsonBodyLimit, validate('json', unlockSuccessBodySchema), async (c) =>
    c.json(await ask(vaultOf(c).engine().recordUnlockSuccess(c.req.valid('json').kind, accountIn(c)))),
  )
  .post('/inactivity/ping', requireUser, async (c) => {
    const { clock, cancelledReleases } = await ask(vaultOf(c).checkIn('app', accountIn(c), Date.now(), c.var.trustedDevice === true))
    return c.json({ lastCheckInAt: iso(clock.lastCheckInAt), nextCheckInAt: iso(clock.nextCheckInAt), cancelledReleases })
  })
  .get('/audit', requireOwner, validate('query', auditPageQuerySchema), async (c) => {
    const { from, limit } = c.req.valid('query')
    return c.json(from === undefined ? await vaultOf(c).audit().listAudit(limit) : await vaultOf(c).audit().listAuditFrom(from, limit))
  })
  .get('/audit/export', requireOwner, (c) =>
    new Response(auditExportStream(vaultOf(c)), {
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': 'attachment; filename="audit-log.json"' },
    }),
  )
  .get('/release-readiness', requireOwner, async (c) => c.json(await vaultOf(c).circle().releaseReadiness(accountIn(c))))
  .get('/audit/verify', requireOwner, async (c) => c.json(await vaultOf(c).audit().verifyAudit()))
