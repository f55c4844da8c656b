import { runDurableObjectAlarm } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { runSweeps } from '../../worker/cron'
import { createTrigger, firingCount, guard, ownerWithItem } from './engine-helpers'
import { call, env } from './helpers'
import { DAY, MINUTE } from './simulation/oracle'
import { billThroughStripe, deliverInvoice, runSimulation, type SimulationOptions, type SimulationResult } from './simulation/world'

// Release-promise simulation (docs/release-engine.md: nothing released early, nothing promised
// lost, nothing late). Owners with random check-ins (app, e-mailed link, sign-in), settings
// changes (which must not move the clock), edits of the inactivity trigger's schedule, a second
// inactivity trigger refused, every check-in e-mail's deadline read from its text, payment failures and recoveries (signed Stripe webhooks), pauses, new triggers and
// policies, failed unlocks and manual releases, approvers invited, verified (after the triggers
// exist), removed and reporting a death, audit appends that fail, and heirs who lost their e-mail
// asking for a new link, driven through ~4 simulated months of alarms
// (some lost, delayed, rung twice or early, some concurrent with the sweep) and cron sweeps.
// simulation/oracle.ts holds the independent model, its rules and the definition of "one sweep
// interval"; simulation/world.ts the driver. A failing run names its seed, step, simulated day and
// the owner's recent actions; `runSimulation(seed, OPTIONS)` replays it action for action.

const OPTIONS: SimulationOptions = { owners: 8, days: 120, maxSteps: 400 }
// Seeds 4 and 7 each exercise everything below on their own (5 and 10 pass too, exercising less;
// scanned 2026-11-27 with access requests and every fourth owner watching trusted devices). Two
// seeds, because alarms and sweeps racing in a step can change a seed's later course: the list is
// checked across both runs.
const PASSING_SEEDS = [4, 7]
// Everything the runs must have exercised for their "no violations" to mean something.
const EXERCISED = [
  'firings.inactivity',
  'firings.scheduled',
  'firings.scheduled_item',
  'firings.biometric_failure',
  'firings.manual',
  'releases.released',
  'releases.cancelled',
  'mails.check_in',
  'mails.check_in_reminder',
  'alarms.lost',
  'alarms.delayed',
  'alarms.double',
  'sweeps.double',
  'actions.payment_failed',
  'actions.payment_restored',
  'actions.settings',
  'actions.edit_schedule',
  'actions.toggle_trigger',
  'actions.checkin_link',
  'actions.sign_in',
  'actions.audit_failure',
  'actions.portal_rerequest',
  'actions.verify_approver',
  'actions.remove_approver',
  'actions.report_death',
  'actions.replay_report',
  'actions.mistype_then_unlock',
  'assets.fetchRefused',
  'readiness.ready',
  'readiness.emptyVaultChecked',
  'actions.cancel_link',
  'releases.withdrawn',
  'firings.verified_death',
  'firings.device_loss',
  'actions.trusted_use',
  'actions.trusted_sign_in',
  'firings.access_request',
  'actions.ask_access',
  'actions.refuse_access',
  'actions.live_while_asked',
  'requests.refused',
  'requests.released',
  'requests.answered409',
]

function report(result: SimulationResult): string {
  return `seed ${result.seed}: ${JSON.stringify(result.stats)}\n${result.violations.join('\n\n')}`
}

describe('release engine simulation', () => {
  const exercised = new Map<string, number>()
  for (const seed of PASSING_SEEDS) {
    // Bounds for a hang, not speed checks: about 25 s each on a quiet machine, over 170 s on one
    // at load 23 (where 150 s failed them).
    it(`keeps the release promise through ${OPTIONS.days} simulated days (seed ${seed})`, { timeout: 600_000 }, async () => {
      const result = await runSimulation(seed, OPTIONS)
      console.log(`release simulation, seed ${seed}: ${JSON.stringify(result.stats)}`)
      expect(result.violations, report(result)).toEqual([])
      for (const [key, n] of Object.entries(result.stats)) exercised.set(key, (exercised.get(key) ?? 0) + n)
      expect(result.stats.simulatedDays).toBeGreaterThanOrEqual(OPTIONS.days)
    })
  }

  it(`exercised everything across seeds ${PASSING_SEEDS.join(' and ')}`, () => {
    for (const key of EXERCISED) expect(exercised.get(key) ?? 0, `seeds ${PASSING_SEEDS.join(', ')} never exercised ${key}`).toBeGreaterThan(0)
  })

  // A payment restored during its grace lets held firings go at once (invoice.paid ticks the
  // owner's engine): seed 18 once found them waiting for the grace's old end. Owner #1's renewal
  // fails at day 0.0076, a failed unlock at day 4.64 reaches the biometric trigger's threshold
  // (held), the payment is restored at day 5.9035; by day 7.0014 the trigger must have fired. (The
  // setup has drawn differently since 0.3 · 5 of 7, so seed 18 now runs another course; the test
  // below pins the case in its smallest form.)
  it('held firings go by the next sweep once the payment is restored (seed 18, step 17)', { timeout: 300_000 }, async () => {
    const result = await runSimulation(18, { ...OPTIONS, maxSteps: 17 })
    expect(result.violations, report(result)).toEqual([])
  })

  // The same in its smallest form.
  it('an inactivity trigger held by a payment grace fires at the first sweep after invoice.paid', async () => {
    const start = Math.ceil((Date.now() + DAY) / MINUTE) * MINUTE
    vi.useFakeTimers({ toFake: ['Date'] })
    let ownerId: string | null = null
    try {
      vi.setSystemTime(start)
      const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
      ownerId = s.ownerId
      const billing = { customerId: `cus_repro_${crypto.randomUUID().slice(0, 8)}`, subscriptionId: `sub_repro_${crypto.randomUUID().slice(0, 8)}` }
      await billThroughStripe(s.ownerId, billing.customerId, billing.subscriptionId)
      await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'weekly', gracePeriod: 3 } })
      expect((await call('/api/inactivity/ping', { method: 'POST', token: s.token })).status).toBe(200)
      // Day 7: the check-in e-mail (weekly); the trigger's 3-day grace ends on day 10.
      vi.setSystemTime(start + 7 * DAY)
      expect(await runDurableObjectAlarm(guard(s.ownerId))).toBe(true)
      // Day 9: a renewal fails; the payment grace runs to day 16.
      vi.setSystemTime(start + 9 * DAY)
      expect(await deliverInvoice('invoice.payment_failed', billing)).toBe(200)
      // Day 10.5: the trigger's grace has run out, but the payment grace holds it.
      vi.setSystemTime(start + 10.5 * DAY)
      await runDurableObjectAlarm(guard(s.ownerId))
      await runSweeps(env, start + 10.5 * DAY)
      expect(await firingCount(s.ownerId)).toBe(0)
      // Day 11: the payment goes through. Nothing holds the trigger any more: the next sweeps must fire it.
      vi.setSystemTime(start + 11 * DAY)
      expect(await deliverInvoice('invoice.paid', billing)).toBe(200)
      for (const at of [start + 11 * DAY + 5 * MINUTE, start + 11 * DAY + 10 * MINUTE, start + 12 * DAY]) {
        vi.setSystemTime(at)
        await runSweeps(env, at)
      }
      expect(await firingCount(s.ownerId)).toBe(1)
    } finally {
      vi.useRealTimers()
      if (ownerId) await env.DB.prepare('delete from users where id = ?').bind(ownerId).run()
    }
  })
})
