import { eq } from 'drizzle-orm'
import { CHECKIN_GRACE_DAYS, DAY_MS } from '../../contract/constants'
import type { PublicUser } from '../../contract/auth'
import { BILLING_PERIOD_DAYS } from '../../contract/billing'
import { DEFAULT_PLAN } from '../../contract/plans'
import type { Db } from '../db/client'
import { ownerDirectory, users, type UserRow } from '../db/schema'
import { countKeys } from '../webauthn/credentials'

const ACTIVE_STATUSES = new Set(['active', 'trialing'])

export function effectivePlanTier(user: UserRow): PublicUser['planTier'] {
  if (user.role === 'admin') return 'admin'
  if (user.pausedAt) return 'paused'
  return user.planTier
}

export function hasActiveSubscription(user: UserRow, now = Date.now()): boolean {
  if (user.role === 'admin') return true
  if (user.pausedAt) return false
  // A payment issue's 7-day grace keeps the vault fully usable (seeds 000 §4).
  if (user.subscriptionStatus === 'past_due') return user.paymentGraceUntil !== null && user.paymentGraceUntil > now
  return ACTIVE_STATUSES.has(user.subscriptionStatus ?? '')
}

export function isAdmin(user: UserRow): boolean {
  return user.role === 'admin'
}

/** What the directory says the owner's vault holds (the object itself is the authority). */
export interface VaultCounts {
  storageUsed: number
  vaultItemCount: number
}

export async function vaultCountsOf(db: Db, userId: string): Promise<VaultCounts> {
  const [row] = await db.select({ items: ownerDirectory.items, bytes: ownerDirectory.storageBytes }).from(ownerDirectory).where(eq(ownerDirectory.ownerId, userId))
  return { storageUsed: row?.bytes ?? 0, vaultItemCount: row?.items ?? 0 }
}

/** The user as the API shows it: never the password hash or internal flags. */
function toPublicUser(user: UserRow, securityKeyCount: number, counts: VaultCounts): PublicUser {
  const planTier = effectivePlanTier(user)
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    planTier,
    hasActiveSubscription: hasActiveSubscription(user),
    subscriptionStatus: user.subscriptionStatus,
    stripeCustomerId: user.stripeCustomerId,
    stripeSubscriptionId: user.stripeSubscriptionId,
    billingProvider: user.billingProvider,
    vaultSetup: user.vaultSetup,
    vaultSalt: user.vaultSalt,
    vaultCheck: user.vaultCheck,
    pingFrequency: user.pingFrequency,
    gracePeriod: CHECKIN_GRACE_DAYS,
    storageUsed: counts.storageUsed,
    vaultItemCount: counts.vaultItemCount,
    phoneNumber: user.phoneNumber,
    country: user.country,
    timezone: user.timezone,
    emergencyContact: user.emergencyContact,
    emailNotifications: user.emailNotifications,
    twoFactorEnabled: user.twoFactorEnabled,
    securityKeyCount,
    createdAt: new Date(user.createdAt).toISOString(),
    profile: { displayName: user.displayName },
    subscription: { status: user.subscriptionStatus },
  }
}

/** The public user with the facts kept in other tables (security keys, the directory's counts). */
export async function publicUserOf(db: Db, user: UserRow): Promise<PublicUser> {
  const [keys, counts] = await Promise.all([countKeys(db, user.id), vaultCountsOf(db, user.id)])
  return toPublicUser(user, keys, counts)
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, email) })
}


export interface NewAccount {
  email: string
  passwordHash: string
  displayName: string
}

/**
 * Inserts an owner account. Without billing (the local and self-hosted default, ARCHITECTURE §6)
 * every account gets an active basic plan; with billing on, an account starts without a plan and
 * the owner chooses one (its subscription is granted by Stripe's webhooks, or claimed from a
 * guest subscription at registration).
 * Returns undefined when the e-mail is already taken (the unique index decides, so two concurrent
 * registrations cannot both succeed).
 */
export async function insertAccount(
  db: Db,
  account: NewAccount,
  options: { billingEnabled: boolean } = { billingEnabled: false },
  now = Date.now(),
): Promise<UserRow | undefined> {
  const plan = options.billingEnabled
    ? { planTier: 'free' as const, subscriptionStatus: null, billingProvider: 'stripe' as const, subscriptionPeriodStart: null, subscriptionPeriodEnd: null }
    : {
        planTier: DEFAULT_PLAN,
        subscriptionStatus: 'active',
        billingProvider: 'none' as const,
        subscriptionPeriodStart: now,
        subscriptionPeriodEnd: now + BILLING_PERIOD_DAYS * DAY_MS,
      }
  const rows = await db
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      email: account.email,
      passwordHash: account.passwordHash,
      displayName: account.displayName,
      ...plan,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.email })
    .returning()
  return rows[0]
}
