import { and, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import { RELEASE_LIMITS } from '../../contract/releases'
import { RENEWAL_MESSAGES, type RenewalDecisionView, type RenewalRequested, type RenewalState } from '../../contract/renewals'
import { badRequest, conflict, forbidden } from '../lib/errors'
import { renewalOutcomeEmail, renewalRequestEmail } from '../mail/release-templates'
import type { OwnerDb } from '../owner/db'
import { approvers, beneficiaries, firings, releasedAssets, releases, renewalRequests, vaultItems, type RenewalRequestRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Heirs who run out (contract/renewals.ts): an heir asks for more downloads and time on released
// assets that ran out; the owner (while alive) and their approvers with a confirmed address answer
// through links of their own. Runs inside the owner's object, in the act's transaction.

/** The key of the owner's own answer in `asked` and in the link's subject; approvers answer by address. */
export const OWNER_KEY = 'owner'

/**
 * Whether the owner's death counts as confirmed: a verified-death firing released something (a
 * cancelled one does not count). From then on the owner is not asked, and their link no longer works.
 */
export function ownerDeathVerified(db: OwnerDb): boolean {
  return !!db
    .select({ id: releases.id })
    .from(releases)
    .innerJoin(firings, eq(firings.id, releases.firingId))
    .where(and(eq(firings.kind, 'verified_death'), eq(releases.status, 'released')))
    .get()
}

/** Who could allow more now, in the order they are named: the owner while alive, then verified approvers. */
function helpersOf(db: OwnerDb, ownerName: string): Array<{ key: string; name: string }> {
  const verified = db
    .select({ email: approvers.email, name: approvers.fullName })
    .from(approvers)
    .where(isNotNull(approvers.emailVerifiedAt))
    .orderBy(approvers.createdAt)
    .all()
    .map((a) => ({ key: a.email.toLowerCase(), name: a.name }))
  return ownerDeathVerified(db) ? verified : [{ key: OWNER_KEY, name: ownerName }, ...verified]
}

/** The help line the portal and the download refusals give: who can allow more, from the facts. */
export function whoCanHelp(db: OwnerDb, ownerName: string): string {
  return RENEWAL_MESSAGES.whoCanHelp(helpersOf(db, ownerName).map((h) => h.name))
}

/** The heir's released assets that ran out (downloads used up, or past their date) and were not withdrawn. */
function runOut(db: OwnerDb, beneficiaryId: string, now: number): string[] {
  return db
    .select({ id: releasedAssets.id })
    .from(releasedAssets)
    .innerJoin(vaultItems, and(eq(vaultItems.id, releasedAssets.itemId), eq(vaultItems.status, 'active')))
    .where(
      and(
        eq(releasedAssets.beneficiaryId, beneficiaryId),
        eq(releasedAssets.status, 'available'),
        sql`(${releasedAssets.downloadCount} >= ${releasedAssets.maxDownloads} or (${releasedAssets.expiresAt} is not null and ${releasedAssets.expiresAt} <= ${now}))`,
      ),
    )
    .orderBy(releasedAssets.createdAt)
    .all()
    .map((a) => a.id)
}

function waitingOf(db: OwnerDb, beneficiaryId: string): RenewalRequestRow | undefined {
  return db
    .select()
    .from(renewalRequests)
    .where(and(eq(renewalRequests.beneficiaryId, beneficiaryId), eq(renewalRequests.status, 'waiting')))
    .get()
}

export function renewalState(db: OwnerDb, ownerName: string, beneficiaryId: string, now: number): RenewalState {
  const needed = runOut(db, beneficiaryId, now).length > 0
  const helpers = helpersOf(db, ownerName).map((h) => h.name)
  const waiting = waitingOf(db, beneficiaryId)
  const last = db
    .select()
    .from(renewalRequests)
    .where(and(eq(renewalRequests.beneficiaryId, beneficiaryId), ne(renewalRequests.status, 'waiting')))
    .orderBy(desc(renewalRequests.decidedAt))
    .get()
  return {
    needed,
    helpers,
    canAsk: needed && helpers.length > 0 && !waiting,
    waiting: waiting ? { requestedAt: new Date(waiting.requestedAt).toISOString() } : null,
    lastOutcome: last && last.status !== 'waiting' ? { status: last.status, decidedAt: new Date(last.decidedAt ?? last.requestedAt).toISOString() } : null,
  }
}

/** The heir asks: one request covering every asset that ran out, sent to everyone who can answer. */
export function requestRenewal(u: Unit, beneficiaryId: string): RenewalRequested {
  const { db, now } = u
  const heir = db.select().from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!heir) throw badRequest(RENEWAL_MESSAGES.linkInvalid)
  if (waitingOf(db, beneficiaryId)) throw conflict(RENEWAL_MESSAGES.alreadyWaiting)
  const assetIds = runOut(db, beneficiaryId, now)
  if (assetIds.length === 0) throw conflict(RENEWAL_MESSAGES.nothingToRenew)
  const asked = helpersOf(db, u.account.displayName)
  if (asked.length === 0) throw conflict(RENEWAL_MESSAGES.noOneCanHelp)
  const id = crypto.randomUUID()
  db.insert(renewalRequests).values({ id, beneficiaryId, assetIds, asked, refusedBy: [], requestedAt: now, status: 'waiting' }).run()
  for (const person of asked) {
    const asOwner = person.key === OWNER_KEY
    const message = renewalRequestEmail({
      name: person.name,
      ownerName: u.account.displayName,
      heirName: heir.fullName,
      itemCount: assetIds.length,
      decisionUrl: u.signedLink('/approve-renewal', 'renewalDecision', `${id}:${person.key}`),
      asOwner,
    })
    if (asOwner) u.tell('renewal_request', message)
    else u.mail(person.key, 'renewal_request', message)
  }
  u.audit({ actor: 'beneficiary', action: 'release.renewal_requested', details: { requestId: id, beneficiaryId, assets: assetIds.length, asked: asked.length } })
  return { message: RENEWAL_MESSAGES.asked, itemCount: assetIds.length, renewal: renewalState(db, u.account.displayName, beneficiaryId, now) }
}

/** "requestId:key" → its two parts. */
export function decisionSubject(subject: string): { requestId: string; key: string } {
  const split = subject.indexOf(':')
  return { requestId: subject.slice(0, split), key: subject.slice(split + 1).toLowerCase() }
}

/**
 * The request and the person a link names, if that person may still answer: one who was asked,
 * and still can (the owner while alive; an approver still named, with their address confirmed).
 */
function asked(db: OwnerDb, requestId: string, key: string): { request: RenewalRequestRow; name: string } {
  const request = db.select().from(renewalRequests).where(eq(renewalRequests.id, requestId)).get()
  const person = request?.asked.find((p) => p.key === key)
  if (!request || !person) throw badRequest(RENEWAL_MESSAGES.linkInvalid)
  if (key === OWNER_KEY) {
    if (ownerDeathVerified(db)) throw forbidden(RENEWAL_MESSAGES.ownerGone)
  } else {
    const approver = db.select().from(approvers).where(sql`lower(${approvers.email}) = ${key}`).get()
    if (!approver?.emailVerifiedAt) throw badRequest(RENEWAL_MESSAGES.linkInvalid)
  }
  return { request, name: person.name }
}

export function decisionView(db: OwnerDb, ownerName: string, requestId: string, key: string): RenewalDecisionView {
  const { request, name } = asked(db, requestId, key)
  const heir = db.select({ fullName: beneficiaries.fullName }).from(beneficiaries).where(eq(beneficiaries.id, request.beneficiaryId)).get()
  const yours = request.refusedBy.includes(key) ? 'refused' : request.status === 'approved' && request.decidedBy === key ? 'approved' : null
  return {
    ownerName,
    heirName: heir?.fullName ?? '',
    yourName: name,
    asOwner: key === OWNER_KEY,
    itemCount: request.assetIds.length,
    requestedAt: new Date(request.requestedAt).toISOString(),
    status: request.status,
    yourDecision: yours,
  }
}

/**
 * One person's answer. The first approval renews every covered asset not withdrawn (downloads back
 * to 0, a new expiry RELEASE_LIMITS.assetTtlDays from now); the owner's refusal ends the request,
 * an approver's ends it once everyone still able to answer has refused. The heir hears the outcome.
 */
export function decide(u: Unit, requestId: string, key: string, decision: 'approved' | 'refused'): RenewalDecisionView & { message: string } {
  const { db, now } = u
  const { request } = asked(db, requestId, key)
  if (request.refusedBy.includes(key)) throw conflict(RENEWAL_MESSAGES.alreadyAnswered)
  if (request.status !== 'waiting') throw conflict(RENEWAL_MESSAGES.alreadyDecided)
  const heir = db.select().from(beneficiaries).where(eq(beneficiaries.id, request.beneficiaryId)).get()!
  const actor = key === OWNER_KEY ? 'user' : 'approver'
  const ownerName = u.account.displayName
  const tellHeir = (approved: boolean, itemCount: number) =>
    u.mail(
      heir.email,
      'renewal_outcome',
      renewalOutcomeEmail({
        fullName: heir.fullName,
        ownerName,
        approved,
        itemCount,
        portalUrl: u.signedLink('/beneficiary-portal', 'beneficiaryAccess', heir.id, { id: heir.id, view: 'assets' }),
      }),
    )
  let message: string
  if (decision === 'approved') {
    // A withdrawn asset is never renewed: only those still 'available' are.
    const renewed = db
      .update(releasedAssets)
      .set({ downloadCount: 0, expiresAt: now + RELEASE_LIMITS.assetTtlDays * DAY_MS })
      .where(and(inArray(releasedAssets.id, request.assetIds), eq(releasedAssets.beneficiaryId, request.beneficiaryId), eq(releasedAssets.status, 'available')))
      .returning({ id: releasedAssets.id })
      .all().length
    db.update(renewalRequests).set({ status: 'approved', decidedAt: now, decidedBy: key }).where(eq(renewalRequests.id, requestId)).run()
    u.audit({ actor, action: 'release.renewed', details: { requestId, beneficiaryId: heir.id, renewedItems: renewed } })
    if (renewed > 0) tellHeir(true, renewed)
    message = RENEWAL_MESSAGES.approvedThanks(heir.fullName)
  } else {
    const refusedBy = [...request.refusedBy, key]
    const stillAble = request.asked.filter((p) => p.key !== OWNER_KEY || !ownerDeathVerified(db))
    const final = key === OWNER_KEY || stillAble.every((p) => refusedBy.includes(p.key))
    db.update(renewalRequests)
      .set(final ? { refusedBy, status: 'refused', decidedAt: now, decidedBy: key } : { refusedBy })
      .where(eq(renewalRequests.id, requestId))
      .run()
    u.audit({ actor, action: 'release.renewal_refused', details: { requestId, beneficiaryId: heir.id, final } })
    if (final) tellHeir(false, request.assetIds.length)
    message = RENEWAL_MESSAGES.refusedThanks
  }
  return { ...decisionView(db, ownerName, requestId, key), message }
}
