// The eighth independent mutation pass (part "fresh8"): 40 realistic one-line bugs chosen from the
// docs and the product code alone (worker/, web/, contract/), without opening scripts/mutations.mjs,
// anything under test/, the NOTES-*.md files or docs/testing.md. The seven earlier fresh lists were
// read only to pick other lines and to copy their format. Weighted towards the promise (never
// before, never to the wrong person, never lost, a stolen session cannot change trust): half from
// files the earlier lists touched least (the owner object's vault keys and session check, the portal
// link facade, the engine routes and dry run, sign-in, access requests, the mail outbox, the estate
// page, key trust, the vault session, the heir's asset page, lapsed controls), half from the most
// important rules (the release engine's timing and approvals, the heir portal and downloads, key
// handling in the browser, sessions and trusted devices, billing's gate) on lines not used before.
// Run by scripts/fresh-mutate.mjs --list scripts/fresh-mutations-8.mjs. Entries are never changed
// after this list's commit; notes on them go in NOTES-fresh8.md.

export const FRESH = [
  // ---- Never before its time: the release engine ------------------------------------------------
  {
    id: 'fresh8-one-approval-counts-as-none',
    rule: 'A release that needs an approver waits for that approval; only a release that needs none goes without one',
    file: 'worker/engine/advance.ts',
    from: '  if (release.requiredApprovals === 0) return \'go\'',
    to: '  if (release.requiredApprovals <= 1) return \'go\'',
  },
  {
    id: 'fresh8-rejections-count-as-undecided',
    rule: 'Once too many approvers have refused for the required approvals to be reached, the release is rejected instead of waiting forever',
    file: 'worker/engine/advance.ts',
    from: '  const undecided = rows.filter((r) => r.decision === null).length',
    to: '  const undecided = rows.filter((r) => r.decision !== \'approved\').length',
  },
  {
    id: 'fresh8-fire-alarm-not-set-for-future-release',
    rule: 'A release due later wakes the owner\'s object at its time, so it is released when due and never lost',
    file: 'worker/engine/fire.ts',
    from: '  for (const p of plans) if (p.releaseAt > now) u.dueAt(p.releaseAt)',
    to: '  for (const p of plans) if (p.releaseAt < now) u.dueAt(p.releaseAt)',
  },
  {
    id: 'fresh8-fire-prior-status-swapped',
    rule: 'Cancelling a release puts its trigger back as it was before the firing: a paused trigger stays paused and does not re-arm',
    file: 'worker/engine/fire.ts',
    from: "  const priorStatus = trigger ? (trigger.status === 'paused' ? 'paused' : 'active') : null",
    to: "  const priorStatus = trigger ? (trigger.status === 'active' ? 'paused' : 'active') : null",
  },
  {
    id: 'fresh8-plan-single-item-ignores-deleted',
    rule: 'A deleted vault item is never released, including by its own scheduled release',
    file: 'worker/engine/plan.ts',
    from: '    const item = db.select().from(vaultItems).where(and(eq(vaultItems.id, input.onlyItemId), eq(vaultItems.status, \'active\'))).get()',
    to: '    const item = db.select().from(vaultItems).where(eq(vaultItems.id, input.onlyItemId)).get()',
  },
  {
    id: 'fresh8-plan-silence-a-day-short',
    rule: 'A protocol that waits a number of days after the last check-in releases no earlier than that many whole days',
    file: 'worker/engine/plan.ts',
    from: '? lastCheckInAt + days * DAY_MS : now',
    to: '? lastCheckInAt + (days - 1) * DAY_MS : now',
  },
  {
    id: 'fresh8-dry-run-drops-safety-window',
    rule: 'The dry run shows when a release would really go: after the safety window for an automatic trigger, at once only for a manual one or a schedule',
    file: 'worker/services/engine-monitor.ts',
    from: "    const safetyWindowMs = manual || trigger.type === 'scheduled' ? 0 : safetyWindowHours * HOUR_MS",
    to: "    const safetyWindowMs = manual || trigger.type !== 'scheduled' ? 0 : safetyWindowHours * HOUR_MS",
  },
  // ---- Approvals, death reports, renewals, access requests ---------------------------------------
  {
    id: 'fresh8-signoff-on-finished-release',
    rule: 'An approver can decide only on a release that is still waiting; a cancelled or finished release takes no decision',
    file: 'worker/services/release-links.ts',
    from: "  if (release?.status !== 'waiting') throw conflict(RELEASE_MESSAGES.releaseNotWaiting)",
    to: "  if (release?.status === 'cancelled') throw conflict(RELEASE_MESSAGES.releaseNotWaiting)",
  },
  {
    id: 'fresh8-death-link-opens-after-use',
    rule: 'A death-report link works once: after it is used (its nonce cleared) it reads as used, never as open again',
    file: 'worker/services/release-links.ts',
    from: '  if (approver.deathLinkNonce !== null && approver.deathLinkNonce === carried) return \'open\'',
    to: '  if (approver.deathLinkNonce === null || approver.deathLinkNonce === carried) return \'open\'',
  },
  {
    id: 'fresh8-renewal-by-unverified-approver',
    rule: 'Only an approver who confirmed their e-mail can answer a heir\'s renewal request',
    file: 'worker/services/renewals.ts',
    from: '    if (!approver?.emailVerifiedAt) throw badRequest(RENEWAL_MESSAGES.linkInvalid)',
    to: '    if (!approver) throw badRequest(RENEWAL_MESSAGES.linkInvalid)',
  },
  {
    id: 'fresh8-access-reask-counted-from-request',
    rule: 'After the owner refuses an access request, the requester may ask again only once the wait has passed since the refusal',
    file: 'worker/services/access-requests.ts',
    from: '    const again = (latest.decidedAt ?? latest.requestedAt) + ACCESS_REQUEST.reaskAfterMs\n    if (now < again)',
    to: '    const again = latest.requestedAt + ACCESS_REQUEST.reaskAfterMs\n    if (now < again)',
  },
  {
    id: 'fresh8-access-refuse-after-release',
    rule: 'The owner can refuse only a request still waiting; a released or approved request is not turned into a refusal',
    file: 'worker/services/access-requests.ts',
    from: "  if (row.status !== 'waiting') throw conflict(ACCESS_REQUEST_MESSAGES.notWaiting)\n  cancelReleases(",
    to: "  if (row.status === 'refused') throw conflict(ACCESS_REQUEST_MESSAGES.notWaiting)\n  cancelReleases(",
  },
  {
    id: 'fresh8-access-approver-policy-tag',
    rule: 'An approver may ask for access only under a policy that lets approvers ask',
    file: 'worker/services/access-requests.ts',
    from: "p.accessRequestBy.includes('approvers') &&",
    to: "p.accessRequestBy.includes('beneficiaries') &&",
  },
  // ---- Heir portal and downloads -----------------------------------------------------------------
  {
    id: 'fresh8-download-ticket-any-heir',
    rule: 'A download ticket serves only the asset and beneficiary it was made for',
    file: 'worker/routes/release-links.ts',
    from: '    if (link.subject !== `${assetId}:${id}`) throw forbidden(RELEASE_MESSAGES.linkInvalid)',
    to: '    if (!link.subject.startsWith(`${assetId}:`)) throw forbidden(RELEASE_MESSAGES.linkInvalid)',
  },
  {
    id: 'fresh8-portal-link-gap-flipped',
    rule: 'A heir gets at most one portal-link e-mail per ten minutes, however often it is asked for',
    file: 'worker/services/release-links-facade.ts',
    from: '    if (last !== undefined && now - last < PORTAL_LINK_GAP_MS) return false',
    to: '    if (last !== undefined && now - last > PORTAL_LINK_GAP_MS) return false',
  },
  {
    id: 'fresh8-identity-upload-empty-front',
    rule: 'An identity upload without a front image is refused',
    file: 'worker/routes/identity.ts',
    from: '  if (!(front instanceof File) || front.size === 0) throw',
    to: '  if (!(front instanceof File) || front.size < 0) throw',
  },
  // ---- Never lost: the vault's keys --------------------------------------------------------------
  {
    id: 'fresh8-vault-setup-twice-on-format-one',
    rule: 'A vault is set up once; setting it up again (any format) is refused so its keys are never overwritten',
    file: 'worker/owner/vault-keys.ts',
    from: '  if (vaultKeysOf(storage)) throw conflict(VAULT_MESSAGES.alreadySetUp)',
    to: '  if (vaultKeysOf(storage)?.vaultKey) throw conflict(VAULT_MESSAGES.alreadySetUp)',
  },
  {
    id: 'fresh8-stale-format-wrap-accepted',
    rule: 'A key wrapped by a browser still holding the vault\'s old key (before its move) is refused, so nothing is stored that the app could no longer open',
    file: 'worker/owner/vault-keys.ts',
    from: '  if (claimed !== undefined && claimed !== format) throw',
    to: '  if (claimed !== undefined && claimed > format) throw',
  },
  {
    id: 'fresh8-owner-confirmed-needs-both',
    rule: 'An owner counts as confirmed once their e-mail is verified (or the confirmation was recorded in their object)',
    file: 'worker/owner/unit.ts',
    from: '  return account.emailVerified || storage.kv.get<number>(OWNER_CONFIRMED_KEY) !== undefined',
    to: '  return account.emailVerified && storage.kv.get<number>(OWNER_CONFIRMED_KEY) !== undefined',
  },
  // ---- Sessions, sign-in and trusted devices -----------------------------------------------------
  {
    id: 'fresh8-any-browser-session-trusted',
    rule: 'Only a session from a browser the owner marked as trusted counts as a trusted device; a stolen session from another browser does not',
    file: 'worker/middleware/auth.ts',
    from: "    c.set('trustedDevice', session.trustedBrowser)",
    to: "    c.set('trustedDevice', session.trustedBrowser || session.browserId !== null)",
  },
  {
    id: 'fresh8-cancel-release-proof-as-trust',
    rule: 'Cancelling a release counts as a trusted device\'s use only from a trusted device, not from any session that proved its password',
    file: 'worker/routes/engine.ts',
    from: "c.req.valid('param').releaseId, c.var.trustedDevice === true)",
    to: "c.req.valid('param').releaseId, c.var.provedAt !== null)",
  },
  {
    id: 'fresh8-untrust-last-watched-allowed',
    rule: 'The last trusted browser watched by an active device-loss trigger cannot be untrusted',
    file: 'worker/routes/sessions.ts',
    from: '  if (!trusted) await assertNotLastWatched(',
    to: '  if (trusted) await assertNotLastWatched(',
  },
  {
    id: 'fresh8-session-touch-flipped',
    rule: 'A session\'s last use is recorded at most every few minutes, and recorded then, so a trusted device\'s use keeps the device-loss clock from running out',
    file: 'worker/owner/sessions.ts',
    from: '  const touched = (row.lastSeenAt ?? 0) + LAST_SEEN_EVERY_MS <= now',
    to: '  const touched = (row.lastSeenAt ?? 0) + LAST_SEEN_EVERY_MS >= now',
  },
  {
    id: 'fresh8-new-device-mail-inverted',
    rule: 'A sign-in from a browser new to the account tells the owner at once; a known browser does not',
    file: 'worker/routes/sign-in.ts',
    from: "  if (knownId === null) await tellOwner(c, user, 'new_device', { since: now })",
    to: "  if (knownId !== null) await tellOwner(c, user, 'new_device', { since: now })",
  },
  {
    id: 'fresh8-last-admin-may-delete',
    rule: 'The last administrator cannot delete their account',
    file: 'worker/services/account-deletion.ts',
    from: '  if ((admins?.n ?? 0) <= 1) throw conflict(ACCOUNT_DELETION_MESSAGES.lastAdmin)',
    to: '  if ((admins?.n ?? 0) < 1) throw conflict(ACCOUNT_DELETION_MESSAGES.lastAdmin)',
  },
  {
    id: 'fresh8-outbox-one-extra-attempt',
    rule: 'A mail that keeps failing is marked failed after the set number of attempts instead of being retried once more',
    file: 'worker/mail/outbox.ts',
    from: "        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',",
    to: "        status: attempts > MAX_ATTEMPTS ? 'failed' : 'pending',",
  },
  // ---- Web: the heir's portal and estate page ----------------------------------------------------
  {
    id: 'fresh8-web-unsealed-names-decrypted-unasked',
    rule: 'An unsealed item\'s name is decrypted only after the heir chose to open it anyway',
    file: 'web/features/releases/portal.ts',
    from: 'opened: openedUnsealed.has(asset.id) })) return',
    to: 'opened: !openedUnsealed.has(asset.id) })) return',
  },
  {
    id: 'fresh8-web-verified-heir-asked-again',
    rule: 'A heir whose identity is verified is not asked for an identity document again',
    file: 'web/features/releases/portal.ts',
    from: "  if (portal.identityStatus === 'verified') return 'none'",
    to: "  if (portal.identityStatus === 'rejected') return 'none'",
  },
  {
    id: 'fresh8-web-unsealed-download-unasked',
    rule: 'The heir\'s download of an item that is not sealed waits for the heir\'s choice to open it; a refused seal never opens',
    file: 'web/features/releases/assets-page.tsx',
    from: '    if (!seal || !mayOpen(seal)) return',
    to: "    if (!seal || (!mayOpen(seal) && seal.verdict.state !== 'unsealed')) return",
  },
  {
    id: 'fresh8-web-estate-other-owner-item',
    rule: 'The offline estate page opens only items sealed by this vault\'s owner',
    file: 'web/estate/open-estate.ts',
    from: "  if (verdict.state !== 'sealed' || verdict.manifest.ownerId !== vault.ownerId) return",
    to: "  if (verdict.state !== 'sealed') return",
  },
  {
    id: 'fresh8-web-heir-backup-after-release',
    rule: 'The heir key backup card is offered before a release, not once the heir\'s items are released',
    file: 'web/features/releases/heir-backup-card.tsx',
    from: '  if (!context.data || context.data.released) return null',
    to: '  if (!context.data || !context.data.released) return null',
  },
  {
    id: 'fresh8-web-approve-buttons-after-decision',
    rule: 'An approver sees Approve and Reject only while the release waits and they have not yet decided',
    file: 'web/features/releases/approve-release-page.tsx',
    from: "  const open = view.status === 'waiting' && view.yourDecision === null",
    to: "  const open = view.status === 'waiting' || view.yourDecision === null",
  },
  // ---- Web: keys in the browser ------------------------------------------------------------------
  {
    id: 'fresh8-web-key-changed-warning-hidden',
    rule: 'A heir key changed outside this browser is shown with a warning, so the owner does not grant to a swapped key',
    file: 'web/features/circle/key-trust.tsx',
    from: "  if (trust === 'changed') {",
    to: "  if (trust === 'changed' && confirming) {",
  },
  {
    id: 'fresh8-web-lock-broadcast-ignored',
    rule: 'Locking the vault in one tab locks it in every other tab of the browser',
    file: 'web/features/vault/vault-session.ts',
    from: "    if (event.data === 'lock' && key) clearLocal()",
    to: "    if (event.data === 'lock' && !key) clearLocal()",
  },
  {
    id: 'fresh8-web-signing-problem-inverted',
    rule: 'The vault reports a signing problem only when its signing key could not be opened; with a good key it seals items',
    file: 'web/features/vault/vault-session.ts',
    from: '    signingProblem = signed === null',
    to: '    signingProblem = signed !== null',
  },
  {
    id: 'fresh8-web-format-one-never-moves',
    rule: 'A format-1 vault moves to a vault key on unlock, so a later passphrase change or recovery code does not lose it',
    file: 'web/features/vault/vault-session.ts',
    from: '      if (!vault.vaultKey && moveToVaultKey && signed && signingWrap) {',
    to: '      if (vault.vaultKey && moveToVaultKey && signed && signingWrap) {',
  },
  {
    id: 'fresh8-web-recovery-code-check-inverted',
    rule: 'Only a recovery code that opens the vault moves on to choosing a new passphrase',
    file: 'web/features/vault/recovery/recover-with-code.tsx',
    from: '      if (await vaultSession.checkRecoveryCode(code, vault)) setAccepted(code)',
    to: '      if (!(await vaultSession.checkRecoveryCode(code, vault))) setAccepted(code)',
  },
  // ---- Web: sessions, devices and the lapsed owner's controls ------------------------------------
  {
    id: 'fresh8-web-sign-out-only-this-device',
    rule: 'Each other device is listed with its own Sign out button, so the owner can end a stolen session',
    file: 'web/features/sessions/sessions-card.tsx',
    from: '        {!session.current && (',
    to: '        {session.current && (',
  },
  {
    id: 'fresh8-web-lapsed-cannot-pause-active',
    rule: 'An owner whose plan lapsed can still pause each active trigger',
    file: 'web/components/layout/lapsed-controls.tsx',
    from: "  const active = (triggers.data ?? []).filter((t) => t.status === 'active')",
    to: "  const active = (triggers.data ?? []).filter((t) => t.status === 'paused')",
  },
  {
    id: 'fresh8-web-security-key-limit-off-by-one',
    rule: 'The Add Security Key button is disabled once the owner holds the maximum number of keys',
    file: 'web/features/security-keys/security-keys-card.tsx',
    from: 'list.length >= SECURITY_KEY.maxPerOwner',
    to: 'list.length > SECURITY_KEY.maxPerOwner',
  },
]
