// The fifth independent mutation pass (part "fresh5"): 40 realistic one-line bugs chosen from the
// docs, the seeds and the product code alone (worker/, web/, contract/), without opening
// scripts/mutations.mjs, anything under test/, or the NOTES-*.md files. The four earlier fresh lists
// were read only to pick other lines and other rules. Weighted towards the promise (never before,
// never to the wrong person, never lost, a stolen session cannot change trust): safety windows and
// approvals in the engine, one heir among several, trusted versus untrusted devices, expiries and
// off-by-ones at plan, mail and download limits. Run by scripts/fresh-mutate.mjs --list
// scripts/fresh-mutations-5.mjs. Entries are never changed after this list's commit; notes on them go
// in NOTES-fresh5.md.

export const FRESH = [
  // ---- Release engine: planning, approvals, cancelling by check-in ---------------------------------
  {
    id: 'fresh5-plan-approver-policy-needs-no-approval',
    rule: 'A policy that requires an approver never releases without at least one approval, even when fewer approvers than its minimum can sign',
    file: 'worker/engine/plan.ts',
    from: '    requiredApprovals: policy.requiresApprover ? Math.max(1, Math.min(policy.minimumApprovals, signers.length)) : 0,',
    to: '    requiredApprovals: policy.requiresApprover ? Math.min(policy.minimumApprovals, signers.length) : 0,',
  },
  {
    id: 'fresh5-plan-access-request-releases-all-heirs',
    rule: "A granted access request releases only the asking heir's share of the policy, never the other heirs' items",
    file: 'worker/engine/plan.ts',
    from: '  const targets = onlyBeneficiaryId ? all.filter((t) => t.beneficiaryId === onlyBeneficiaryId) : all',
    to: '  const targets = all',
  },
  {
    id: 'fresh5-unlock-warning-one-failure-late',
    rule: 'The owner is warned by e-mail while one more failed unlock would still be needed to fire the Failed-unlock trigger',
    file: 'worker/engine/unlock-failures.ts',
    from: '    if (s.threshold >= 2 && s.counted === s.threshold - 1) warnOnce(u, t, s)',
    to: '    if (s.threshold >= 2 && s.counted === s.threshold) warnOnce(u, t, s)',
  },
  {
    id: 'fresh5-cancel-rearm-status-swapped',
    rule: 'A cancelled release re-arms its trigger as it was before firing; only a scheduled trigger whose date has passed waits paused (else it would fire again at once)',
    file: 'worker/engine/cancel.ts',
    from: "    .set({ status: datePassed ? 'paused' : (firing.priorStatus ?? 'active'), firedAt: null, generation: sql`${triggers.generation} + 1`, updatedAt: u.now })",
    to: "    .set({ status: datePassed ? (firing.priorStatus ?? 'active') : 'paused', firedAt: null, generation: sql`${triggers.generation} + 1`, updatedAt: u.now })",
  },
  {
    id: 'fresh5-death-links-to-unverified-approvers',
    rule: 'Death-report links go only to approvers who have confirmed their e-mail address',
    file: 'worker/services/triggers.ts',
    from: '    .filter((a) => a.emailVerifiedAt && (!scope.approverId || a.id === scope.approverId) && (!scope.withoutLink || a.deathLinkNonce === null))',
    to: '    .filter((a) => (!scope.approverId || a.id === scope.approverId) && (!scope.withoutLink || a.deathLinkNonce === null))',
  },

  // ---- Sessions, sign-in, fresh proof, passkeys -----------------------------------------------------
  {
    id: 'fresh5-session-expiry-ignored',
    rule: 'A session ends at its expiry: an expired session token no longer signs the owner in',
    file: 'worker/owner/sessions.ts',
    from: '  return row && row.expiresAt > now ? row : null',
    to: '  return row ?? null',
  },
  {
    id: 'fresh5-signin-untrusted-counts-as-trusted-use',
    rule: 'Only a sign-in from a trusted browser or with a trusted key counts as use of a trusted device (a stolen password alone does not reset Loss of trusted devices)',
    file: 'worker/routes/sign-in.ts',
    from: "  c.executionCtx.waitUntil(recordOwnerActivity(c.env, accountOf(user), 'signed_in', trustedBrowser || options.trustedKey === true))",
    to: "  c.executionCtx.waitUntil(recordOwnerActivity(c.env, accountOf(user), 'signed_in', trustedBrowser || options.trustedKey !== false))",
  },
  {
    id: 'fresh5-profile-2fa-off-without-fresh-proof',
    rule: 'Turning two-factor sign-in off needs fresh proof: a stolen session alone cannot weaken sign-in',
    file: 'worker/routes/profile.ts',
    from: '    if (current.twoFactorEnabled && update.twoFactorEnabled === false) await assertFreshProof(c)',
    to: '    if (!current.twoFactorEnabled && update.twoFactorEnabled === false) await assertFreshProof(c)',
  },
  {
    id: 'fresh5-passkey-counter-not-increasing-accepted',
    rule: "A security key whose signature counter does not increase (a cloned key or a replayed assertion) is refused",
    file: 'worker/webauthn/ceremonies.ts',
    from: "  if ((newCounter > 0 || key.counter > 0) && newCounter <= key.counter) return ownersFailure('counter', WEBAUTHN_MESSAGES.counterRegressed)",
    to: "  if ((newCounter > 0 || key.counter > 0) && newCounter < key.counter) return ownersFailure('counter', WEBAUTHN_MESSAGES.counterRegressed)",
  },

  // ---- Circle, keys, policies, channels, mail limits -----------------------------------------------
  {
    id: 'fresh5-beneficiary-plan-limit-off-by-one',
    rule: "The plan's beneficiary limit is the most an owner may have: adding one more at the limit is refused (402)",
    file: 'worker/services/beneficiaries.ts',
    from: '  if (limit !== null && count >= limit) throw new ApiError(402, CIRCLE_MESSAGES.beneficiaryLimit(limit))',
    to: '  if (limit !== null && count > limit) throw new ApiError(402, CIRCLE_MESSAGES.beneficiaryLimit(limit))',
  },
  {
    id: 'fresh5-key-statement-same-sequence-replayed',
    rule: "A signed key statement must be newer than every statement the owner signed before: replaying the current sequence number is refused as outdated",
    file: 'worker/services/beneficiaries.ts',
    from: '  if (stated.sequence <= highest) throw new ApiError(409, KEY_SIGNING_MESSAGES.statementOutdated, { statementSequence: highest })',
    to: '  if (stated.sequence < highest) throw new ApiError(409, KEY_SIGNING_MESSAGES.statementOutdated, { statementSequence: highest })',
  },
  {
    id: 'fresh5-policy-unknown-beneficiary-accepted',
    rule: "A policy may name only the owner's existing beneficiaries: one unknown id refuses the whole policy",
    file: 'worker/services/policies.ts',
    from: '  if (owned.length !== beneficiaryIds.length) throw badRequest(POLICY_MESSAGES.unknownBeneficiary)',
    to: '  if (owned.length === 0) throw badRequest(POLICY_MESSAGES.unknownBeneficiary)',
  },
  {
    id: 'fresh5-heir-key-backup-for-old-key-served',
    rule: "An heir's key backup is offered only for their current key: after the key changes, the old backup is not served",
    file: 'worker/services/heir-key-backup.ts',
    from: '  if (b.keyBackup === null || b.keyBackupSalt === null || b.keyBackupVersion !== b.keyVersion) throw notFound(HEIR_BACKUP_MESSAGES.noBackup)',
    to: '  if (b.keyBackup === null || b.keyBackupSalt === null) throw notFound(HEIR_BACKUP_MESSAGES.noBackup)',
  },
  {
    id: 'fresh5-backup-link-hourly-limit-off-by-one',
    rule: 'At most the set number of backup-address verification links go out per hour; the next one is refused (429)',
    file: 'worker/services/channels.ts',
    from: '  if ((recent?.n ?? 0) >= CHANNEL_MESSAGES.backupPerHour) throw tooManyRequests(CHANNEL_MESSAGES.backupLimit)',
    to: '  if ((recent?.n ?? 0) > CHANNEL_MESSAGES.backupPerHour) throw tooManyRequests(CHANNEL_MESSAGES.backupLimit)',
  },
  {
    id: 'fresh5-backup-link-verifies-another-address',
    rule: 'A backup-address verification link verifies only the address it was sent to: once the backup address changes, the old link is invalid',
    file: 'worker/services/channels.ts',
    from: '  if (!user.backupEmail || link.nonce !== addressNonce(env, user.backupEmail)) throw badRequest(CHANNEL_MESSAGES.linkInvalid)',
    to: '  if (!user.backupEmail) throw badRequest(CHANNEL_MESSAGES.linkInvalid)',
  },
  {
    id: 'fresh5-mail-daily-third-party-limit-off-by-one',
    rule: "The daily limit on an owner's mail to other people is a maximum: once reached, the next mail is refused",
    file: 'worker/owner/mail-limits.ts',
    from: '  if (sentToOthersToday(u) >= MAIL_LIMITS.thirdPartyPerDay) return CIRCLE_MESSAGES.dailyMailLimit',
    to: '  if (sentToOthersToday(u) > MAIL_LIMITS.thirdPartyPerDay) return CIRCLE_MESSAGES.dailyMailLimit',
  },

  // ---- Heir portal, download tickets, renewals, identity -------------------------------------------
  {
    id: 'fresh5-asset-exhausted-status-off-by-one',
    rule: 'An asset whose downloads have reached the limit is shown as used up (exhausted), not as available',
    file: 'worker/services/release-links.ts',
    from: "  if (a.downloadCount >= a.maxDownloads) return 'exhausted'",
    to: "  if (a.downloadCount > a.maxDownloads) return 'exhausted'",
  },
  {
    id: 'fresh5-ticket-reused-for-another-asset',
    rule: 'Every download is counted; a download ticket already served is free again only for the same asset, not for another one',
    file: 'worker/services/release-links.ts',
    from: '  if (db.select({ id: servedTickets.ticketId }).from(servedTickets).where(and(eq(servedTickets.ticketId, ticketId), eq(servedTickets.assetId, assetId))).get()) return row.r2Key',
    to: '  if (db.select({ id: servedTickets.ticketId }).from(servedTickets).where(eq(servedTickets.ticketId, ticketId)).get()) return row.r2Key',
  },
  {
    id: 'fresh5-renewal-not-offered-at-download-limit',
    rule: 'An heir whose downloads are used up (the count has reached the limit) or whose assets expired may ask for a renewal',
    file: 'worker/services/renewals.ts',
    from: '        sql`(${releasedAssets.downloadCount} >= ${releasedAssets.maxDownloads} or (${releasedAssets.expiresAt} is not null and ${releasedAssets.expiresAt} <= ${now}))`,',
    to: '        sql`(${releasedAssets.downloadCount} > ${releasedAssets.maxDownloads} or (${releasedAssets.expiresAt} is not null and ${releasedAssets.expiresAt} <= ${now}))`,',
  },
  {
    id: 'fresh5-identity-unverified-approver-reviews',
    rule: "Only approvers who have confirmed their e-mail address review an heir's identity document; the others wait",
    file: 'worker/services/identity.ts',
    from: '    reviewers: reviewers.filter((a) => a.emailVerifiedAt !== null),',
    to: '    reviewers,',
  },

  // ---- Billing, Stripe webhooks, admin back office, audit ------------------------------------------
  {
    id: 'fresh5-webhook-replay-window-hours',
    rule: 'A Stripe webhook whose signed timestamp is more than five minutes off is refused (replay protection)',
    file: 'worker/services/webhook-signature.ts',
    from: 'export const WEBHOOK_TOLERANCE_MS = 5 * 60_000',
    to: 'export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 60_000',
  },
  {
    id: 'fresh5-sweep-ends-uncancelled-subscriptions',
    rule: "A subscription not billed by Stripe renews at its period's end unless the owner cancelled it; only cancelled ones end",
    file: 'worker/billing/subscriptions.ts',
    from: "    .where(and(eq(users.billingProvider, 'none'), eq(users.cancelAtPeriodEnd, true), lte(users.subscriptionPeriodEnd, now), sql`${users.subscriptionStatus} != 'canceled'`))",
    to: "    .where(and(eq(users.billingProvider, 'none'), lte(users.subscriptionPeriodEnd, now), sql`${users.subscriptionStatus} != 'canceled'`))",
  },
  {
    id: 'fresh5-invoice-fixed-discount-in-cents',
    rule: 'A fixed-amount promo code takes its value in dollars off the invoice (amounts are kept in cents)',
    file: 'worker/billing/invoice.ts',
    from: "  if (promo?.type === 'fixed_amount') discount = Math.min(base, Math.max(0, promo.value) * 100)",
    to: "  if (promo?.type === 'fixed_amount') discount = Math.min(base, Math.max(0, promo.value))",
  },
  {
    id: 'fresh5-admin-deletes-used-promo',
    rule: 'A promo code that has been used cannot be deleted (deactivating it does not change that), so the invoices that used it keep their meaning',
    file: 'worker/services/admin/billing.ts',
    from: '  const [deleted] = await db.delete(promoCodes).where(and(eq(promoCodes.id, id), eq(promoCodes.usedCount, 0))).returning()',
    to: '  const [deleted] = await db.delete(promoCodes).where(and(eq(promoCodes.id, id), eq(promoCodes.isActive, false))).returning()',
  },
  {
    id: 'fresh5-admin-refunded-total-counts-failed',
    rule: "The back office's refunded total for the month counts only refunds that did not fail",
    file: 'worker/services/admin/stats.ts',
    from: "      (select coalesce(sum(amount), 0) from refunds where status <> 'failed' and created_at >= ${from}) as refunded,",
    to: '      (select coalesce(sum(amount), 0) from refunds where created_at >= ${from}) as refunded,',
  },
  {
    id: 'fresh5-audit-page-repeats-boundary-entry',
    rule: 'Paging back through the audit log shows each entry once: the next page starts strictly before the last seq shown',
    file: 'worker/owner/audit-chain.ts',
    from: '    .where(before === undefined ? undefined : lt(auditEntries.seq, before))',
    to: '    .where(before === undefined ? undefined : lt(auditEntries.seq, before + 1))',
  },

  // ---- Web: crypto format and keys -----------------------------------------------------------------
  {
    id: 'fresh5-web-vault-key-wrap-wrong-purpose',
    rule: "Each wrap's AAD names its purpose (FORMAT.md): the vault key is wrapped under 'vault-key-wrap', never a data key's purpose",
    file: 'web/crypto/vault-key.ts',
    from: "  return { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.vaultKeyWrap, VAULT_FORMAT_VERSION) }",
    to: "  return { name: 'AES-GCM', iv, additionalData: buildAad(AAD_PURPOSE.dataKeyWrap, VAULT_FORMAT_VERSION) }",
  },
  {
    id: 'fresh5-web-new-heir-old-statement-trusted',
    rule: "A beneficiary key is shown as signed only if its statement is newer than any this browser has seen; an old statement (a rollback) is flagged as changed",
    file: 'web/features/circle/statements.ts',
    from: "      verdicts.set(b.id, (known === undefined ? sequence > memory.highest : sequence >= known) ? 'signed' : 'changed')",
    to: "      verdicts.set(b.id, (known === undefined || sequence >= known) ? 'signed' : 'changed')",
  },
  {
    id: 'fresh5-web-bad-signature-shown-unconfirmed',
    rule: 'A beneficiary key whose signed statement does not verify is flagged as changed (a possible substitution), not merely as unconfirmed',
    file: 'web/features/circle/statements.ts',
    from: "    else if (check === null) verdicts.set(b.id, 'changed')",
    to: "    else if (check === null) verdicts.set(b.id, 'unconfirmed')",
  },
  {
    id: 'fresh5-web-heir-backup-confirmation-length-only',
    rule: "An heir's backup passphrase must be typed twice the same; a mismatch is refused before anything is encrypted",
    file: 'web/features/releases/heir-backup.ts',
    from: '  if (passphrase !== confirmation) return VAULT_MESSAGES.passphrasesDoNotMatch',
    to: '  if (passphrase.length !== confirmation.length) return VAULT_MESSAGES.passphrasesDoNotMatch',
  },

  // ---- Web: download pipeline, exports, grants, forms ----------------------------------------------
  {
    id: 'fresh5-web-short-download-saved-whole',
    rule: 'A download that ends short of its announced size fails instead of being saved as if it were whole',
    file: 'web/features/vault/items/stream-save.ts',
    from: '  if (total !== size) throw new Error(SIZE_MISMATCH)',
    to: '  if (total > size) throw new Error(SIZE_MISMATCH)',
  },
  {
    id: 'fresh5-web-estate-folder-holds-others-items',
    rule: "The estate bundle gives every beneficiary a folder with exactly the items granted to them, never another heir's",
    file: 'web/features/export/estate-bundle.ts',
    from: '    const theirs = items.filter((item) => item.grants.some((g) => g.beneficiaryId === beneficiary.id))',
    to: '    const theirs = items.filter((item) => item.grants.length > 0)',
  },
  {
    id: 'fresh5-web-policy-covers-items-without-wraps',
    rule: "An item joins a policy only once every heir's key wrap for it is stored; items whose grants failed are left out",
    file: 'web/features/policies/grants.ts',
    from: '  const covered = result.matchedItemIds.filter((id) => !result.failed.some((f) => f.itemId === id))',
    to: '  const covered = result.matchedItemIds',
  },
  {
    id: 'fresh5-web-access-request-without-who',
    rule: 'A policy that allows access requests must say who may ask (beneficiaries, approvers or both)',
    file: 'web/features/policies/policy-form.ts',
    from: '  .refine((v) => (v as Raw).accessRequestOn !== true || (Array.isArray((v as Raw).accessRequestBy) && ((v as Raw).accessRequestBy as unknown[]).length > 0), {',
    to: '  .refine((v) => (v as Raw).accessRequestOn !== true || (Array.isArray((v as Raw).accessRequestBy) && ((v as Raw).accessRequestBy as unknown[]).length >= 0), {',
  },
  {
    id: 'fresh5-web-item-without-heir-allowed',
    rule: 'A new vault item needs at least one beneficiary unless a policy already covers it',
    file: 'web/features/vault/upload/upload-form.ts',
    from: '    if (v.beneficiaryIds.length === 0 && !v.coveredByPolicies) {',
    to: '    if (v.beneficiaryIds.length === 0 && v.coveredByPolicies) {',
  },

  // ---- Web: API client, dashboard, billing, heir portal, audit display -----------------------------
  {
    id: 'fresh5-web-fresh-proof-never-asked',
    rule: 'An act that needs fresh proof (403) asks for it in one dialog and is sent again once given',
    file: 'web/lib/api-client.ts',
    from: '    if (!(error instanceof ApiRequestError && error.status === 403 && isFreshProofRequired(error.body))) throw error',
    to: '    if (!(error instanceof ApiRequestError && error.status === 401 && isFreshProofRequired(error.body))) throw error',
  },
  {
    id: 'fresh5-web-dashboard-single-warning-hidden',
    rule: "The dashboard's release-plan row shows even a single warning; 'Ready' alone only when there is none",
    file: 'web/features/dashboard/view-model.ts',
    from: "  if (n > 0) return { label, value: `Ready, with ${n} ${n === 1 ? 'warning' : 'warnings'}`, tone: 'warn', issue: 'Release plan has warnings' }",
    to: "  if (n > 1) return { label, value: `Ready, with ${n} ${n === 1 ? 'warning' : 'warnings'}`, tone: 'warn', issue: 'Release plan has warnings' }",
  },
  {
    id: 'fresh5-web-upgrade-hidden-without-subscription',
    rule: 'Upgrade is offered to an owner without an active subscription, or with one below Enterprise',
    file: 'web/features/billing/logic.ts',
    from: "  return !account.hasActiveSubscription || account.planTier !== 'enterprise'",
    to: "  return !account.hasActiveSubscription && account.planTier !== 'enterprise'",
  },
  {
    id: 'fresh5-web-portal-identity-step-hidden',
    rule: 'The heir portal asks for an identity document whenever any released asset waits on identity, even if the policy flag is not set',
    file: 'web/features/releases/portal.ts',
    from: "  const needed = portal.identityRequired || assets.some((a) => a.status === 'pending_identity')",
    to: '  const needed = portal.identityRequired',
  },
  {
    id: 'fresh5-web-audit-group-filter-wrong-field',
    rule: "The audit log's category filter keeps the entries whose action belongs to the chosen group",
    file: 'web/features/audit/format.ts',
    from: "      (filters.group === 'all' || actionGroup(e.action) === filters.group) &&",
    to: "      (filters.group === 'all' || actionGroup(e.actor) === filters.group) &&",
  },
]
