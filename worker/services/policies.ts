import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { POLICY_MESSAGES, policyCreateBodySchema, type Policy } from '../../contract/policies'
import { badRequest, notFound } from '../lib/errors'
import { inSlices, type OwnerDb } from '../owner/db'
import { approvers, beneficiaries, policies, policyBeneficiaries, policyItems, vaultItems, type PolicyRow } from '../owner/schema'
import type { Unit } from '../owner/unit'

// Access policies, run inside the owner's object.

type PolicyInput = z.output<typeof policyCreateBodySchema>

export function toPolicy(row: PolicyRow, beneficiaryIds: string[]): Policy {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    ruleJson: {
      assign: beneficiaryIds.map((beneficiaryId) => ({ beneficiaryId, access: 'read' as const })),
      release: { on: row.releaseOn as Policy['ruleJson']['release']['on'], delayHours: row.delayHours, requiresApprover: row.requiresApprover },
    },
    encryptedSelectors: row.encryptedSelectors,
    wrappedKey: row.wrappedKey,
    requiresApprover: row.requiresApprover,
    approverContact: row.approverContact,
    requiresIdentityVerification: row.requiresIdentityVerification,
    identityVerificationApprovers: row.identityVerificationApprovers,
    requiredDocumentTypes: row.requiredDocumentTypes as Policy['requiredDocumentTypes'],
    minimumApprovals: row.minimumApprovals,
    accessRequest: row.accessRequestDays === null ? null : { days: row.accessRequestDays, by: row.accessRequestBy as Array<'beneficiaries' | 'approvers'> },
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

/** Who each policy (or just `policyId`) assigns, by policy id. */
function assignedBeneficiaries(db: OwnerDb, policyId?: string): Map<string, string[]> {
  const map = new Map<string, string[]>()
  const rows = db.select().from(policyBeneficiaries).where(policyId ? eq(policyBeneficiaries.policyId, policyId) : undefined).all()
  for (const r of rows) map.set(r.policyId, [...(map.get(r.policyId) ?? []), r.beneficiaryId])
  return map
}

export function listPolicies(db: OwnerDb): Policy[] {
  const rows = db.select().from(policies).orderBy(asc(policies.createdAt)).all()
  const assigned = assignedBeneficiaries(db)
  return rows.map((r) => toPolicy(r, assigned.get(r.id) ?? []))
}

/** Creates a policy after checking that every beneficiary and approver it names is the owner's. */
export function createPolicy(u: Unit, body: PolicyInput): Policy {
  const { db, now } = u
  const beneficiaryIds = [...new Set(body.ruleJson.assign.map((a) => a.beneficiaryId))]
  const owned = inSlices(beneficiaryIds, (slice) => db.select({ id: beneficiaries.id }).from(beneficiaries).where(inArray(beneficiaries.id, slice)).all())
  if (owned.length !== beneficiaryIds.length) throw badRequest(POLICY_MESSAGES.unknownBeneficiary)
  const approverIds = [...new Set(body.identityVerificationApprovers)]
  if (approverIds.length > 0) {
    const ownedApprovers = inSlices(approverIds, (slice) => db.select({ id: approvers.id }).from(approvers).where(inArray(approvers.id, slice)).all())
    if (ownedApprovers.length !== approverIds.length) throw badRequest(POLICY_MESSAGES.unknownApprover)
  }
  const row = db
    .insert(policies)
    .values({
      id: crypto.randomUUID(),
      name: body.name,
      description: body.description,
      status: body.status,
      releaseOn: [...new Set(body.ruleJson.release.on)],
      delayHours: body.ruleJson.release.delayHours,
      requiresApprover: body.requiresApprover || body.ruleJson.release.requiresApprover,
      approverContact: body.approverContact ?? null,
      requiresIdentityVerification: body.requiresIdentityVerification,
      identityVerificationApprovers: approverIds,
      requiredDocumentTypes: [...new Set(body.requiredDocumentTypes)],
      minimumApprovals: body.minimumApprovals,
      encryptedSelectors: body.encryptedSelectors,
      wrappedKey: body.wrappedKey,
      accessRequestDays: body.accessRequest?.days ?? null,
      accessRequestBy: body.accessRequest ? [...new Set(body.accessRequest.by)] : ['beneficiaries'],
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()!
  for (const beneficiaryId of beneficiaryIds) db.insert(policyBeneficiaries).values({ policyId: row.id, beneficiaryId }).run()
  const policy = toPolicy(row, beneficiaryIds)
  u.audit({
    actor: 'user',
    action: 'policy.created',
    details: {
      policyId: policy.id,
      status: policy.status,
      triggers: policy.ruleJson.release.on.join(','),
      delayHours: policy.ruleJson.release.delayHours,
      beneficiaries: policy.ruleJson.assign.length,
      requiresApprover: policy.requiresApprover,
      requiresIdentityVerification: policy.requiresIdentityVerification,
      minimumApprovals: policy.minimumApprovals,
      accessRequestDays: policy.accessRequest?.days ?? null,
      accessRequestBy: policy.accessRequest?.by.join(',') ?? null,
    },
  })
  return policy
}

/** Whether setting `status` turns on a policy's access on request (it was off, and the policy has it). */
export function activationArmsRequests(db: OwnerDb, id: string, status: PolicyRow['status']): boolean {
  const row = db.select({ status: policies.status, days: policies.accessRequestDays }).from(policies).where(eq(policies.id, id)).get()
  return !!row && status === 'active' && row.status !== 'active' && row.days !== null
}

export function setPolicyStatus(u: Unit, id: string, status: PolicyRow['status']): Policy {
  const row = u.db.update(policies).set({ status, updatedAt: u.now }).where(eq(policies.id, id)).returning().get()
  if (!row) throw notFound(POLICY_MESSAGES.policyNotFound)
  u.audit({ actor: 'user', action: 'policy.status_changed', details: { policyId: row.id, status: row.status } })
  return toPolicy(row, assignedBeneficiaries(u.db, row.id).get(row.id) ?? [])
}

export function deletePolicy(u: Unit, id: string): void {
  const gone = u.db.delete(policies).where(eq(policies.id, id)).returning({ id: policies.id }).get()
  if (!gone) throw notFound(POLICY_MESSAGES.policyNotFound)
  u.audit({ actor: 'user', action: 'policy.deleted', details: { policyId: id } })
}

/**
 * Records which items a policy covers. The selectors are sealed, so only the owner's browser can
 * match them; the release engine needs the result to know what a policy hands over. Ids that are
 * not the owner's active items are ignored; the set only grows (an item leaves it on deletion).
 */
export function addPolicyItems(u: Unit, policyId: string, itemIds: string[]): number {
  const { db } = u
  if (!db.select({ id: policies.id }).from(policies).where(eq(policies.id, policyId)).get()) throw notFound(POLICY_MESSAGES.policyNotFound)
  const owned = inSlices([...new Set(itemIds)], (slice) =>
    db.select({ id: vaultItems.id }).from(vaultItems).where(and(inArray(vaultItems.id, slice), eq(vaultItems.status, 'active'))).all(),
  )
  for (const o of owned) db.insert(policyItems).values({ policyId, itemId: o.id }).onConflictDoNothing().run()
  const itemCount = db.select({ n: sql<number>`count(*)` }).from(policyItems).where(eq(policyItems.policyId, policyId)).get()?.n ?? 0
  u.audit({ actor: 'user', action: 'policy.items_recorded', details: { policyId, itemCount } })
  return itemCount
}
