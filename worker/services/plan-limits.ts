import { PAID_PLANS, PLANS, type PaidPlan, type PlanDefinition } from '../../contract/plans'
import type { UserRow } from '../db/schema'

/**
 * The limits that apply to an owner: their paid plan's, Basic's for any other tier (free, pro,
 * a lapsed plan), and Enterprise's for admins. The one place that maps accounts to limits.
 */
export function planLimitsFor(owner: Pick<UserRow, 'role' | 'planTier'>): PlanDefinition['limits'] {
  if (owner.role === 'admin') return PLANS.enterprise.limits
  const tier = owner.planTier
  return (PAID_PLANS as readonly string[]).includes(tier) ? PLANS[tier as PaidPlan].limits : PLANS.basic.limits
}
