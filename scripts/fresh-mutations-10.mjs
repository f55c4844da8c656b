// The tenth independent mutation pass (part "fresh10"): 40 realistic one-line bugs chosen from the
// docs and the product code alone (worker/, web/, contract/), without opening scripts/mutations.mjs,
// anything under test/, the NOTES-*.md files or docs/testing.md. The nine earlier fresh lists were
// read only to pick other lines and to copy their format. Half come from files the earlier lists
// touched least or not at all (the contract's statements, recovery code, key move, heir backup and
// death-report rules, the domain facades, the channels routes, body validation, account billing, the
// owner export, the audit pages, the heir's renewal, cancel, identity and download-all screens), half
// from the most important rules (never before its time, never to the wrong person, never lost;
// approvals, cancel scope, the heir portal and downloads, key handling in the browser, sessions,
// fresh proof and trusted devices, billing's gate, access requests, identity review, the audit chain
// and signed statements, estate export) on lines not used before.
// Run by scripts/fresh-mutate.mjs --list scripts/fresh-mutations-10.mjs.
// Entries are never changed after this list's commit; notes on them go in NOTES-fresh10.md.

export const FRESH = [
  // ---- Never before its time, never lost ---------------------------------------------------------
  {
    id: 'fresh10-key-move-swept-after-minutes',
    rule: 'A vault key move left unfinished is swept only after 24 hours, not 24 minutes; until then it can be resumed with its staged wraps',
    file: 'contract/vault-key-move.ts',
    from: 'export const KEY_MOVE_TTL_MS = 24 * 60 * 60 * 1000',
    to: 'export const KEY_MOVE_TTL_MS = 24 * 60 * 1000',
  },
  {
    id: 'fresh10-check-in-cancels-spent-releases',
    rule: 'A check-in cancels only live releases: one whose items were all downloaded in full or have expired is not rewritten as cancelled',
    file: 'worker/engine/cancel.ts',
    from: 'where f.kind in (select value from json_each(${kinds})) and ${live(u.now)}`)',
    to: 'where f.kind in (select value from json_each(${kinds})) and r.status != \'cancelled\'`)',
  },
  {
    id: 'fresh10-cancel-link-says-cancelled-when-partly',
    rule: 'The cancel link says "already cancelled" only when every release of the firing was cancelled, not when some merely were',
    file: 'worker/engine/cancel.ts',
    from: "rows.every((r) => r.status === 'cancelled')",
    to: "rows.some((r) => r.status === 'cancelled')",
  },
  {
    id: 'fresh10-owner-export-drops-audit-chain',
    rule: 'The owner export (to move or restore a vault) holds every table of the vault, the audit chain included',
    file: 'worker/owner/export.ts',
    from: '  schema.auditEntries,\n',
    to: '',
  },
  {
    id: 'fresh10-audit-page-skips-first-entry',
    rule: 'Reading the audit chain from a sequence number (GET /api/audit?from=, the export walk) starts at that entry, not after it',
    file: 'worker/owner/audit-chain.ts',
    from: '.where(gte(auditEntries.seq, from))',
    to: '.where(gte(auditEntries.seq, from + 1))',
  },
  {
    id: 'fresh10-manifest-drops-first-grant',
    rule: 'The heir\'s check of a signed item manifest reads every grant line; a manifest naming the heir\'s grant is accepted as canonical',
    file: 'contract/vault-statements.ts',
    from: '  for (const line of lines.slice(7)) {',
    to: '  for (const line of lines.slice(8)) {',
  },
  // ---- Never to the wrong person: the heir portal and downloads ----------------------------------
  {
    id: 'fresh10-portal-identity-required-by-other-heir',
    rule: 'The portal asks an heir for identity only when an asset of their own waits on it, not when another heir\'s does',
    file: 'worker/services/release-links.ts',
    from: ".where(and(eq(releasedAssets.beneficiaryId, b.id), eq(releasedAssets.status, 'pending_identity')))",
    to: ".where(eq(releasedAssets.status, 'pending_identity'))",
  },
  {
    id: 'fresh10-download-count-not-ahead',
    rule: 'A download answer carries the count as it will be once this ticket\'s content is served (one more than before)',
    file: 'worker/services/release-links.ts',
    from: '    downloadCount: asset.downloadCount + 1,',
    to: '    downloadCount: asset.downloadCount,',
  },
  {
    id: 'fresh10-portal-link-gap-seconds',
    rule: 'An heir\'s "send me a new link" sends at most one e-mail per address per owner in 10 minutes, not 10 seconds',
    file: 'worker/services/release-links-facade.ts',
    from: 'const PORTAL_LINK_GAP_MS = 10 * 60_000',
    to: 'const PORTAL_LINK_GAP_MS = 10 * 1000',
  },
  {
    id: 'fresh10-renewal-can-ask-with-nobody-to-answer',
    rule: 'An heir can ask for more time only when someone can allow it; with no one able to answer, the portal offers no request',
    file: 'worker/services/renewals.ts',
    from: '    canAsk: needed && helpers.length > 0 && !waiting,',
    to: '    canAsk: needed && !waiting,',
  },
  {
    id: 'fresh10-renewal-refuser-can-approve-later',
    rule: 'A person who refused a renewal request has answered: their link cannot later approve it',
    file: 'worker/services/renewals.ts',
    from: '  if (request.refusedBy.includes(key)) throw conflict(RENEWAL_MESSAGES.alreadyAnswered)',
    to: "  if (request.refusedBy.includes(key) && decision === 'refused') throw conflict(RENEWAL_MESSAGES.alreadyAnswered)",
  },
  {
    id: 'fresh10-heir-backup-too-small-for-2048-bit-key',
    rule: 'An heir\'s passphrase backup of a 2048-bit key (about 2.4 kB of base64) is accepted',
    file: 'contract/heir-key-backup.ts',
    from: 'export const HEIR_BACKUP_MAX_CHARS = 8192',
    to: 'export const HEIR_BACKUP_MAX_CHARS = 2048',
  },
  // ---- Approvals, death reports, identity review -------------------------------------------------
  {
    id: 'fresh10-death-report-without-attestation',
    rule: 'An approver\'s death confirmation is refused unless they attest that they have seen the death certificate',
    file: 'contract/releases.ts',
    from: 'attest: z.literal(true, { error: RELEASE_MESSAGES.attestationRequired }),',
    to: 'attest: z.boolean({ error: RELEASE_MESSAGES.attestationRequired }),',
  },
  {
    id: 'fresh10-review-file-without-reviewer-check',
    rule: 'An identity document\'s file is shown through a review link only to a current, confirmed approver the link names',
    file: 'worker/services/identity-facade.ts',
    from: 'return identity.reviewerDocumentFile(this.h.db, documentId, approverId, side)',
    to: 'return identity.documentFile(this.h.db, documentId, side)',
  },
  // ---- Signed statements and key handling --------------------------------------------------------
  {
    id: 'fresh10-unsigned-beneficiary-change-accepted',
    rule: 'A change to what a beneficiary statement says (name, address, key) is refused unless the unlocked vault signed it',
    file: 'worker/services/circle-facade.ts',
    from: 'if (!signature || !(await verifyVaultSignature(signingKey, beneficiaryStatement({ ownerId: h.ownerId, ...stated }), signature))) {',
    to: 'if (signature && !(await verifyVaultSignature(signingKey, beneficiaryStatement({ ownerId: h.ownerId, ...stated }), signature))) {',
  },
  {
    id: 'fresh10-stale-rotation-not-a-conflict',
    rule: 'Starting a key rotation for a key version already replaced meanwhile is a 409 conflict, not a bad signature',
    file: 'worker/services/circle-facade.ts',
    from: 'if (key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)',
    to: 'if (key.replacesKeyVersion > current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)',
  },
  {
    id: 'fresh10-recovery-code-l-not-read-as-one',
    rule: 'A typed recovery code reads O as 0 and both I and L as 1, as Crockford\'s base32 does',
    file: 'contract/vault-recovery.ts',
    from: ".replace(/[IL]/g, '1')",
    to: ".replace(/I/g, '1')",
  },
  // ---- Sessions, fresh proof, trusted devices ----------------------------------------------------
  {
    id: 'fresh10-backup-address-fresh-proof-not-awaited',
    rule: 'Setting the backup address needs fresh proof: without it nothing is changed',
    file: 'worker/routes/channels.ts',
    from: "  .put('/backup', validate('json', backupEmailBodySchema), async (c) => {\n    await assertFreshProof(c)",
    to: "  .put('/backup', validate('json', backupEmailBodySchema), async (c) => {\n    void assertFreshProof(c).catch(() => undefined)",
  },
  {
    id: 'fresh10-untrusted-key-proof-counts-as-trusted-use',
    rule: 'Fresh proof with a security key counts as trusted use (holding off a Loss of trusted devices trigger) only when that key is marked as trusted',
    file: 'worker/services/fresh-proof.ts',
    from: 'if (outcome.key.trustedAt !== null) c.executionCtx.waitUntil(',
    to: 'if (outcome.key.trustedAt === null) c.executionCtx.waitUntil(',
  },
  {
    id: 'fresh10-single-key-not-offered-for-proof',
    rule: 'An owner with one security key is offered it as a way to give fresh proof',
    file: 'worker/services/fresh-proof.ts',
    from: "if ((await countKeys(db, userId)) > 0) methods.push('security_key')",
    to: "if ((await countKeys(db, userId)) > 1) methods.push('security_key')",
  },
  {
    id: 'fresh10-key-trust-change-reported-unchanged',
    rule: 'Marking an untrusted security key as trusted (or the reverse) changes it; only a request for the state it already has is "unchanged"',
    file: 'worker/services/trusted-devices.ts',
    from: "if ((key.trustedAt !== null) === trusted) return 'unchanged'",
    to: "if ((key.trustedAt !== null) !== trusted) return 'unchanged'",
  },
  {
    id: 'fresh10-untyped-body-accepted',
    rule: 'A request body that does not say it is JSON is refused with 415 (forms and plain text are what another site can post unasked)',
    file: 'worker/lib/validate.ts',
    from: 'const untyped = !type && c.req.raw.body !== null',
    to: 'const untyped = !type && c.req.raw.body === null',
  },
  // ---- Billing, access requests ------------------------------------------------------------------
  {
    id: 'fresh10-pay-invoice-always-says-paid',
    rule: 'Paying the open invoice says it was paid only when the charge went through; otherwise it says the payment is pending',
    file: 'worker/routes/account-billing.ts',
    from: 'message: paid ? BILLING_MESSAGES.paid : BILLING_MESSAGES.paymentPending,',
    to: 'message: paid !== undefined ? BILLING_MESSAGES.paid : BILLING_MESSAGES.paymentPending,',
  },
  {
    id: 'fresh10-access-request-window-in-days',
    rule: 'A requester is shown the owner\'s safety window in hours as set, not multiplied into days',
    file: 'worker/services/access-requests-facade.ts',
    from: 'safetyWindowHours(this.h.storage) * HOUR_MS)',
    to: 'safetyWindowHours(this.h.storage) * 24 * HOUR_MS)',
  },
  {
    id: 'fresh10-account-deletion-drops-everyones-pending-mail',
    rule: 'Deleting an account drops only the pending mail addressed to that owner; mail waiting for anyone else still goes out',
    file: 'worker/services/account-deletion.ts',
    from: "await db.delete(emailOutbox).where(and(toOwner, eq(emailOutbox.status, 'pending')))",
    to: "await db.delete(emailOutbox).where(eq(emailOutbox.status, 'pending'))",
  },
  {
    id: 'fresh10-identity-document-type-not-checked',
    rule: 'An identity document of a type the owner\'s policies do not accept is refused before anything is stored',
    file: 'worker/services/identity-facade.ts',
    from: '      identity.assertDocumentAccepted(this.h.db, beneficiaryId, fields.documentType)\n',
    to: '',
  },
  // ---- Web: the heir's browser -------------------------------------------------------------------
  {
    id: 'fresh10-web-asset-expired-before-its-date',
    rule: 'The heir\'s card shows a released asset as expired only once its date has passed',
    file: 'web/features/releases/portal.ts',
    from: 'if (asset.expiresAt && Date.parse(asset.expiresAt) <= now.getTime()) return \'expired\'',
    to: 'if (asset.expiresAt && Date.parse(asset.expiresAt) >= now.getTime()) return \'expired\'',
  },
  {
    id: 'fresh10-web-download-shape-checked-against-listing',
    rule: 'The heir\'s browser checks the item the download answer describes (type, size) against the vault\'s signed manifest, not the one listed earlier',
    file: 'web/features/releases/portal.ts',
    from: 'if (options.seal && !manifestStates(options.seal, download.item)) throw new ContentNotSealedError()',
    to: 'if (options.seal && !manifestStates(options.seal, asset.vaultItem)) throw new ContentNotSealedError()',
  },
  {
    id: 'fresh10-web-manifest-signature-not-awaited',
    rule: 'An item is shown as sealed only when the vault\'s signature over its manifest verifies',
    file: 'web/features/releases/seals.ts',
    from: 'if (!(await verifyStatement(vaultSigningKey, item.manifest!, item.manifestSignature))) return',
    to: 'if (!(verifyStatement(vaultSigningKey, item.manifest!, item.manifestSignature))) return',
  },
  {
    id: 'fresh10-web-content-digest-not-checked',
    rule: 'A downloaded file is completed only when its chunks\' content digest matches the sealed manifest',
    file: 'web/features/releases/seals.ts',
    from: 'if (digests.length !== manifest.chunkCount || contentDigestOf(digests) !== manifest.contentDigest) throw',
    to: 'if (digests.length !== manifest.chunkCount && contentDigestOf(digests) !== manifest.contentDigest) throw',
  },
  {
    id: 'fresh10-web-download-all-before-seals-checked',
    rule: 'The heir\'s "Download all" plans nothing until the seals have been checked',
    file: 'web/features/export/heir-download-all.tsx',
    from: 'const plan = privateKey && ready ? heirExportPlan(',
    to: 'const plan = privateKey ? heirExportPlan(',
  },
  {
    id: 'fresh10-web-identity-offers-refused-types',
    rule: 'The heir is offered only the identity document types the owner\'s policies accept',
    file: 'web/features/releases/identity-card.tsx',
    from: 'PAGE_DOCUMENT_TYPES.filter((t) => accepted.includes(t))',
    to: 'PAGE_DOCUMENT_TYPES.filter((t) => !accepted.includes(t))',
  },
  {
    id: 'fresh10-web-renewal-button-with-no-helper',
    rule: 'The portal offers "Ask for more time" only when the heir can ask (someone can answer and nothing waits)',
    file: 'web/features/releases/renewal-card.tsx',
    from: '      {renewal.canAsk && (',
    to: '      {renewal.needed && (',
  },
  {
    id: 'fresh10-web-renewal-answer-buttons-after-decision',
    rule: 'A renewal request already decided shows no Allow / Refuse buttons to the people asked',
    file: 'web/features/releases/approve-renewal-page.tsx',
    from: ") : view.status !== 'waiting' ? (",
    to: ") : view.status === 'refused' ? (",
  },
  // ---- Web: the owner's browser ------------------------------------------------------------------
  {
    id: 'fresh10-web-cancel-page-says-nothing-released-after-downloads',
    rule: 'The cancel link never says "nothing has been made available" when something was already downloaded',
    file: 'web/features/releases/cancel-release-page.tsx',
    from: '  } else if (view.downloaded.length === 0) {',
    to: '  } else {',
  },
  {
    id: 'fresh10-web-manifest-grant-not-hashed',
    rule: 'The item manifest the owner\'s vault signs names each grant by the SHA-256 of its wrapped key, as the server rebuilds it',
    file: 'web/features/vault/manifest.ts',
    from: 'wrappedKeyDigest: digestOfBase64(g.wrappedKey)',
    to: 'wrappedKeyDigest: g.wrappedKey',
  },
  {
    id: 'fresh10-web-stale-wraps-after-key-move',
    rule: 'After the vault moves to a vault key at unlock, what was fetched before (holding the old wraps) is fetched again',
    file: 'web/features/vault/vault-unlock-dialog.tsx',
    from: 'if (moved) void queryClient.invalidateQueries()',
    to: 'if (!moved) void queryClient.invalidateQueries()',
  },
  {
    id: 'fresh10-web-closing-proof-dialog-counts-as-proof',
    rule: 'Closing "Confirm it\'s you" without proving gives no fresh proof: the act that asked is not sent again',
    file: 'web/features/fresh-proof/fresh-proof-dialog.tsx',
    from: 'onOpenChange={(open) => !open && settleFreshProof(false)}',
    to: 'onOpenChange={(open) => !open && settleFreshProof(true)}',
  },
  {
    id: 'fresh10-web-empty-safety-window-saved-as-zero',
    rule: 'An empty safety window field is refused as not a whole number of hours, never saved as 0',
    file: 'web/features/settings/safety-window-card.tsx',
    from: "hours: value.trim() === '' ? Number.NaN : Number(value)",
    to: 'hours: Number(value)',
  },
  {
    id: 'fresh10-web-field-errors-not-shown',
    rule: 'The per-field messages of a 400 answer are shown beside the profile form\'s fields',
    file: 'web/features/profile/profile-form.ts',
    from: 'if (!(error instanceof ApiRequestError) || error.status !== 400) return {}',
    to: 'if (!(error instanceof ApiRequestError) || error.status >= 400) return {}',
  },
]
