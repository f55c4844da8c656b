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

const PREMIUM_FEATURES = [
  '10GB encrypted storage',
  'Unlimited vault items',
  'Unlimited beneficiaries',
  'Advanced access policies',
  'Inactivity detection',
  'Manual release triggers',
  'Priority support',
  'Audit trail with cryptographic integrity',
  'Multi-factor authentication',
  'Advanced verification options',
  'Custom triggers',
]

export const PLANS: Record<PaidPlan, PlanDefinition> = {
  basic: {
    id: 'basic',
    name: 'Basic',
    priceCents: 1000,
    period: 'month',
    description: 'Essential protection for your most important documents.',
    popular: false,
    limits: { maxItems: 20, maxStorageBytes: 500 * MB, maxBeneficiaries: 3 },
    features: [
      'Up to 20 vault items',
      '500MB encrypted storage',
      'Up to 3 beneficiaries',
      'Email notifications',
      'Basic access policies',
      'Email support',
      'Audit trail',
    ],
  },
  premium: {
    id: 'premium',
    name: 'Premium',
    priceCents: 2999,
    period: 'month',
    description: 'Complete legacy planning for families and professionals.',
    popular: true,
    limits: { maxItems: null, maxStorageBytes: 10 * GB, maxBeneficiaries: null },
    features: PREMIUM_FEATURES,
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    priceCents: 9999,
    period: 'month',
    description: 'Maximum capacity for estates, businesses and advisers.',
    popular: false,
    limits: { maxItems: null, maxStorageBytes: 50 * GB, maxBeneficiaries: null },
    features: ['50GB encrypted storage', ...PREMIUM_FEATURES.slice(1)],
  },
}

export const PLAN_LIST: PlanDefinition[] = PAID_PLANS.map((id) => PLANS[id])

export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`
}

// Every account starts here until billing (a later release) says otherwise.
export const DEFAULT_PLAN: PaidPlan = 'basic'
