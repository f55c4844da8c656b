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
    pausedAt: integer('paused_at'),
    pauseReason: text('pause_reason'),
    vaultSetup: integer('vault_setup', { mode: 'boolean' }).notNull().default(false),
    vaultSalt: text('vault_salt'),
    // Encrypted under the master key; tells a right passphrase from a wrong one (never the key).
    vaultCheck: text('vault_check'),
    pingFrequency: integer('ping_frequency'),
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

/** R2 objects whose rows are gone but whose deletion has not been confirmed; the sweep retries. */
export const blobDeletions = sqliteTable('blob_deletions', {
  r2Key: text('r2_key').primaryKey(),
  createdAt: integer('created_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
})

export type UserRow = typeof users.$inferSelect
export type BeneficiaryRow = typeof beneficiaries.$inferSelect
export type ApproverRow = typeof approvers.$inferSelect
export type SessionRow = typeof sessions.$inferSelect

export type VaultItemRow = typeof vaultItems.$inferSelect
export type PolicyRow = typeof policies.$inferSelect
export type IdentityDocumentRow = typeof identityDocuments.$inferSelect
