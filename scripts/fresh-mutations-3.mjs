// The third independent mutation pass (0.3 · 7 of 7, part "fresh3"): 40 realistic one-line bugs
// chosen from the docs, the issues and the product code alone, without opening scripts/mutations.mjs
// or anything under test/ (the first two passes' lists were read only to pick other lines and rules).
// Run by scripts/fresh-mutate.mjs --list scripts/fresh-mutations-3.mjs. Entries are never changed
// after this list's commit; notes on them go in NOTES-fresh3.md.

export const FRESH = [
  // ---- Release engine, triggers, safety window, cancel -------------------------------------------
  {
    id: 'fresh3-signer-removal-zero-approvals',
    rule: 'Removing an approver never lets a waiting release that needs sign-off go without any: it keeps asking for at least one approval',
    file: 'worker/engine/signers.ts',
    from: '      .set({ requiredApprovals: sql`max(1, min(${releases.requiredApprovals}, ${left}))` })',
    to: '      .set({ requiredApprovals: sql`min(${releases.requiredApprovals}, ${left})` })',
  },
  {
    id: 'fresh3-plan-unverified-signers',
    rule: "Only approvers who verified their address are asked to sign off a policy's release",
    file: 'worker/engine/plan.ts',
    from: '        ownerApprovers.filter((a) => a.emailVerifiedAt && (named.size === 0 || named.has(a.id))),',
    to: '        ownerApprovers.filter((a) => named.size === 0 || named.has(a.id)),',
  },
  {
    id: 'fresh3-item-protocol-skips-window',
    rule: "An item released by its own protocol also waits the owner's safety window (a death report or failed unlocks cannot hand it over sooner)",
    file: 'worker/engine/plan.ts',
    from: '  const releaseAt = Math.max(now + safetyWindowMs, silentUntil)',
    to: '  const releaseAt = Math.max(now, silentUntil)',
  },
  {
    id: 'fresh3-cancel-scheduled-date-passed',
    rule: "Cancelling a scheduled trigger's release once its date has passed leaves the trigger paused (it does not fire again at once); one whose date is still ahead is re-armed active",
    file: 'worker/engine/cancel.ts',
    from: '  const datePassed = trigger?.fireAt != null && trigger.fireAt <= u.now',
    to: '  const datePassed = trigger?.fireAt != null && trigger.fireAt > u.now',
  },
  {
    id: 'fresh3-clock-one-day-grace-reminder',
    rule: 'A one-day grace has no reminder e-mail (the reminder goes a day before the grace ends, which would be with the check-in e-mail itself)',
    file: 'worker/engine/clock.ts',
    from: '    reminderAt: schedule.graceDays >= 2 ? graceFrom + (schedule.graceDays - 1) * DAY_MS : null,',
    to: '    reminderAt: schedule.graceDays >= 1 ? graceFrom + (schedule.graceDays - 1) * DAY_MS : null,',
  },
  {
    id: 'fresh3-unlock-failures-before-arming',
    rule: 'Failed unlock attempts made before a Failed unlock attempts trigger was armed (or re-armed) do not count toward it',
    file: 'worker/engine/unlock-failures.ts',
    from: '  const from = Math.max(now - windowDays * DAY_MS, t.updatedAt)',
    to: '  const from = now - windowDays * DAY_MS',
  },
  {
    id: 'fresh3-unlock-success-forgives-all',
    rule: 'A successful unlock forgives only the failed attempts of the quarter of an hour before it, not older ones that already count',
    file: 'worker/engine/unlock-failures.ts',
    from: '    .where(and(gt(unlockFailures.at, u.now - UNLOCK_FORGIVE_MS), lte(unlockFailures.at, u.now)))',
    to: '    .where(lte(unlockFailures.at, u.now))',
  },
  {
    id: 'fresh3-advance-removed-grant-handed-over',
    rule: 'A release hands an item only to people it is still granted to: a grant the owner removed after the release started is neither handed over nor announced',
    file: 'worker/engine/advance.ts',
    from: '      join item_grants g on g.item_id = t.item_id and g.beneficiary_id = t.beneficiary_id',
    to: '      left join item_grants g on g.item_id = t.item_id and g.beneficiary_id = t.beneficiary_id',
  },
  // ---- Approvals, identity review ---------------------------------------------------------------
  {
    id: 'fresh3-identity-one-more-approval',
    rule: "An heir's identity is verified once the required number of reviewers approved it, not one more",
    file: 'worker/services/identity.ts',
    from: "approvals >= document.requiredApprovals ? 'verified' : 'pending'",
    to: "approvals > document.requiredApprovals ? 'verified' : 'pending'",
  },
  // ---- Access requests, renewals ----------------------------------------------------------------
  {
    id: 'fresh3-access-wait-skips-window',
    rule: "An access request waits at least the owner's safety window, even when the policy's waiting time is shorter",
    file: 'worker/services/access-requests.ts',
    from: '  return Math.max((policy.accessRequestDays ?? ACCESS_REQUEST.defaultDays) * DAY_MS, safetyWindowMs, policy.delayHours * HOUR_MS)',
    to: '  return Math.max((policy.accessRequestDays ?? ACCESS_REQUEST.defaultDays) * DAY_MS, policy.delayHours * HOUR_MS)',
  },
  {
    id: 'fresh3-access-policy-not-naming-heir',
    rule: 'A beneficiary may ask for access only under policies that name them',
    file: 'worker/services/access-requests.ts',
    from: "    return open.filter((p) => p.accessRequestBy.includes('beneficiaries') && mine.has(p.id))",
    to: "    return open.filter((p) => p.accessRequestBy.includes('beneficiaries'))",
  },
  {
    id: 'fresh3-access-request-releases-to-all',
    rule: "A beneficiary's access request releases only their own part of the policy; an approver's releases to the policy's beneficiaries",
    file: 'worker/services/access-requests.ts',
    from: "requester.kind === 'beneficiary' ? requester.id : undefined)",
    to: "requester.kind === 'approver' ? requester.id : undefined)",
  },
  {
    id: 'fresh3-renewal-owner-refusal-waits',
    rule: "The owner's refusal of an heir's renewal request ends it at once (the approvers are not waited for)",
    file: 'worker/services/renewals.ts',
    from: '    const final = key === OWNER_KEY || stillAble.every((p) => refusedBy.includes(p.key))',
    to: '    const final = stillAble.every((p) => refusedBy.includes(p.key))',
  },
  // ---- Token links ------------------------------------------------------------------------------
  {
    id: 'fresh3-death-link-reusable',
    rule: "An approver's death-report link reports once: the report uses it up, and a second use is refused",
    file: 'worker/services/release-links.ts',
    from: '  u.db.update(approvers).set({ deathLinkNonce: null }).where(eq(approvers.id, approverId)).run()\n',
    to: '',
  },
  {
    id: 'fresh3-reset-link-a-day',
    rule: 'A password-reset link works for an hour, not a day',
    file: 'contract/constants.ts',
    from: 'export const PASSWORD_RESET_TTL_SECONDS = 60 * 60',
    to: 'export const PASSWORD_RESET_TTL_SECONDS = 60 * 60 * 24',
  },
  // ---- Sessions, fresh proof, sign-in, "This wasn't me" -----------------------------------------
  {
    id: 'fresh3-fresh-proof-wrong-password-free',
    rule: 'A wrong password given as fresh proof counts against the account like a failed sign-in (a stolen session cannot guess faster than a stranger)',
    file: 'worker/services/fresh-proof.ts',
    from: '        await recordFailure(db, user.email, now)\n        throw new ApiError(401, FRESH_PROOF_MESSAGES.passwordWrong)',
    to: '        throw new ApiError(401, FRESH_PROOF_MESSAGES.passwordWrong)',
  },
  {
    id: 'fresh3-signin-authenticator-skipped',
    rule: 'With an authenticator app on (and no security key), signing in asks for its code after the password',
    file: 'worker/routes/auth.ts',
    from: '  if (!user.twoFactorEnabled && !app) return undefined',
    to: '  if (!user.twoFactorEnabled) return undefined',
  },
  {
    id: 'fresh3-notme-browsers-still-known',
    rule: "After \"This wasn't me\", every browser that signed in before is a stranger again: its device cookie no longer lifts the sign-in hold",
    file: 'worker/services/sign-in-guard.ts',
    from: '    const known = payload.sub === user.id && (user.devicesTrustedFrom === null || (payload.iat ?? 0) * 1000 >= user.devicesTrustedFrom)',
    to: '    const known = payload.sub === user.id',
  },
  {
    id: 'fresh3-notme-keeps-deletion',
    rule: "\"This wasn't me\" takes back an account deletion asked for by whoever had the session",
    file: 'worker/services/trust-mail.ts',
    from: '    .set({ deletionRequestedAt: null, devicesTrustedFrom: Math.ceil((now + 1) / 1000) * 1000, updatedAt: now })',
    to: '    .set({ devicesTrustedFrom: Math.ceil((now + 1) / 1000) * 1000, updatedAt: now })',
  },
  // ---- Billing, Stripe, dunning -----------------------------------------------------------------
  {
    id: 'fresh3-settle-other-owners-issue',
    rule: "Paying ends the owner's payment issue whatever other owners still owe (another owner's newer unpaid invoice does not keep this owner's grace)",
    file: 'worker/billing/dunning.ts',
    from: '    .where(and(eq(paymentIssues.userId, owner.id), isNull(paymentIssues.paidAt), gt(paymentIssues.invoiceCreatedAt, invoiceCreatedAt)))',
    to: '    .where(and(isNull(paymentIssues.paidAt), gt(paymentIssues.invoiceCreatedAt, invoiceCreatedAt)))',
  },
  {
    id: 'fresh3-failure-other-subscription',
    rule: "A failed invoice of a subscription that is not the owner's current one starts no payment grace",
    file: 'worker/billing/stripe-events.ts',
    from: "  if (invoice.billing_reason === 'subscription_create' || (subscriptionId && owner.stripeSubscriptionId !== subscriptionId)) return",
    to: "  if (invoice.billing_reason === 'subscription_create') return",
  },
  // ---- Vault items, uploads, plan limits --------------------------------------------------------
  {
    id: 'fresh3-upload-storage-without-new-file',
    rule: "An upload that would take the vault past its plan's storage is refused before it starts (413), counting the new file's size",
    file: 'worker/services/vault-items.ts',
    from: '  if (usage.bytes + cipherSize(plainSize) > limits.maxStorageBytes) throw storageLimitError(limits.maxStorageBytes)',
    to: '  if (usage.bytes > limits.maxStorageBytes) throw storageLimitError(limits.maxStorageBytes)',
  },
  {
    id: 'fresh3-emergency-not-manual',
    rule: "An item set to Emergency is released by the owner's manual release (and readiness says which trigger it waits for)",
    file: 'contract/readiness.ts',
    from: "  if (protocol === 'MANUAL_RELEASE' || protocol === 'EMERGENCY') return 'manual'",
    to: "  if (protocol === 'MANUAL_RELEASE') return 'manual'",
  },
  // ---- Rate limits, e-mail ----------------------------------------------------------------------
  {
    id: 'fresh3-third-party-mail-forgotten-hourly',
    rule: 'The daily cap on e-mails to other people counts a whole day (what was sent is remembered a day, not an hour)',
    file: 'worker/owner/mail-limits.ts',
    from: '  db.delete(thirdPartyMail).where(lt(thirdPartyMail.at, now - DAY_MS)).run()',
    to: '  db.delete(thirdPartyMail).where(lt(thirdPartyMail.at, now - HOUR_MS)).run()',
  },
  // ---- Account deletion, back office -------------------------------------------------------------
  {
    id: 'fresh3-deletion-before-grace',
    rule: 'An account the owner asked to delete goes only once its 7 days have passed (until then the owner can keep it)',
    file: 'worker/services/account-deletion.ts',
    from: '    .where(and(isNotNull(users.deletionRequestedAt), lte(users.deletionRequestedAt, now - DELETION_GRACE_MS)))',
    to: '    .where(and(isNotNull(users.deletionRequestedAt), lte(users.deletionRequestedAt, now + DELETION_GRACE_MS)))',
  },
  {
    id: 'fresh3-admin-export-unaudited',
    rule: "An administrator's export of an owner's vault is entered in that owner's own audit chain",
    file: 'worker/routes/admin.ts',
    from: "  await auditOwner(c.env, target.id, 'account.vault_exported', {}, 'system')\n",
    to: '',
  },
  // ---- Web crypto ---------------------------------------------------------------------------------
  {
    id: 'fresh3-web-aad-length-little-endian',
    rule: "A string field's length in the AAD is a big-endian uint32 (FORMAT.md): what the format's other readers and writers made still opens",
    file: 'web/crypto/aad.ts',
    from: '    new DataView(out.buffer).setUint32(1, bytes.length)',
    to: '    new DataView(out.buffer).setUint32(1, bytes.length, true)',
  },
  {
    id: 'fresh3-web-passphrase-not-normalised',
    rule: 'The same passphrase opens the vault however the keyboard composes its accents (NFC before PBKDF2)',
    file: 'web/crypto/master-key.ts',
    from: "utf8(passphrase.normalize('NFC'))",
    to: 'utf8(passphrase)',
  },
  {
    id: 'fresh3-web-empty-file-no-chunk',
    rule: 'Every file, even an empty one, is stored as exactly one chunk marked last, and opens again',
    file: 'web/crypto/content.ts',
    from: '  const count = Math.max(1, Math.ceil(data.length / chunkBytes))',
    to: '  const count = Math.ceil(data.length / chunkBytes)',
  },
  {
    id: 'fresh3-web-heir-backup-of-other-key',
    rule: "An heir's key backup can be made only of the key the vault holds for them (an older or another person's kit is refused)",
    file: 'web/crypto/heir-key-backup.ts',
    from: '  if (!(await privateKeyMatches(key, publicKeySpki))) throw new KeyMismatchError()\n  const pkcs8 = ',
    to: '  const pkcs8 = ',
  },
  // ---- Web: audit chain, the heir's checks, the portal --------------------------------------------
  {
    id: 'fresh3-web-broken-chain-resumed',
    rule: 'A chain found broken is read again from the start on the next visit, not resumed from where it broke',
    file: 'web/features/audit/chain.ts',
    from: '  const start = known && known.brokenAt === null && !known.unverifiable ? known : EMPTY_CHAIN',
    to: '  const start = known && !known.unverifiable ? known : EMPTY_CHAIN',
  },
  {
    id: 'fresh3-web-chain-one-page',
    rule: 'A chain longer than one page (1 000 entries) is read and verified whole',
    file: 'web/features/audit/chain.ts',
    from: '    if (page.length < AUDIT_PAGE_MAX || last <= cursor) return { entries, tip, brokenAt: null, unverifiable }',
    to: '    if (page.length <= AUDIT_PAGE_MAX || last <= cursor) return { entries, tip, brokenAt: null, unverifiable }',
  },
  {
    id: 'fresh3-web-seal-other-item',
    rule: "A seal states its item: another item's manifest (same type, size and metadata) does not seal this one",
    file: 'web/features/releases/seals.ts',
    from: '    manifest.itemId === item.id &&\n',
    to: '',
  },
  {
    id: 'fresh3-web-mismatch-opens-sealed',
    rule: "When the heir's kit names another vault key, nothing is opened, even items whose seal verifies with the key the site serves",
    file: 'web/features/releases/seals.ts',
    from: "  if (trust.kind === 'mismatch') return { state: 'refused' }\n",
    to: '',
  },
  {
    id: 'fresh3-web-unsealed-opens-unasked',
    rule: 'An unsealed item (an older kit) is opened only once the heir chooses to',
    file: 'web/features/releases/portal.ts',
    from: "  return seal.verdict.state === 'sealed' || (seal.verdict.state === 'unsealed' && seal.opened)",
    to: "  return seal.verdict.state === 'sealed' || seal.verdict.state === 'unsealed'",
  },
  {
    id: 'fresh3-web-exhausted-still-available',
    rule: 'An asset downloaded its 5 times shows as used up in the portal, not as downloadable',
    file: 'web/features/releases/portal.ts',
    from: "  if (asset.downloadCount >= asset.maxDownloads) return 'exhausted'",
    to: "  if (asset.downloadCount > asset.maxDownloads) return 'exhausted'",
  },
  // ---- Web: dashboard, billing, forms -------------------------------------------------------------
  {
    id: 'fresh3-web-released-not-started',
    rule: 'The dashboard says a release has started (not Protected) once a release has handed something over, not only while one waits',
    file: 'web/features/dashboard/view-model.ts',
    from: "  return releases?.some((r) => r.status === 'waiting' || r.status === 'released') ?? false",
    to: "  return releases?.some((r) => r.status === 'waiting') ?? false",
  },
  {
    id: 'fresh3-web-monitor-after-reminder',
    rule: 'The Inactivity Monitor row says Check-in due for as long as a check-in is awaited, after the reminder too',
    file: 'web/features/dashboard/view-model.ts',
    from: "  if (engine.data.phase !== 'ok') return { label, value: 'Check-in due', tone: 'warn', issue: 'Check-in due' }",
    to: "  if (engine.data.phase === 'checkin_sent') return { label, value: 'Check-in due', tone: 'warn', issue: 'Check-in due' }",
  },
  {
    id: 'fresh3-web-past-due-no-panel',
    rule: 'The account page shows the payment panel for a past-due subscription even when no unpaid invoice or grace date is known',
    file: 'web/features/billing/logic.ts',
    from: "  return !!account.paymentDue || !!account.paymentGraceUntil || account.subscription?.status === 'past_due'",
    to: '  return !!account.paymentDue || !!account.paymentGraceUntil',
  },
  {
    id: 'fresh3-web-impossible-release-date',
    rule: 'An impossible date (February 30th) as a scheduled release date is refused, not moved to another day',
    file: 'web/features/triggers/trigger-form.ts',
    from: '  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) return null',
    to: '  if (date.getFullYear() !== y || date.getHours() !== h || date.getMinutes() !== mi) return null',
  },
]
