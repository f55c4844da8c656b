// The fourth independent mutation pass (part "fresh4"): 40 realistic one-line bugs chosen from the
// docs, the seeds and the product code alone (worker/, web/, contract/), without opening
// scripts/mutations.mjs, anything under test/, or the NOTES-*.md files. The three earlier fresh lists
// were read only to pick other lines and other rules. Weighted towards the promise (never before,
// never to the wrong person, never lost): time windows, one-person-among-several filters, status
// transitions. Run by scripts/fresh-mutate.mjs --list scripts/fresh-mutations-4.mjs. Entries are never
// changed after this list's commit; notes on them go in NOTES-fresh4.md.

export const FRESH = [
  // ---- Release engine: tick, firing, advancing, clock, failed unlocks ----------------------------
  {
    id: 'fresh4-tick-payment-grace-not-held',
    rule: "During a payment issue's grace the triggers keep monitoring but nothing fires; what came due fires when the grace ends",
    file: 'worker/engine/tick.ts',
    from: '  const held = frozen || paymentHeld(account, now)',
    to: '  const held = frozen && paymentHeld(account, now)',
  },
  {
    id: 'fresh4-tick-paused-triggers-fire',
    rule: 'A paused trigger never fires by itself: only active triggers are watched by the engine',
    file: 'worker/engine/tick.ts',
    from: "  const active = db.select().from(triggers).where(eq(triggers.status, 'active')).all()",
    to: '  const active = db.select().from(triggers).all()',
  },
  {
    id: 'fresh4-tick-scheduled-item-wrong-date',
    rule: 'An item with its own scheduled release goes on its date, never before it (the date is the item\'s scheduledAt, not when it was added)',
    file: 'worker/engine/tick.ts',
    from: "      .where(and(eq(vaultItems.status, 'active'), eq(vaultItems.releaseProtocol, 'SCHEDULED'), lte(vaultItems.scheduledAt, now), itemFiredYet(u)))",
    to: "      .where(and(eq(vaultItems.status, 'active'), eq(vaultItems.releaseProtocol, 'SCHEDULED'), lte(vaultItems.createdAt, now), itemFiredYet(u)))",
  },
  {
    id: 'fresh4-fire-window-swapped',
    rule: "A firing not by the owner's own hand (inactivity, a death report, failed unlocks, lost devices) waits the owner's safety window; only a manual release or a date the owner set skips it",
    file: 'worker/engine/fire.ts',
    from: '      safetyWindowMs: ownerActingNow(req.kind) ? 0 : u.safetyWindowMs,',
    to: '      safetyWindowMs: ownerActingNow(req.kind) ? u.safetyWindowMs : 0,',
  },
  {
    id: 'fresh4-advance-due-by-creation',
    rule: 'A waiting release completes only once its release time has come (never as soon as it was written)',
    file: 'worker/engine/advance.ts',
    from: '        lte(releases.releaseAt, u.now),',
    to: '        lte(releases.createdAt, u.now),',
  },
  {
    id: 'fresh4-advance-rejection-counts-as-approval',
    rule: "A release needing sign-off goes only when enough approvers approved it; an approver's rejection never counts toward the approvals",
    file: 'worker/engine/advance.ts',
    from: "  const approved = rows.filter((r) => r.decision === 'approved').length",
    to: '  const approved = rows.filter((r) => r.decision !== null).length',
  },
  {
    id: 'fresh4-advance-verified-heir-not-told',
    rule: 'When assets that waited on identity open (the beneficiary was verified), the beneficiary is e-mailed that they are available',
    file: 'worker/engine/advance.ts',
    from: "    .set({ status: 'available', expiresAt: u.now + RELEASE_LIMITS.assetTtlDays * DAY_MS, notifiedAt: null })",
    to: "    .set({ status: 'available', expiresAt: u.now + RELEASE_LIMITS.assetTtlDays * DAY_MS })",
  },
  {
    id: 'fresh4-unlock-failure-counted-before-forgiving-time',
    rule: 'A failed unlock counts toward a Failed unlock attempts trigger only after its forgiving quarter hour passes without a successful unlock (an owner who mistypes and then gets it right is never counted)',
    file: 'worker/engine/unlock-failures.ts',
    from: '    select coalesce(sum(at <= ${cut}), 0) as counted,',
    to: '    select count(*) as counted,',
  },
  {
    id: 'fresh4-clock-grace-from-due-not-sent',
    rule: 'The check-in grace runs from when the check-in e-mail actually went out, never less (a late e-mail does not shorten the grace)',
    file: 'worker/engine/clock.ts',
    from: '  const graceFrom = Math.max(dueAt, state.checkInSentAt ?? dueAt)',
    to: '  const graceFrom = dueAt',
  },

  // ---- Identity, access requests, renewals -------------------------------------------------------
  {
    id: 'fresh4-identity-decided-document-reviewed-again',
    rule: 'An identity document once decided (verified or rejected) takes no more reviews: a rejected document cannot later be approved into verified',
    file: 'worker/services/identity.ts',
    from: "  if (document.status !== 'pending') throw conflict(IDENTITY_MESSAGES.alreadyDecided)",
    to: "  if (document.status === 'verified') throw conflict(IDENTITY_MESSAGES.alreadyDecided)",
  },
  {
    id: 'fresh4-access-unverified-approver-may-ask',
    rule: 'Only approvers who confirmed their address may ask for access on request',
    file: 'worker/services/access-requests.ts',
    from: '  return all.filter((a) => a.emailVerifiedAt !== null && (named.size === 0 || named.has(a.id)))',
    to: '  return all.filter((a) => named.size === 0 || named.has(a.id))',
  },
  {
    id: 'fresh4-access-latest-request-any-requester',
    rule: "One waiting request per person and policy, and a refusal's one-week wait, apply to that person only: another beneficiary of the same policy may still ask",
    file: 'worker/services/access-requests.ts',
    from: '    .where(and(eq(accessRequests.requesterId, requester.id), eq(accessRequests.requesterKind, requester.kind), eq(accessRequests.policyId, policyId)))',
    to: '    .where(and(eq(accessRequests.requesterKind, requester.kind), eq(accessRequests.policyId, policyId)))',
  },
  {
    id: 'fresh4-renewal-cancelled-death-counts',
    rule: "The owner's death counts as confirmed for renewals only when a verified-death firing actually released something; a cancelled one leaves the owner asked first",
    file: 'worker/services/renewals.ts',
    from: "    .where(and(eq(firings.kind, 'verified_death'), eq(releases.status, 'released')))",
    to: "    .where(eq(firings.kind, 'verified_death'))",
  },

  // ---- Billing, Stripe webhooks, back office ------------------------------------------------------
  {
    id: 'fresh4-stripe-abandoned-subscription-takes-over',
    rule: "Another subscription of the same customer (an abandoned incomplete one, an old one ending) never takes the place of the owner's current one",
    file: 'worker/billing/stripe-events.ts',
    from: '  if (!current && (deleted || !LIVE_STATUSES.has(state.status))) {',
    to: '  if (!current && deleted) {',
  },
  {
    id: 'fresh4-dunning-reminder-window-sign',
    rule: 'The payment reminder goes PAYMENT_REMINDER_DAYS before the grace ends, and the grace-ended notice when it ends',
    file: 'worker/billing/dunning.ts',
    from: '  const reminderFrom = now + PAYMENT_REMINDER_DAYS * DAY_MS',
    to: '  const reminderFrom = now - PAYMENT_REMINDER_DAYS * DAY_MS',
  },
  {
    id: 'fresh4-admin-extend-from-lapsed-end',
    rule: "An admin's extension adds its days from the later of now and the current period's end (a lapsed subscription gets the full days from today)",
    file: 'worker/services/admin/users.ts',
    from: '  const end = Math.max(now, target.subscriptionPeriodEnd ?? now) + days * DAY_MS',
    to: '  const end = (target.subscriptionPeriodEnd ?? now) + days * DAY_MS',
  },

  // ---- Mail limits -----------------------------------------------------------------------------
  {
    id: 'fresh4-mail-daily-limit-counts-hour',
    rule: 'At most MAIL_LIMITS.thirdPartyPerDay e-mails to people other than the owner in any day (counted over the last 24 hours)',
    file: 'worker/owner/mail-limits.ts',
    from: '  return u.db.select({ n: sql<number>`count(*)` }).from(thirdPartyMail).where(gt(thirdPartyMail.at, u.now - DAY_MS)).get()?.n ?? 0',
    to: '  return u.db.select({ n: sql<number>`count(*)` }).from(thirdPartyMail).where(gt(thirdPartyMail.at, u.now - HOUR_MS)).get()?.n ?? 0',
  },

  // ---- Sessions, sign-in guard, fresh proof, trusted devices -------------------------------------
  {
    id: 'fresh4-frozen-account-cannot-be-kept',
    rule: 'An account frozen for deletion can always be kept: cancelling the deletion is allowed while frozen',
    file: 'worker/middleware/auth.ts',
    from: "  '/api/account/deletion/cancel',\n",
    to: '',
  },
  {
    id: 'fresh4-fresh-proof-code-ignores-hold',
    rule: 'While the account is held after failed attempts, fresh proof by password or by authenticator code is refused (a stolen session cannot guess codes past the hold)',
    file: 'worker/services/fresh-proof.ts',
    from: "  if (body.method === 'password' || body.method === 'authenticator') {",
    to: "  if (body.method === 'password') {",
  },
  {
    id: 'fresh4-sign-in-guard-extra-free-failure',
    rule: 'The account is held after exactly SIGN_IN_GUARD.freeFailures failed attempts, not one more',
    file: 'worker/services/sign-in-guard.ts',
    from: '    sql`case when ${n} >= ${freeFailures} then ${now} + min(${maxHoldMs}, ${firstHoldMs} * (1 << min(20, ${n} - ${freeFailures}))) else null end`',
    to: '    sql`case when ${n} > ${freeFailures} then ${now} + min(${maxHoldMs}, ${firstHoldMs} * (1 << min(20, ${n} - ${freeFailures}))) else null end`',
  },
  {
    id: 'fresh4-trusted-browsers-unfiltered',
    rule: "Only browsers the owner marked as trusted count as trusted (the sessions list's mark, and the last-trusted-device guard)",
    file: 'worker/services/trusted-devices.ts',
    from: '  const rows = await db.select({ id: browsers.id }).from(browsers).where(and(eq(browsers.userId, userId), isNotNull(browsers.trustedAt)))',
    to: '  const rows = await db.select({ id: browsers.id }).from(browsers).where(eq(browsers.userId, userId))',
  },

  // ---- Audit chain -----------------------------------------------------------------------------
  {
    id: 'fresh4-audit-head-hash-unchecked',
    rule: "Verifying the audit chain compares its last entry with the head the object wrote last, by sequence and hash: a rewritten last entry shows",
    file: 'worker/owner/audit-chain.ts',
    from: '  const headMatches = (last?.seq ?? 0) === head.seq && (last?.hash ?? GENESIS_HASH) === head.hash',
    to: '  const headMatches = (last?.seq ?? 0) === head.seq',
  },

  // ---- Heir portal and downloads -----------------------------------------------------------------
  {
    id: 'fresh4-download-grant-of-another-heir',
    rule: "A download gives the beneficiary the item's data key wrapped for them, never another beneficiary's wrap of it",
    file: 'worker/services/release-links.ts',
    from: '    .innerJoin(itemGrants, and(eq(itemGrants.itemId, vaultItems.id), eq(itemGrants.beneficiaryId, b.id)))',
    to: '    .innerJoin(itemGrants, eq(itemGrants.itemId, vaultItems.id))',
  },
  {
    id: 'fresh4-portal-link-any-beneficiary',
    rule: "A beneficiary's portal link opens that beneficiary's portal only, never another beneficiary's of the same owner",
    file: 'worker/routes/release-links.ts',
    from: '  if (link.subject !== id) throw forbidden(RELEASE_MESSAGES.linkInvalid)',
    to: '  if (!link.subject) throw forbidden(RELEASE_MESSAGES.linkInvalid)',
  },

  // ---- Account deletion, vault items -------------------------------------------------------------
  {
    id: 'fresh4-deletion-last-admin-counts-leaving-admins',
    rule: 'The last administrator cannot delete their account; administrators already waiting out their own deletion do not count as another',
    file: 'worker/services/account-deletion.ts',
    from: "  const [admins] = await db.select({ n: count() }).from(users).where(and(eq(users.role, 'admin'), isNull(users.deletionRequestedAt)))",
    to: "  const [admins] = await db.select({ n: count() }).from(users).where(eq(users.role, 'admin'))",
  },
  {
    id: 'fresh4-completion-counts-own-upload',
    rule: 'Completing an upload checks the plan against the active items only: the item being completed is not counted twice, so an item that fits the plan completes',
    file: 'worker/services/vault-items.ts',
    from: "  const usage = vaultUsage(db, ['active'])",
    to: '  const usage = vaultUsage(db)',
  },

  // ---- Web: API client, route guard --------------------------------------------------------------
  {
    id: 'fresh4-web-toast-with-status-prefix',
    rule: "A toast shows the server's message in words alone, without the status prefix ('400: …')",
    file: 'web/lib/api-client.ts',
    from: '  if (error instanceof ApiRequestError) return error.detail || fallback',
    to: '  if (error instanceof ApiRequestError) return error.message || fallback',
  },
  {
    id: 'fresh4-web-retry-after-proof-failure-ignored',
    rule: 'An act sent again after fresh proof that still fails shows its error; it is never taken as done',
    file: 'web/lib/api-client.ts',
    from: '    if (!res.ok) throw await responseError(res)\n',
    to: '',
  },
  {
    id: 'fresh4-web-guard-status-not-access',
    rule: 'Protected pages let in every owner whose subscription gives access (active, trialing, or past due inside the payment grace); admins pass regardless',
    file: 'web/components/layout/protected.tsx',
    from: '  if (!user.hasActiveSubscription && !isAdmin(user)) return <SubscriptionRequired user={user} />',
    to: "  if (user.subscriptionStatus !== 'active' && !isAdmin(user)) return <SubscriptionRequired user={user} />",
  },

  // ---- Web: upload and download pipeline, crypto format ------------------------------------------
  {
    id: 'fresh4-web-direct-grant-flag-inverted',
    rule: "A beneficiary chosen on the item itself receives it under the item's own protocol; one reached only through a policy receives it only through that policy",
    file: 'web/features/vault/upload/upload-file.ts',
    from: '      direct: !policyOnly?.includes(b.id),',
    to: '      direct: !!policyOnly?.includes(b.id),',
  },
  {
    id: 'fresh4-web-part-chunk-index-off-by-one',
    rule: 'Upload part n (1-based) carries content chunk n − 1, bound to that 0-based index in its AAD: what is uploaded decrypts',
    file: 'web/features/vault/upload/upload-file.ts',
    from: '    const cipher = await encryptChunk(dek, itemId, n - 1, n === partCount, plain)',
    to: '    const cipher = await encryptChunk(dek, itemId, n, n === partCount, plain)',
  },
  {
    id: 'fresh4-web-resume-does-not-skip-received',
    rule: 'A download re-fetched after a network error resumes where it broke off: the bytes already received are skipped, not used twice',
    file: 'web/features/vault/items/download.ts',
    from: '    let skip = received',
    to: '    let skip = 0',
  },
  {
    id: 'fresh4-web-failed-save-kept',
    rule: 'A download that fails (a chunk that does not authenticate, a broken seal) leaves no partial file in the place the owner chose',
    file: 'web/features/vault/items/download.ts',
    from: '        await writable.abort().catch(() => undefined)',
    to: '        await writable.close().catch(() => undefined)',
  },
  {
    id: 'fresh4-web-signing-key-extractable',
    rule: "The unlocked vault's signing key is held non-extractable in memory, for signing only",
    file: 'web/crypto/signing.ts',
    from: "    const key = await subtle().unwrapKey('pkcs8', body, master, wrapParams(iv), SIGNING_KEY_ALGORITHM, false, ['sign'])",
    to: "    const key = await subtle().unwrapKey('pkcs8', body, master, wrapParams(iv), SIGNING_KEY_ALGORITHM, true, ['sign'])",
  },

  // ---- Web: heir portal, release and readiness display, forms ------------------------------------
  {
    id: 'fresh4-web-refused-seal-downloadable',
    rule: 'An item whose seal is refused (or unsealed and not chosen by the heir) offers no download',
    file: 'web/features/releases/portal.ts',
    from: "    canDownload: status === 'available' && !busy && open && keyFits,",
    to: "    canDownload: status === 'available' && !busy && keyFits,",
  },
  {
    id: 'fresh4-web-earliest-shorter-of-two',
    rule: "A release not by the owner's hand is available at the earliest after the longer of the policy's delay and the safety window, and the forms say so",
    file: 'web/features/triggers/earliest.ts',
    from: '  return windowHours === null ? null : Math.max(delayHours, windowHours)',
    to: '  return windowHours === null ? null : Math.min(delayHours, windowHours)',
  },
  {
    id: 'fresh4-web-readiness-warnings-first',
    rule: 'Readiness problems are listed errors first, then warnings',
    file: 'web/features/readiness/group.ts',
    from: "  return [...groups.values()].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))",
    to: "  return [...groups.values()].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? 1 : -1))",
  },
  {
    id: 'fresh4-web-dry-run-verified-heir-flagged',
    rule: "The dry run notes 'identity not yet verified' only for a beneficiary who must verify and has not",
    file: 'web/features/triggers/dry-run.ts',
    from: "  if (b.identityRequired && !b.identityVerified) return 'identity not yet verified'",
    to: "  if (b.identityRequired) return 'identity not yet verified'",
  },
  {
    id: 'fresh4-web-plan-end-label-swapped',
    rule: "A plan cancelled at the period's end shows 'Ends on' its date; one that renews shows 'Renews on'",
    file: 'web/features/billing/logic.ts',
    from: "    return sub.cancel_at_period_end ? { amount: NO_CHARGE, dateLabel: 'Ends on', date: on } : { amount: NO_CHARGE, dateLabel: 'Renews on', date: on }",
    to: "    return sub.cancel_at_period_end ? { amount: NO_CHARGE, dateLabel: 'Renews on', date: on } : { amount: NO_CHARGE, dateLabel: 'Ends on', date: on }",
  },
  {
    id: 'fresh4-web-approver-contact-loose-email',
    rule: "An item's approver contact must be a valid e-mail address (the form refuses 'bob@' and the like)",
    file: 'web/features/vault/upload/upload-form.ts',
    from: '      } else if (!z.email().safeParse(v.approverContact).success) {',
    to: "      } else if (!v.approverContact.includes('@')) {",
  },
]
