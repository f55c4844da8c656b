import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import {
  RELEASE_MESSAGES,
  type AssetDownload,
  type BeneficiaryPortalView,
  type DeathReportView,
  type ReleasedAsset,
  type ReleaseApprovalView,
} from '../../contract/releases'
import { TRIGGER_TYPE_LABELS, type TriggerType } from '../../contract/triggers'
import { advanceReleases } from '../engine/advance'
import { assetsReleasedEmail } from '../mail/release-templates'
import { acceptedTypesFor, reviewersFor } from './identity'
import { ApiError, badRequest, conflict, forbidden, notFound } from '../lib/errors'
import type { OwnerDb } from '../owner/db'
import {
  approvers,
  beneficiaries,
  deathReports,
  identityDocuments,
  firings,
  itemGrants,
  releasedAssets,
  releases,
  releaseSignoffs,
  releaseTargets,
  servedTickets,
  vaultItems,
  type BeneficiaryRow,
} from '../owner/schema'
import type { Unit } from '../owner/unit'
import { renewalState, whoCanHelp } from './renewals'

// What the release engine's e-mailed links open, for people without an account, run inside the
// owner's object the link names. The signed token (checked by the route) says who is asking.

// --- Approvers signing a release off -------------------------------------------------------

function signoffOf(db: OwnerDb, releaseId: string, email: string) {
  const signoff = db.select().from(releaseSignoffs).where(and(eq(releaseSignoffs.releaseId, releaseId), eq(releaseSignoffs.email, email))).get()
  if (!signoff) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  return signoff
}

export function approvalView(db: OwnerDb, ownerName: string, releaseId: string, email: string): ReleaseApprovalView {
  signoffOf(db, releaseId, email)
  const row = db.select({ r: releases, f: firings }).from(releases).innerJoin(firings, eq(firings.id, releases.firingId)).where(eq(releases.id, releaseId)).get()
  if (!row) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  const signoffs = db.select().from(releaseSignoffs).where(eq(releaseSignoffs.releaseId, releaseId)).all()
  const targets = db
    .select({ itemId: releaseTargets.itemId, name: beneficiaries.fullName })
    .from(releaseTargets)
    .innerJoin(beneficiaries, eq(beneficiaries.id, releaseTargets.beneficiaryId))
    .where(eq(releaseTargets.releaseId, releaseId))
    .all()
  const mine = signoffs.find((s) => s.email === email)
  return {
    ownerName,
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

/** One approver's answer, and whatever it lets the release do now. */
export function decideApproval(u: Unit, releaseId: string, email: string, decision: 'approved' | 'rejected', notes: string): ReleaseApprovalView {
  const { db, now } = u
  signoffOf(db, releaseId, email)
  const release = db.select().from(releases).where(eq(releases.id, releaseId)).get()
  if (release?.status !== 'waiting') throw conflict(RELEASE_MESSAGES.releaseNotWaiting)
  const decided = db
    .update(releaseSignoffs)
    .set({ decision, notes, decidedAt: now })
    .where(and(eq(releaseSignoffs.releaseId, releaseId), eq(releaseSignoffs.email, email), isNull(releaseSignoffs.decision)))
    .returning()
    .get()
  if (!decided) throw conflict(RELEASE_MESSAGES.alreadySigned)
  u.audit({ actor: 'approver', action: decision === 'approved' ? 'release.approved' : 'release.rejected_by_approver', details: { releaseId } })
  advanceReleases(u, { releaseId })
  return approvalView(db, u.account.displayName, releaseId, email)
}

// --- Approvers confirming the owner's death ------------------------------------------------

function reporter(db: OwnerDb, approverId: string) {
  const approver = db.select().from(approvers).where(eq(approvers.id, approverId)).get()
  if (!approver) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  return approver
}

/**
 * The approver's report link works while it carries the nonce of the link last sent to them (a
 * link from before nonces counts as 'legacy'), and reports once: the report uses the nonce up,
 * and a cancelled firing voids it. A used link still shows that the report was made.
 */
function linkState(db: OwnerDb, approverId: string, nonce: string | undefined): 'open' | 'used' {
  const approver = reporter(db, approverId)
  const carried = nonce ?? 'legacy'
  if (approver.deathLinkNonce !== null && approver.deathLinkNonce === carried) return 'open'
  const report = db.select({ nonce: deathReports.linkNonce }).from(deathReports).where(eq(deathReports.approverId, approverId)).get()
  if (report && report.nonce === carried) return 'used'
  throw badRequest(RELEASE_MESSAGES.reportLinkVoid)
}

export function deathReportView(db: OwnerDb, ownerName: string, approverId: string, nonce: string | undefined): DeathReportView {
  const approver = reporter(db, approverId)
  return { ownerName, approverName: approver.fullName, alreadyConfirmed: linkState(db, approverId, nonce) === 'used' }
}

/** Records the confirmation and uses the link up; the tick that follows fires the verified-death triggers. */
export function recordDeathReport(
  u: Unit,
  approverId: string,
  nonce: string | undefined,
  body: { certificateNumber: string; dateOfDeath: string; issuingAuthority: string },
): void {
  if (linkState(u.db, approverId, nonce) === 'used') throw conflict(RELEASE_MESSAGES.alreadyReported)
  const values = { certificateNumber: body.certificateNumber, dateOfDeath: body.dateOfDeath, issuingAuthority: body.issuingAuthority, linkNonce: nonce ?? 'legacy', createdAt: u.now }
  u.db.insert(deathReports).values({ approverId, ...values }).onConflictDoUpdate({ target: deathReports.approverId, set: values }).run()
  u.db.update(approvers).set({ deathLinkNonce: null }).where(eq(approvers.id, approverId)).run()
  u.audit({ actor: 'approver', action: 'trigger.death_confirmed', details: { approverId } })
}

// --- The beneficiary portal -----------------------------------------------------------------

/**
 * An heir who lost their e-mail asked for a new portal link by address: sent only when this owner
 * names that address and has released, unexpired assets waiting for them. Returns whether one went.
 */
export function sendPortalLink(u: Unit, email: string): boolean {
  const b = u.db.select().from(beneficiaries).where(sql`lower(${beneficiaries.email}) = ${email.toLowerCase()}`).get()
  if (!b) return false
  const waiting = u.db
    .select({ n: sql<number>`count(*)`, identity: sql<number>`sum(case when ${releasedAssets.status} = 'pending_identity' then 1 else 0 end)` })
    .from(releasedAssets)
    .where(
      and(
        eq(releasedAssets.beneficiaryId, b.id),
        sql`${releasedAssets.status} in ('available', 'pending_identity')`,
        sql`(${releasedAssets.expiresAt} is null or ${releasedAssets.expiresAt} > ${u.now})`,
        sql`${releasedAssets.downloadCount} < ${releasedAssets.maxDownloads}`,
      ),
    )
    .get()
  if (!waiting?.n) return false
  u.mail(b.email, 'portal_link', assetsReleasedEmail({
    fullName: b.fullName,
    ownerName: u.account.displayName,
    count: waiting.n,
    identityRequired: (waiting.identity ?? 0) > 0,
    portalUrl: u.signedLink('/beneficiary-portal', 'beneficiaryAccess', b.id, { id: b.id, view: 'assets' }),
  }))
  u.audit({ actor: 'beneficiary', action: 'release.portal_link_resent', details: { beneficiaryId: b.id, assets: waiting.n } })
  return true
}

export function portalBeneficiary(db: OwnerDb, beneficiaryId: string): BeneficiaryRow {
  const row = db.select().from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!row) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  return row
}

/** Whether a verified approver could review this beneficiary's identity document today. */
function reviewerReady(db: OwnerDb, beneficiaryId: string): boolean {
  try {
    return reviewersFor(db, beneficiaryId).reviewers.length > 0
  } catch (error) {
    if (error instanceof ApiError) return false
    throw error
  }
}

export function portalView(db: OwnerDb, ownerName: string, vaultSigningKey: string | null, beneficiaryId: string, now: number): BeneficiaryPortalView {
  const b = portalBeneficiary(db, beneficiaryId)
  const pending = db
    .select({ id: releasedAssets.id })
    .from(releasedAssets)
    .where(and(eq(releasedAssets.beneficiaryId, b.id), eq(releasedAssets.status, 'pending_identity')))
    .get()
  return {
    fullName: b.fullName,
    ownerName,
    identityStatus: b.identityStatus,
    identityRequired: !!pending,
    reviewerReady: reviewerReady(db, b.id),
    acceptedDocumentTypes: acceptedTypesFor(db, b.id),
    rejectionReason:
      b.identityStatus === 'rejected'
        ? (db.select({ reason: identityDocuments.rejectionReason }).from(identityDocuments).where(eq(identityDocuments.beneficiaryId, b.id)).orderBy(desc(identityDocuments.submittedAt)).get()?.reason ?? null)
        : null,
    vaultSigningKey,
    renewal: renewalState(db, ownerName, b.id, now),
  }
}

function assetStatus(a: { status: string; downloadCount: number; maxDownloads: number; expiresAt: number | null }, now: number): ReleasedAsset['status'] {
  if (a.status === 'withdrawn') return 'withdrawn'
  if (a.status === 'pending_identity') return 'pending_identity'
  if (a.expiresAt !== null && a.expiresAt <= now) return 'expired'
  if (a.downloadCount >= a.maxDownloads) return 'exhausted'
  return 'available'
}

export function listAssets(db: OwnerDb, beneficiaryId: string, now: number): ReleasedAsset[] {
  const b = portalBeneficiary(db, beneficiaryId)
  return db
    .select({ a: releasedAssets, v: vaultItems, wrappedKey: itemGrants.wrappedKey })
    .from(releasedAssets)
    .innerJoin(vaultItems, and(eq(vaultItems.id, releasedAssets.itemId), eq(vaultItems.status, 'active')))
    .innerJoin(itemGrants, and(eq(itemGrants.itemId, releasedAssets.itemId), eq(itemGrants.beneficiaryId, releasedAssets.beneficiaryId)))
    .where(eq(releasedAssets.beneficiaryId, b.id))
    .orderBy(releasedAssets.createdAt)
    .all()
    .map(({ a, v, wrappedKey }) => ({
      id: a.id,
      status: assetStatus(a, now),
      downloadCount: a.downloadCount,
      maxDownloads: a.maxDownloads,
      expiresAt: a.expiresAt === null ? null : new Date(a.expiresAt).toISOString(),
      releasedAt: new Date(a.createdAt).toISOString(),
      vaultItem: {
        id: v.id,
        type: v.type,
        encryptedMetadata: v.encryptedMetadata ?? '',
        wrappedKey,
        plainSize: v.plainSize,
        manifest: v.manifest,
        manifestSignature: v.manifest === null ? null : v.manifestSignature,
      },
    }))
}

/**
 * What the beneficiary's browser needs to download one asset (the wrapped key and the item's
 * shape; the route adds the ticket), if a download is still open to them. Counts nothing: the
 * download is counted when its ticket first fetches the content (`serveTicket`).
 */
export function prepareDownload(db: OwnerDb, ownerName: string, beneficiaryId: string, assetId: string, now: number): Omit<AssetDownload, 'contentUrl'> {
  const b = portalBeneficiary(db, beneficiaryId)
  const asset = db.select().from(releasedAssets).where(and(eq(releasedAssets.id, assetId), eq(releasedAssets.beneficiaryId, b.id))).get()
  if (!asset) throw notFound(RELEASE_MESSAGES.assetNotFound)
  refuseUnless(assetStatus(asset, now), ownerName, () => whoCanHelp(db, ownerName))
  const row = db
    .select({ v: vaultItems, wrappedKey: itemGrants.wrappedKey })
    .from(vaultItems)
    .innerJoin(itemGrants, and(eq(itemGrants.itemId, vaultItems.id), eq(itemGrants.beneficiaryId, b.id)))
    .where(and(eq(vaultItems.id, asset.itemId), eq(vaultItems.status, 'active')))
    .get()
  if (!row) throw notFound(RELEASE_MESSAGES.assetNotFound)
  return {
    encryptedMasterKey: row.wrappedKey,
    downloadCount: asset.downloadCount + 1,
    maxDownloads: asset.maxDownloads,
    item: {
      id: row.v.id,
      type: row.v.type,
      encryptedMetadata: row.v.encryptedMetadata ?? '',
      plainSize: row.v.plainSize,
      cipherSize: row.v.cipherSize,
      chunkBytes: row.v.chunkBytes,
      partCount: row.v.partCount,
    },
  }
}

/** `help`: who can allow more (renewals.ts), named when the downloads or the time ran out. */
function refuseUnless(status: ReleasedAsset['status'], ownerName: string, help: () => string): void {
  if (status === 'withdrawn') throw new ApiError(410, RELEASE_MESSAGES.assetWithdrawn(ownerName))
  if (status === 'pending_identity') throw conflict(RELEASE_MESSAGES.assetPendingIdentity)
  if (status === 'expired') throw new ApiError(410, `${RELEASE_MESSAGES.assetExpired} ${help()}`)
  if (status === 'exhausted') throw forbidden(`${RELEASE_MESSAGES.downloadLimit} ${help()}`)
}

/**
 * The R2 key of a released asset's ciphertext for a ticket the route has checked. The ticket's
 * first fetch counts one download (never past the maximum, never after the expiry, and only once
 * however many fetches race); later fetches on it (a retry after a network error) are free.
 */
export function serveTicket(u: Unit, beneficiaryId: string, assetId: string, ticketId: string | undefined): string {
  const { db, now } = u
  const row = db
    .select({ r2Key: vaultItems.r2Key, status: releasedAssets.status })
    .from(releasedAssets)
    .innerJoin(vaultItems, and(eq(vaultItems.id, releasedAssets.itemId), eq(vaultItems.status, 'active')))
    .where(and(eq(releasedAssets.id, assetId), eq(releasedAssets.beneficiaryId, beneficiaryId)))
    .get()
  if (!row) throw notFound(RELEASE_MESSAGES.assetNotFound)
  // Tickets are issued with an id since downloads are counted at the fetch; one without is forged.
  if (!ticketId) throw badRequest(RELEASE_MESSAGES.linkInvalid)
  // A withdrawn release serves nothing more, not even a ticket already used once.
  const help = () => whoCanHelp(db, u.account.displayName)
  if (row.status === 'withdrawn') refuseUnless('withdrawn', u.account.displayName, help)
  if (db.select({ id: servedTickets.ticketId }).from(servedTickets).where(and(eq(servedTickets.ticketId, ticketId), eq(servedTickets.assetId, assetId))).get()) return row.r2Key
  const counted = db
    .update(releasedAssets)
    .set({ downloadCount: sql`${releasedAssets.downloadCount} + 1` })
    .where(
      and(
        eq(releasedAssets.id, assetId),
        eq(releasedAssets.beneficiaryId, beneficiaryId),
        eq(releasedAssets.status, 'available'),
        sql`${releasedAssets.downloadCount} < ${releasedAssets.maxDownloads}`,
        sql`(${releasedAssets.expiresAt} is null or ${releasedAssets.expiresAt} > ${now})`,
      ),
    )
    .returning()
    .get()
  if (!counted) {
    const asset = db.select().from(releasedAssets).where(eq(releasedAssets.id, assetId)).get()!
    refuseUnless(assetStatus(asset, now), u.account.displayName, help)
    throw forbidden(`${RELEASE_MESSAGES.downloadLimit} ${help()}`)
  }
  db.insert(servedTickets).values({ ticketId, assetId, servedAt: now }).run()
  u.audit({ actor: 'beneficiary', action: 'release.downloaded', details: { assetId, beneficiaryId, downloadCount: counted.downloadCount } })
  return row.r2Key
}
