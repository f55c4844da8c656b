import { mirrorAccount } from '../../../worker/owner/account'
import { createExecutionContext, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test'
import { vi } from 'vitest'
import { app } from '../../../worker/app'
import { runSweeps } from '../../../worker/cron'
import type { OwnerVault } from '../../../worker/host/vault-object'
import { signLinkToken } from '../../../worker/lib/link-tokens'
import { guard } from '../engine-helpers'
import { addBeneficiary, call, env, freshIp, ownerSessions, register, sessionFor } from '../helpers'
import { stripeEnv, stripeSignature } from '../stripe-env'
import { publicKey, uploadItem } from '../vault-helpers'
import {
  DAY,
  HOUR,
  MINUTE,
  Oracle,
  UNLOCK_FORGIVE,
  advanceGap,
  cancelFiring,
  checkIn,
  dueTimes,
  expectedAsk,
  lockedOut,
  newOwner,
  paymentFailed,
  paymentRestored,
  refuseRequest,
  requestWaiting,
  settle,
  signIn,
  trustedUse,
  type AssetRow,
  type FiringRow,
  type MailRow,
  type MOwner,
  type MPolicy,
  type MTrigger,
  type PingFrequency,
  type Protocol,
  type ReleaseRow,
  type SimTriggerType,
  type Snapshot,
  type TriggerRow,
} from './oracle'
import { mulberry32, type Rng } from './prng'
import { servingTrigger, type ReleaseReadiness } from '../../../contract/readiness'

// The driver of the release-promise simulation: owners made through the real API, then simulated
// months in which, step by step, owners act (through the API, a signed Stripe webhook, or their
// Durable Object for a sign-in), alarms ring (or are lost, delayed, rung twice, rung early) and the
// cron sweep runs. The whole worker (API, Durable Object, sweep) runs on the simulated clock:
// vitest's fake Date is shared with the Durable Objects here, so `Date.now()` inside the server is
// the step's time. The oracle (oracle.ts) checks every step.

export interface SimulationOptions {
  owners: number
  days: number
  maxSteps: number
  /** Per owner and step, the chance of one action. */
  actionChance?: number
}

export interface SimulationResult {
  seed: number
  violations: string[]
  stats: Record<string, number>
}

type Persona = 'diligent' | 'forgetful' | 'gone'

interface SimOwner {
  m: MOwner
  persona: Persona
  token: string
  sessionAt: number
  customerId: string
  subscriptionId: string
  /** The newest check-in e-mail (its link checks in for 30 days). */
  /** The newest check-in e-mail, as it reached the owner's inbox: its time and the link in it. */
  lastMail: { id: string; at: number; text: string } | null
  /** Beneficiary id → address: an heir who lost their e-mail asks for a new link with it. */
  heirEmails: Map<string, string>
  /** The owner's approvers: whether they confirmed their address, and the report link they hold. */
  approvers: SimApprover[]
  /** Report links spent: 'used' (a report was made with it) or 'void' (a cancel voided it); replayed to see them refused. */
  spentReportLinks: Map<string, 'used' | 'void'>
  /** The cancel links of the "a release has started" e-mails the owner received, and when. */
  cancelLinks: Array<{ token: string; at: number }>
  /** Access request id → the Refuse link of the e-mail that asked the owner about it. */
  refuseLinks: Map<string, string>
}

interface SimApprover {
  id: string
  email: string
  /** The token of the invitation's verification link (kept: delivered mail leaves the outbox). */
  inviteToken: string | null
  invitedAt: number
  verified: boolean
  reportToken: string | null
  /** Whether a report link ever reached them (later ones come only when the owner re-arms or resends). */
  everLinked?: boolean
}

const b64 = (s: string) => btoa(s)
const short = (id: string) => id.slice(0, 8)

/** A renewal invoice event, signed as Stripe signs it, through the app with Stripe configured. */
export async function deliverInvoice(type: 'invoice.payment_failed' | 'invoice.paid', o: { customerId: string; subscriptionId: string }): Promise<number> {
  const created = Math.floor(Date.now() / 1000)
  const invoice = {
    id: `in_sim_${crypto.randomUUID().slice(0, 12)}`,
    object: 'invoice',
    customer: o.customerId,
    billing_reason: 'subscription_cycle',
    amount_paid: type === 'invoice.paid' ? 2999 : 0,
    parent: { type: 'subscription_details', subscription_details: { subscription: o.subscriptionId } },
  }
  const payload = JSON.stringify({ id: `evt_sim_${crypto.randomUUID()}`, object: 'event', type, api_version: '2026-10-28.endive', created, data: { object: invoice } })
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request('http://localhost/api/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp(), 'stripe-signature': await stripeSignature(payload, created) },
      body: payload,
    }),
    stripeEnv,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res.status
}

/** The release-promise simulation for one seed. */
export async function runSimulation(seed: number, options: SimulationOptions): Promise<SimulationResult> {
  const rng = mulberry32(seed)
  // Access requests draw from a stream of their own, so the other actions of a seed keep their course.
  const askRng = mulberry32(seed ^ 0x5eed_ac55)
  const stats: Record<string, number> = {}
  const count = (key: string, n = 1) => {
    stats[key] = (stats[key] ?? 0) + n
  }
  // Whole minutes keep the printed days readable; the real clock is a day behind, so no alarm
  // set by the simulation can ever ring on its own.
  const start = Math.ceil((Date.now() + DAY) / MINUTE) * MINUTE
  vi.useFakeTimers({ toFake: ['Date'] })
  const owners: SimOwner[] = []
  const t0 = performance.now()
  try {
    vi.setSystemTime(start)
    for (let i = 0; i < options.owners; i++) owners.push(await setUpOwner(rng, i, start))
    // An owner with an empty vault (no one, nothing, no trigger), paying, who never acts: readiness
    // must say so at every step, whatever the clock and the sweeps do around it (no random draws).
    const empty = await register({ displayName: 'Sim Owner with nothing yet' })
    await billThroughStripe(empty.user.id, `cus_sim_${crypto.randomUUID().slice(0, 12)}`, `sub_sim_${crypto.randomUUID().slice(0, 12)}`)
    // One owner's chain starts longer than a page (1 000 entries): it must verify whole all along.
    if (owners[0]) await guard(owners[0].m.id).audit().appendAuditMany(Array.from({ length: 1_050 }, (_, i) => ({ actor: 'system' as const, action: 'checkin.reminder_sent', details: { n: i } })))
    // Let the registrations' background sign-of-life reports land before the clock starts.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const oracle = new Oracle(seed, owners.map((o) => o.m), start)
    stats.setupMs = performance.now() - t0

    // The simulation's clock starts with a check-in from the app: L0 is known to the model.
    let now = start + MINUTE
    vi.setSystemTime(now)
    for (const o of owners) {
      const res = await call('/api/inactivity/ping', { method: 'POST', token: o.token })
      if (res.status !== 200) throw new Error(`initial check-in failed: ${res.status} ${await res.text()}`)
      checkIn(o.m, now)
      oracle.note(o.m, now, 'check-in (app), the simulation starts')
    }
    const seenMails = new Set<string>()
    await observe(oracle, owners, now, 0, seenMails, start, count)

    // One step: time jumps to the step's moment (nothing happened in between, under the state the
    // model had); some owners act; each owner's alarm rings if it is due (or is lost, delayed,
    // doubled, or rings early); the cron sweep runs; then the server's tables are checked against
    // the model (nothing early) and every condition held for a sweep margin must be acted on (nothing
    // missed or late).
    const end = start + options.days * DAY
    let step = 0
    while (now < end && step < options.maxSteps) {
      step++
      const prev = now
      now = Math.min(nextTime(rng, owners, now), Math.max(end, prev + 1))
      vi.setSystemTime(now)
      count('steps')
      for (const o of owners) advanceGap(o.m, prev, now)

      let t1 = performance.now()
      const acted = new Set<SimOwner>()
      for (const o of owners) {
        if (!rng.chance(options.actionChance ?? 0.16)) continue
        acted.add(o)
        await act(rng, oracle, o, now, step, count)
      }
      // One act per owner and step: the model reads a firing's plan after the step, so a policy made
      // in the same step as a manual release would be counted in it.
      for (const o of owners) if (askRng.chance(0.07) && !acted.has(o)) await requestAct(askRng, oracle, o, now, step, count)
      for (const o of owners) settle(o.m, now)
      count('ms.actions', performance.now() - t1)
      t1 = performance.now()
      await engine(rng, oracle, owners, now, count)
      count('ms.engine', performance.now() - t1)
      t1 = performance.now()
      await observe(oracle, owners, now, step, seenMails, prev, count)
      count('ms.observe', performance.now() - t1)
      t1 = performance.now()
      await promiseChecks(oracle, owners, now, step, count)
      await emptyVaultCheck(oracle, owners[0]!.m, empty.user.id, now, step, count)
      count('ms.promise', performance.now() - t1)
      oracle.lateCheck(now, step)
      if (oracle.violations.length > 25) break
    }
    stats.simulatedDays = Math.round((now - start) / DAY)
    stats.runMs = performance.now() - t0
    for (const key of Object.keys(stats)) if (key.startsWith('ms.') || key.endsWith('Ms')) stats[key] = Math.round(stats[key]!)
    for (const o of owners) {
      for (const f of o.m.firings.values()) count(`firings.${f.kind}`)
      for (const r of o.m.releases.values()) count(`releases.${r.status}`)
      for (const r of o.m.releases.values()) if (r.kind === 'access_request') count(`requests.${r.status === 'cancelled' ? 'refused' : r.status}`)
    }
    return { seed, violations: oracle.violations, stats }
  } finally {
    vi.useRealTimers()
    // This run's owners leave the database, so a later run's sweeps do not tick them.
    if (owners.length > 0) {
      await env.DB.prepare('delete from users where id in (select value from json_each(?))')
        .bind(JSON.stringify(owners.map((o) => o.m.id)))
        .run()
    }
  }
}

/** The first link to `pathname` in a message's text, its token. */
function linkIn(text: string, pathname: string): string | null {
  const url = (text.match(/https?:\/\/\S+/g) ?? []).map((u) => new URL(u)).find((u) => u.pathname === pathname)
  return url?.searchParams.get('token') ?? null
}

/** The approver a death-report link is for (its signed subject). */
function reportLinkSubject(token: string): string {
  return JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).sub as string
}

/**
 * Every verified approver without a report link (or only `onlyId`, one who just verified: the
 * server sends them alone a link) must have just been sent one: keep it.
 */
async function collectReportLinks(oracle: Oracle, o: SimOwner, now: number, step: number, onlyId?: string): Promise<void> {
  for (const a of o.approvers.filter((x) => x.verified && !x.reportToken && (!onlyId || x.id === onlyId))) {
    const mail = await env.DB.prepare("select text from email_outbox where to_address = ? and kind = 'death_report_link' order by created_at desc").bind(a.email).first<{ text: string }>()
    const token = mail && linkIn(mail.text, '/confirm-death')
    if (!token) {
      if (!a.everLinked) oracle.fail(o.m, now, step, `verified approver ${short(a.id)} was sent no link to report a death`)
    } else if (!o.spentReportLinks.has(token)) {
      // A spent link is not a new one: this approver's link was used or voided and none was sent since.
      a.reportToken = token
      a.everLinked = true
    }
  }
}

/** After a sign of life: a cancel that re-armed a verified-death trigger voided every report link. */
function dropVoidedLinks(o: SimOwner): void {
  if (!o.m.reportLinksVoided) return
  o.m.reportLinksVoided = false
  for (const token of o.spentReportLinks.keys()) o.spentReportLinks.set(token, 'void')
  for (const a of o.approvers) {
    if (a.reportToken) o.spentReportLinks.set(a.reportToken, 'void')
    a.reportToken = null
  }
}

/** Beneficiaries with an asset (as last observed) not withdrawn and well inside its 90 days (80, a margin). */
function heirsWithAssets(m: MOwner, now: number): string[] {
  return [...new Set(m.assets.filter((a) => a.status !== 'withdrawn' && now - a.created_at <= 80 * DAY).map((a) => a.beneficiary_id))]
}

async function portalMailCount(email: string): Promise<number> {
  return (await env.DB.prepare("select count(*) as n from email_outbox where to_address = ? and kind = 'portal_link'").bind(email.toLowerCase()).first<{ n: number }>())!.n
}

async function waitForCount(read: () => Promise<number>, atLeast: number, ms = 1500): Promise<boolean> {
  // performance.now(): Date is the simulation's, and stands still.
  const until = performance.now() + ms
  for (;;) {
    if ((await read()) >= atLeast) return true
    if (performance.now() > until) return false
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

// ---- After every step ------------------------------------------------------------------------

/**
 * Each owner's audit chain verifies from the genesis hash (one owner's is longer than a page of
 * 1 000 from the start), and every item with a directly chosen beneficiary either has an active
 * trigger of the kind its own protocol waits for or is on the owner's readiness list, and is not
 * listed when it has one.
 */
async function promiseChecks(oracle: Oracle, owners: SimOwner[], now: number, step: number, count: (key: string, n?: number) => void): Promise<void> {
  for (const o of owners) {
    const chain = await guard(o.m.id).audit().verifyAudit()
    if (!chain.valid || !chain.headMatches) oracle.fail(o.m, now, step, `audit chain does not verify from genesis: ${JSON.stringify(chain)}`)
    const res = await call('/api/release-readiness', { token: o.token })
    // Locked out by an unpaid plan (402) or a session the simulation replaced: nothing to read.
    if (res.status !== 200) continue
    const readiness = (await res.json()) as ReleaseReadiness
    const stuck = new Set(readiness.problems.filter((p) => p.kind === 'item_trigger_missing' || p.kind === 'item_trigger_paused').map((p) => p.subject.id))
    for (const item of o.m.items) {
      if (![...item.grants.values()].some(Boolean)) continue
      const kind = servingTrigger(item.protocol)
      if (!kind) continue
      const served = o.m.triggers.some((t) => (kind === 'manual' ? t.status !== 'triggered' : t.type === kind && t.status === 'active'))
      count(served ? 'promise.itemsServed' : 'promise.itemsStuck')
      if (!served && !stuck.has(item.id)) oracle.fail(o.m, now, step, `item ${item.id.slice(0, 8)} (${item.protocol}) has no trigger to serve it and is not on the readiness list`)
      if (served && stuck.has(item.id)) oracle.fail(o.m, now, step, `item ${item.id.slice(0, 8)} (${item.protocol}) is listed as stuck though a trigger serves it`)
    }
    // Ready is never vacuous: it implies some item reaches some beneficiary through an active trigger.
    if (readiness.ready) {
      count('readiness.ready')
      if (!routeToAnHeir(o.m, now)) oracle.fail(o.m, now, step, 'readiness says ready, yet no item reaches a beneficiary through an active trigger')
    }
  }
}

/** An empty vault is never ready, and readiness says what is missing first (reported under owner #0's log). */
async function emptyVaultCheck(oracle: Oracle, any: MOwner, ownerId: string, now: number, step: number, count: (key: string, n?: number) => void): Promise<void> {
  // A session of the moment: the simulation's months outlast one.
  const res = await call('/api/release-readiness', { token: await sessionFor(ownerId, now) })
  if (res.status !== 200) return oracle.fail(any, now, step, `the empty vault's readiness answered ${res.status}`)
  const readiness = (await res.json()) as ReleaseReadiness
  count('readiness.emptyVaultChecked')
  if (readiness.ready || !readiness.problems.some((p) => p.kind === 'nothing_protected')) {
    oracle.fail(any, now, step, `an empty vault's readiness is ${JSON.stringify(readiness).slice(0, 300)}`)
  }
}

/** Whether, in the model, some item would reach some beneficiary through an active trigger (docs/, readiness). */
function routeToAnHeir(m: MOwner, now: number): boolean {
  const active = new Set<string>(m.triggers.filter((t) => t.status === 'active').map((t) => t.type))
  for (const item of m.items) {
    if (![...item.grants.values()].some(Boolean)) continue
    const kind = servingTrigger(item.protocol)
    if (kind === 'manual' ? active.size > 0 : kind !== null && active.has(kind)) return true
    if (item.protocol === 'SCHEDULED' && !item.fired && item.scheduledAt! > now) return true
  }
  for (const p of m.policies) {
    const reaches = m.items.some((i) => p.items.includes(i.id) && p.beneficiaries.some((b) => i.grants.has(b)))
    // A policy its beneficiaries may ask for is a way too (they need no trigger).
    if (p.active && reaches && (p.requestDays !== null || p.on.some((t) => active.has(t)))) return true
  }
  return m.triggers.some((t) => t.type === 'scheduled' && t.status === 'active' && m.items.some((i) => [...i.grants.keys()].some((b) => t.beneficiaries!.includes(b))))
}

// ---- Time ------------------------------------------------------------------------------------

function nextTime(rng: Rng, owners: SimOwner[], now: number): number {
  const r = rng.next()
  if (r < 0.35) {
    // Aim at something due (or just before/after it): boundaries are where promises break.
    const due = [...new Set(owners.flatMap((o) => dueTimes(o.m)).filter((t) => t > now && t < now + 2 * DAY))].sort((a, b) => a - b)
    if (due.length > 0) {
      const at = rng.pick(due.slice(0, 3)) + rng.pick([-1, 0, 1, 30_000, 60_000, 60_001, 5 * MINUTE, 2 * HOUR])
      if (at > now) return at
    }
  }
  if (r < 0.5) return now + 5 * MINUTE
  return now + rng.int(2 * 60, 36 * 60) * MINUTE
}

// ---- Setting up an owner through the API ------------------------------------------------------

async function mustBe(res: Response, status: number, what: string): Promise<void> {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`)
}

/** A Stripe-billed owner: renewals and their failures arrive as signed webhooks. */
export async function billThroughStripe(ownerId: string, customerId: string, subscriptionId: string): Promise<void> {
  await env.DB.prepare(
    "update users set billing_provider = 'stripe', stripe_customer_id = ?, stripe_subscription_id = ?, subscription_status = 'active', plan_tier = 'premium' where id = ?",
  )
    .bind(customerId, subscriptionId, ownerId)
    .run()
  await mirrorAccount(ownerId)
}

async function setUpOwner(rng: Rng, index: number, now: number): Promise<SimOwner> {
  const account = await register({ displayName: `Sim Owner ${index}` })
  const m = newOwner(index, account.user.id, account.email, now)
  const customerId = `cus_sim_${crypto.randomUUID().slice(0, 12)}`
  const subscriptionId = `sub_sim_${crypto.randomUUID().slice(0, 12)}`
  await billThroughStripe(m.id, customerId, subscriptionId)
  const o: SimOwner = {
    m,
    persona: rng.weighted<Persona>([
      ['diligent', 3],
      ['forgetful', 4],
      ['gone', 3],
    ]),
    token: account.token,
    sessionAt: now,
    customerId,
    subscriptionId,
    lastMail: null,
    heirEmails: new Map(),
    approvers: [],
    spentReportLinks: new Map(),
    cancelLinks: [],
    refuseLinks: new Map(),
  }
  // A browser the owner marked as trusted, used only when the simulation says so (trusted_use,
  // trusted_sign_in): the sessions the driver calls with are untrusted, like a browser elsewhere.
  await env.DB.prepare('insert into browsers (user_id, id, first_used_at, last_used_at, trusted_at) values (?1, ?2, ?3, ?3, ?3)')
    .bind(m.id, crypto.randomUUID(), now)
    .run()
  const key = await publicKey()
  for (let i = 0; i < 2; i++) {
    const heir = await addBeneficiary(o.token, key, { fullName: `Heir ${index}.${i}` })
    m.beneficiaries.push(heir.id)
    o.heirEmails.set(heir.id, heir.email)
  }
  const [b1, b2] = m.beneficiaries as [string, string]

  const items: Array<{ protocol: Protocol; grants: Array<[string, boolean]>; scheduledAt?: number }> = [
    { protocol: rng.pick(['INACTIVITY_30_DAYS', 'INACTIVITY_60_DAYS'] as const), grants: [[b1, true], [b2, rng.chance(0.5)]] },
    { protocol: 'MANUAL_RELEASE', grants: [[b1, true], [b2, true]] },
  ]
  if (rng.chance(0.7)) items.push({ protocol: 'BIOMETRIC_FAILURE', grants: [[b2, true]] })
  if (rng.chance(0.6)) items.push({ protocol: 'SCHEDULED', grants: [[b1, true]], scheduledAt: now + rng.int(3 * 24 * 60, 100 * 24 * 60) * MINUTE + rng.int(0, 59) * 1000 })
  if (rng.chance(0.6)) items.push({ protocol: 'VERIFIED_DEATH', grants: [[b1, false], [b2, true]] })
  for (const spec of items) {
    const { item } = await uploadItem(o.token, [], 100, {
      policy: { protocol: spec.protocol, ...(spec.scheduledAt ? { scheduledAt: new Date(spec.scheduledAt).toISOString() } : {}) },
      grants: spec.grants.map(([beneficiaryId, direct], i) => ({ beneficiaryId, wrappedKey: b64(`grant-${i}`), direct })),
    })
    m.items.push({ id: item.id, protocol: spec.protocol, scheduledAt: spec.scheduledAt ?? null, grants: new Map(spec.grants), fired: false })
  }

  if (rng.chance(0.5)) {
    // The settings' frequency only seeds a new trigger in the browser: the clock never reads it.
    const days = rng.pick([7, 14, 30])
    await mustBe(await call('/api/user/ping-settings', { method: 'PUT', token: o.token, body: { pingFrequency: days, gracePeriod: 3 } }), 200, 'settings')
  }
  const triggers: Array<Record<string, unknown>> = [inactivityBody(rng)]
  // A second inactivity trigger is refused (409): one clock per owner.
  if (rng.chance(0.3)) triggers.push(inactivityBody(rng))
  if (rng.chance(0.6)) triggers.push(scheduledBody(rng, m, now))
  if (rng.chance(0.6)) triggers.push(biometricBody(rng))
  if (rng.chance(0.6)) triggers.push({ type: 'verified_death', config: {} })
  // Every fourth owner watches their trusted devices from the start (no draw: the course of a seed
  // should not hang on whether one is ever created).
  if (index % 4 === 0) triggers.push({ type: 'device_loss', config: { days: 12 } })
  for (const body of triggers) {
    const want = expectedCreate(m, body)
    await mustBe(await createTriggerNow(o, { ...body, status: rng.chance(0.15) ? 'paused' : 'active' }, now), want, `${body.type as string} trigger`)
  }
  for (let n = rng.int(0, 2); n > 0; n--) await addPolicyNow(rng, o)
  // An approver invited now, who confirms their address only later, after the triggers exist.
  if (rng.chance(0.7)) await mustBe(await addApproverNow(o, now), 201, 'approver')
  return o
}

/** POST /api/approvers (the invitation goes out), and the approver with their invitation's link. */
async function addApproverNow(o: SimOwner, now: number): Promise<Response> {
  const email = `approver-${short(o.m.id)}-${o.approvers.length}-${crypto.randomUUID().slice(0, 6)}@example.com`
  const res = await call('/api/approvers', { token: o.token, body: { fullName: `Approver ${o.approvers.length + 1}`, email, role: 'Executor' } })
  if (res.status !== 201) return res
  const invite = await env.DB.prepare("select text from email_outbox where to_address = ? and kind = 'approver_invitation'").bind(email).first<{ text: string }>()
  const { id } = (await res.clone().json()) as { id: string }
  o.approvers.push({ id, email, inviteToken: invite && linkIn(invite.text, '/verify-approver'), invitedAt: now, verified: false, reportToken: null })
  return res
}

function inactivityBody(rng: Rng) {
  // The spec's names, or a number of days (as a /settings choice makes it).
  return { type: 'inactivity', config: { pingFrequency: rng.pick(['daily', 'weekly', 'monthly', 3, 14] as const), gracePeriod: rng.int(1, 20) } }
}

/** What POST /api/triggers answers for `body`: a second inactivity trigger is refused (409). */
function expectedCreate(m: MOwner, body: Record<string, unknown>): number {
  return body.type === 'inactivity' && m.triggers.some((t) => t.type === 'inactivity') ? 409 : 201
}

function scheduledBody(rng: Rng, m: MOwner, now: number) {
  const at = now + rng.int(2 * 24 * 60, 110 * 24 * 60) * MINUTE + rng.int(0, 59) * 1000
  return { type: 'scheduled', config: { releaseDate: new Date(at).toISOString(), beneficiaries: rng.subset(m.beneficiaries, 0.6, true), description: 'A date' } }
}

function deviceLossBody(rng: Rng) {
  return { type: 'device_loss', config: { days: rng.int(7, 20) } }
}

function biometricBody(rng: Rng) {
  return { type: 'biometric_failure', config: { failureThreshold: rng.int(1, 4), timeWindow: rng.int(1, 10) } }
}

/** POST /api/triggers, and the same trigger in the model. */
async function createTriggerNow(o: SimOwner, body: Record<string, unknown>, now: number): Promise<Response> {
  const res = await call('/api/triggers', { token: o.token, body })
  if (res.status !== 201) return res
  const created = (await res.clone().json()) as { id: string }
  const config = body.config as Record<string, unknown>
  const t: MTrigger = { id: created.id, type: body.type as SimTriggerType, status: body.status as 'active' | 'paused', generation: 0, armedAt: now }
  if (t.type === 'inactivity') Object.assign(t, { pingFrequency: config.pingFrequency as PingFrequency, gracePeriod: config.gracePeriod as number })
  if (t.type === 'biometric_failure') Object.assign(t, { failureThreshold: config.failureThreshold as number, timeWindow: config.timeWindow as number })
  if (t.type === 'device_loss') Object.assign(t, { deviceDays: config.days as number })
  if (t.type === 'scheduled') Object.assign(t, { fireAt: Date.parse(config.releaseDate as string), beneficiaries: config.beneficiaries as string[] })
  o.m.triggers.push(t)
  return res
}

/** POST /api/policies and PUT its items (as the owner's browser does), and the model's copy. */
async function addPolicyNow(rng: Rng, o: SimOwner, requestDays: number | null = null): Promise<number> {
  const m = o.m
  const on = rng.subset(['inactivity', 'biometric_failure', 'verified_death', 'device_loss'] as const, 0.6, true)
  const delayHours = rng.pick([0, 0, 1, 24, 72, 240])
  const beneficiaries = rng.subset(m.beneficiaries, 0.6, true)
  const res = await call('/api/policies', {
    token: o.token,
    body: {
      name: `Policy ${m.policies.length + 1}`,
      description: 'Everything my children need to settle the estate.',
      ruleJson: { assign: beneficiaries.map((beneficiaryId) => ({ beneficiaryId, access: 'read' })), release: { on, delayHours, requiresApprover: false } },
      encryptedSelectors: b64('sealed selectors'),
      wrappedKey: b64('wrapped policy key'),
      requiresApprover: false,
      requiresIdentityVerification: false,
      status: 'active',
      ...(requestDays === null ? {} : { accessRequest: { days: requestDays, by: ['beneficiaries'] } }),
    },
  })
  if (res.status !== 201) return res.status
  const { id } = (await res.json()) as { id: string }
  const items = rng.subset(m.items.map((i) => i.id), 0.5, true)
  const covered = await call(`/api/policies/${id}/items`, { method: 'PUT', token: o.token, body: { itemIds: items } })
  if (covered.status !== 200) throw new Error(`policy items: ${covered.status} ${await covered.text()}`)
  const policy: MPolicy = { id, active: true, on: [...on], delayHours, items, beneficiaries, requestDays }
  m.policies.push(policy)
  return 201
}

// ---- Owner actions during the simulation ------------------------------------------------------

type Action =
  | 'checkin_app'
  | 'checkin_link'
  | 'sign_in'
  | 'settings'
  | 'edit_schedule'
  | 'toggle_trigger'
  | 'new_trigger'
  | 'new_policy'
  | 'toggle_policy'
  | 'payment_failed'
  | 'payment_restored'
  | 'biometric_failure'
  | 'mistype_then_unlock'
  | 'manual_release'
  | 'audit_failure'
  | 'portal_rerequest'
  | 'add_approver'
  | 'verify_approver'
  | 'remove_approver'
  | 'report_death'
  | 'replay_report'
  | 'cancel_link'
  | 'trusted_use'
  | 'trusted_sign_in'

const provedAt = new WeakMap<SimOwner, number>()

async function freshToken(o: SimOwner, now: number): Promise<string> {
  // The owner's browser keeps a live session (a new one every few weeks); no sign-in is implied.
  if (now - o.sessionAt > 20 * DAY) {
    o.token = await sessionFor(o.m.id, now)
    o.sessionAt = now
    provedAt.delete(o)
  }
  // The simulated owner is the owner: whatever they do, they have just proved it is them (the
  // clock of fresh proof is the real one, not the simulated day).
  if (Date.now() - (provedAt.get(o) ?? 0) > 60_000) {
    provedAt.set(o, Date.now())
    await ownerSessions(o.m.id, 'update sessions set proved_at = ?', Date.now()).run()
  }
  return o.token
}

async function act(rng: Rng, oracle: Oracle, o: SimOwner, now: number, step: number, count: (key: string, n?: number) => void): Promise<void> {
  const m = o.m
  const day = (now - oracle.start) / DAY
  const talkative = o.persona === 'diligent' ? 1 : o.persona === 'forgetful' ? 0.12 : day < 15 ? 0.12 : 0
  const mailUsable = o.lastMail !== null && now - o.lastMail.at < 29 * DAY
  const action = rng.weighted<Action>([
    ['checkin_app', 5 * talkative],
    ['checkin_link', mailUsable ? 3 * talkative : 0],
    ['sign_in', 1.5 * talkative],
    ['settings', 1],
    ['edit_schedule', m.triggers.some((t) => t.type === 'inactivity' && t.status !== 'triggered') ? 0.5 : 0],
    ['toggle_trigger', m.triggers.some((t) => t.status !== 'triggered') ? 1.5 : 0],
    ['new_trigger', m.triggers.length < 7 ? 0.6 : 0],
    ['new_policy', m.policies.length < 4 ? 0.5 : 0],
    ['toggle_policy', m.policies.length > 0 ? 0.5 : 0],
    ['payment_failed', m.pastDue && m.graceUntil !== null && m.graceUntil > now ? 0.2 : 0.7],
    ['payment_restored', m.pastDue ? 1.5 : 0.05],
    ['biometric_failure', m.triggers.some((t) => t.type === 'biometric_failure') ? 1.5 : 0.1],
    ['mistype_then_unlock', m.triggers.some((t) => t.type === 'biometric_failure') ? 0.8 : 0],
    ['manual_release', m.triggers.some((t) => t.status !== 'triggered') ? 0.2 : 0],
    ['audit_failure', 0.3],
    ['add_approver', o.approvers.length < 3 ? 0.5 : 0],
    ['verify_approver', o.approvers.some((a) => !a.verified) ? 0.6 : 0],
    ['remove_approver', o.approvers.length > 0 ? 0.25 : 0],
    ['report_death', o.approvers.some((a) => a.reportToken) ? 0.5 : 0],
    ['replay_report', o.spentReportLinks.size > 0 ? 0.4 : 0],
    // A cancel link works for 60 days.
    ['cancel_link', o.cancelLinks.some((l) => now - l.at < 59 * DAY) ? 0.6 * talkative + 0.1 : 0],
    ['portal_rerequest', heirsWithAssets(m, now).length > 0 ? 0.4 : 0],
    ['trusted_use', m.triggers.some((t) => t.type === 'device_loss') ? 3 * talkative : 0],
    ['trusted_sign_in', m.triggers.some((t) => t.type === 'device_loss') ? 2.5 * talkative : 0],
  ])
  count(`actions.${action}`)
  const locked = lockedOut(m, now)
  // Routes behind the subscription check answer 402 once a payment issue's grace is over.
  const expected = (ok: number) => (locked ? 402 : ok)
  const check = async (res: Response, ok: number, what: string, open = false): Promise<boolean> => {
    const want = open ? ok : expected(ok)
    if (res.status !== want) {
      oracle.fail(m, now, step, `${what} answered ${res.status} (expected ${want}): ${await res.text()}`)
      return false
    }
    return res.status === ok
  }
  // Open paid or not (worker/middleware/subscription.ts): checking in, pausing, cancelling a release.
  const checkOpen = (res: Response, ok: number, what: string) => check(res, ok, what, true)
  const token = await freshToken(o, now)

  switch (action) {
    case 'add_approver': {
      const res = await addApproverNow({ ...o, token }, now)
      oracle.note(m, now, `new approver → ${res.status}`)
      await check(res, 201, 'new approver')
      return
    }
    case 'verify_approver': {
      // Whenever they verify (before or after the trigger exists), a report link reaches them if a
      // Verified Death trigger is active.
      const a = rng.pick(o.approvers.filter((x) => !x.verified))
      // An invitation link lasts 7 days: an older one is replaced through Resend Verification first.
      if (now - a.invitedAt > 6 * DAY) {
        const resent = await call(`/api/approvers/${a.id}/resend-verification`, { method: 'POST', token })
        oracle.note(m, now, `resend approver ${short(a.id)}'s verification → ${resent.status}`)
        if (!(await check(resent, 200, "resending an approver's verification"))) return
        const fresh = await env.DB.prepare("select text from email_outbox where to_address = ? and kind = 'approver_invitation' order by created_at desc, rowid desc").bind(a.email).first<{ text: string }>()
        const old = a.inviteToken
        a.inviteToken = fresh && linkIn(fresh.text, '/verify-approver')
        a.invitedAt = now
        // The older link no longer works.
        if (old && (await call('/api/approvers/verify', { body: { token: old } })).status !== 400) oracle.fail(m, now, step, 'a replaced approver invitation still verified')
      }
      const link = a.inviteToken
      if (!link) return oracle.fail(m, now, step, `approver ${short(a.id)} was sent no invitation to verify with`)
      const res = await call('/api/approvers/verify', { body: { token: link } })
      oracle.note(m, now, `approver ${short(a.id)} verifies → ${res.status}`)
      if (res.status !== 200) return oracle.fail(m, now, step, `the approver's verification answered ${res.status}: ${await res.text()}`)
      a.verified = true
      if (m.triggers.some((t) => t.type === 'verified_death' && t.status === 'active')) await collectReportLinks(oracle, o, now, step, a.id)
      return
    }
    case 'remove_approver': {
      const a = rng.pick(o.approvers)
      const res = await call(`/api/approvers/${a.id}`, { method: 'DELETE', token })
      oracle.note(m, now, `remove approver ${short(a.id)} → ${res.status}`)
      if (!(await check(res, 200, 'removing an approver'))) return
      o.approvers = o.approvers.filter((x) => x !== a)
      // Their confirmation goes with them; their report link stops working, a used one too.
      m.deathReports.delete(a.id)
      for (const [link, state] of o.spentReportLinks) if (state === 'used' && reportLinkSubject(link) === a.id) o.spentReportLinks.set(link, 'void')
      if (a.reportToken) {
        const view = await call(`/api/death-reports?token=${encodeURIComponent(a.reportToken)}`)
        if (view.status !== 400) oracle.fail(m, now, step, `a removed approver's report link answered ${view.status}`)
      }
      return
    }
    case 'report_death': {
      const a = rng.pick(o.approvers.filter((x) => x.reportToken))
      const res = await call('/api/death-reports', { body: { token: a.reportToken!, certificateNumber: `DC-${step}`, dateOfDeath: '2026-11-20', attest: true } })
      oracle.note(m, now, `approver ${short(a.id)} confirms the death → ${res.status}`)
      if (res.status !== 200) return oracle.fail(m, now, step, `a death report answered ${res.status}: ${await res.text()}`)
      m.deathReports.set(a.id, now)
      // A link reports once: the same link again, at once, is refused as used.
      const again = await call('/api/death-reports', { body: { token: a.reportToken!, certificateNumber: `DC-${step}`, dateOfDeath: '2026-11-20', attest: true } })
      count('actions.replay_report')
      if (again.status !== 409) oracle.fail(m, now, step, `a used death-report link answered ${again.status} (expected 409): ${await again.text()}`)
      o.spentReportLinks.set(a.reportToken!, 'used')
      a.reportToken = null
      return
    }
    case 'cancel_link': {
      // The owner opens a "release started" e-mail's cancel link (any of them, old ones too), reads
      // what it would take back, and cancels.
      const link = rng.pick(o.cancelLinks.filter((l) => now - l.at < 59 * DAY)).token
      const firingId = JSON.parse(atob(link.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).sub as string
      const withdrawable = [...(m.firings.get(firingId)?.releases ?? [])].filter((id) => m.releases.get(id)?.status === 'released').length
      const view = await call(`/api/releases/cancel?token=${encodeURIComponent(link)}`)
      if (view.status !== 200) return oracle.fail(m, now, step, `the cancel link's view answered ${view.status}: ${await view.text()}`)
      const res = await call('/api/releases/cancel', { body: { token: link } })
      const expected = cancelFiring(m, firingId, now)
      oracle.note(m, now, `cancel link of ${firingId.slice(0, 12)} → ${res.status} (model: ${expected} releases)`)
      if (expected === 0) {
        if (res.status !== 409) oracle.fail(m, now, step, `a cancel link with nothing left to cancel answered ${res.status} (expected 409): ${await res.text()}`)
        return
      }
      if (res.status !== 200) return oracle.fail(m, now, step, `the cancel link answered ${res.status}: ${await res.text()}`)
      const body = (await res.json()) as { cancelledReleases: number }
      if (body.cancelledReleases !== expected) oracle.fail(m, now, step, `the cancel link cancelled ${body.cancelledReleases} releases; the model expected ${expected}`)
      if (withdrawable > 0) count('releases.withdrawn', withdrawable)
      dropVoidedLinks(o)
      // Nothing of that firing can be fetched now: each heir's download of it is refused.
      const withdrawn = await runInDurableObject(guard(m.id), async (_i: OwnerVault, state) =>
        state.storage.sql
          .exec<{ id: string; beneficiary_id: string }>('select a.id, a.beneficiary_id from released_assets a join releases r on r.id = a.release_id where r.firing_id = ?', firingId)
          .toArray(),
      )
      for (const a of withdrawn) {
        const portal = signLinkToken(env, 'beneficiaryAccess', a.beneficiary_id, { owner: m.id }, now)
        const download = await call(`/api/beneficiaries/${a.beneficiary_id}/assets/${a.id}/download?token=${encodeURIComponent(portal)}`)
        count('assets.fetchRefused')
        if (download.status !== 410) oracle.fail(m, now, step, `an asset of a cancelled firing answered ${download.status} to its heir's download (expected 410)`)
      }
      return
    }
    case 'replay_report': {
      // A used link is refused as already used (409), a voided one as no longer working (400): neither starts anything.
      const [link, state] = rng.pick([...o.spentReportLinks])
      const res = await call('/api/death-reports', { body: { token: link, certificateNumber: `DC-${step}`, dateOfDeath: '2026-11-20', attest: true } })
      oracle.note(m, now, `a ${state} report link replayed → ${res.status}`)
      const want = state === 'used' ? 409 : 400
      if (res.status !== want) oracle.fail(m, now, step, `a ${state} death-report link answered ${res.status} (expected ${want}): ${await res.text()}`)
      return
    }
    case 'audit_failure': {
      // The audit append fails: the check-in it records is undone with it, on the server as in the
      // model (which is left as it was). The chain checks after the step show nothing half-written.
      await runInDurableObject(guard(m.id), async (_: OwnerVault, state) => {
        state.storage.sql.exec(`create trigger sim_refuse_audit before insert on audit begin select raise(abort, 'audit append refused'); end`)
      })
      try {
        const res = await call('/api/inactivity/ping', { method: 'POST', token })
        oracle.note(m, now, `check-in (app) with the audit append failing → ${res.status}`)
        if (res.status !== 500) oracle.fail(m, now, step, `a check-in whose audit entry could not be written answered ${res.status}`)
      } finally {
        await runInDurableObject(guard(m.id), async (_: OwnerVault, state) => void state.storage.sql.exec('drop trigger sim_refuse_audit'))
      }
      return
    }
    case 'portal_rerequest': {
      // An heir lost the release e-mail and asks the portal for a new link: one arrives.
      const heir = rng.pick(heirsWithAssets(m, now))
      const email = o.heirEmails.get(heir)!
      const before = await portalMailCount(email)
      const res = await call('/api/beneficiary-portal/link', { body: { email } })
      oracle.note(m, now, `heir ${short(heir)} asks for a new portal link → ${res.status}`)
      // The per-address limit counts real minutes, which simulated steps can crowd: a 429 is its answer.
      if (res.status === 429) return
      if (res.status !== 200) oracle.fail(m, now, step, `the portal link request answered ${res.status}`)
      else if (!(await waitForCount(() => portalMailCount(email), before + 1))) {
        // At most one such e-mail per heir every 10 minutes: a second ask within that gets none.
        const recent = await env.DB.prepare("select count(*) as n from email_outbox where to_address = ? and kind = 'portal_link' and created_at > ?").bind(email, now - 10 * MINUTE).first<{ n: number }>()
        if (!recent?.n) oracle.fail(m, now, step, `an heir with released assets asked for a new link and none was sent`)
      }
      return
    }
    case 'checkin_app': {
      const res = await call('/api/inactivity/ping', { method: 'POST', token })
      oracle.note(m, now, `check-in (app) → ${res.status}`)
      if (await checkOpen(res, 200, 'check-in')) checkIn(m, now)
      dropVoidedLinks(o)
      return
    }
    case 'checkin_link': {
      const link = (o.lastMail!.text.match(/https?:\/\/\S+/g) ?? []).map((u) => new URL(u)).find((u) => u.pathname === '/check-in')
      const res = await call('/api/inactivity/check-in', { body: { token: link?.searchParams.get('token') ?? '' } })
      oracle.note(m, now, `check-in (e-mailed link) → ${res.status}`)
      if (res.status !== 200) oracle.fail(m, now, step, `the e-mailed check-in link answered ${res.status}: ${await res.text()}`)
      else checkIn(m, now)
      dropVoidedLinks(o)
      return
    }
    case 'sign_in': {
      // What a successful sign-in reports to the owner's Durable Object.
      await guard(m.id).recordActivity('signed_in', now)
      oracle.note(m, now, 'sign-in')
      signIn(m, now)
      dropVoidedLinks(o)
      return
    }
    case 'trusted_use': {
      // What a trusted browser's request (or a trusted key's answer) reports to the owner's object.
      await guard(m.id).recordTrustedUse(now)
      oracle.note(m, now, 'trusted device used')
      trustedUse(m, now)
      return
    }
    case 'trusted_sign_in': {
      await guard(m.id).recordActivity('signed_in', now, undefined, true)
      oracle.note(m, now, 'sign-in from a trusted device')
      signIn(m, now, true)
      dropVoidedLinks(o)
      return
    }
    case 'settings': {
      // Where a new inactivity trigger starts; the running clock does not change.
      const days = rng.pick([7, 14, 30, 60, 90])
      const res = await call('/api/user/ping-settings', { method: 'PUT', token, body: { pingFrequency: days, gracePeriod: 3 } })
      oracle.note(m, now, `settings: check-in every ${days} days → ${res.status}`)
      await check(res, 200, 'settings')
      return
    }
    case 'edit_schedule': {
      const t = rng.pick(m.triggers.filter((x) => x.type === 'inactivity' && x.status !== 'triggered'))
      const { config } = inactivityBody(rng)
      const res = await call(`/api/triggers/${t.id}`, { method: 'PUT', token, body: { config } })
      oracle.note(m, now, `inactivity trigger ${short(t.id)} (${t.status}) schedule → ${JSON.stringify(config)} → ${res.status}`)
      if (await check(res, 200, 'editing the schedule')) {
        // A new schedule: an e-mail already sent no longer counts.
        t.pingFrequency = config.pingFrequency
        t.gracePeriod = config.gracePeriod
        t.armedAt = now
      }
      return
    }
    case 'toggle_trigger': {
      const t = rng.pick(m.triggers.filter((x) => x.status !== 'triggered'))
      const status = t.status === 'active' ? 'paused' : 'active'
      const res = await call(`/api/triggers/${t.id}`, { method: 'PUT', token, body: { status } })
      oracle.note(m, now, `trigger ${short(t.id)} (${t.type}) → ${status} → ${res.status}`)
      if (await check(res, 200, `setting trigger ${t.id} ${status}`, status === 'paused')) {
        t.status = status
        t.armedAt = now
        // Approvers verified while it was paused are sent their report link now.
        if (t.type === 'verified_death' && status === 'active') await collectReportLinks(oracle, o, now, step)
      }
      return
    }
    case 'new_trigger': {
      const body = rng.weighted<Record<string, unknown>>([
        [inactivityBody(rng), 2],
        [scheduledBody(rng, m, now), 2],
        [biometricBody(rng), 1],
        [{ type: 'verified_death', config: {} }, 1],
        [deviceLossBody(rng), 1],
      ])
      const status = rng.chance(0.2) ? 'paused' : 'active'
      const want = expectedCreate(m, body)
      const res = await createTriggerNow(o, { ...body, status }, now)
      oracle.note(m, now, `new ${body.type as string} trigger (${status}) ${JSON.stringify(body.config)} → ${res.status}`)
      // An active one sends every verified approver a new report link, which voids the one they
      // held (a paused one sends them when activated).
      if ((await check(res, want, 'new trigger')) && want === 201 && body.type === 'verified_death' && status === 'active') {
        for (const a of o.approvers.filter((x) => x.verified && x.reportToken)) {
          o.spentReportLinks.set(a.reportToken!, 'void')
          a.reportToken = null
        }
        await collectReportLinks(oracle, o, now, step)
      }
      return
    }
    case 'new_policy': {
      const status = await addPolicyNow(rng, o)
      const p = m.policies.at(-1)
      oracle.note(m, now, `new policy → ${status}${status === 201 ? ` (${p!.on.join('+')}, delay ${p!.delayHours} h, ${p!.items.length} items)` : ''}`)
      if (status !== expected(201)) oracle.fail(m, now, step, `new policy answered ${status}`)
      return
    }
    case 'toggle_policy': {
      const p = rng.pick(m.policies)
      const status = p.active ? 'inactive' : 'active'
      const res = await call(`/api/policies/${p.id}`, { method: 'PUT', token, body: { status } })
      oracle.note(m, now, `policy ${short(p.id)} → ${status} → ${res.status}`)
      if (await check(res, 200, 'policy status')) p.active = status === 'active'
      return
    }
    case 'payment_failed': {
      const status = await deliverInvoice('invoice.payment_failed', o)
      if (status !== 200) oracle.fail(m, now, step, `payment_failed webhook answered ${status}`)
      paymentFailed(m, now)
      oracle.note(m, now, `payment failed (webhook): grace until day ${((m.graceUntil! - oracle.start) / DAY).toFixed(4)}`)
      return
    }
    case 'payment_restored': {
      const status = await deliverInvoice('invoice.paid', o)
      if (status !== 200) oracle.fail(m, now, step, `invoice.paid webhook answered ${status}`)
      paymentRestored(m)
      oracle.note(m, now, 'payment restored (webhook)')
      return
    }
    case 'biometric_failure': {
      const res = await call('/api/trigger-engine/biometric-failure', { token, body: { kind: 'vault_unlock' } })
      oracle.note(m, now, `failed vault unlock reported → ${res.status}`)
      if (await check(res, 200, 'biometric failure')) m.failures.push(now)
      return
    }
    case 'mistype_then_unlock': {
      // The owner mistypes their passphrase, then gets it right: that failure (and any other of the
      // last 15 minutes) never counts.
      const failed = await call('/api/trigger-engine/biometric-failure', { token, body: { kind: 'vault_unlock' } })
      if (!(await check(failed, 200, 'biometric failure'))) return
      m.failures.push(now)
      const res = await call('/api/trigger-engine/unlock-success', { token, body: { kind: 'vault_unlock' } })
      oracle.note(m, now, `mistyped, then unlocked → ${failed.status}, ${res.status}`)
      if (await check(res, 200, 'unlock success')) m.failures = m.failures.filter((a) => !(a > now - UNLOCK_FORGIVE && a <= now))
      return
    }
    case 'manual_release': {
      const t = rng.pick(m.triggers.filter((x) => x.status !== 'triggered'))
      const res = await call(`/api/trigger-engine/manual/${t.id}`, { token, body: { reason: 'Simulated', confirm: 'RELEASE' } })
      oracle.note(m, now, `manual release of ${short(t.id)} (${t.type}, ${t.status}) → ${res.status}`)
      if (await check(res, 200, 'manual release')) m.expectManual = { triggerId: t.id, generation: t.generation }
      return
    }
  }
}

// ---- Access on request -------------------------------------------------------------------------

type RequestAction = 'request_policy' | 'ask_access' | 'refuse_access' | 'live_while_asked'

/**
 * The access-request side of a step, on its own random stream: the owner makes a policy its heirs
 * may ask for; an heir asks from the portal (sometimes where the rules must say no); the owner
 * refuses from the e-mailed link; or the owner checks in or signs in from a trusted device while a
 * request waits (which must not stop it).
 */
async function requestAct(rng: Rng, oracle: Oracle, o: SimOwner, now: number, step: number, count: (key: string, n?: number) => void): Promise<void> {
  const m = o.m
  const askable = m.policies.filter((p) => p.requestDays !== null)
  const waiting = [...m.requests.values()].filter((r) => requestWaiting(m, r))
  const choices: Array<[RequestAction, number]> = [
    ['request_policy', askable.length < 2 ? 1 : 0],
    ['ask_access', askable.length > 0 ? 3 : 0],
    ['refuse_access', waiting.length > 0 ? 1.2 : 0],
    ['live_while_asked', waiting.length > 0 ? 1 : 0],
  ]
  const action = rng.weighted<RequestAction>(choices)
  count(`actions.${action}`)
  const locked = lockedOut(m, now)
  switch (action) {
    case 'request_policy': {
      const days = rng.pick([1, 2, 7, 10])
      const status = await addPolicyNow(rng, { ...o, token: await freshToken(o, now) }, days)
      oracle.note(m, now, `new policy its heirs may ask for (${days} days) → ${status}`)
      if (status !== (locked ? 402 : 201)) oracle.fail(m, now, step, `a policy with access on request answered ${status}`)
      return
    }
    case 'ask_access': {
      const p = rng.pick(askable)
      // Now and then someone the policy does not name asks: the rules must say no.
      const heir = rng.chance(0.85) ? rng.pick(p.beneficiaries) : rng.pick(m.beneficiaries)
      const want = expectedAsk(m, p.id, heir, now)
      const portal = signLinkToken(env, 'beneficiaryAccess', heir, { owner: m.id }, now)
      const res = await call(`/api/beneficiaries/${heir}/access-requests?token=${encodeURIComponent(portal)}`, { body: { policyId: p.id } })
      oracle.note(m, now, `heir ${short(heir)} asks for policy ${short(p.id)} → ${res.status} (model: ${want})`)
      if (res.status !== want) return oracle.fail(m, now, step, `an access request answered ${res.status} (expected ${want}): ${await res.text()}`)
      if (want !== 201) {
        count(`requests.answered${want}`)
        return
      }
      const { request } = (await res.json()) as { request: { requestId: string } }
      const id = request.requestId
      m.requests.set(`r:${id}`, { id, firingId: `r:${id}`, policyId: p.id, heir, at: now, refusedAt: null })
      // The owner is asked at once, with a one-click Refuse for this request.
      const mail = await env.DB.prepare("select text from email_outbox where to_address = ? and kind = 'access_requested' order by created_at desc, rowid desc limit 1")
        .bind(m.email.toLowerCase())
        .first<{ text: string }>()
      const token = mail && linkIn(mail.text, '/access-refuse')
      if (!token || reportLinkSubject(token) !== id) return oracle.fail(m, now, step, `the owner was not asked about access request ${short(id)} with a Refuse link`)
      o.refuseLinks.set(id, token)
      return
    }
    case 'refuse_access': {
      const req = rng.pick(waiting)
      const token = o.refuseLinks.get(req.id)!
      const res = await call('/api/access-requests/refuse', { body: { token } })
      const expected = refuseRequest(m, req, now)
      oracle.note(m, now, `the owner refuses request ${short(req.id)} by the e-mailed link → ${res.status} (model: ${expected} releases)`)
      if (res.status !== (expected > 0 ? 200 : 409)) oracle.fail(m, now, step, `the Refuse link answered ${res.status} (model cancels ${expected}): ${await res.text()}`)
      // The same link again: nothing is left to refuse.
      const again = await call('/api/access-requests/refuse', { body: { token } })
      if (again.status !== 409) oracle.fail(m, now, step, `a Refuse link used twice answered ${again.status} (expected 409)`)
      return
    }
    case 'live_while_asked': {
      // The owner is alive and about, but does not answer the request: it goes on waiting.
      if (rng.chance(0.5)) {
        const res = await call('/api/inactivity/ping', { method: 'POST', token: await freshToken(o, now) })
        oracle.note(m, now, `check-in (app) while a request waits → ${res.status}`)
        if (res.status === 200) checkIn(m, now)
        else oracle.fail(m, now, step, `a check-in while a request waits answered ${res.status}`)
      } else {
        await guard(m.id).recordActivity('signed_in', now, undefined, true)
        oracle.note(m, now, 'sign-in from a trusted device while a request waits')
        signIn(m, now, true)
      }
      dropVoidedLinks(o)
      return
    }
  }
}

// ---- Alarms and the sweep ---------------------------------------------------------------------

async function engine(rng: Rng, oracle: Oracle, owners: SimOwner[], now: number, count: (key: string, n?: number) => void): Promise<void> {
  // Every random choice is drawn before anything runs concurrently, so a seed replays exactly.
  const fates = owners.map(() => rng.next())
  const concurrent = rng.chance(0.25)
  const doubleSweep = rng.chance(0.06)
  const ring = async (o: SimOwner, fate: number) => {
    const stub = guard(o.m.id)
    const at = await runInDurableObject(stub, async (_i: OwnerVault, state) => state.storage.getAlarm())
    if (at === null) return
    const alarmAgain = () => runInDurableObject(stub, async (instance: OwnerVault) => instance.alarm())
    if (at > now) {
      if (fate < 0.02) {
        count('alarms.early')
        oracle.note(o.m, now, 'engine: alarm rang early')
        await alarmAgain()
      }
      return
    }
    if (fate < 0.08) {
      count('alarms.lost')
      oracle.note(o.m, now, 'engine: alarm LOST')
      await runInDurableObject(stub, async (_i: OwnerVault, state) => state.storage.deleteAlarm())
    } else if (fate < 0.15) {
      count('alarms.delayed')
      oracle.note(o.m, now, 'engine: alarm delayed')
    } else if (fate < 0.2) {
      count('alarms.double')
      oracle.note(o.m, now, 'engine: alarm rang twice')
      await runDurableObjectAlarm(stub)
      await alarmAgain()
    } else if (fate < 0.25) {
      count('alarms.doubleConcurrent')
      oracle.note(o.m, now, 'engine: alarm rang twice at once')
      await Promise.all([runDurableObjectAlarm(stub), alarmAgain()])
    } else {
      count('alarms.rang')
      await runDurableObjectAlarm(stub)
    }
  }
  if (concurrent) {
    count('steps.concurrent')
    await Promise.all([...owners.map((o, i) => ring(o, fates[i]!)), runSweeps(env, now)])
  } else {
    for (const [i, o] of owners.entries()) await ring(o, fates[i]!)
    await runSweeps(env, now)
  }
  if (doubleSweep) {
    count('sweeps.double')
    await runSweeps(env, now)
  }
}

// ---- Observing the server ---------------------------------------------------------------------

async function observe(oracle: Oracle, owners: SimOwner[], now: number, step: number, seenMails: Set<string>, from: number, count: (key: string, n?: number) => void): Promise<void> {
  // Each owner's vault is in their own object: read each, as the engine wrote it.
  const vaults = await Promise.all(
    owners.map((o) =>
      runInDurableObject(guard(o.m.id), async (_i: OwnerVault, state) => {
        const rows = (query: string) => state.storage.sql.exec(query, o.m.id).toArray() as unknown[]
        return {
          firings: rows('select id, ? as owner_id, trigger_id, kind, fired_at from firings') as FiringRow[],
          releases: rows('select id, ? as owner_id, firing_id, source_key, status, release_at, required_approvals, released_at, cancelled_at from releases') as ReleaseRow[],
          triggers: rows('select id, ? as owner_id, status, generation from triggers') as TriggerRow[],
          assets: rows('select ? as owner_id, status, release_id, item_id, beneficiary_id, created_at from released_assets') as AssetRow[],
          targets: state.storage.sql.exec('select release_id, item_id, beneficiary_id from release_targets').toArray() as Array<{ release_id: string; item_id: string; beneficiary_id: string }>,
        }
      }),
    ),
  )
  // The text is read as the mail arrives: the outbox keeps it only for a while, as an inbox would not.
  const mails = await env.DB.prepare("select id, to_address, kind, created_at, text from email_outbox where kind in ('check_in', 'check_in_reminder', 'release_started') and created_at >= ?1")
    .bind(from)
    .all<MailRow & { text: string }>()
  const releaseRows = vaults.flatMap((v) => v.releases)
  const known = new Set(owners.flatMap((o) => [...o.m.releases.keys()]))
  const fresh = new Set(releaseRows.filter((r) => !known.has(r.id)).map((r) => r.id))
  const targets = new Map<string, string[]>()
  for (const t of vaults.flatMap((v) => v.targets)) {
    if (fresh.has(t.release_id)) targets.set(t.release_id, [...(targets.get(t.release_id) ?? []), `${t.item_id}|${t.beneficiary_id}`])
  }
  for (const list of targets.values()) list.sort()
  const emails = new Map(owners.map((o) => [o.m.email.toLowerCase(), o]))
  const newMails = mails.results.filter((m) => !seenMails.has(m.id) && emails.has(m.to_address))
  for (const m of newMails) {
    seenMails.add(m.id)
    count(`mails.${m.kind}`)
    const o = emails.get(m.to_address)!
    if (m.kind === 'check_in' && (!o.lastMail || m.created_at >= o.lastMail.at)) o.lastMail = { id: m.id, at: m.created_at, text: m.text }
    const cancelLink = m.kind === 'release_started' && linkIn(m.text, '/cancel-release')
    if (cancelLink) o.cancelLinks.push({ token: cancelLink, at: m.created_at })
  }
  const snap: Snapshot = {
    firings: vaults.flatMap((v) => v.firings),
    releases: releaseRows,
    targets,
    triggers: vaults.flatMap((v) => v.triggers),
    mails: newMails,
    assets: vaults.flatMap((v) => v.assets),
  }
  oracle.observe(now, step, snap)
}
