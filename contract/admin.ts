import { z } from 'zod'
import { PROMO_TYPES } from './billing'

// The back office (seeds 001 §2 'Admin dashboard', §3, §5 'Admin promo create', 'Admin prompts',
// §6 admin abilities, §7 the /api/admin calls, §8, §9). Amounts are cents everywhere in the API;
// the refund form's dollars are converted once, in refundBodySchema.

export const ADMIN_MESSAGES = {
  userNotFound: 'User not found',
  promoNotFound: 'Promo code not found.',
  promoInUse: 'This promo code has been used, so it cannot be deleted. Deactivate it instead.',
  promoExists: 'A promo code with this code already exists.',
  reasonRequired: 'A reason is required',
  daysPositive: 'Days must be more than 0',
  amountPositive: 'Amount must be more than 0',
  cannotPauseAdmin: 'Administrators cannot be paused.',
  cannotDeleteSelf: 'Delete your own account from Account & Billing.',
  alreadyPaused: 'This account is already paused.',
  notPaused: 'This account is not paused.',
  refundTooLarge: 'A refund cannot be more than $10,000.00.',
  deleteFailed: 'Failed to delete user account',
  // Additions (the back office's server side).
  adminOnly: 'Admin Access Required: you do not have permission to access the admin dashboard.',
  userDeleted: 'User account deleted.',
  extendThroughStripe: 'Extend through Stripe: this subscription is billed by Stripe.',
  subscriptionChanged: 'The subscription changed meanwhile. Reload and try again.',
  extendPaymentDue: 'This subscription has a payment due. It can be extended once the payment is made or the subscription has ended.',
  noChargeToRefund: 'There is no Stripe payment of this user with enough left to refund this amount.',
  badCursor: 'This list position is no longer valid. Start again from the first page.',
  badPageSize: 'Ask for between 1 and 100 users at a time.',
  searchTooLong: 'Search for at most 254 characters.',
} as const

export const DASHBOARD_REFETCH_MS = 60_000

/** GET /api/admin/dashboard */
export interface AdminDashboardData {
  totalUsers: number
  newSignupsThisMonth: number
  activeSubscriptions: number
  upgradesThisMonth: number
  /** Cents: paid invoices this calendar month (UTC). */
  monthlyRevenue: number
  /** Cents: refunds recorded this calendar month (UTC). */
  refundsThisMonth: number
  storageUsedGB: number
  /** What storageUsedGB rounds: the exact bytes, so a few megabytes do not read as nothing. */
  storageUsedBytes: number
}

export const ADMIN_USERS_PAGE = { default: 50, max: 100 } as const

/** '' (as in `?cursor=&limit=&q=`) is the same as leaving the parameter out. */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value)

/**
 * GET /api/admin/users?cursor=&limit=&q=. `q`: a case-insensitive prefix of the e-mail or the
 * display name (the server's indexes serve a prefix, not a substring). `cursor`: the `nextCursor`
 * of the page before, opaque, valid only with the same `q`.
 */
export const adminUsersQuerySchema = z.object({
  cursor: z.preprocess(blankAsAbsent, z.string().max(1000, ADMIN_MESSAGES.badCursor).optional()),
  limit: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: ADMIN_MESSAGES.badPageSize })
      .int(ADMIN_MESSAGES.badPageSize)
      .min(1, ADMIN_MESSAGES.badPageSize)
      .max(ADMIN_USERS_PAGE.max, ADMIN_MESSAGES.badPageSize)
      .default(ADMIN_USERS_PAGE.default),
  ),
  q: z.preprocess(blankAsAbsent, z.string().max(254, ADMIN_MESSAGES.searchTooLong).optional()),
})

/** GET /api/admin/users: newest accounts first, or with `q` in the order of what matched (A to Z). */
export interface AdminUserPage {
  users: AdminUser[]
  /** The next page's `cursor`; null on the last page. */
  nextCursor: string | null
}

/** GET /api/admin/users — one row per account. */
export interface AdminUser {
  id: string
  email: string
  displayName: string
  planTier: string
  status: string
  hasActiveSubscription: boolean
  pausedAt: string | null
  pauseReason: string | null
  storageUsed: number
  vaultItemCount: number
  subscriptionPeriodEnd: string | null
  createdAt: string
}

export const pauseBodySchema = z.object({
  reason: z.string({ error: ADMIN_MESSAGES.reasonRequired }).trim().min(1, ADMIN_MESSAGES.reasonRequired).max(500),
})
export const extendBodySchema = z.object({
  days: z.number({ error: ADMIN_MESSAGES.daysPositive }).int(ADMIN_MESSAGES.daysPositive).min(1, ADMIN_MESSAGES.daysPositive).max(3650),
})

/**
 * POST /api/admin/refunds. The form asks for dollars (seeds 001 §5); they are converted to cents
 * here, once, and everything after (Stripe, the record, the list) is cents: the spec's mismatch
 * (dollars sent, cents shown) does not exist.
 */
export const refundBodySchema = z
  .object({
    userId: z.uuid(ADMIN_MESSAGES.userNotFound),
    amount: z
      .number({ error: ADMIN_MESSAGES.amountPositive })
      .positive(ADMIN_MESSAGES.amountPositive)
      .max(10_000, ADMIN_MESSAGES.refundTooLarge),
    reason: z.string({ error: ADMIN_MESSAGES.reasonRequired }).trim().min(1, ADMIN_MESSAGES.reasonRequired).max(500),
    subscriptionId: z.string().max(255).optional(),
  })
  .transform((b) => ({ ...b, amountCents: Math.round(b.amount * 100) }))

/** GET /api/admin/refunds */
export interface AdminRefund {
  id: string
  /** Cents. */
  amount: number
  reason: string
  status: 'completed' | 'pending' | 'failed'
  createdAt: string
  user: { id: string; email: string; planTier: string }
}

/** POST /api/admin/promo-codes (seeds 001 §5: code upper-cased, integers parsed, defaults percentage/0/100). */
export const promoCreateBodySchema = z.object({
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .min(1, 'Code is required')
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only')
    .transform((c) => c.toUpperCase()),
  description: z.string().trim().max(200).default(''),
  type: z.enum(PROMO_TYPES).default('percentage'),
  value: z.number().int('Value must be a whole number').min(0, 'Value cannot be negative').default(0),
  maxUses: z.number().int('Max uses must be a whole number').min(1, 'Max uses must be at least 1').max(1_000_000).default(100),
  validUntil: z.iso.date().nullable().optional(),
})

/** GET /api/admin/promo-codes */
export interface AdminPromoCode {
  id: string
  code: string
  description: string
  type: (typeof PROMO_TYPES)[number]
  value: number
  maxUses: number
  usedCount: number
  validUntil: string | null
  isActive: boolean
  createdAt: string
}

/** GET /api/admin/analytics — one point per ISO week (Monday, UTC), oldest first, last 12 weeks. */
export interface AdminAnalytics {
  weeks: Array<{ weekStart: string; signups: number; activeSubscriptions: number; revenue: number }>
}

/** GET /api/admin/actions — the administrators' audit trail, newest first (at most 100). */
export interface AdminAction {
  id: string
  adminId: string
  /** The administrator's e-mail while their account exists. */
  adminEmail: string | null
  action: 'user.pause' | 'user.resume' | 'user.extend' | 'user.delete' | 'user.vault_export' | 'refund.create' | 'promo.create' | 'promo.delete'
  targetUserId: string | null
  details: Record<string, string | number | boolean | null>
  createdAt: string
}

/** DELETE /api/admin/users/:id */
export interface AdminDeleteUserResult {
  message: string
  deletedUserEmail: string
}
