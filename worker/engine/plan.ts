import { DAY_MS, HOUR_MS } from '../../contract/constants'
import { and, eq, inArray } from 'drizzle-orm'
import type { ReleasePlanEntry, TriggerType } from '../../contract/triggers'
import { servingTrigger, type ServingTrigger } from '../../contract/readiness'
import { RELEASE_PROTOCOL_LABELS, RELEASE_PROTOCOLS, type ReleaseProtocol } from '../../contract/vault-items'
import { inSlices, type OwnerDb } from '../owner/db'
import { approvers, itemGrants, policies, policyBeneficiaries, policyItems, vaultItems } from '../owner/schema'

/**
 * The items' own protocols a firing of `type` releases (contract/readiness.ts `servingTrigger` is
 * the one rule, shared with the readiness list and the Add Item dialog); a manual release also
 * takes those released only by the owner's hand, whichever trigger it names.
 */
function protocolsFor(type: TriggerType, manual: boolean): ReleaseProtocol[] {
  const served = (kind: ServingTrigger) => RELEASE_PROTOCOLS.filter((p) => servingTrigger(p) === kind)
  const own = type === 'inactivity' || type === 'verified_death' || type === 'biometric_failure' ? served(type) : []
  return [...own, ...(manual ? served('manual') : [])]
}

/** INACTIVITY_90_DAYS → 90: such an item waits until the owner has been silent that long. */
export function inactivityDays(protocol: string): number | null {
  const m = /^INACTIVITY_(\d+)_DAYS$/.exec(protocol)
  return m ? Number(m[1]) : null
}

export interface PlannedRelease {
  sourceKey: string
  sourceName: string
  source: ReleasePlanEntry['source']
  policyId: string | null
  /** Earliest release time. */
  releaseAt: number
  delayHours: number
  requiredApprovals: number
  signers: Array<{ email: string; name: string }>
  identityRequired: boolean
  targets: Array<{ itemId: string; beneficiaryId: string }>
}

export interface FiringInput {
  type: TriggerType
  manual: boolean
  triggerId: string | null
  /** Scheduled triggers: the beneficiaries they name. */
  scheduledBeneficiaries?: string[]
  /** For one item's own schedule (SCHEDULED protocol): only that item. */
  onlyItemId?: string
  /**
   * The owner's safety window when the firing is not the owner acting now (a death report,
   * inactivity, failed unlocks): nothing of it is available before the window has passed. A
   * policy's delay can make the wait longer, never shorter.
   */
  safetyWindowMs?: number
}

/**
 * Works out what a firing hands over, to whom, under which conditions, from the policies that
 * name the trigger, the items whose own protocol rides on it, and (scheduled triggers) the
 * beneficiaries the trigger names. Nothing is written: the dry run shows exactly this.
 */
export function planFiring(db: OwnerDb, input: FiringInput, now: number, lastCheckInAt: number | null): PlannedRelease[] {
  const plans: PlannedRelease[] = []
  const ownerApprovers = db.select().from(approvers).all()

  if (input.onlyItemId) {
    const item = db.select().from(vaultItems).where(and(eq(vaultItems.id, input.onlyItemId), eq(vaultItems.status, 'active'))).get()
    if (item) plans.push(itemPlan(item, directGrants(db, { itemId: item.id }).get(item.id) ?? [], now, lastCheckInAt, ownerApprovers, input.safetyWindowMs ?? 0))
    return plans.filter((p) => p.targets.length > 0)
  }

  if (input.type !== 'scheduled') {
    const active = db
      .select()
      .from(policies)
      .where(eq(policies.status, 'active'))
      .all()
      .filter((p) => (p.releaseOn as string[]).includes(input.type))
    for (const policy of active) plans.push(policyPlan(db, policy, ownerApprovers, now, Math.max(policy.delayHours * HOUR_MS, input.safetyWindowMs ?? 0)))
    const protocols = protocolsFor(input.type, input.manual)
    if (protocols.length > 0) {
      const items = db.select().from(vaultItems).where(and(eq(vaultItems.status, 'active'), inArray(vaultItems.releaseProtocol, protocols))).all()
      // Every item's direct grants in one query, not one query an item.
      const direct = directGrants(db, { protocols })
      for (const item of items) plans.push(itemPlan(item, direct.get(item.id) ?? [], now, lastCheckInAt, ownerApprovers, input.safetyWindowMs ?? 0))
    }
  } else if (input.triggerId && input.scheduledBeneficiaries?.length) {
    // Everything granted to the people the trigger names that are still the owner's.
    const grants = inSlices(input.scheduledBeneficiaries, (slice) =>
      db
        .select({ itemId: itemGrants.itemId, beneficiaryId: itemGrants.beneficiaryId })
        .from(itemGrants)
        .innerJoin(vaultItems, and(eq(vaultItems.id, itemGrants.itemId), eq(vaultItems.status, 'active')))
        .where(inArray(itemGrants.beneficiaryId, slice))
        .all(),
    )
    plans.push({
      sourceKey: `scheduled:${input.triggerId}`,
      sourceName: 'Scheduled release',
      source: { kind: 'scheduled', triggerId: input.triggerId },
      policyId: null,
      releaseAt: now,
      delayHours: 0,
      requiredApprovals: 0,
      signers: [],
      identityRequired: false,
      targets: grants,
    })
  }
  return plans.filter((p) => p.targets.length > 0)
}

/**
 * One policy's release: its targets (or those of them for `onlyBeneficiaryId`), its approvers and
 * identity checks, released `waitMs` from now. A firing by a trigger and an access request share it.
 */
export function policyPlan(
  db: OwnerDb,
  policy: typeof policies.$inferSelect,
  ownerApprovers: Array<typeof approvers.$inferSelect>,
  now: number,
  waitMs: number,
  onlyBeneficiaryId?: string,
): PlannedRelease {
  const all = policyTargets(db, policy.id)
  const targets = onlyBeneficiaryId ? all.filter((t) => t.beneficiaryId === onlyBeneficiaryId) : all
  const named = new Set(policy.identityVerificationApprovers)
  const signers = policy.requiresApprover
    ? signersFrom(
        ownerApprovers.filter((a) => a.emailVerifiedAt && (named.size === 0 || named.has(a.id))),
        policy.approverContact,
      )
    : []
  return {
    sourceKey: `policy:${policy.id}`,
    sourceName: policy.name,
    source: { kind: 'policy', policyId: policy.id, name: policy.name },
    policyId: policy.id,
    releaseAt: now + waitMs,
    delayHours: Math.round(waitMs / HOUR_MS),
    // Never more than there are people to ask: a release must stay possible.
    requiredApprovals: policy.requiresApprover ? Math.max(1, Math.min(policy.minimumApprovals, signers.length)) : 0,
    signers,
    identityRequired: policy.requiresIdentityVerification,
    targets,
  }
}

function signersFrom(list: Array<{ email: string; fullName: string }>, contact: string | null): PlannedRelease['signers'] {
  const signers = new Map(list.map((a) => [a.email.toLowerCase(), { email: a.email.toLowerCase(), name: a.fullName }]))
  if (contact && !signers.has(contact.toLowerCase())) signers.set(contact.toLowerCase(), { email: contact.toLowerCase(), name: contact })
  return [...signers.values()]
}

/**
 * The (item, beneficiary) pairs a policy hands over: items it covers that are still active, to the
 * people it names, where the browser wrapped that item's key for that person. One joined query,
 * so a policy over thousands of items never meets the limit on bound parameters.
 */
function policyTargets(db: OwnerDb, policyId: string) {
  return db
    .select({ itemId: itemGrants.itemId, beneficiaryId: itemGrants.beneficiaryId })
    .from(itemGrants)
    .innerJoin(policyItems, and(eq(policyItems.itemId, itemGrants.itemId), eq(policyItems.policyId, policyId)))
    .innerJoin(policyBeneficiaries, and(eq(policyBeneficiaries.beneficiaryId, itemGrants.beneficiaryId), eq(policyBeneficiaries.policyId, policyId)))
    .innerJoin(vaultItems, and(eq(vaultItems.id, itemGrants.itemId), eq(vaultItems.status, 'active')))
    .all()
}

/**
 * The direct grants (item, beneficiary) of active items, by item: of one item, or of every item
 * under one of the protocols named. One query either way.
 */
function directGrants(db: OwnerDb, scope: { itemId: string } | { protocols: ReleaseProtocol[] }) {
  const rows = db
    .select({ itemId: itemGrants.itemId, beneficiaryId: itemGrants.beneficiaryId })
    .from(itemGrants)
    .innerJoin(vaultItems, and(eq(vaultItems.id, itemGrants.itemId), eq(vaultItems.status, 'active')))
    .where(and(eq(itemGrants.direct, true), 'protocols' in scope ? inArray(vaultItems.releaseProtocol, scope.protocols) : eq(itemGrants.itemId, scope.itemId)))
    .all()
  const byItem = new Map<string, Array<{ itemId: string; beneficiaryId: string }>>()
  for (const row of rows) {
    const list = byItem.get(row.itemId)
    if (list) list.push(row)
    else byItem.set(row.itemId, [row])
  }
  return byItem
}

function itemPlan(
  item: typeof vaultItems.$inferSelect,
  direct: Array<{ itemId: string; beneficiaryId: string }>,
  now: number,
  lastCheckInAt: number | null,
  ownerApprovers: Array<{ email: string; fullName: string }>,
  safetyWindowMs: number,
): PlannedRelease {
  const days = inactivityDays(item.releaseProtocol)
  const silentUntil = days !== null && lastCheckInAt !== null ? lastCheckInAt + days * DAY_MS : now
  const releaseAt = Math.max(now + safetyWindowMs, silentUntil)
  const contact = item.requiresApprover ? item.approverContact : null
  const known = contact ? ownerApprovers.filter((a) => a.email.toLowerCase() === contact.toLowerCase()) : []
  const label = RELEASE_PROTOCOL_LABELS[item.releaseProtocol as ReleaseProtocol] ?? item.releaseProtocol
  return {
    sourceKey: `item:${item.id}`,
    sourceName: `${label} item`,
    source: { kind: 'item', itemId: item.id, protocol: item.releaseProtocol },
    policyId: null,
    releaseAt,
    delayHours: Math.round((releaseAt - now) / HOUR_MS),
    requiredApprovals: contact ? 1 : 0,
    signers: contact ? signersFrom(known, contact) : [],
    identityRequired: false,
    targets: direct,
  }
}
