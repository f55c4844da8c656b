import { sql } from 'drizzle-orm'
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

// Times are epoch milliseconds (UTC) throughout: sweeps compare them, and nothing parses them.

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    displayName: text('display_name').notNull(),
    // When the owner followed the link sent to their address at registration. Until then the vault
    // sends nobody else anything on their behalf (invitations wait: worker/services/invitations.ts).
    emailVerifiedAt: integer('email_verified_at'),
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
    // The owner chose to have their emergency contact told when a release starts without them
    // (worker/mail/channels.ts); the notice names no item and carries no link.
    emergencyContactAlerts: integer('emergency_contact_alerts', { mode: 'boolean' }).notNull().default(false),
    // A second address of the owner's own: it hears what the first does (check-ins, a release
    // starting, its cancel link) once the link sent to it was followed, and nothing before.
    backupEmail: text('backup_email'),
    backupEmailVerifiedAt: integer('backup_email_verified_at'),
    emailNotifications: integer('email_notifications', { mode: 'boolean' }).notNull().default(true),
    twoFactorEnabled: integer('two_factor_enabled', { mode: 'boolean' }).notNull().default(false),
    // When the owner asked for their account to be deleted (after fresh proof). Until
    // DELETION_GRACE_MS later the account is frozen (no change, no release) and the owner may take
    // it back; then the cron sweep deletes it (worker/services/deletion-freeze.ts).
    deletionRequestedAt: integer('deletion_requested_at'),
    // "This wasn't me": a known-device cookie issued before this no longer counts (every browser,
    // the one that made the change among them, must sign in afresh and is e-mailed as new).
    devicesTrustedFrom: integer('devices_trusted_from'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    // --- The directory: what D1 knows of the owner's vault (the vault itself is in the owner's
    // object). Written by that object after its acts, never trusted for enforcement (the object
    // checks its own rows). Columns here rather than a table of their own: a second row per owner
    // would repeat the owner id in the table and its index, which costs more than these columns.
    /** When the object next needs to run (its alarm), so the cron sweep can ring a lost alarm. */
    nextDueAt: integer('next_due_at'),
    vaultItems: integer('vault_items').notNull().default(0),
    vaultBytes: integer('vault_bytes').notNull().default(0),
    vaultBeneficiaries: integer('vault_beneficiaries').notNull().default(0),
    /** The object's own counter: an older write arriving late never replaces a newer one. */
    vaultRevision: integer('vault_revision').notNull().default(0),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    // Only owners with something due: the sweep reads these rows and no others.
    index('users_next_due_idx').on(t.nextDueAt).where(sql`next_due_at is not null`),
    // Stripe's webhooks name the customer; without this each event would read every account.
    index('users_stripe_customer_idx').on(t.stripeCustomerId).where(sql`stripe_customer_id is not null`),
    // Accounts waiting out their deletion: the cron sweep reads these rows alone.
    index('users_deletion_idx').on(t.deletionRequestedAt).where(sql`deletion_requested_at is not null`),
    // The back office's pages of accounts (worker/services/admin/users.ts listUsers): newest first,
    // and a search by the start of a display name, each one range of its index per page. A search
    // by the start of an e-mail uses users_email_unique (addresses are stored lower-cased).
    // The id that breaks a tie is left out of both keys (it would add ~37 bytes an account); SQLite
    // sorts the few rows that share a key instead.
    index('users_created_idx').on(t.createdAt),
    index('users_name_search_idx').on(sql`lower("display_name")`),
  ],
)

/**
 * The browsers an owner has signed in from, each by a random id kept in its signed device cookie
 * (worker/services/sign-in-guard.ts), so it stays the same browser across sign-ins. `trustedAt`:
 * the owner marked it as a trusted device (the Loss of trusted devices trigger watches those).
 * Name and place are the latest sign-in's, as the list of signed-in devices shows them.
 */
export const browsers = sqliteTable(
  'browsers',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    userAgent: text('user_agent'),
    place: text('place'),
    firstUsedAt: integer('first_used_at').notNull(),
    lastUsedAt: integer('last_used_at').notNull(),
    trustedAt: integer('trusted_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
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
    // The owner marked this key as a trusted device (the Loss of trusted devices trigger watches those).
    trustedAt: integer('trusted_at'),
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

/**
 * An owner's authenticator app (TOTP, RFC 6238): its base32 secret once confirmed with a first
 * code, and the time step of the last code accepted (a code is accepted once: the same step or an
 * earlier one is refused). A setup started and not yet confirmed keeps its secret apart, so an app
 * already on keeps working until the new one is confirmed.
 */
export const authenticators = sqliteTable('authenticators', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret'),
  confirmedAt: integer('confirmed_at'),
  lastStep: integer('last_step'),
  pendingSecret: text('pending_secret'),
  pendingAt: integer('pending_at'),
})

/**
 * One-time recovery codes of an owner's authenticator app, as SHA-256 hex of the owner's id and the
 * code (never the code). Used codes keep their time until a new set replaces them all.
 */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hash] })],
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

/**
 * Which owners name a beneficiary address, by a keyed hash of the address (HMAC cut to 48 bits):
 * for a request that starts from an address (an heir asking for a new link). A collision only means
 * one more object asked; the object matches the address itself. The owner id is its UUID's 16 bytes.
 * Kept by the owner's object (worker/owner/directory.ts).
 */
export const heirIndex = sqliteTable(
  'heir_index',
  {
    addressKey: integer('address_key').notNull(),
    ownerId: blob('owner_id', { mode: 'buffer' }).notNull(),
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
    // A guest's address, until the registration that claims it; an owner's row needs none.
    email: text('email'),
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
export type AuthenticatorRow = typeof authenticators.$inferSelect


/**
 * Stripe's events already applied, so a redelivery applies nothing, each kept while Stripe may
 * deliver it again: 3 days (its retries) for an event that sets state (a subscription's), 30 days
 * (as long as an event can be fetched and sent again) for one whose effect adds up or is sent (a
 * paid invoice's revenue, a failed payment's e-mail). A paid invoice is keyed by the invoice, which
 * is paid once whatever event tells it (worker/routes/stripe-webhook.ts).
 */
/**
 * A renewal invoice that failed (Stripe's invoice id): the grace it started or fell into, and when
 * each dunning e-mail went (each once per invoice, whatever Stripe delivers again or out of order).
 * Rows exist only for invoices that failed; the cron forgets them once Stripe can no longer resend
 * their events. A paid invoice is known by its `paid:<invoice>` key in stripe_events.
 */
export const paymentIssues = sqliteTable(
  'payment_issues',
  {
    invoiceId: text('invoice_id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Stripe's `created` of the invoice (epoch ms): a payment of an older invoice does not end a newer one's issue. */
    invoiceCreatedAt: integer('invoice_created_at').notNull(),
    amountDue: integer('amount_due').notNull().default(0),
    currency: text('currency').notNull().default('usd'),
    /** The grace this issue falls in (users.payment_grace_until when it failed first). */
    graceUntil: integer('grace_until').notNull(),
    failedAt: integer('failed_at').notNull(),
    /** When the failure e-mail was sent (null: the owner was already told of a running grace). */
    failureNoticeAt: integer('failure_notice_at'),
    reminderAt: integer('reminder_at'),
    graceEndedAt: integer('grace_ended_at'),
    paidAt: integer('paid_at'),
    recoveryNoticeAt: integer('recovery_notice_at'),
  },
  (t) => [
    // The dunning sweep reads unpaid issues by their grace's end, and nothing else.
    index('payment_issues_open_idx').on(t.graceUntil).where(sql`paid_at is null`),
    index('payment_issues_user_idx').on(t.userId),
  ],
)

export const stripeEvents = sqliteTable('stripe_events', {
  id: text('id').primaryKey(),
  keepUntil: integer('keep_until').notNull(),
})

/**
 * Failed password sign-ins per account address (lower-cased, whether or not an account has it):
 * past SIGN_IN_GUARD.freeFailures the address is held for a time that doubles with each further
 * failure. A success clears the row; a device that signed in to the account before is never held.
 */
export const signInFailures = sqliteTable('sign_in_failures', {
  email: text('email').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailureAt: integer('last_failure_at').notNull(),
  heldUntil: integer('held_until'),
})

// --- The back office (worker/routes/admin.ts) ---

/**
 * Revenue by day (UTC days since 1970), in cents, from Stripe's invoice.paid webhooks: what the
 * back office shows (this month, and by week). Stripe keeps the invoices themselves; a row per
 * invoice here would grow every owner's share of D1 every month.
 */
export const revenueDays = sqliteTable('revenue_days', {
  day: integer('day').primaryKey(),
  amountPaid: integer('amount_paid').notNull(),
})

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

/**
 * Addresses the mail provider reported as bouncing (POST /api/mail/events), lower case. Readiness
 * warns of an owner's channel found here; following a verification link sent to it clears it.
 */
export const mailBounces = sqliteTable('mail_bounces', {
  address: text('address').primaryKey(),
  bouncedAt: integer('bounced_at').notNull(),
  /** The provider's words for it, kept short (never shown to people). */
  reason: text('reason'),
})
