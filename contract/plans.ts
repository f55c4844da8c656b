// Plans, prices and limits (seeds 000 §6, §9). The only place these numbers live.

export const PLAN_TIERS = ['free', 'basic', 'pro', 'premium', 'enterprise', 'paused', 'admin'] as const
export type PlanTier = (typeof PLAN_TIERS)[number]

export const PAID_PLANS = ['basic', 'premium', 'enterprise'] as const
export type PaidPlan = (typeof PAID_PLANS)[number]

const MB = 1024 * 1024
const GB = 1024 * MB

export interface PlanDefinition {
  id: PaidPlan
  name: string
  priceCents: number
  period: 'month'
  description: string
  popular: boolean
  limits: { maxItems: number | null; maxStorageBytes: number; maxBeneficiaries: number | null }
  features: string[]
}

/**
 * What every plan has. Plans differ only in their limits (items, storage, beneficiaries) and in
 * support: release triggers, multi-factor sign-in, policies and verification are never withheld
 * for price, because a Basic owner without them would have a less safe vault, not a cheaper one.
 * /pricing lists these for each plan (test/web/pricing-plans.test.ts keeps it so).
 */
export const EVERY_PLAN_FEATURES = [
  'Inactivity detection',
  'Manual release triggers',
  'Every release trigger: confirmed death, a scheduled date, failed unlocks, lost devices',
  'Multi-factor sign-in: security keys and authenticator apps',
  'Access policies',
  'Heir identity verification',
  'Email notifications',
  'Audit trail with cryptographic integrity',
] as const

const sizeText = (bytes: number) => (bytes >= GB ? `${bytes / GB}GB` : `${bytes / MB}MB`)

/** A plan's list on /pricing: its limits (from the numbers the server enforces), what every plan has, its support. */
function featuresOf(limits: PlanDefinition['limits'], support: string): string[] {
  return [
    limits.maxItems === null ? 'Unlimited vault items' : `Up to ${limits.maxItems} vault items`,
    `${sizeText(limits.maxStorageBytes)} encrypted storage`,
    limits.maxBeneficiaries === null ? 'Unlimited beneficiaries' : `Up to ${limits.maxBeneficiaries} beneficiaries`,
    ...EVERY_PLAN_FEATURES,
    support,
  ]
}

const BASIC_LIMITS = { maxItems: 20, maxStorageBytes: 500 * MB, maxBeneficiaries: 3 }
const PREMIUM_LIMITS = { maxItems: null, maxStorageBytes: 10 * GB, maxBeneficiaries: null }
const ENTERPRISE_LIMITS = { maxItems: null, maxStorageBytes: 50 * GB, maxBeneficiaries: null }

export const PLANS: Record<PaidPlan, PlanDefinition> = {
  basic: {
    id: 'basic',
    name: 'Basic',
    priceCents: 1000,
    period: 'month',
    description: 'Essential protection for your most important documents.',
    popular: false,
    limits: BASIC_LIMITS,
    features: /* @__PURE__ */ featuresOf(BASIC_LIMITS, 'Email support'),
  },
  premium: {
    id: 'premium',
    name: 'Premium',
    priceCents: 2999,
    period: 'month',
    description: 'Complete legacy planning for families and professionals.',
    popular: true,
    limits: PREMIUM_LIMITS,
    features: /* @__PURE__ */ featuresOf(PREMIUM_LIMITS, 'Priority support'),
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    priceCents: 9999,
    period: 'month',
    description: 'Maximum capacity for estates, businesses and advisers.',
    popular: false,
    limits: ENTERPRISE_LIMITS,
    features: /* @__PURE__ */ featuresOf(ENTERPRISE_LIMITS, 'Priority support'),
  },
}

export const PLAN_LIST: PlanDefinition[] = PAID_PLANS.map((id) => PLANS[id])

export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`
}

// Every account starts here until billing (a later release) says otherwise.
export const DEFAULT_PLAN: PaidPlan = 'basic'
