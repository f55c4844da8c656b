import { deletionDueAt } from '../../contract/account-deletion'
import { eq } from 'drizzle-orm'
import { CHECKIN_GRACE_DAYS, DAY_MS } from '../../contract/constants'
import type { PublicUser } from '../../contract/auth'
import { BILLING_PERIOD_DAYS } from '../../contract/billing'
import { DEFAULT_PLAN } from '../../contract/plans'
import type { Db } from '../db/client'
import { users, type UserRow } from '../db/schema'
import { ownerVault } from '../owner/client'
import type { VaultSummary } from '../owner/vault-keys'
import { countKeys } from '../webauthn/credentials'
import { hasAuthenticator } from './authenticator'

const ACTIVE_STATUSES = new Set(['active', 'trialing'])

export function effectivePlanTier(user: Pick<UserRow, 'role' | 'pausedAt' | 'planTier'>): PublicUser['planTier'] {
  if (user.role === 'admin') return 'admin'
  if (user.pausedAt) return 'paused'
  return user.planTier
}

export function hasActiveSubscription(user: Pick<UserRow, 'role' | 'pausedAt' | 'subscriptionStatus' | 'paymentGraceUntil'>, now = Date.now()): boolean {
  if (user.role === 'admin') return true
  if (user.pausedAt) return false
  // A payment issue's 7-day grace keeps the vault fully usable (seeds 000 §4).
  if (user.subscriptionStatus === 'past_due') return user.paymentGraceUntil !== null && user.paymentGraceUntil > now
  return ACTIVE_STATUSES.has(user.subscriptionStatus ?? '')
}

export function isAdmin(user: UserRow): boolean {
  return user.role === 'admin'
}

/** The user as the API shows it: never the password hash or internal flags. */
function toPublicUser(user: UserRow, securityKeyCount: number, authenticatorEnabled: boolean, vault: VaultSummary): PublicUser {
  const planTier = effectivePlanTier(user)
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    displayName: user.displayName,
    planTier,
    hasActiveSubscription: hasActiveSubscription(user),
    subscriptionStatus: user.subscriptionStatus,
    stripeCustomerId: user.stripeCustomerId,
    stripeSubscriptionId: user.stripeSubscriptionId,
    billingProvider: user.billingProvider,
    vaultSetup: vault.keys !== null,
    vaultSalt: vault.keys?.salt ?? null,
    vaultCheck: vault.keys?.check ?? null,
    vaultSigningKey: vault.keys?.signing ?? null,
    vaultKey: vault.keys?.vaultKey ?? null,
    vaultRecovery: vault.keys?.recovery
      ? { salt: vault.keys.recovery.salt, wrappedVaultKey: vault.keys.recovery.wrapped, madeAt: new Date(vault.keys.recovery.madeAt).toISOString() }
      : null,
    pingFrequency: user.pingFrequency,
    gracePeriod: CHECKIN_GRACE_DAYS,
    storageUsed: vault.storageUsed,
    vaultItemCount: vault.itemCount,
    phoneNumber: user.phoneNumber,
    country: user.country,
    timezone: user.timezone,
    emergencyContact: user.emergencyContact,
    emailNotifications: user.emailNotifications,
    twoFactorEnabled: user.twoFactorEnabled,
    securityKeyCount,
    authenticatorEnabled,
    deletionScheduledFor: user.deletionRequestedAt === null ? null : new Date(deletionDueAt(user.deletionRequestedAt)).toISOString(),
    createdAt: new Date(user.createdAt).toISOString(),
    profile: { displayName: user.displayName },
    subscription: { status: user.subscriptionStatus },
  }
}

/** The public user with the facts kept elsewhere: security keys and the authenticator app (D1), and the vault's keys and counts (the owner's object, exact). */
export async function publicUserOf(env: Env, db: Db, user: UserRow): Promise<PublicUser> {
  const [keys, authenticator, vault] = await Promise.all([countKeys(db, user.id), hasAuthenticator(db, user.id), ownerVault(env, user.id).keys().vaultSummary()])
  return toPublicUser(user, keys, authenticator, vault)
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
