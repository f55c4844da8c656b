import { and, desc, eq, sql } from 'drizzle-orm'
import {
  ACCESS_AUDIT_ACTIONS,
  ACCESS_REQUEST,
  ACCESS_REQUEST_MESSAGES,
  type AccessRefuseView,
  type AccessRequest,
  type AccessRequestPreview,
  type OwnerAccessRequests,
  type RequestablePolicy,
  type RequesterView,
} from '../../contract/access-requests'
import { DAY_MS, HOUR_MS } from '../../contract/constants'
import { advanceReleases } from '../engine/advance'
import { cancelReleases } from '../engine/cancel'
import { writeReleases } from '../engine/fire'
import { policyPlan } from '../engine/plan'
import { badRequest, conflict, notFound } from '../lib/errors'
import { accessRefusedEmail, accessRequestedConfirmEmail, accessRequestedOwnerEmail, accessRequestLinkEmail } from '../mail/access-templates'
import { ownerUnansweredEmail } from '../mail/channel-templates'
import { releaseApprovalRequestEmail } from '../mail/release-templates'
import type { OwnerDb } from '../owner/db'
import { accessRequests, approvers, beneficiaries, firings, policies, policyBeneficiaries, releases, type AccessRequestRow, type PolicyRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Access on request, run inside the owner's object. A request is a firing (`r:<id>`, kind
// 'access_request') of one policy's release, waiting max(waiting time, safety window, delay); only
// the owner's refusal stops it (a check-in does not: worker/engine/cancel.ts).

export type Requester = { kind: 'beneficiary' | 'approver'; id: string }

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

/** The wait a request on `policy` would have: the longest of its waiting time, the safety window, its delay. */
export function requestWaitMs(policy: Pick<PolicyRow, 'accessRequestDays' | 'delayHours'>, safetyWindowMs: number): number {
  return Math.max((policy.accessRequestDays ?? ACCESS_REQUEST.defaultDays) * DAY_MS, safetyWindowMs, policy.delayHours * HOUR_MS)
}

/** Approvers who may ask for `policy`: those it names for identity checks, or every verified one when it names none. */
function policyApprovers(policy: PolicyRow, all: Array<typeof approvers.$inferSelect>) {
  const named = new Set(policy.identityVerificationApprovers)
  return all.filter((a) => a.emailVerifiedAt !== null && (named.size === 0 || named.has(a.id)))
}

/** Active policies with access on request that this person may ask for. */
function requestableBy(db: OwnerDb, requester: Requester): PolicyRow[] {
  const open = db
    .select()
    .from(policies)
    .where(and(eq(policies.status, 'active'), sql`${policies.accessRequestDays} is not null`))
    .all()
  if (requester.kind === 'beneficiary') {
    const mine = new Set(
      db.select({ id: policyBeneficiaries.policyId }).from(policyBeneficiaries).where(eq(policyBeneficiaries.beneficiaryId, requester.id)).all().map((r) => r.id),
    )
    return open.filter((p) => p.accessRequestBy.includes('beneficiaries') && mine.has(p.id))
  }
  const all = db.select().from(approvers).all()
  return open.filter((p) => p.accessRequestBy.includes('approvers') && policyApprovers(p, all).some((a) => a.id === requester.id))
}

/** The person who asks (or asked: null once the owner removed them, whose requests still stand in the list). */
function requesterOrNull(db: OwnerDb, requester: Requester): { fullName: string; email: string } | null {
  const row =
    requester.kind === 'beneficiary'
      ? db.select({ fullName: beneficiaries.fullName, email: beneficiaries.email }).from(beneficiaries).where(eq(beneficiaries.id, requester.id)).get()
      : db.select({ fullName: approvers.fullName, email: approvers.email }).from(approvers).where(eq(approvers.id, requester.id)).get()
  return row ?? null
}

function requesterRow(db: OwnerDb, requester: Requester): { fullName: string; email: string } {
  const row = requesterOrNull(db, requester)
  if (!row) throw badRequest(ACCESS_REQUEST_MESSAGES.notRequestable)
  return row
}

/** The requester's latest request on the policy, if any. */
function latestRequest(db: OwnerDb, requester: Requester, policyId: string): AccessRequestRow | undefined {
  return db
    .select()
    .from(accessRequests)
    .where(and(eq(accessRequests.requesterId, requester.id), eq(accessRequests.requesterKind, requester.kind), eq(accessRequests.policyId, policyId)))
    .orderBy(desc(accessRequests.requestedAt))
    .limit(1)
    .get()
}

function stateOf(policy: PolicyRow, ownerName: string, latest: AccessRequestRow | undefined, now: number, safetyWindowMs: number): RequestablePolicy {
  const base = {
    policyId: policy.id,
    policyName: policy.name,
    ownerName,
    waitDays: Math.ceil(requestWaitMs(policy, safetyWindowMs) / DAY_MS),
    opensAt: new Date(now + requestWaitMs(policy, safetyWindowMs)).toISOString(),
    requestId: latest?.id ?? null,
    decideBy: null,
    refusedAt: null,
    askAgainFrom: null,
  }
  if (!latest || latest.status === 'withdrawn') return { ...base, state: 'can_ask', requestId: null }
  if (latest.status === 'refused') {
    const again = (latest.decidedAt ?? latest.requestedAt) + ACCESS_REQUEST.reaskAfterMs
    return { ...base, state: again <= now ? 'can_ask' : 'refused', refusedAt: iso(latest.decidedAt), askAgainFrom: iso(again) }
  }
  if (latest.status === 'released') return { ...base, state: 'released', decideBy: iso(latest.decideBy) }
  return { ...base, state: latest.status, decideBy: iso(latest.decideBy) }
}

/** What this person sees: the policies they may ask for, and where each request stands. */
export function requesterView(db: OwnerDb, ownerName: string, requester: Requester, now: number, safetyWindowMs: number): RequesterView {
  const who = requesterRow(db, requester)
  return {
    name: who.fullName,
    ownerName,
    policies: requestableBy(db, requester).map((p) => stateOf(p, ownerName, latestRequest(db, requester, p.id), now, safetyWindowMs)),
  }
}

/**
 * A request: one waiting request per person and policy; after a refusal, none until a week after
 * it. The owner is told at their own addresses with Approve now and Refuse, the emergency contact
 * that the owner has not answered, the requester when access would open.
 */
export function askForAccess(u: Unit, requester: Requester, policyId: string): RequestablePolicy {
  const { db, now, account } = u
  const policy = requestableBy(db, requester).find((p) => p.id === policyId)
  if (!policy) throw notFound(ACCESS_REQUEST_MESSAGES.notRequestable)
  const who = requesterRow(db, requester)
  const latest = latestRequest(db, requester, policyId)
  if (latest && (latest.status === 'waiting' || latest.status === 'approved')) throw conflict(ACCESS_REQUEST_MESSAGES.alreadyWaiting)
  if (latest?.status === 'refused') {
    const again = (latest.decidedAt ?? latest.requestedAt) + ACCESS_REQUEST.reaskAfterMs
    if (now < again) throw conflict(ACCESS_REQUEST_MESSAGES.askAgainFrom(again))
  }
  // An approver holds no key: their request releases to the policy's beneficiaries.
  const plan = policyPlan(db, policy, db.select().from(approvers).all(), now, requestWaitMs(policy, u.safetyWindowMs), requester.kind === 'beneficiary' ? requester.id : undefined)
  if (plan.targets.length === 0) throw conflict(ACCESS_REQUEST_MESSAGES.nothingToRelease)

  const id = crypto.randomUUID()
  const firingId = `r:${id}`
  db.insert(firings).values({ id: firingId, triggerId: null, kind: 'access_request', triggerType: 'access_request', reason: null, actor: requester.kind, firedAt: now, priorStatus: null }).run()
  const [releaseId] = writeReleases(u, firingId, [plan])
  u.dueAt(plan.releaseAt)
  db.insert(accessRequests).values({ id, policyId, requesterKind: requester.kind, requesterId: requester.id, requestedAt: now, decideBy: plan.releaseAt, status: 'waiting', decidedAt: null, firingId }).run()
  u.audit({
    actor: requester.kind,
    action: ACCESS_AUDIT_ACTIONS.requested,
    details: { requestId: id, policyId, requesterKind: requester.kind, requesterId: requester.id, releaseAt: iso(plan.releaseAt) },
  })

  u.tell('access_requested', accessRequestedOwnerEmail({
    displayName: account.displayName,
    timeZone: account.timeZone,
    requesterName: who.fullName,
    policyName: policy.name,
    opensAt: plan.releaseAt,
    approveUrl: `${u.env.APP_ORIGIN}/trigger-monitor?${new URLSearchParams({ request: id })}`,
    refuseUrl: u.signedLink('/access-refuse', 'accessRefuse', id),
  }))
  u.tell('owner_unanswered', ownerUnansweredEmail({ ownerName: account.displayName, ownerEmail: account.email, ownerPhone: account.phoneNumber }))
  for (const s of plan.signers) {
    u.mail(s.email, 'release_approval', releaseApprovalRequestEmail({
      name: s.name,
      ownerName: account.displayName,
      policyName: plan.sourceName,
      triggerLabel: 'Access request',
      approvalUrl: u.signedLink('/approve-release', 'releaseApproval', `${releaseId}:${s.email}`),
    }))
  }
  u.mail(who.email, 'access_requested_confirm', accessRequestedConfirmEmail({ name: who.fullName, ownerName: account.displayName, opensAt: plan.releaseAt }))
  return stateOf(policy, account.displayName, latestRequest(db, requester, policyId), now, u.safetyWindowMs)
}

function findRequest(db: OwnerDb, id: string): AccessRequestRow {
  const row = db.select().from(accessRequests).where(eq(accessRequests.id, id)).get()
  if (!row) throw notFound(ACCESS_REQUEST_MESSAGES.requestNotFound)
  return row
}

/** The owner refuses (from the e-mailed link or the app): nothing of it is ever released. */
export function refuseRequest(u: Unit, id: string, via: 'link' | 'app'): AccessRequest {
  const row = findRequest(u.db, id)
  if (row.status !== 'waiting') throw conflict(ACCESS_REQUEST_MESSAGES.notWaiting)
  cancelReleases(u, { firingId: row.firingId, via: 'refusal' }, 'user')
  u.db.update(accessRequests).set({ status: 'refused', decidedAt: u.now }).where(eq(accessRequests.id, id)).run()
  u.audit({ actor: 'user', action: ACCESS_AUDIT_ACTIONS.refused, details: { requestId: id, policyId: row.policyId, via } })
  const who = requesterOrNull(u.db, { kind: row.requesterKind, id: row.requesterId })
  if (who) u.mail(who.email, 'access_refused', accessRefusedEmail({ name: who.fullName, ownerName: u.account.displayName, askAgainFrom: u.now + ACCESS_REQUEST.reaskAfterMs }))
  return listRequests(u.db, id)[0]!
}

/**
 * "Approve now", signed in with fresh proof: the waiting release may go now (the policy's own
 * approvals and identity checks still apply).
 */
export function approveRequest(u: Unit, id: string): AccessRequest {
  const row = findRequest(u.db, id)
  if (row.status !== 'waiting') throw conflict(ACCESS_REQUEST_MESSAGES.notWaiting)
  u.db.update(releases).set({ releaseAt: u.now }).where(and(eq(releases.firingId, row.firingId), eq(releases.status, 'waiting'))).run()
  u.db.update(accessRequests).set({ status: 'approved', decidedAt: u.now }).where(eq(accessRequests.id, id)).run()
  u.audit({ actor: 'user', action: ACCESS_AUDIT_ACTIONS.approved, details: { requestId: id, policyId: row.policyId } })
  advanceReleases(u, { firingId: row.firingId })
  return listRequests(u.db, id)[0]!
}

/** What the owner's Refuse link shows before the click. */
export function refuseView(db: OwnerDb, ownerName: string, id: string): AccessRefuseView {
  const row = db.select().from(accessRequests).where(eq(accessRequests.id, id)).get()
  if (!row) throw badRequest(ACCESS_REQUEST_MESSAGES.requestNotFound)
  const policy = db.select({ name: policies.name }).from(policies).where(eq(policies.id, row.policyId)).get()
  return {
    ownerName,
    policyName: policy?.name ?? '',
    requesterName: requesterOrNull(db, { kind: row.requesterKind, id: row.requesterId })?.fullName ?? ACCESS_REQUEST_MESSAGES.someoneRemoved,
    decideBy: new Date(row.decideBy).toISOString(),
    status: row.status,
  }
}

const REQUESTS_LISTED = 100

/** The newest requests (or one), with who asked, who would receive and how many items. */
export function listRequests(db: OwnerDb, id?: string): AccessRequest[] {
  const rows = db
    .select({ r: accessRequests, policyName: policies.name })
    .from(accessRequests)
    .innerJoin(policies, eq(policies.id, accessRequests.policyId))
    .where(id ? eq(accessRequests.id, id) : undefined)
    .orderBy(desc(accessRequests.requestedAt))
    .limit(REQUESTS_LISTED)
    .all()
  if (rows.length === 0) return []
  const names = new Map<string, string>([
    ...db.select({ id: beneficiaries.id, name: beneficiaries.fullName }).from(beneficiaries).all().map((b) => [`beneficiary:${b.id}`, b.name] as const),
    ...db.select({ id: approvers.id, name: approvers.fullName }).from(approvers).all().map((a) => [`approver:${a.id}`, a.name] as const),
  ])
  const firingIds = rows.map((r) => r.r.firingId)
  const targets = db.all<{ firingId: string; itemId: string; name: string }>(sql`
    select r.firing_id as firingId, t.item_id as itemId, b.full_name as name
    from releases r join release_targets t on t.release_id = r.id join beneficiaries b on b.id = t.beneficiary_id
    where r.firing_id in (select value from json_each(${JSON.stringify(firingIds)}))`)
  return rows.map(({ r, policyName }) => {
    const mine = targets.filter((t) => t.firingId === r.firingId)
    return {
      id: r.id,
      policyId: r.policyId,
      policyName,
      requesterKind: r.requesterKind,
      requesterName: names.get(`${r.requesterKind}:${r.requesterId}`) ?? ACCESS_REQUEST_MESSAGES.someoneRemoved,
      requestedAt: new Date(r.requestedAt).toISOString(),
      decideBy: new Date(r.decideBy).toISOString(),
      status: r.status,
      decidedAt: iso(r.decidedAt),
      recipientNames: [...new Set(mine.map((t) => t.name))],
      itemCount: new Set(mine.map((t) => t.itemId)).size,
    }
  })
}

/**
 * The dry run of access on request: for each active policy that allows it, what a request would
 * release (to all its beneficiaries; a beneficiary's own request only their part), and after how long.
 */
export function requestPreviews(db: OwnerDb, now: number, safetyWindowMs: number): AccessRequestPreview[] {
  const all = db.select().from(approvers).all()
  const people = new Map(db.select({ id: beneficiaries.id, name: beneficiaries.fullName }).from(beneficiaries).all().map((b) => [b.id, b.name]))
  const open = db
    .select()
    .from(policies)
    .where(and(eq(policies.status, 'active'), sql`${policies.accessRequestDays} is not null`))
    .all()
  return open.map((p) => {
    const waitMs = requestWaitMs(p, safetyWindowMs)
    const plan = policyPlan(db, p, all, now, waitMs)
    const recipients = [...new Set(plan.targets.map((t) => t.beneficiaryId))]
    return {
      policyId: p.id,
      policyName: p.name,
      days: p.accessRequestDays!,
      by: p.accessRequestBy as AccessRequestPreview['by'],
      waitHours: Math.round(waitMs / HOUR_MS),
      itemCount: new Set(plan.targets.map((t) => t.itemId)).size,
      recipientNames: recipients.map((id) => people.get(id) ?? ''),
      requesters: requestersOf(p, all, recipients.length),
      minimumApprovals: plan.requiredApprovals,
      identityRequired: plan.identityRequired,
    }
  })
}

/** How many people could ask for `policy` today (beneficiaries something reaches, and allowed approvers). */
export function requestersOf(policy: PolicyRow, all: Array<typeof approvers.$inferSelect>, beneficiariesReached: number): number {
  return (policy.accessRequestBy.includes('beneficiaries') ? beneficiariesReached : 0) + (policy.accessRequestBy.includes('approvers') ? policyApprovers(policy, all).length : 0)
}

export function ownerRequests(db: OwnerDb, now: number, safetyWindowHours: number): OwnerAccessRequests {
  return { requests: listRequests(db), policies: requestPreviews(db, now, safetyWindowHours * HOUR_MS), safetyWindowHours }
}

/**
 * "Send me a new link" for someone who may ask: a beneficiary gets their portal link (where they
 * ask), an approver their own link to ask. Returns how many e-mails went.
 */
export function sendAskLinks(u: Unit, email: string, portalLinkSent: boolean): number {
  const { db } = u
  let sent = 0
  const b = db.select().from(beneficiaries).where(sql`lower(${beneficiaries.email}) = ${email.toLowerCase()}`).get()
  if (b && !portalLinkSent && requestableBy(db, { kind: 'beneficiary', id: b.id }).length > 0) {
    u.mail(b.email, 'portal_link', accessRequestLinkEmail({
      name: b.fullName,
      ownerName: u.account.displayName,
      requestUrl: u.signedLink('/beneficiary-portal', 'beneficiaryAccess', b.id, { id: b.id }),
    }))
    sent++
  }
  const a = db.select().from(approvers).where(sql`lower(${approvers.email}) = ${email.toLowerCase()}`).get()
  if (a && requestableBy(db, { kind: 'approver', id: a.id }).length > 0) {
    u.mail(a.email, 'access_request_link', accessRequestLinkEmail({
      name: a.fullName,
      ownerName: u.account.displayName,
      requestUrl: u.signedLink('/access-request', 'accessRequest', a.id),
    }))
    sent++
  }
  if (sent > 0) u.audit({ actor: b ? 'beneficiary' : 'approver', action: ACCESS_AUDIT_ACTIONS.linkSent, details: { links: sent } })
  return sent
}
