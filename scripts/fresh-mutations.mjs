// 0.3 · 7 of 7, part "fresh": 40 realistic one-line bugs chosen from README.md (security model,
// release engine, billing, stolen-session table, departures) and the product code alone, without
// reading scripts/mutations.mjs or any test. Each breaks a rule a user or an heir could notice.
// `from` occurs exactly once in `file`; scripts/fresh-mutate.mjs applies each alone.

export const FRESH = [
  // --- Release engine, triggers, safety window, cancel ---
  {
    id: 'fresh-clock-grace-from-due',
    rule: 'The inactivity grace runs from when the check-in e-mail actually went out, never shortened by a late one',
    file: 'worker/engine/clock.ts',
    from: 'firesAt: wholeSecond(graceFrom + schedule.graceDays * DAY_MS)',
    to: 'firesAt: wholeSecond(dueAt + schedule.graceDays * DAY_MS)',
  },
  {
    id: 'fresh-unlock-fires-at-threshold',
    rule: 'A Failed unlock attempts trigger fires at its threshold of counted failures, not one later',
    file: 'worker/engine/unlock-failures.ts',
    from: 'if (s.counted >= s.threshold) {',
    to: 'if (s.counted > s.threshold) {',
  },
  {
    id: 'fresh-plan-policy-skips-window',
    rule: "A policy's release waits max(its delay, the owner's safety window): a short delay cannot get around the window",
    file: 'worker/engine/plan.ts',
    from: 'Math.max(policy.delayHours * HOUR_MS, input.safetyWindowMs ?? 0)',
    to: 'policy.delayHours * HOUR_MS',
  },
  {
    id: 'fresh-fire-paused-fires',
    rule: 'Paused triggers never fire automatically (only the owner\'s manual release may fire a paused trigger)',
    file: 'worker/engine/fire.ts',
    from: "req.kind === 'manual' ? ['active', 'paused'] : ['active']",
    to: "['active', 'paused']",
  },
  {
    id: 'fresh-fire-secrecy-mode',
    rule: 'Heirs in Secrecy Mode are not told when a release starts, only when something is available',
    file: 'worker/engine/fire.ts',
    from: 'if (b.delayNotifications || !b.sendAssetNotifications',
    to: 'if (!b.sendAssetNotifications',
  },
  {
    id: 'fresh-cancel-checkin-cancels-access-request',
    rule: "A check-in or sign-in does not cancel an access request's release: only the owner's refusal does",
    file: 'worker/engine/cancel.ts',
    from: "!ownerActingNow(kind) && kind !== 'access_request')",
    to: '!ownerActingNow(kind))',
  },
  {
    id: 'fresh-cancel-withdrawn-mail-untold',
    rule: 'Only heirs who were told a release started (or was available) are e-mailed that it was withdrawn',
    file: 'worker/engine/cancel.ts',
    from: 'if (told.has(r.id)) people.add(r.id)',
    to: 'people.add(r.id)',
  },
  // --- Approvals, identity ---
  {
    id: 'fresh-advance-one-more-approval',
    rule: 'A release needing N sign-offs goes once N approvers have approved, not N + 1',
    file: 'worker/engine/advance.ts',
    from: 'if (approved >= release.requiredApprovals) return',
    to: 'if (approved > release.requiredApprovals) return',
  },
  {
    id: 'fresh-identity-unverified-reviewer',
    rule: "Only an approver who verified their e-mail may review an heir's identity document",
    file: 'worker/services/identity.ts',
    from: 'if (!found || found.approver.emailVerifiedAt === null) throw',
    to: 'if (!found) throw',
  },
  // --- Access requests, renewals ---
  {
    id: 'fresh-access-approve-scope',
    rule: "Approve now makes that request's release go now, and no other waiting release",
    file: 'worker/services/access-requests.ts',
    from: "u.db.update(releases).set({ releaseAt: u.now }).where(and(eq(releases.firingId, row.firingId), eq(releases.status, 'waiting'))).run()",
    to: "u.db.update(releases).set({ releaseAt: u.now }).where(eq(releases.status, 'waiting')).run()",
  },
  {
    id: 'fresh-renewal-keeps-count',
    rule: 'An approved renewal gives the item its 5 downloads back as well as 90 more days',
    file: 'worker/services/renewals.ts',
    from: '.set({ downloadCount: 0, expiresAt: now + RELEASE_LIMITS.assetTtlDays * DAY_MS })',
    to: '.set({ expiresAt: now + RELEASE_LIMITS.assetTtlDays * DAY_MS })',
  },
  {
    id: 'fresh-renewal-one-refusal-ends',
    rule: "An approver's refusal ends a renewal request only once everyone still able to answer has refused",
    file: 'worker/services/renewals.ts',
    from: 'stillAble.every((p) => refusedBy.includes(p.key))',
    to: 'stillAble.some((p) => refusedBy.includes(p.key))',
  },
  // --- Sessions, fresh proof, trusted devices ---
  {
    id: 'fresh-proof-an-hour',
    rule: 'Fresh proof lasts 5 minutes, not an hour',
    file: 'contract/fresh-proof-constants.ts',
    from: 'export const FRESH_PROOF_MS = 5 * 60 * 1000',
    to: 'export const FRESH_PROOF_MS = 5 * 60 * 60 * 1000',
  },
  {
    id: 'fresh-proof-all-sessions',
    rule: "Fresh proof given at one session covers that session alone, not the owner's others",
    // Sessions moved into the owner's object (part hop): the same mistake where the code now is.
    file: 'worker/owner/sessions.ts',
    from: '  db.update(sessions).set({ provedAt: now, lastSeenAt: now }).where(eq(sessions.id, id)).run()',
    to: '  db.update(sessions).set({ provedAt: now, lastSeenAt: now }).run()',
  },
  {
    id: 'fresh-proof-key-removal',
    rule: 'Removing a security key needs fresh proof (a stolen session cannot remove keys)',
    file: 'worker/routes/security-keys.ts',
    from: ".delete('/security-keys/:id', requireUser, requireFreshProof, validate",
    to: ".delete('/security-keys/:id', requireUser, validate",
  },
  {
    id: 'fresh-sooner-create-default',
    rule: 'Creating a trigger that can fire without the owner (active by default) needs fresh proof',
    file: 'worker/services/sooner.ts',
    from: "(body.status ?? 'active') === 'active'",
    to: "(body.status ?? 'paused') === 'active'",
  },
  {
    id: 'fresh-proof-foreign-key',
    rule: "Fresh proof by security key must be one of this account's own keys",
    file: 'worker/services/fresh-proof.ts',
    from: 'if (outcome.user.id !== user.id) throw new ApiError(401, FRESH_PROOF_MESSAGES.keyNotYours)',
    to: '',
  },
  // --- Sign-in, password, authenticator, security keys ---
  {
    id: 'fresh-signin-password-clears-code-failures',
    rule: 'With an authenticator app on, a right password does not clear the count of wrong codes (only a completed sign-in does)',
    file: 'worker/routes/auth.ts',
    from: "if (!step?.methods.includes('authenticator')) await clearFailures(db, email)",
    to: 'await clearFailures(db, email)',
  },
  {
    id: 'fresh-reset-older-links-live',
    rule: 'A newer password-reset request voids the older links',
    file: 'worker/services/password-reset.ts',
    from: '.where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt))),',
    to: '.where(and(eq(passwordResets.id, user.id), isNull(passwordResets.usedAt))),',
  },
  {
    id: 'fresh-reset-keeps-sessions',
    rule: 'A password reset signs out every session of the account',
    file: 'worker/services/password-reset.ts',
    from: '  await ownerVault(env, pending.userId).revokeSessions()',
    to: '  await ownerVault(env, pending.id).revokeSessions()',
  },
  {
    id: 'fresh-totp-replay',
    rule: 'An authenticator code (each time step) works once: it cannot be replayed',
    file: 'worker/services/authenticator.ts',
    from: 'or(isNull(authenticators.lastStep), lt(authenticators.lastStep, step)),',
    to: 'or(isNull(authenticators.lastStep), lt(authenticators.lastStep, step + 1)),',
  },
  // --- Billing, subscription gate, webhooks ---
  {
    id: 'fresh-dunning-ended-grace-running',
    rule: "A new invoice's failure after an earlier grace ended starts a new 7-day grace and tells the owner",
    file: 'worker/billing/dunning.ts',
    from: 'const running = owner.paymentGraceUntil !== null && owner.paymentGraceUntil > now',
    to: 'const running = owner.paymentGraceUntil !== null',
  },
  {
    id: 'fresh-dunning-older-paid-ends',
    rule: 'Paying an older invoice does not end the payment issue of a newer unpaid one',
    file: 'worker/billing/dunning.ts',
    from: 'gt(paymentIssues.invoiceCreatedAt, invoiceCreatedAt)',
    to: 'lt(paymentIssues.invoiceCreatedAt, invoiceCreatedAt)',
  },
  {
    id: 'fresh-stripe-first-invoice-grace',
    rule: "A failed first invoice of a new subscription is not a renewal failure: it starts no grace",
    file: 'worker/billing/stripe-events.ts',
    from: "if (invoice.billing_reason === 'subscription_create' || (subscriptionId",
    to: 'if ((subscriptionId',
  },
  {
    id: 'fresh-grace-never-ends',
    rule: 'After the payment grace runs out unpaid, the vault answers 402',
    file: 'worker/services/users.ts',
    from: "if (user.subscriptionStatus === 'past_due') return user.paymentGraceUntil !== null && user.paymentGraceUntil > now",
    to: "if (user.subscriptionStatus === 'past_due') return user.paymentGraceUntil !== null",
  },
  // --- Links and tokens ---
  {
    id: 'fresh-link-any-purpose',
    rule: 'A signed link is bound to one purpose: a link made for one act does not work for another',
    file: 'worker/lib/link-tokens.ts',
    from: '      audience: LINK_PURPOSES[purpose].audience,\n',
    to: '',
  },
  {
    id: 'fresh-link-verify-ttl',
    rule: "A beneficiary's verification link works for 7 days",
    file: 'worker/lib/link-tokens.ts',
    from: "beneficiaryVerify: { audience: 'legacy-vault:link:beneficiary-verify', ttlSeconds: 7 * 24 * 3600 }",
    to: "beneficiaryVerify: { audience: 'legacy-vault:link:beneficiary-verify', ttlSeconds: 7 * 24 * 60 }",
  },
  // --- Rate limits ---
  {
    id: 'fresh-login-no-limit',
    rule: 'Sign-in is rate-limited to 10 a minute per address (429 with a message)',
    file: 'worker/routes/auth.ts',
    from: ".post('/login', rateLimitByIp('LOGIN_LIMITER', 'login'), validate",
    to: ".post('/login', validate",
  },
  // --- Owner scoping ---
  {
    id: 'fresh-session-revoke-scope',
    rule: "Signing out a device acts on the owner's own sessions only: another owner's session id is not found",
    // In the owner's object another owner's session cannot be named: what is left of the rule is
    // that an id the object does not hold is not found.
    file: 'worker/owner/sessions.ts',
    from: '  return db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id }).all().length > 0',
    to: '  return db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id }).all().length >= 0',
  },
  {
    id: 'fresh-download-other-heir',
    rule: "An heir's portal prepares downloads only of assets released to that heir",
    file: 'worker/services/release-links.ts',
    from: 'const asset = db.select().from(releasedAssets).where(and(eq(releasedAssets.id, assetId), eq(releasedAssets.beneficiaryId, b.id))).get()',
    to: 'const asset = db.select().from(releasedAssets).where(eq(releasedAssets.id, assetId)).get()',
  },
  // --- Audit chain ---
  {
    id: 'fresh-audit-batch-prev',
    rule: "Each audit entry's prevHash is the hash of the entry before it, also for entries appended together",
    file: 'worker/owner/audit-chain.ts',
    from: 'head = { seq: body.seq, hash }',
    to: 'head = { seq: body.seq, hash: head.hash }',
  },
  // --- Vault items, uploads, limits, downloads ---
  {
    id: 'fresh-upload-item-limit',
    rule: "An upload past the plan's item limit is refused (402)",
    file: 'worker/services/vault-items.ts',
    from: 'if (limits.maxItems !== null && usage.items >= limits.maxItems) throw itemLimitError',
    to: 'if (limits.maxItems !== null && usage.items > limits.maxItems) throw itemLimitError',
  },
  {
    id: 'fresh-usage-uploading-not-counted',
    rule: 'Uploads in progress count against the plan, so parallel uploads cannot pass the limit',
    file: 'worker/owner/usage.ts',
    from: "statuses: Array<VaultItemRow['status']> = ['active', 'uploading']",
    to: "statuses: Array<VaultItemRow['status']> = ['active']",
  },
  {
    id: 'fresh-download-six',
    rule: 'A released asset can be downloaded 5 times, never a 6th',
    file: 'worker/services/release-links.ts',
    from: "eq(releasedAssets.status, 'available'),\n        sql`${releasedAssets.downloadCount} < ${releasedAssets.maxDownloads}`,",
    to: "eq(releasedAssets.status, 'available'),\n        sql`${releasedAssets.downloadCount} <= ${releasedAssets.maxDownloads}`,",
  },
  // --- Readiness ---
  {
    id: 'fresh-readiness-unverified-approvers',
    rule: 'Readiness counts only verified approvers as able to sign off, review identity or report a death',
    file: 'worker/services/readiness.ts',
    from: 'const verified = approverRows.filter((a) => a.verifiedAt !== null)',
    to: 'const verified = approverRows',
  },
  // --- E-mail, invitations ---
  {
    id: 'fresh-mail-limit-case',
    rule: 'The 3-an-hour limit counts e-mails to an address whatever its letter case',
    file: 'worker/owner/mail-limits.ts',
    from: 'const where = and(eq(thirdPartyMail.address, address.toLowerCase()),',
    to: 'const where = and(eq(thirdPartyMail.address, address),',
  },
  {
    id: 'fresh-invite-unsubscribed',
    rule: 'A beneficiary who unsubscribed is not sent an invitation',
    file: 'worker/services/invitations.ts',
    from: "if (row.notificationStatus === 'unsubscribed' || !row.verificationNonce) return false",
    to: 'if (!row.verificationNonce) return false',
  },
  // --- Web: vault session, crypto, billing screens ---
  {
    id: 'fresh-web-idle-lock-hours',
    rule: 'The unlocked vault locks after 15 minutes without activity, not 15 hours',
    file: 'web/features/vault/vault-session.ts',
    from: 'export const VAULT_IDLE_LOCK_MS = 15 * 60 * 1000',
    to: 'export const VAULT_IDLE_LOCK_MS = 15 * 60 * 60 * 1000',
  },
  {
    id: 'fresh-web-metadata-aad-item',
    rule: "An item's encrypted metadata is bound to its item: the server cannot swap two items' metadata",
    file: 'web/crypto/metadata.ts',
    from: 'return buildAad(AAD_PURPOSE.metadata, itemId)',
    to: 'return buildAad(AAD_PURPOSE.metadata)',
  },
  {
    id: 'fresh-web-can-cancel-twice',
    rule: 'Cancel is offered only for a subscription not already set to end',
    file: 'web/features/billing/logic.ts',
    from: "return (status === 'Active' || status === 'Trialing') && !account.subscription.cancel_at_period_end",
    to: "return status === 'Active' || status === 'Trialing'",
  },
]
