// The ninth independent mutation pass (part "fresh9"): 40 realistic one-line bugs chosen from the
// docs and the product code alone (worker/, web/, contract/), without opening scripts/mutations.mjs,
// anything under test/, the NOTES-*.md files or docs/testing.md. The eight earlier fresh lists were
// read only to pick other lines and to copy their format. Half come from files the earlier lists
// touched least or not at all (the owner's object itself, the sweep, body limits and security
// headers, account deletion's grace, the Stripe webhook, the domain facades, the owner export, the
// contract's text and identity rules, e-mail dates, the browser's base64, search, export and estate
// helpers), half from the most important rules (never before its time, never to the wrong person,
// never lost; approvals, cancel scope, the heir portal and downloads, key handling in the browser,
// sessions, fresh proof and trusted devices, billing's gate, access requests, identity review) on
// lines not used before. Run by scripts/fresh-mutate.mjs --list scripts/fresh-mutations-9.mjs.
// Entries are never changed after this list's commit; notes on them go in NOTES-fresh9.md.

export const FRESH = [
  // ---- Never before its time ---------------------------------------------------------------------
  {
    id: 'fresh9-device-loss-fires-a-day-early',
    rule: 'A Loss of trusted devices trigger fires only once its days have passed without a trusted device used, never earlier',
    file: 'worker/engine/device-loss.ts',
    from: '    if (u.now >= at) fire(t)',
    to: '    if (u.now >= at - DAY_MS) fire(t)',
  },
  {
    id: 'fresh9-untrusted-browser-counts-as-trusted-use',
    rule: 'Only a browser the owner marked as trusted moves "last trusted use" forward; use from any other device does not hold off the Loss of trusted devices trigger',
    file: 'worker/host/vault-object.ts',
    from: '    if (check?.touched && check.trustedBrowser) {',
    to: '    if (check?.touched) {',
  },
  {
    id: 'fresh9-unlock-forgive-seconds-not-minutes',
    rule: 'A failed unlock waits 15 minutes for the owner\'s own successful unlock before it counts towards a Failed unlock attempts trigger',
    file: 'contract/triggers.ts',
    from: 'export const UNLOCK_FORGIVE_MS = 15 * 60_000',
    to: 'export const UNLOCK_FORGIVE_MS = 15 * 1000',
  },
  {
    id: 'fresh9-release-date-in-the-past-accepted',
    rule: 'A scheduled release date must lie in the future; a date already past is refused rather than releasing at once',
    file: 'contract/triggers.ts',
    from: '.refine((d) => Date.parse(d) > Date.now(), TRIGGER_MESSAGES.releaseDateFuture)',
    to: '.refine((d) => !Number.isNaN(Date.parse(d)), TRIGGER_MESSAGES.releaseDateFuture)',
  },
  {
    id: 'fresh9-safety-window-sooner-arguments-swapped',
    rule: 'Shortening the safety window brings releases sooner and needs fresh proof; lengthening it does not',
    file: 'worker/services/triggers-facade.ts',
    from: '        const sooner = windowIsSooner(before, hours)',
    to: '        const sooner = windowIsSooner(hours, before)',
  },
  {
    id: 'fresh9-sweep-waits-an-hour-for-lost-alarms',
    rule: 'The five-minute sweep wakes every owner whose due time passed more than a minute ago, so a lost alarm delays a release by minutes, not an hour',
    file: 'worker/engine/sweep.ts',
    from: '    .bind(now - LOST_AFTER_MS, OWNERS_PER_RUN)',
    to: '    .bind(now - LOST_AFTER_MS * 60, OWNERS_PER_RUN)',
  },

  // ---- Never to the wrong person: identity, approvals, cancel scope -------------------------------
  {
    id: 'fresh9-unverified-heir-gets-assets-without-identity',
    rule: 'When a release requires identity checks, an heir whose identity is not yet verified gets the items only after verification',
    file: 'worker/engine/advance.ts',
    from: "case when r.identity_required = 1 and b.identity_status != 'verified' then 'pending_identity' else 'available' end",
    to: "case when r.identity_required = 1 and b.identity_status = 'rejected' then 'pending_identity' else 'available' end",
  },
  {
    id: 'fresh9-identity-approvals-counted-across-documents',
    rule: 'A document is verified only by enough approvals of that document; approvals of other documents do not count',
    file: 'worker/services/identity.ts',
    from: ".where(and(eq(identityReviews.documentId, documentId), eq(identityReviews.status, 'approved')))",
    to: ".where(eq(identityReviews.status, 'approved'))",
  },
  {
    id: 'fresh9-id-file-sniffed-by-one-byte',
    rule: 'An identity document is taken only if its first bytes are exactly a JPEG, PNG or PDF signature',
    file: 'contract/identity.ts',
    from: 's.bytes.every((b, i) => head[i] === b)',
    to: 's.bytes.some((b, i) => head[i] === b)',
  },
  {
    id: 'fresh9-approval-link-email-keeps-colon',
    rule: 'An approver\'s e-mailed approval link opens and decides their own sign-off on that release',
    file: 'worker/routes/release-links.ts',
    from: '  return { releaseId: subject.slice(0, split), email: subject.slice(split + 1) }',
    to: '  return { releaseId: subject.slice(0, split), email: subject.slice(split) }',
  },
  {
    id: 'fresh9-untrusted-session-cancels-device-loss-release',
    rule: 'A release a Loss of trusted devices firing started can be cancelled from the monitor only by a trusted session',
    file: 'worker/services/triggers-facade.ts',
    from: "      if (!trusted && monitor.releaseFiringKind(this.h.db, releaseId) === 'device_loss')",
    to: "      if (trusted && monitor.releaseFiringKind(this.h.db, releaseId) === 'device_loss')",
  },
  {
    id: 'fresh9-untrusted-sign-in-counts-as-trusted',
    rule: 'A sign-in from an untrusted device does not stop what a Loss of trusted devices firing started',
    file: 'worker/host/vault-object.ts',
    from: "{ checkIn: true, via: 'sign-in', trusted }",
    to: "{ checkIn: true, via: 'sign-in', trusted: true }",
  },

  // ---- The heir portal, access requests, never lost ----------------------------------------------
  {
    id: 'fresh9-portal-link-gap-never-starts',
    rule: 'An heir gets at most one new portal link e-mail per ten minutes, however often they ask',
    file: 'worker/services/release-links-facade.ts',
    from: '    if (sent) this.h.storage.kv.put(key, now)',
    to: '    if (!sent) this.h.storage.kv.put(key, now)',
  },
  {
    id: 'fresh9-access-policy-activation-proof-inverted',
    rule: 'Activating a policy that turns on access on request needs fresh proof',
    file: 'worker/services/policies-facade.ts',
    from: '        if (armsRequests && !freshProof) throw needsFreshProof()',
    to: '        if (armsRequests && freshProof) throw needsFreshProof()',
  },
  {
    id: 'fresh9-owner-export-drops-vault-keys',
    rule: 'An owner export carries the vault\'s wrapped keys, so a restored vault can still be opened',
    file: 'worker/owner/export.ts',
    from: "'auditHead', 'vaultKeys', 'statementSequence'",
    to: "'auditHead', 'statementSequence'",
  },
  {
    id: 'fresh9-item-list-cache-never-stale',
    rule: 'The item list reflects every change: a new upload or a deletion shows at the next read',
    file: 'worker/services/vault-items-facade.ts',
    from: '      if (this.h.itemList?.changes === changes) return this.h.itemList.text',
    to: '      if (this.h.itemList) return this.h.itemList.text',
  },

  // ---- Sessions, fresh proof, account ------------------------------------------------------------
  {
    id: 'fresh9-sign-out-others-signs-out-self',
    rule: 'Sign out other devices ends every session but the current one',
    file: 'worker/routes/sessions.ts',
    from: '.revokeSessions(c.var.sessionId)',
    to: '.revokeSessions()',
  },
  {
    id: 'fresh9-any-past-proof-is-fresh',
    rule: 'A trust change needs proof given within the fresh-proof window; an older proof of the same session does not do',
    file: 'worker/middleware/fresh-proof.ts',
    from: '  if (hasFreshProof(c)) return',
    to: '  if (hasFreshProof(c) || c.var.provedAt !== null) return',
  },
  {
    id: 'fresh9-deletion-grace-hours-not-days',
    rule: 'An account set to be deleted is kept for seven days, during which the owner can keep it',
    file: 'contract/account-deletion.ts',
    from: 'DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000',
    to: 'DELETION_GRACE_DAYS * 60 * 60 * 1000',
  },
  {
    id: 'fresh9-json-body-limit-megabytes',
    rule: 'JSON API bodies larger than 16 KiB are refused with 413 before they are read',
    file: 'worker/middleware/body-limit.ts',
    from: 'export const jsonBodyLimit = limitBody(16 * 1024)',
    to: 'export const jsonBodyLimit = limitBody(16 * 1024 * 1024)',
  },
  {
    id: 'fresh9-referrer-leaks-token-links',
    rule: 'Every response sets Referrer-Policy: no-referrer, so token-bearing links never leak through a Referer header',
    file: 'worker/middleware/security-headers.ts',
    from: "    referrerPolicy: 'no-referrer',",
    to: "    referrerPolicy: 'strict-origin-when-cross-origin',",
  },
  {
    id: 'fresh9-names-take-invisible-characters',
    rule: 'Single-line fields such as full names refuse line separators and invisible characters that make two names look the same',
    file: 'contract/text.ts',
    from: "new Set(['description', 'verificationNotes', 'notes', 'reason'])",
    to: "new Set(['description', 'verificationNotes', 'notes', 'reason', 'fullName'])",
  },
  {
    id: 'fresh9-email-times-twelve-hour-clock',
    rule: 'E-mails show times on the 24-hour clock, to the second, so a 14:35 deadline is never read as 02:35',
    file: 'worker/mail/dates.ts',
    from: "    hourCycle: 'h23',",
    to: "    hourCycle: 'h12',",
  },

  // ---- Billing's gate ----------------------------------------------------------------------------
  {
    id: 'fresh9-unpaid-gets-403-not-402',
    rule: 'An owner without an active subscription gets 402 with requiresPayment, which sends the app to /subscribe',
    file: 'worker/middleware/subscription.ts',
    from: 'throw new ApiError(402, BILLING_MESSAGES.subscriptionRequired',
    to: 'throw new ApiError(403, BILLING_MESSAGES.subscriptionRequired',
  },
  {
    id: 'fresh9-stripe-paid-event-seconds-as-ms',
    rule: 'A Stripe invoice.paid event is applied when it arrives; only a resend older than the resend window is dropped as a duplicate',
    file: 'worker/routes/stripe-webhook.ts',
    from: 'if (once && event.created * 1000 < now - STRIPE_RESEND_MS)',
    to: 'if (once && event.created < now - STRIPE_RESEND_MS)',
  },
  {
    id: 'fresh9-stripe-cancel-check-inverted',
    rule: 'Cancelling a Stripe subscription sets it to end at the period\'s end; only one already set to end is refused',
    file: 'worker/billing/stripe.ts',
    from: '      if (user.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadyCancelling)',
    to: '      if (!user.cancelAtPeriodEnd) throw conflict(BILLING_MESSAGES.alreadyCancelling)',
  },

  // ---- web: key handling in the browser ----------------------------------------------------------
  {
    id: 'fresh9-web-vault-key-always-extractable',
    rule: 'The vault key unwrapped at unlock is non-extractable unless the caller asks for a re-wrap',
    file: 'web/crypto/vault-key.ts',
    from: 'wrapParams(iv), VAULT_KEY_ALGORITHM, extractable, VAULT_KEY_USAGES',
    to: 'wrapParams(iv), VAULT_KEY_ALGORITHM, true, VAULT_KEY_USAGES',
  },
  {
    id: 'fresh9-web-last-chunk-carries-stale-bytes',
    rule: 'A streamed file decrypts to exactly its own bytes: the last chunk holds only what is left of it',
    file: 'web/crypto/content.ts',
    from: '  yield await encryptChunk(dek, itemId, index, true, piece.subarray(0, filled))',
    to: '  yield await encryptChunk(dek, itemId, index, true, piece)',
  },
  {
    id: 'fresh9-web-base64-not-anchored',
    rule: 'Stored base64 is decoded strictly: unpadded or malformed text is refused as corruption',
    file: 'web/crypto/encoding.ts',
    from: 'const STRICT_BASE64 = /^(?:',
    to: 'const STRICT_BASE64 = /(?:',
  },
  {
    id: 'fresh9-web-metadata-kept-after-lock',
    rule: 'Decrypted file names and tags are dropped from memory as soon as the vault locks',
    file: 'web/features/vault/items/decrypt-items.ts',
    from: '      if (!vaultSession.isUnlocked()) queryClient.removeQueries({ queryKey: itemMetadataKeyRoot })',
    to: '      if (vaultSession.isUnlocked()) queryClient.removeQueries({ queryKey: itemMetadataKeyRoot })',
  },
  {
    id: 'fresh9-web-policy-grants-without-key-check',
    rule: 'Applying a policy wraps item keys only to beneficiary keys the vault has signed; an unsigned key stops it first',
    file: 'web/features/policies/apply.ts',
    from: '    await assertTrustedKeys(recipients)',
    to: '    void assertTrustedKeys(recipients)',
  },

  // ---- web: trusted devices, manual release, identity review, access requests --------------------
  {
    id: 'fresh9-web-trust-button-sends-wrong-verb',
    rule: '"Mark as trusted" marks the device trusted and "Stop trusting" stops trusting it',
    file: 'web/features/trusted-devices/trust-button.tsx',
    from: 'onClick={() => toggle.mutate(!trusted)}',
    to: 'onClick={() => toggle.mutate(trusted)}',
  },
  {
    id: 'fresh9-web-release-word-any-case',
    rule: 'The manual release is confirmed only when the owner types RELEASE exactly',
    file: 'web/features/triggers/manual-release.ts',
    from: 'typed.trim() === RELEASE_WORD',
    to: 'typed.trim().toUpperCase() === RELEASE_WORD',
  },
  {
    id: 'fresh9-web-reviewer-sees-form-again',
    rule: 'An approver who already reviewed a document, or whose document is decided, sees that instead of the review form',
    file: 'web/features/identity/review-page.tsx',
    from: "  if (view.data.alreadyReviewed || view.data.status !== 'pending') return <AlreadyDone",
    to: "  if (view.data.alreadyReviewed && view.data.status !== 'pending') return <AlreadyDone",
  },
  {
    id: 'fresh9-web-decided-request-offers-approve',
    rule: 'Approve now and Refuse are offered only for an access request still waiting',
    file: 'web/features/access-requests/requests-card.tsx',
    from: "{r.status === 'waiting' && (",
    to: "{r.status !== 'refused' && (",
  },
  {
    id: 'fresh9-web-key-failure-not-reported',
    rule: 'A security-key step that failed in the browser is reported to the server, so it counts as a failed attempt',
    file: 'web/features/security-keys/ceremonies.ts',
    from: '  return !(error instanceof ApiRequestError)',
    to: '  return error instanceof ApiRequestError',
  },

  // ---- web: export, estate, billing, search ------------------------------------------------------
  {
    id: 'fresh9-web-estate-bundle-without-offline-page',
    rule: 'The estate bundle is made only with the real offline page that opens it; any other answer stops the export',
    file: 'web/features/export/estate-owner.ts',
    from: 'if (!text.includes(`<title>${ESTATE_PAGE_TITLE}</title>`))',
    to: 'if (!res.ok && !text.includes(`<title>${ESTATE_PAGE_TITLE}</title>`))',
  },
  {
    id: 'fresh9-web-aborted-export-is-a-failure',
    rule: 'An export the owner cancelled ends as cancelled, not as a failure',
    file: 'web/features/export/run-export.ts',
    from: "    if (options.signal?.aborted || isAbortError(error)) return { kind: 'cancelled' }",
    to: "    if (options.signal?.aborted && isAbortError(error)) return { kind: 'cancelled' }",
  },
  {
    id: 'fresh9-web-past-due-banner-never-shown',
    rule: 'An owner whose renewal failed (past due) is shown the payment issue across the app',
    file: 'web/features/billing/payment-rules.ts',
    from: "  return user?.subscriptionStatus === 'past_due'",
    to: "  return user?.subscriptionStatus === 'unpaid'",
  },
  {
    id: 'fresh9-web-search-untagged-items-always-match',
    rule: 'Vault search shows only items whose file name or one of whose tags contains the text',
    file: 'web/features/vault/items/search.ts',
    from: 'metadata.tags.some((tag) => tag.toLowerCase().includes(needle))',
    to: 'metadata.tags.every((tag) => tag.toLowerCase().includes(needle))',
  },
]
