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
    storageUsed: integer('storage_used').notNull().default(0),
    vaultItemCount: integer('vault_item_count').notNull().default(0),
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
    userAgent: text('user_agent'),
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

export const beneficiaries = sqliteTable(
  'beneficiaries',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    relationship: text('relationship').notNull(),
    // RSA-OAEP public key (SPKI, base64). The private key never reaches the server.
    publicKey: text('public_key').notNull(),
    publicKeyFingerprint: text('public_key_fingerprint').notNull(),
    keyVersion: integer('key_version').notNull().default(1),
    emailVerifiedAt: integer('email_verified_at'),
    // Rotated on every (re)send and cleared on use: only the newest link works, and only once.
    verificationNonce: text('verification_nonce'),
    identityStatus: text('identity_status', { enum: ['unverified', 'pending', 'verified', 'rejected'] })
      .notNull()
      .default('unverified'),
    sendAssetNotifications: integer('send_asset_notifications', { mode: 'boolean' }).notNull().default(true),
    delayNotifications: integer('delay_notifications', { mode: 'boolean' }).notNull().default(false),
    notificationStatus: text('notification_status', { enum: ['pending', 'opted_in', 'unsubscribed'] })
      .notNull()
      .default('pending'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('beneficiaries_owner_email_unique').on(t.ownerId, t.email), index('beneficiaries_owner_idx').on(t.ownerId)],
)

export const approvers = sqliteTable(
  'approvers',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    emailVerifiedAt: integer('email_verified_at'),
    verificationNonce: text('verification_nonce'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('approvers_owner_email_unique').on(t.ownerId, t.email), index('approvers_owner_idx').on(t.ownerId)],
)

export const vaultItems = sqliteTable(
  'vault_items',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['doc', 'photo', 'video', 'password'] }).notNull(),
    // 'uploading' until complete; 'deleting' only inside the delete transaction.
    status: text('status', { enum: ['uploading', 'active', 'deleting'] }).notNull(),
    plainSize: integer('plain_size').notNull(),
    cipherSize: integer('cipher_size').notNull(),
    chunkBytes: integer('chunk_bytes').notNull(),
    partCount: integer('part_count').notNull(),
    r2Key: text('r2_key').notNull(),
    uploadId: text('upload_id'),
    encryptedMetadata: text('encrypted_metadata'),
    wrappedKey: text('wrapped_key'),
    releaseProtocol: text('release_protocol').notNull().default('VERIFIED_DEATH'),
    requiresApprover: integer('requires_approver', { mode: 'boolean' }).notNull().default(false),
    approverContact: text('approver_contact'),
    scheduledAt: integer('scheduled_at'),
    // Set by the statement that changes status inside a batch; later statements of the same batch
    // act only if it matches, which makes the whole batch all-or-nothing under concurrency.
    operationToken: text('operation_token'),
    createdAt: integer('created_at').notNull(),
    completedAt: integer('completed_at'),
  },
  (t) => [index('vault_items_owner_idx').on(t.ownerId, t.status), index('vault_items_status_created_idx').on(t.status, t.createdAt)],
)

export const uploadParts = sqliteTable(
  'upload_parts',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => vaultItems.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    etag: text('etag').notNull(),
    size: integer('size').notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.partNumber] })],
)

export const itemGrants = sqliteTable(
  'item_grants',
  {
    itemId: text('item_id')
      .notNull()
      .references(() => vaultItems.id, { onDelete: 'cascade' }),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    // The item's data key wrapped with the beneficiary's public key (RSA-OAEP), made in the browser.
    wrappedKey: text('wrapped_key').notNull(),
    keyVersion: integer('key_version').notNull(),
    // Chosen in the Add Item dialog, so released under the item's own protocol; grants a policy
    // added are released only under that policy (policy_items says which).
    direct: integer('direct', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.beneficiaryId] }), index('item_grants_beneficiary_idx').on(t.beneficiaryId)],
)

export const policies = sqliteTable(
  'policies',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: ['active', 'draft', 'inactive'] }).notNull(),
    // JSON arrays; small and only ever read whole.
    releaseOn: text('release_on', { mode: 'json' }).$type<string[]>().notNull(),
    delayHours: integer('delay_hours').notNull(),
    requiresApprover: integer('requires_approver', { mode: 'boolean' }).notNull(),
    approverContact: text('approver_contact'),
    requiresIdentityVerification: integer('requires_identity_verification', { mode: 'boolean' }).notNull(),
    identityVerificationApprovers: text('identity_verification_approvers', { mode: 'json' }).$type<string[]>().notNull(),
    requiredDocumentTypes: text('required_document_types', { mode: 'json' }).$type<string[]>().notNull(),
    minimumApprovals: integer('minimum_approvals').notNull(),
    // Tag and type selectors, encrypted in the browser under the policy's own data key.
    encryptedSelectors: text('encrypted_selectors').notNull(),
    wrappedKey: text('wrapped_key').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('policies_owner_idx').on(t.ownerId)],
)

export const policyBeneficiaries = sqliteTable(
  'policy_beneficiaries',
  {
    policyId: text('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.beneficiaryId] })],
)

/** Which items a policy covers: its selectors are sealed, so the owner's browser records the matches. */
export const policyItems = sqliteTable(
  'policy_items',
  {
    policyId: text('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => vaultItems.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.policyId, t.itemId] }), index('policy_items_item_idx').on(t.itemId)],
)

export const identityDocuments = sqliteTable(
  'identity_documents',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    documentType: text('document_type').notNull(),
    documentNumber: text('document_number').notNull(),
    issuingAuthority: text('issuing_authority').notNull(),
    expirationDate: text('expiration_date').notNull(),
    frontKey: text('front_key').notNull(),
    frontContentType: text('front_content_type').notNull(),
    backKey: text('back_key'),
    backContentType: text('back_content_type'),
    status: text('status', { enum: ['pending', 'verified', 'rejected'] }).notNull(),
    requiredApprovals: integer('required_approvals').notNull(),
    rejectionReason: text('rejection_reason'),
    submittedAt: integer('submitted_at').notNull(),
    decidedAt: integer('decided_at'),
  },
  (t) => [index('identity_documents_beneficiary_idx').on(t.beneficiaryId)],
)

export const identityReviews = sqliteTable(
  'identity_reviews',
  {
    documentId: text('document_id')
      .notNull()
      .references(() => identityDocuments.id, { onDelete: 'cascade' }),
    approverId: text('approver_id')
      .notNull()
      .references(() => approvers.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['approved', 'rejected'] }).notNull(),
    notes: text('notes').notNull(),
    signature: text('signature'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.approverId] })],
)

export const triggers = sqliteTable(
  'triggers',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['inactivity', 'verified_death', 'biometric_failure', 'scheduled'] }).notNull(),
    status: text('status', { enum: ['active', 'paused', 'triggered'] }).notNull(),
    config: text('config', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    // For scheduled triggers, the release date; the sweep finds due ones by it.
    fireAt: integer('fire_at'),
    firedAt: integer('fired_at'),
    // Bumped whenever a fired trigger is re-armed (a check-in cancelled its release), so the next
    // firing gets a new, still-unique firing id.
    generation: integer('generation').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('triggers_owner_idx').on(t.ownerId), index('triggers_due_idx').on(t.status, t.fireAt)],
)

/** Failed unlock or passkey attempts the app reported, counted by biometric-failure triggers. */
export const unlockFailures = sqliteTable(
  'unlock_failures',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('unlock_failures_owner_idx').on(t.ownerId, t.at)],
)

/**
 * One firing of a trigger (or of an item's own schedule). Its id is derived from what fired and
 * when it was armed, so a second run of the same alarm or sweep inserts nothing.
 */
export const firings = sqliteTable(
  'firings',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    triggerId: text('trigger_id').references(() => triggers.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['inactivity', 'verified_death', 'biometric_failure', 'scheduled', 'manual', 'scheduled_item'] }).notNull(),
    triggerType: text('trigger_type').notNull(),
    reason: text('reason'),
    actor: text('actor').notNull(),
    // Written by the insert that won; the batch's later statements act only if it matches.
    operationToken: text('operation_token').notNull(),
    firedAt: integer('fired_at').notNull(),
  },
  (t) => [index('firings_owner_idx').on(t.ownerId, t.firedAt)],
)

export const releases = sqliteTable(
  'releases',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firingId: text('firing_id')
      .notNull()
      .references(() => firings.id, { onDelete: 'cascade' }),
    // 'policy:<id>', 'item:<id>' or 'scheduled:<triggerId>': one release per source per firing.
    sourceKey: text('source_key').notNull(),
    sourceName: text('source_name').notNull(),
    policyId: text('policy_id'),
    status: text('status', { enum: ['waiting', 'released', 'cancelled'] }).notNull(),
    releaseAt: integer('release_at').notNull(),
    requiredApprovals: integer('required_approvals').notNull(),
    identityRequired: integer('identity_required', { mode: 'boolean' }).notNull(),
    // Set by the statement that changes status inside a batch; later statements act only if it matches.
    operationToken: text('operation_token'),
    createdAt: integer('created_at').notNull(),
    releasedAt: integer('released_at'),
    cancelledAt: integer('cancelled_at'),
  },
  (t) => [
    uniqueIndex('releases_firing_source_unique').on(t.firingId, t.sourceKey),
    index('releases_owner_idx').on(t.ownerId, t.createdAt),
    index('releases_due_idx').on(t.status, t.releaseAt),
  ],
)

/** What a release will hand over, fixed when it starts: what approvers sign off is what goes. */
export const releaseTargets = sqliteTable(
  'release_targets',
  {
    releaseId: text('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => vaultItems.id, { onDelete: 'cascade' }),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.itemId, t.beneficiaryId] })],
)

/** Who must sign a release off (each through their own link) and what they answered. */
export const releaseSignoffs = sqliteTable(
  'release_signoffs',
  {
    releaseId: text('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    decision: text('decision', { enum: ['approved', 'rejected'] }),
    notes: text('notes'),
    decidedAt: integer('decided_at'),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.email] })],
)

export const releasedAssets = sqliteTable(
  'released_assets',
  {
    id: text('id').primaryKey(),
    releaseId: text('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => vaultItems.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['available', 'pending_identity'] }).notNull(),
    downloadCount: integer('download_count').notNull().default(0),
    maxDownloads: integer('max_downloads').notNull(),
    // Counted from when the asset becomes available, not from the release.
    expiresAt: integer('expires_at'),
    createdAt: integer('created_at').notNull(),
    notifiedAt: integer('notified_at'),
  },
  (t) => [uniqueIndex('released_assets_item_beneficiary_unique').on(t.itemId, t.beneficiaryId), index('released_assets_beneficiary_idx').on(t.beneficiaryId)],
)

/** An approver's confirmation, through their own link, that the owner has died. */
export const deathReports = sqliteTable(
  'death_reports',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    approverId: text('approver_id')
      .notNull()
      .references(() => approvers.id, { onDelete: 'cascade' }),
    certificateNumber: text('certificate_number').notNull(),
    dateOfDeath: text('date_of_death').notNull(),
    issuingAuthority: text('issuing_authority').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('death_reports_owner_approver_unique').on(t.ownerId, t.approverId)],
)

/**
 * The owner DO's alarm, mirrored where the sweep can see it: an alarm that should have rung
 * minutes ago but did not is rung by the sweep.
 */
export const ownerClocks = sqliteTable(
  'owner_clocks',
  {
    ownerId: text('owner_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    nextAlarmAt: integer('next_alarm_at'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('owner_clocks_alarm_idx').on(t.nextAlarmAt)],
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
  (t) => [index('subscriptions_user_idx').on(t.userId), index('subscriptions_email_idx').on(t.email)],
)

/** R2 objects whose rows are gone but whose deletion has not been confirmed; the sweep retries. */
export const blobDeletions = sqliteTable('blob_deletions', {
  r2Key: text('r2_key').primaryKey(),
  createdAt: integer('created_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
})

export type WebauthnCredentialRow = typeof webauthnCredentials.$inferSelect
export type UserRow = typeof users.$inferSelect
export type BeneficiaryRow = typeof beneficiaries.$inferSelect
export type ApproverRow = typeof approvers.$inferSelect
export type SessionRow = typeof sessions.$inferSelect

export type VaultItemRow = typeof vaultItems.$inferSelect
export type PolicyRow = typeof policies.$inferSelect
export type TriggerRow = typeof triggers.$inferSelect
export type ReleaseRow = typeof releases.$inferSelect
export type IdentityDocumentRow = typeof identityDocuments.$inferSelect

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
