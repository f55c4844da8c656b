import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { sql } from 'drizzle-orm'

// The owner's vault, in that owner's Durable Object (its own SQLite database; ARCHITECTURE §2b).
// Every table here belongs to one owner, so none carries an owner id: the object *is* the scope.
// Times are epoch milliseconds (UTC). Indexes are kept to what a few thousand rows need; every
// index costs bytes in every owner's object.

export const vaultItems = sqliteTable(
  'vault_items',
  {
    id: text('id').primaryKey(),
    type: text('type', { enum: ['doc', 'photo', 'video', 'password'] }).notNull(),
    // 'uploading' until complete.
    status: text('status', { enum: ['uploading', 'active'] }).notNull(),
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
    createdAt: integer('created_at').notNull(),
    completedAt: integer('completed_at'),
    // Hex SHA-256 over the ciphertext chunks' own digests (contract/vault-statements.ts), from the
    // parts as they arrived; for an item stored before manifests, computed when it is sealed.
    contentDigest: text('content_digest'),
    // The item manifest the owner's vault signed, verbatim, and its signature. Null: not yet sealed
    // (an item stored before manifests, until the owner's next unlock seals it).
    manifest: text('manifest'),
    manifestSignature: text('manifest_signature'),
  },
  (t) => [index('vault_items_status_idx').on(t.status, t.completedAt)],
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
    // Hex SHA-256 of the part's bytes as the worker received them: the manifest's content digest is
    // checked against these, not against what the browser says.
    digest: text('digest'),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.partNumber] })],
)

export const beneficiaries = sqliteTable(
  'beneficiaries',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    relationship: text('relationship').notNull(),
    // RSA-OAEP public key (SPKI, base64). The private key never reaches the server.
    publicKey: text('public_key').notNull(),
    publicKeyFingerprint: text('public_key_fingerprint').notNull(),
    keyVersion: integer('key_version').notNull().default(1),
    // The owner's vault signing key over (owner, email, key version, public key): contract/key-signing.ts.
    // Null for a key stored before signing keys, until the owner's browser signs it.
    keySignature: text('key_signature'),
    // The vault-wide sequence of the v2 statement keySignature is over (contract/vault-statements.ts);
    // null for a v1 statement (owner, e-mail, key version, key), until the owner's browser restates it.
    statementSequence: integer('statement_sequence'),
    // Whether the Access Kit of the current key carries the vault's fingerprint (kits made from 0.3 on).
    kitHasVaultFingerprint: integer('kit_has_vault_fingerprint', { mode: 'boolean' }).notNull().default(false),
    // The beneficiary's own backup of their private key (0.3 · 4 of 7): the PKCS#8 key wrapped in their
    // browser under a key from a passphrase of their own (PBKDF2 with this salt), for the key version
    // it was made for. Null: they rely on the Access Kit alone.
    keyBackup: text('key_backup'),
    keyBackupSalt: text('key_backup_salt'),
    keyBackupVersion: integer('key_backup_version'),
    keyBackupAt: integer('key_backup_at'),
    emailVerifiedAt: integer('email_verified_at'),
    // Rotated on every (re)send and cleared on use: only the newest link works, and only once.
    verificationNonce: text('verification_nonce'),
    // Asked for before the owner confirmed their own address: sent once they do.
    invitationHeldAt: integer('invitation_held_at'),
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
  (t) => [uniqueIndex('beneficiaries_email_unique').on(t.email)],
)

export const approvers = sqliteTable(
  'approvers',
  {
    id: text('id').primaryKey(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    emailVerifiedAt: integer('email_verified_at'),
    verificationNonce: text('verification_nonce'),
    invitationHeldAt: integer('invitation_held_at'),
    /** When this approver was last sent the link to confirm the owner's death (null: never, or withdrawn). */
    deathLinkSentAt: integer('death_link_sent_at'),
    /**
     * The nonce the current death-report link carries: a new link voids the older one, a report
     * uses it up, and a cancelled firing clears it ('legacy' accepts a link made before nonces).
     */
    deathLinkNonce: text('death_link_nonce'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [uniqueIndex('approvers_email_unique').on(t.email)],
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

/**
 * A key rotation sent in pages (a lost kit replaced for a beneficiary with many items): the new key,
 * signed by the vault for `keyVersion`, and the re-wrapped grants as they arrive. Nothing changes
 * until the commit switches key and grants in one transaction; one left for a day is swept.
 */
export const keyRotations = sqliteTable('key_rotations', {
  id: text('id').primaryKey(),
  beneficiaryId: text('beneficiary_id')
    .notNull()
    .references(() => beneficiaries.id, { onDelete: 'cascade' }),
  publicKey: text('public_key').notNull(),
  publicKeyFingerprint: text('public_key_fingerprint').notNull(),
  keySignature: text('key_signature').notNull(),
  statementSequence: integer('statement_sequence'),
  keyVersion: integer('key_version').notNull(),
  createdAt: integer('created_at').notNull(),
})

/**
 * A vault moving to a vault key (0.3 · 4 of 7), sent in pages: each item's or policy's data key
 * re-wrapped under the new vault key. Nothing changes until the commit swaps every wrap and the
 * vault key's own wrap in one transaction; until then the old wraps stay in force.
 */
export const vaultKeyStaging = sqliteTable(
  'vault_key_staging',
  {
    kind: text('kind', { enum: ['item', 'policy'] }).notNull(),
    refId: text('ref_id').notNull(),
    wrappedKey: text('wrapped_key').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.refId] })],
)

export const rotationGrants = sqliteTable(
  'rotation_grants',
  {
    rotationId: text('rotation_id')
      .notNull()
      .references(() => keyRotations.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    wrappedKey: text('wrapped_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.rotationId, t.itemId] })],
)

export const policies = sqliteTable('policies', {
  id: text('id').primaryKey(),
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
  /** Access on request (contract/access-requests.ts): the waiting time in days; null, off. */
  accessRequestDays: integer('access_request_days'),
  /** Who may ask: 'beneficiaries' and/or 'approvers'. */
  accessRequestBy: text('access_request_by', { mode: 'json' }).$type<string[]>().notNull().default(sql`'["beneficiaries"]'`),
})

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

export const triggers = sqliteTable('triggers', {
  id: text('id').primaryKey(),
  type: text('type', { enum: ['inactivity', 'verified_death', 'biometric_failure', 'scheduled', 'manual_release', 'device_loss'] }).notNull(),
  status: text('status', { enum: ['active', 'paused', 'triggered'] }).notNull(),
  config: text('config', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  // For scheduled triggers, the release date.
  fireAt: integer('fire_at'),
  firedAt: integer('fired_at'),
  // Bumped whenever a fired trigger is re-armed (a check-in cancelled its release), so the next
  // firing gets a new, still-unique firing id.
  generation: integer('generation').notNull().default(0),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** Failed unlock or security-key attempts, counted by biometric-failure triggers. */
export const unlockFailures = sqliteTable(
  'unlock_failures',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('unlock_failures_at_idx').on(t.at)],
)

/**
 * One firing of a trigger (or of an item's own schedule). Its id is derived from what fired and
 * when it was armed, so a second run of the same alarm, sweep or click inserts nothing.
 */
export const firings = sqliteTable('firings', {
  id: text('id').primaryKey(),
  triggerId: text('trigger_id').references(() => triggers.id, { onDelete: 'set null' }),
  kind: text('kind', { enum: ['inactivity', 'verified_death', 'biometric_failure', 'device_loss', 'scheduled', 'manual', 'scheduled_item', 'access_request'] }).notNull(),
  triggerType: text('trigger_type').notNull(),
  reason: text('reason'),
  actor: text('actor').notNull(),
  firedAt: integer('fired_at').notNull(),
  /** The trigger's status before it fired ('paused' for a manual release of a paused trigger): what a cancel restores. */
  priorStatus: text('prior_status', { enum: ['active', 'paused'] }),
})

export const releases = sqliteTable(
  'releases',
  {
    id: text('id').primaryKey(),
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
    createdAt: integer('created_at').notNull(),
    releasedAt: integer('released_at'),
    cancelledAt: integer('cancelled_at'),
  },
  (t) => [uniqueIndex('releases_firing_source_unique').on(t.firingId, t.sourceKey), index('releases_due_idx').on(t.status, t.releaseAt)],
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
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    itemId: text('item_id')
      .notNull()
      .references(() => vaultItems.id, { onDelete: 'cascade' }),
    // 'withdrawn': the owner cancelled the release (nothing more is served; what was downloaded stays downloaded).
    status: text('status', { enum: ['available', 'pending_identity', 'withdrawn'] }).notNull(),
    downloadCount: integer('download_count').notNull().default(0),
    maxDownloads: integer('max_downloads').notNull(),
    // Counted from when the asset becomes available, not from the release.
    expiresAt: integer('expires_at'),
    createdAt: integer('created_at').notNull(),
    notifiedAt: integer('notified_at'),
    withdrawnAt: integer('withdrawn_at'),
  },
  (t) => [
    uniqueIndex('released_assets_item_beneficiary_unique').on(t.itemId, t.beneficiaryId),
    index('released_assets_beneficiary_idx').on(t.beneficiaryId),
  ],
)

/**
 * An heir's request for more downloads and time on released assets that ran out (contract/renewals.ts).
 * `asked`: who was e-mailed a link to answer ({ key, name }; key 'owner' or an approver's address),
 * fixed when the request is made; `refusedBy`: the keys that refused. The first approval renews;
 * the owner's refusal, or every asked person's, ends it refused. One waiting request per heir.
 */
export const renewalRequests = sqliteTable(
  'renewal_requests',
  {
    id: text('id').primaryKey(),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    assetIds: text('asset_ids', { mode: 'json' }).$type<string[]>().notNull(),
    asked: text('asked', { mode: 'json' }).$type<Array<{ key: string; name: string }>>().notNull(),
    refusedBy: text('refused_by', { mode: 'json' }).$type<string[]>().notNull(),
    requestedAt: integer('requested_at').notNull(),
    status: text('status', { enum: ['waiting', 'approved', 'refused'] }).notNull(),
    decidedAt: integer('decided_at'),
    // 'owner', or the approver's address.
    decidedBy: text('decided_by'),
  },
  (t) => [index('renewal_requests_beneficiary_idx').on(t.beneficiaryId, t.status)],
)
export type RenewalRequestRow = typeof renewalRequests.$inferSelect

/**
 * The download tickets whose content has been served: a download is counted when its ticket first
 * fetches the ciphertext, so re-fetching on the same ticket is free and a ticket never used costs
 * nothing. At most `maxDownloads` rows an asset between renewals (worker/services/renewals.ts).
 */
export const servedTickets = sqliteTable('served_tickets', {
  ticketId: text('ticket_id').primaryKey(),
  assetId: text('asset_id')
    .notNull()
    .references(() => releasedAssets.id, { onDelete: 'cascade' }),
  servedAt: integer('served_at').notNull(),
})

/**
 * Every e-mail the vault sends to someone other than the owner, for a day: what the limits on
 * resends per person and on the owner's daily third-party mail count (contract/circle.ts MAIL_LIMITS).
 */
export const thirdPartyMail = sqliteTable(
  'third_party_mail',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    address: text('address').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('third_party_mail_address_idx').on(t.address, t.at), index('third_party_mail_at_idx').on(t.at)],
)

/**
 * The beneficiaries told of a firing (that a release to them started, or that items are available):
 * those told again if the owner withdraws it.
 */
export const firingRecipients = sqliteTable(
  'firing_recipients',
  {
    firingId: text('firing_id')
      .notNull()
      .references(() => firings.id, { onDelete: 'cascade' }),
    beneficiaryId: text('beneficiary_id')
      .notNull()
      .references(() => beneficiaries.id, { onDelete: 'cascade' }),
    toldAt: integer('told_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.firingId, t.beneficiaryId] })],
)

/** An approver's confirmation, through their own link, that the owner has died. */
export const deathReports = sqliteTable('death_reports', {
  approverId: text('approver_id')
    .primaryKey()
    .references(() => approvers.id, { onDelete: 'cascade' }),
  certificateNumber: text('certificate_number').notNull(),
  dateOfDeath: text('date_of_death').notNull(),
  issuingAuthority: text('issuing_authority').notNull(),
  /** The nonce of the link it was made with: that link reports once. */
  linkNonce: text('link_nonce'),
  createdAt: integer('created_at').notNull(),
})

/**
 * The owner's audit chain (contract/audit.ts): `hash` covers `prev_hash` and the entry's canonical
 * form. Appended only inside the transaction of the act it records.
 */
export const auditEntries = sqliteTable('audit', {
  seq: integer('seq').primaryKey(),
  id: text('id').notNull(),
  action: text('action').notNull(),
  actor: text('actor').notNull(),
  // Canonical JSON of the details.
  details: text('details').notNull(),
  createdAt: text('created_at').notNull(),
  hash: text('hash').notNull(),
  prevHash: text('prev_hash').notNull(),
})

/**
 * Messages an act decided to send, written in the act's own transaction and handed to D1's outbox
 * after it commits; a hand-over that fails is retried by the object's alarm. So an act and its
 * e-mails are one: neither exists without the other.
 */
export const pendingMail = sqliteTable('pending_mail', {
  id: text('id').primaryKey(),
  toAddress: text('to_address').notNull(),
  kind: text('kind').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: integer('created_at').notNull(),
})

/** R2 objects whose rows are gone but whose deletion R2 has not confirmed; the alarm retries. */
export const blobDeletions = sqliteTable('blob_deletions', {
  r2Key: text('r2_key').primaryKey(),
  createdAt: integer('created_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
})

/**
 * Access on request: a beneficiary or approver asked for one policy's items. Its firing
 * (`r:<id>`) waits until `decide_by`; only the owner's refusal stops it (contract/access-requests.ts).
 */
export const accessRequests = sqliteTable(
  'access_requests',
  {
    id: text('id').primaryKey(),
    policyId: text('policy_id')
      .notNull()
      .references(() => policies.id, { onDelete: 'cascade' }),
    requesterKind: text('requester_kind', { enum: ['beneficiary', 'approver'] }).notNull(),
    requesterId: text('requester_id').notNull(),
    requestedAt: integer('requested_at').notNull(),
    decideBy: integer('decide_by').notNull(),
    status: text('status', { enum: ['waiting', 'refused', 'approved', 'released', 'withdrawn'] }).notNull(),
    decidedAt: integer('decided_at'),
    firingId: text('firing_id').notNull(),
  },
  (t) => [index('access_requests_requester').on(t.requesterId, t.policyId)],
)

export type AccessRequestRow = typeof accessRequests.$inferSelect
export type VaultItemRow = typeof vaultItems.$inferSelect
export type KeyRotationRow = typeof keyRotations.$inferSelect
export type BeneficiaryRow = typeof beneficiaries.$inferSelect
export type ApproverRow = typeof approvers.$inferSelect
export type PolicyRow = typeof policies.$inferSelect
export type TriggerRow = typeof triggers.$inferSelect
export type ReleaseRow = typeof releases.$inferSelect
export type IdentityDocumentRow = typeof identityDocuments.$inferSelect

/**
 * The owner's live sessions (worker/owner/sessions.ts): every authenticated request checks its
 * token's session here, in the object it is on its way to, rather than in D1. `id` is the token's
 * random 48-bit `sid`. A revoked session's row is deleted; expired rows go when the owner next signs
 * in. Not part of an export (a restored vault signs its owner in again). `browserTrusted` mirrors
 * the mark on the owner's browser in D1 (`browsers.trusted_at`), written with it.
 */
export const sessions = sqliteTable('sessions', {
  id: integer('id').primaryKey(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
  provedAt: integer('proved_at'),
  lastSeenAt: integer('last_seen_at'),
  userAgent: text('user_agent'),
  place: text('place'),
  browserId: text('browser_id'),
  browserTrusted: integer('browser_trusted', { mode: 'boolean' }).notNull().default(false),
})

export type OwnerSessionRow = typeof sessions.$inferSelect
