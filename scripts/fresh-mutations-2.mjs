// 0.3 · 7 of 7, part "fresh2": a second independent pass of 40 realistic one-line bugs, chosen from
// README.md, docs/*.md, web/crypto/FORMAT.md, the issue texts and the product code alone, without
// reading scripts/mutations.mjs or any test (scripts/fresh-mutations.mjs was read only to avoid
// repeating its 40). About a third are in web/. `from` occurs exactly once in `file`;
// scripts/fresh-mutate.mjs --list scripts/fresh-mutations-2.mjs applies each alone.

export const FRESH = [
  // --- Web: crypto (web/crypto) ---
  {
    id: 'fresh2-web-recovery-wrap-purpose',
    rule: "The recovery code's wrap of the vault key has its own purpose tag: the server cannot pass the passphrase's wrap off as it (or the other way round)",
    file: 'web/crypto/recovery-code.ts',
    from: 'buildAad(AAD_PURPOSE.recoveryKeyWrap, VAULT_FORMAT_VERSION)',
    to: 'buildAad(AAD_PURPOSE.vaultKeyWrap, VAULT_FORMAT_VERSION)',
  },
  {
    id: 'fresh2-web-envelope-old-version',
    rule: 'A ciphertext whose version byte is not the format version is refused (the byte is not otherwise authenticated)',
    file: 'web/crypto/envelope.ts',
    from: 'if (data[0] !== CRYPTO_FORMAT_VERSION) {',
    to: 'if (data[0] > CRYPTO_FORMAT_VERSION) {',
  },
  {
    id: 'fresh2-web-stream-truncated',
    rule: 'Content cut off after a whole chunk (no chunk marked last) is refused, not handed over as the whole file',
    file: 'web/crypto/content.ts',
    from: "  if (!sawLast) throw new DecryptionError('Encrypted content is truncated: no last chunk')\n",
    to: '',
  },
  {
    id: 'fresh2-web-heir-backup-other-person',
    rule: "An heir's key backup is bound to that beneficiary: the server cannot hand one heir's backup to another heir of the same owner",
    file: 'web/crypto/heir-key-backup.ts',
    from: 'buildAad(AAD_PURPOSE.heirKeyBackup, b.ownerId, b.beneficiaryId, b.keyVersion)',
    to: 'buildAad(AAD_PURPOSE.heirKeyBackup, b.ownerId, b.keyVersion)',
  },
  {
    id: 'fresh2-web-weak-rsa-key',
    rule: "A beneficiary public key shorter than 2048 bits is refused (a substituted weak key would expose every grant)",
    file: 'web/crypto/beneficiary-keys.ts',
    from: 'if (modulusLength < RSA_MODULUS_BITS) {',
    to: 'if (modulusLength < 1024) {',
  },
  {
    id: 'fresh2-web-fingerprint-half',
    rule: "A key's fingerprint is all of SHA-256: 16 groups of 4 hex digits, not the first 8",
    file: 'web/crypto/beneficiary-keys.ts',
    from: ".slice(0, 16).join(' ')",
    to: ".slice(0, 8).join(' ')",
  },
  // --- Web: the heir's checks (portal seals) ---
  {
    id: 'fresh2-web-kit-one-fingerprint-enough',
    rule: "The portal trusts the served vault key only if every fingerprint the heir's kit names is that key's",
    file: 'web/features/releases/seals.ts',
    from: 'kitFingerprints.every((f) => f === served)',
    to: 'kitFingerprints.some((f) => f === served)',
  },
  {
    id: 'fresh2-web-manifest-size-unchecked',
    rule: "An item's seal must state the item's size: a manifest for another size does not seal it",
    file: 'web/features/releases/seals.ts',
    from: '    manifest.plainSize === item.plainSize &&\n',
    to: '',
  },
  {
    id: 'fresh2-web-unsealed-with-kit',
    rule: "When the heir's kit can check seals, an item with no seal is refused, not offered to open anyway",
    file: 'web/features/releases/seals.ts',
    from: "if (check.reason === 'missing' && trust.kind === 'unchecked') return { state: 'unsealed' }",
    to: "if (check.reason === 'missing') return { state: 'unsealed' }",
  },
  // --- Web: audit chain, trusted keys, dashboard words, forms ---
  {
    id: 'fresh2-web-chain-head-removed',
    rule: "The audit chain shows Compromised when the server says its newest entry is not the head it recorded (a dropped last entry)",
    file: 'web/features/audit/chain.ts',
    from: '(!server.result.valid || !server.result.headMatches)',
    to: '!server.result.valid',
  },
  {
    id: 'fresh2-web-wrap-for-unconfirmed-key',
    rule: "Nothing is wrapped for a beneficiary whose key the owner has not confirmed (no statement of this vault's yet)",
    file: 'web/features/circle/trusted-keys.ts',
    from: "if (verdict === 'unconfirmed' || verdict === 'changed') throw",
    to: "if (verdict === 'changed') throw",
  },
  {
    id: 'fresh2-web-checkin-days-floor',
    rule: "The Next Check-in card counts whole days rounded up ('1d' with 20 hours left, not '0d')",
    file: 'web/features/dashboard/view-model.ts',
    from: '`${Math.ceil(ms / DAY)}d`',
    to: '`${Math.floor(ms / DAY)}d`',
  },
  {
    id: 'fresh2-web-protected-with-warnings',
    rule: "The dashboard says Protected only when readiness finds nothing at all, warnings included",
    file: 'web/features/dashboard/view-model.ts',
    from: 'if (!ready || problems.length > 0) return',
    to: 'if (!ready) return',
  },
  {
    id: 'fresh2-web-passphrase-twelve',
    rule: 'A passphrase of exactly 12 characters earns the length points (seeds 001 §5: at least 12)',
    file: 'web/features/vault/passphrase-strength.ts',
    from: 'if (passphrase.length >= 12) score += 20',
    to: 'if (passphrase.length > 12) score += 20',
  },

  // --- Sign-in, devices, "This wasn't me" ---
  {
    id: 'fresh2-signin-device-of-other-account',
    rule: "A browser known to one account is a stranger to another: its device cookie does not lift the other account's sign-in hold",
    file: 'worker/services/sign-in-guard.ts',
    from: 'const known = payload.sub === user.id && (user.devicesTrustedFrom === null || (payload.iat ?? 0) * 1000 >= user.devicesTrustedFrom)',
    to: 'const known = user.devicesTrustedFrom === null || (payload.iat ?? 0) * 1000 >= user.devicesTrustedFrom',
  },
  {
    id: 'fresh2-notme-other-owners-keys',
    rule: "\"This wasn't me\" removes the security keys added to this account since the sign-in, and no one else's",
    file: 'worker/services/trust-mail.ts',
    from: '.where(and(eq(webauthnCredentials.userId, user.id), gte(webauthnCredentials.createdAt, since)))',
    to: '.where(gte(webauthnCredentials.createdAt, since))',
  },
  {
    id: 'fresh2-notme-older-authenticator',
    rule: "\"This wasn't me\" removes an authenticator app only if it was set up since the sign-in that made the change",
    file: 'worker/services/trust-mail.ts',
    from: 'app?.confirmedAt != null && app.confirmedAt >= since && (await removeAuthenticator(db, user.id))',
    to: 'app?.confirmedAt != null && (await removeAuthenticator(db, user.id))',
  },
  {
    id: 'fresh2-recovery-code-twice',
    rule: 'Each authenticator recovery code works once',
    file: 'worker/services/authenticator.ts',
    from: '.where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.hash, await recoveryHash(userId, input)), isNull(recoveryCodes.usedAt)))',
    to: '.where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.hash, await recoveryHash(userId, input))))',
  },
  {
    id: 'fresh2-confirm-link-old-address',
    rule: "An e-mail confirmation link confirms only the address it was sent to (not a new address the owner changed to since)",
    file: 'worker/services/email-confirmation.ts',
    from: 'if (!user || user.id !== link.owner || addressNonce(env, user.email) !== link.nonce)',
    to: 'if (!user || user.id !== link.owner)',
  },
  // --- Trusted devices, triggers, release engine ---
  {
    id: 'fresh2-trusted-last-paused-watch',
    rule: 'The last trusted device can be untrusted when the Loss of trusted devices trigger is paused (only an active one watches)',
    file: 'worker/services/trusted-devices.ts',
    from: "if (triggers.some((t) => t.type === 'device_loss' && t.status === 'active')) throw",
    to: "if (triggers.some((t) => t.type === 'device_loss')) throw",
  },
  {
    id: 'fresh2-device-loss-armed-today',
    rule: 'A Loss of trusted devices trigger armed today gives the owner its full days, even if a trusted device was last used long ago',
    file: 'worker/engine/device-loss.ts',
    from: 'return Math.max(lastTrustedUseAt ?? 0, t.updatedAt) + deviceLossDays(t) * DAY_MS',
    to: 'return (lastTrustedUseAt ?? t.updatedAt) + deviceLossDays(t) * DAY_MS',
  },
  {
    id: 'fresh2-death-report-before-arming',
    rule: 'A death report made before a Verified death trigger was (re-)armed does not fire it',
    file: 'worker/engine/tick.ts',
    from: "for (const t of deaths) if (reports.some((r) => r.at >= t.updatedAt)) fireOne(t, 'verified_death')",
    to: "for (const t of deaths) if (reports.length > 0) fireOne(t, 'verified_death')",
  },
  {
    id: 'fresh2-cancel-untrusted-checkin-device-loss',
    rule: 'Only a sign of life from a trusted device cancels a Loss of trusted devices release',
    file: 'worker/engine/cancel.ts',
    from: "DISPROVED_BY_CHECK_IN.filter((k) => k !== 'device_loss')",
    to: 'DISPROVED_BY_CHECK_IN',
  },
  {
    id: 'fresh2-notice-to-unsubscribed-heir',
    rule: "An heir who unsubscribed is not sent the notice that a release started",
    file: 'worker/engine/fire.ts',
    from: "if (b.delayNotifications || !b.sendAssetNotifications || b.notificationStatus === 'unsubscribed') continue",
    to: 'if (b.delayNotifications || !b.sendAssetNotifications) continue',
  },
  // --- Approvals, identity ---
  {
    id: 'fresh2-advance-rejects-too-early',
    rule: 'A release is rejected only once it can no longer get its approvals (approved + undecided below the number needed), not while exactly enough remain',
    file: 'worker/engine/advance.ts',
    from: "return approved + undecided < release.requiredApprovals ? 'rejected' : 'wait'",
    to: "return approved + undecided <= release.requiredApprovals ? 'rejected' : 'wait'",
  },
  {
    id: 'fresh2-advance-deleted-item-handed-over',
    rule: 'An item the owner deleted before a release completes is not handed over',
    file: 'worker/engine/advance.ts',
    from: "      join vault_items v on v.id = t.item_id and v.status = 'active'\n",
    to: '      join vault_items v on v.id = t.item_id\n',
  },
  {
    id: 'fresh2-signoff-changes-answer',
    rule: 'An approver answers a release once: a second click cannot turn a refusal into an approval',
    file: 'worker/services/release-links.ts',
    from: '.where(and(eq(releaseSignoffs.releaseId, releaseId), eq(releaseSignoffs.email, email), isNull(releaseSignoffs.decision)))',
    to: '.where(and(eq(releaseSignoffs.releaseId, releaseId), eq(releaseSignoffs.email, email)))',
  },
  {
    id: 'fresh2-approver-invite-before-confirmed',
    rule: "An approver's invitation is held until the owner has confirmed their own e-mail address",
    file: 'worker/services/approvers.ts',
    from: '  if (!u.ownerConfirmed) throw conflict(CIRCLE_MESSAGES.invitationHeld)\n',
    to: '',
  },
  // --- Access requests, renewals ---
  {
    id: 'fresh2-access-request-while-approved',
    rule: 'One request per person and policy: while one is approved (its release on its way) no second can be made',
    file: 'worker/services/access-requests.ts',
    from: "if (latest && (latest.status === 'waiting' || latest.status === 'approved')) throw",
    to: "if (latest && latest.status === 'waiting') throw",
  },
  {
    id: 'fresh2-access-reask-a-day',
    rule: 'After the owner refuses an access request, the person may ask again only a week later',
    file: 'contract/access-requests.ts',
    from: 'reaskAfterMs: 7 * DAY_MS,',
    to: 'reaskAfterMs: DAY_MS,',
  },
  {
    id: 'fresh2-renewal-withdrawn-renewed',
    rule: 'An approved renewal never brings back an asset that was withdrawn (a cancelled release)',
    file: 'worker/services/renewals.ts',
    from: ".where(and(inArray(releasedAssets.id, request.assetIds), eq(releasedAssets.beneficiaryId, request.beneficiaryId), eq(releasedAssets.status, 'available')))",
    to: '.where(and(inArray(releasedAssets.id, request.assetIds), eq(releasedAssets.beneficiaryId, request.beneficiaryId)))',
  },
  // --- Token links, rate limits, time windows ---
  {
    id: 'fresh2-download-ticket-hours',
    rule: 'A download ticket works for 30 minutes, not 30 hours',
    file: 'worker/lib/link-tokens.ts',
    from: "assetContent: { audience: 'legacy-vault:link:asset-content', ttlSeconds: RELEASE_LIMITS.contentTicketMinutes * 60 }",
    to: "assetContent: { audience: 'legacy-vault:link:asset-content', ttlSeconds: RELEASE_LIMITS.contentTicketMinutes * 3600 }",
  },
  {
    id: 'fresh2-mail-limit-one-more',
    rule: 'The owner can have at most 3 e-mails an hour sent to one person (the 4th is refused with 429)',
    file: 'worker/owner/mail-limits.ts',
    from: 'if (sentToAddressThisHour(u, address) >= MAIL_LIMITS.perPersonPerHour)',
    to: 'if (sentToAddressThisHour(u, address) > MAIL_LIMITS.perPersonPerHour)',
  },
  // --- Billing, subscription gate, webhooks ---
  {
    id: 'fresh2-upload-during-payment-issue',
    rule: 'During a payment issue uploads are paused (402), though the vault stays readable',
    file: 'worker/services/vault-items.ts',
    from: "  if (account.subscriptionStatus === 'past_due') throw new ApiError(402, VAULT_ITEM_MESSAGES.uploadsPausedForPayment)\n",
    to: '',
  },
  {
    id: 'fresh2-paused-account-usable',
    rule: 'An account the back office paused gets 402 on the vault, whatever its subscription',
    file: 'worker/services/users.ts',
    from: '  if (user.pausedAt) return false\n',
    to: '',
  },
  {
    id: 'fresh2-stripe-same-second-event',
    rule: 'A Stripe event from the same second as the last one applied is applied too (only strictly older events are ignored)',
    file: 'worker/billing/stripe-events.ts',
    from: 'eventAt < owner.stripeEventAt) return',
    to: 'eventAt <= owner.stripeEventAt) return',
  },
  {
    id: 'fresh2-failure-of-paid-invoice',
    rule: 'A late "payment failed" event for an invoice that was since paid starts no payment grace',
    file: 'worker/billing/stripe-events.ts',
    from: 'if (!invoice.id || (await invoiceWasPaid(db, invoice.id))) return',
    to: 'if (!invoice.id) return',
  },
  // --- Readiness, audit chain, back office ---
  {
    id: 'fresh2-readiness-enough-approvers',
    rule: 'A policy needing N sign-offs with exactly N approvers able to sign is not flagged as short of approvers',
    file: 'worker/services/readiness.ts',
    from: 'if (policy.minimumApprovals > signers.size) {',
    to: 'if (policy.minimumApprovals >= signers.size) {',
  },
  {
    id: 'fresh2-audit-keys-unsorted',
    rule: "An audit entry's hash covers its canonical JSON with the details' keys sorted (FORMAT: an independent tool can re-hash it)",
    file: 'contract/audit.ts',
    from: '    if (i > 0 && keys[i - 1]! > key) inOrder = false\n',
    to: '',
  },
  {
    id: 'fresh2-admin-deletes-self',
    rule: 'An admin cannot delete their own account from the back office',
    file: 'worker/routes/admin.ts',
    // Retargeted when the one-hop merge renamed c.var.user to c.var.account (the same mistake).
    from: 'if (target.id === c.var.account.id) throw conflict(ADMIN_MESSAGES.cannotDeleteSelf)',
    to: 'if (target.id === c.var.account.email) throw conflict(ADMIN_MESSAGES.cannotDeleteSelf)',
  },
]
