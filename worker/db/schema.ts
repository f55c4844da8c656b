import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

// Times are epoch milliseconds (UTC) throughout: sweeps compare them, and nothing parses them.

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    displayName: text('display_name').notNull(),
    role: text('role', { enum: ['owner', 'admin'] }).notNull().default('owner'),
    planTier: text('plan_tier', { enum: ['free', 'basic', 'pro', 'premium', 'enterprise'] })
      .notNull()
      .default('free'),
    subscriptionStatus: text('subscription_status'),
    billingProvider: text('billing_provider', { enum: ['none', 'stripe'] }).notNull().default('none'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    // Stripe's `created` (epoch ms) of the last customer.subscription.* event applied to the current
    // subscription: an older one, delivered out of order, changes nothing.
    stripeEventAt: integer('stripe_event_at'),
    pausedAt: integer('paused_at'),
    pauseReason: text('pause_reason'),
    vaultSetup: integer('vault_setup', { mode: 'boolean' }).notNull().default(false),
    vaultSalt: text('vault_salt'),
    // Encrypted under the master key; tells a right passphrase from a wrong one (never the key).
    vaultCheck: text('vault_check'),
    pingFrequency: integer('ping_frequency'),
    // End of a payment issue's grace period: until then triggers monitor but do not fire.
    paymentGraceUntil: integer('payment_grace_until'),
    subscriptionPeriodStart: integer('subscription_period_start'),
    subscriptionPeriodEnd: integer('subscription_period_end'),
    cancelAtPeriodEnd: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
    phoneNumber: text('phone_number'),
    country: text('country').notNull().default('US'),
    timezone: text('timezone').notNull().default('America/New_York'),
    emergencyContact: text('emergency_contact'),
    emailNotifications: integer('email_notifications', { mode: 'boolean' }).notNull().default(true),
    twoFactorEnabled: integer('two_factor_enabled', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
)

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
)

export const passwordResets = sqliteTable(
  'password_resets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // SHA-256 of the token: a leaked table cannot be turned back into working links.
    tokenHash: text('token_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [uniqueIndex('password_resets_token_unique').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)],
)

/** An owner's security keys (WebAuthn credentials): what the server needs to verify an assertion. */
export const webauthnCredentials = sqliteTable(
  'webauthn_credentials',
  {
    // The credential id (base64url), as the authenticator names it.
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    // COSE public key, base64url.
    publicKey: text('public_key').notNull(),
    // The signature counter last seen; an assertion must move it forward (0 means the key keeps none).
    counter: integer('counter').notNull().default(0),
    transports: text('transports', { mode: 'json' }).$type<string[]>().notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    aaguid: text('aaguid'),
    attestationFormat: text('attestation_format'),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
  },
  (t) => [index('webauthn_credentials_user_idx').on(t.userId)],
)

/**
 * Outstanding WebAuthn challenges: each is taken (deleted) by the one verification that uses it,
 * so it cannot be replayed, and is refused after `expiresAt`. A discoverable sign-in's challenge has
 * no user; registration's and a second factor's belong to theirs.
 */
export const webauthnChallenges = sqliteTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign_in', 'second_factor'] }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt), index('webauthn_challenges_user_idx').on(t.userId)],
)

export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: text('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    // What the message is for (e.g. 'password_reset'), for audits and retries; never a secret.
    kind: text('kind').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
    nextAttemptAt: integer('next_attempt_at').notNull().default(sql`0`),
  },
  (t) => [index('email_outbox_created_idx').on(t.createdAt), index('email_outbox_pending_idx').on(t.status, t.nextAttemptAt)],
)

// --- The directory: what D1 knows of each owner's vault (the vault itself is in the owner's object) ---

/**
 * One row per owner, written by the owner's object after its acts: when the object next needs to
 * run (its alarm, mirrored so the cron sweep can ring an alarm that was lost), and the counts the
 * back office shows. Never trusted for enforcement: the object checks its own rows.
 */
export const ownerDirectory = sqliteTable(
  'owner_directory',
  {
    ownerId: text('owner_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    nextDueAt: integer('next_due_at'),
    items: integer('items').notNull().default(0),
    storageBytes: integer('storage_bytes').notNull().default(0),
    beneficiaries: integer('beneficiaries').notNull().default(0),
    // The object's own counter: an older write arriving late never replaces a newer one.
    revision: integer('revision').notNull().default(0),
  },
  (t) => [index('owner_directory_due_idx').on(t.nextDueAt).where(sql`next_due_at is not null`)],
)

/**
 * Which owners name a beneficiary address, by a keyed hash of the address (HMAC, 64 bits): for a
 * request that starts from an address (an heir asking for a new link). A collision only means one
 * more object asked; the object matches the address itself. Kept by the owner's object.
 */
export const heirIndex = sqliteTable(
  'heir_index',
  {
    addressKey: integer('address_key').notNull(),
    ownerId: text('owner_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.addressKey, t.ownerId] })],
)

/** Small facts about the engine itself (the last sweep), for the monitor. */
export const engineState = sqliteTable('engine_state', {
  key: text('key').primaryKey(),
  value: integer('value').notNull(),
})

export const promoCodes = sqliteTable(
  'promo_codes',
  {
    id: text('id').primaryKey(),
    // Stored upper-case; codes are matched after trimming and upper-casing.
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: ['percentage', 'fixed_amount', 'free_subscription'] }).notNull(),
    // Percent, whole dollars, or days free, by type.
    value: integer('value').notNull(),
    maxUses: integer('max_uses').notNull(),
    usedCount: integer('used_count').notNull().default(0),
    validUntil: integer('valid_until'),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('promo_codes_code_unique').on(t.code)],
)

/**
 * A subscription made before its account exists (the guest flow), or by an owner; with billing
 * off it is granted at once. A guest's is claimed by the registration that names it.
 */
export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan', { enum: ['basic', 'premium', 'enterprise'] }).notNull(),
    status: text('status').notNull(),
    promoCodeId: text('promo_code_id').references(() => promoCodes.id, { onDelete: 'set null' }),
    trialDays: integer('trial_days'),
    createdAt: integer('created_at').notNull(),
    claimedAt: integer('claimed_at'),
  },
  (t) => [index('subscriptions_user_idx').on(t.userId)],
)

/** R2 objects of deleted accounts whose deletion R2 has not confirmed; the sweep retries. */
export const blobDeletions = sqliteTable('blob_deletions', {
  r2Key: text('r2_key').primaryKey(),
  createdAt: integer('created_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
})

export type WebauthnCredentialRow = typeof webauthnCredentials.$inferSelect
export type UserRow = typeof users.$inferSelect
export type SessionRow = typeof sessions.$inferSelect


/** Stripe webhook events already applied: each is applied once however often it is delivered. */
export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: integer('received_at').notNull(),
})

// --- The back office (worker/routes/admin.ts) ---

/**
 * Paid invoices, recorded from Stripe's invoice.paid webhook, for the dashboard's revenue. Without
 * billing nothing is paid and nothing is recorded. A guest's invoice paid before its account exists
 * has no user yet; an owner's invoices go with their account.
 */
export const invoices = sqliteTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    // Cents.
    amountPaid: integer('amount_paid').notNull(),
    status: text('status').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('invoices_created_idx').on(t.createdAt), index('invoices_user_idx').on(t.userId)],
)

/**
 * Refunds issued by an administrator. The account may be deleted later: the row stays (the money
 * went out) with user_id set null, keeping the e-mail and plan as they were at the refund.
 */
export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    userEmail: text('user_email').notNull(),
    userPlan: text('user_plan').notNull(),
    // Cents.
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['completed', 'pending', 'failed'] }).notNull(),
    providerRef: text('provider_ref'),
    // The administrator's id, as plain text: the record outlives their account.
    createdBy: text('created_by').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('refunds_created_idx').on(t.createdAt), index('refunds_user_idx').on(t.userId)],
)

/**
 * The administrators' audit trail. Ids are plain text (no foreign keys): the trail outlives both the
 * administrator's and the target's accounts. Details hold amounts, days, codes and statuses only:
 * never secrets, e-mail addresses or free-text reasons.
 */
export const adminActions = sqliteTable(
  'admin_actions',
  {
    id: text('id').primaryKey(),
    adminId: text('admin_id').notNull(),
    action: text('action').notNull(),
    targetUserId: text('target_user_id'),
    details: text('details', { mode: 'json' }).$type<Record<string, string | number | boolean | null>>().notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('admin_actions_created_idx').on(t.createdAt)],
)
