import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import { POLICY_MESSAGES, policyCreateBodySchema, type Policy } from '../../contract/policies'
import type { Db } from '../db/client'
import { inSlices } from '../db/in-slices'
import { approvers, beneficiaries, policies, policyBeneficiaries, policyItems, vaultItems, type PolicyRow } from '../db/schema'
import { badRequest, notFound } from '../lib/errors'

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
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

/** Who each of the owner's policies (or just `policyId`) assigns, by policy id. */
async function assignedBeneficiaries(db: Db, ownerId: string, policyId?: string): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>()
  const rows = await db
    .select({ policyId: policyBeneficiaries.policyId, beneficiaryId: policyBeneficiaries.beneficiaryId })
    .from(policyBeneficiaries)
    .innerJoin(policies, and(eq(policies.id, policyBeneficiaries.policyId), eq(policies.ownerId, ownerId)))
    .where(policyId ? eq(policyBeneficiaries.policyId, policyId) : undefined)
  for (const r of rows) map.set(r.policyId, [...(map.get(r.policyId) ?? []), r.beneficiaryId])
  return map
}

export async function listPolicies(db: Db, ownerId: string): Promise<Policy[]> {
  const rows = await db.select().from(policies).where(eq(policies.ownerId, ownerId)).orderBy(asc(policies.createdAt))
  const assigned = await assignedBeneficiaries(db, ownerId)
  return rows.map((r) => toPolicy(r, assigned.get(r.id) ?? []))
}

/** Creates a policy after checking that every beneficiary and approver it names is the owner's. */
export async function createPolicy(db: Db, ownerId: string, body: PolicyInput, now = Date.now()): Promise<Policy> {
  const beneficiaryIds = [...new Set(body.ruleJson.assign.map((a) => a.beneficiaryId))]
  const owned = await inSlices(beneficiaryIds, (slice) =>
    db
      .select({ id: beneficiaries.id })
      .from(beneficiaries)
      .where(and(eq(beneficiaries.ownerId, ownerId), inArray(beneficiaries.id, slice))),
  )
  if (owned.length !== beneficiaryIds.length) throw badRequest(POLICY_MESSAGES.unknownBeneficiary)
  const approverIds = [...new Set(body.identityVerificationApprovers)]
  if (approverIds.length > 0) {
    const ownedApprovers = await inSlices(approverIds, (slice) =>
      db
        .select({ id: approvers.id })
        .from(approvers)
        .where(and(eq(approvers.ownerId, ownerId), inArray(approvers.id, slice))),
    )
    if (ownedApprovers.length !== approverIds.length) throw badRequest(POLICY_MESSAGES.unknownApprover)
  }
  const id = crypto.randomUUID()
  const [[row]] = await db.batch([
    db
      .insert(policies)
      .values({
        id,
        ownerId,
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
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    ...beneficiaryIds.map((beneficiaryId) => db.insert(policyBeneficiaries).values({ policyId: id, beneficiaryId })),
  ])
  return toPolicy(row!, beneficiaryIds)
}

export async function setPolicyStatus(db: Db, ownerId: string, id: string, status: PolicyRow['status'], now = Date.now()): Promise<Policy> {
  const [row] = await db
    .update(policies)
    .set({ status, updatedAt: now })
    .where(and(eq(policies.id, id), eq(policies.ownerId, ownerId)))
    .returning()
  if (!row) throw notFound(POLICY_MESSAGES.policyNotFound)
  const assigned = await assignedBeneficiaries(db, ownerId, row.id)
  return toPolicy(row, assigned.get(row.id) ?? [])
}

export async function deletePolicy(db: Db, ownerId: string, id: string): Promise<void> {
  const rows = await db.delete(policies).where(and(eq(policies.id, id), eq(policies.ownerId, ownerId))).returning({ id: policies.id })
  if (rows.length === 0) throw notFound(POLICY_MESSAGES.policyNotFound)
}

/**
 * Records which items a policy covers. The selectors are sealed, so only the owner's browser can
 * match them; the release engine needs the result to know what a policy hands over. Items that
 * are not the owner's active items are ignored; the set only grows (an item leaves it on deletion).
 */
export async function addPolicyItems(db: Db, ownerId: string, policyId: string, itemIds: string[]): Promise<number> {
  const [policy] = await db.select({ id: policies.id }).from(policies).where(and(eq(policies.id, policyId), eq(policies.ownerId, ownerId)))
  if (!policy) throw notFound(POLICY_MESSAGES.policyNotFound)
  const ids = [...new Set(itemIds)]
  for (let i = 0; i < ids.length; i += 50) {
    const owned = await db
      .select({ id: vaultItems.id })
      .from(vaultItems)
      .where(and(eq(vaultItems.ownerId, ownerId), eq(vaultItems.status, 'active'), inArray(vaultItems.id, ids.slice(i, i + 50))))
    if (owned.length > 0) {
      await db.insert(policyItems).values(owned.map((o) => ({ policyId, itemId: o.id }))).onConflictDoNothing()
    }
  }
  const [{ n }] = await db.select({ n: sql<number>`count(*)` }).from(policyItems).where(eq(policyItems.policyId, policyId)) as [{ n: number }]
  return n
}
