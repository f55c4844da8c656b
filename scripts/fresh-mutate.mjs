#!/usr/bin/env node
// node scripts/fresh-mutate.mjs [--list scripts/fresh-mutations-2.mjs] [--only id,id] [--wide --files f,f] [--out file.json]
//
// The independent mutation passes (0.3 · 7 of 7, parts "fresh" and "fresh2"): each mutation of the
// list (--list, default scripts/fresh-mutations.mjs) is applied alone to a scratch copy of the working tree (node_modules
// linked, as scripts/mutate.mjs does) and counts as killed when ANY test fails, whatever its name:
//   1. the test files of its area (TESTS below);
//   2. if they all pass, the files that guard rules across areas (worker: promise-pins, the release model and the
//      security suite; web: every web-unit file that imports the changed module);
//   3. if those pass too, `tsc -b`: a type error counts as "killed by the compiler", apart.
// `--wide --files a,b` re-checks a survivor against the files given (the whole suite, or as much of
// it as time allows) instead of stages 1–2. Every vitest run is niced and stops at the first failure.
// Results go to --out (default /tmp/fresh-results.json) as they come, so a long pass can be read.

import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pathToFileURL } from 'node:url'
import { scratchCopy } from './lib/scratch-copy.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RUN_TIMEOUT_MS = 15 * 60_000
const args = process.argv.slice(2)
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null)
const { FRESH } = await import(pathToFileURL(join(ROOT, opt('--list') ?? 'scripts/fresh-mutations.mjs')).href)
const only = opt('--only') ? new Set(opt('--only').split(',')) : null
const wide = args.includes('--wide')
const OUT = opt('--out') ?? '/tmp/fresh-results.json'

const w = (...names) => names.map((n) => `test/worker/${n}.test.ts`)
const web = (...names) => names.map((n) => `test/web/${n}.test.ts`)
const e2e = (...names) => names.map((n) => `test/e2e/${n}.test.ts`)
const CROSS_WORKER = w('promise-pins', 'security-suite', 'release-model', 'documented-numbers')

/** The area's test files for each mutation (chosen after the list was committed). */
const TESTS = {
  'fresh-clock-grace-from-due': w('release-engine', 'release-model'),
  'fresh-unlock-fires-at-threshold': w('failed-unlocks'),
  'fresh-plan-policy-skips-window': w('safety-window', 'release-model'),
  'fresh-fire-paused-fires': w('triggers', 'release-engine'),
  'fresh-fire-secrecy-mode': w('beneficiaries', 'release-engine', 'release-model'),
  'fresh-cancel-checkin-cancels-access-request': w('access-requests', 'safety-window'),
  'fresh-cancel-withdrawn-mail-untold': w('release-model', 'release-engine'),
  'fresh-advance-one-more-approval': w('release-engine', 'approvers'),
  'fresh-identity-unverified-reviewer': w('identity'),
  'fresh-access-approve-scope': w('access-requests'),
  'fresh-renewal-keeps-count': w('renewals'),
  'fresh-renewal-one-refusal-ends': w('renewals'),
  'fresh-proof-an-hour': w('fresh-proof'),
  'fresh-proof-all-sessions': w('fresh-proof', 'sessions'),
  'fresh-proof-key-removal': w('fresh-proof', 'security-keys'),
  'fresh-sooner-create-default': w('fresh-proof', 'triggers'),
  'fresh-proof-foreign-key': w('fresh-proof'),
  'fresh-signin-password-clears-code-failures': w('authenticator'),
  'fresh-reset-older-links-live': w('password-reset'),
  'fresh-reset-keeps-sessions': w('password-reset'),
  'fresh-totp-replay': w('authenticator'),
  'fresh-dunning-ended-grace-running': w('stripe-payments', 'billing'),
  'fresh-dunning-older-paid-ends': w('stripe-payments'),
  'fresh-stripe-first-invoice-grace': w('stripe-payments', 'stripe-billing'),
  'fresh-grace-never-ends': w('billing-lapsed', 'stripe-payments'),
  'fresh-link-any-purpose': w('links', 'link-privacy'),
  'fresh-link-verify-ttl': w('links'),
  'fresh-login-no-limit': w('rate-limits', 'auth-register-login'),
  'fresh-session-revoke-scope': w('sessions'),
  'fresh-download-other-heir': w('release-engine', 'release-model'),
  'fresh-audit-batch-prev': w('audit-chain-pages'),
  'fresh-upload-item-limit': w('vault-limits'),
  'fresh-usage-uploading-not-counted': w('vault-limits', 'vault-uploads'),
  'fresh-download-six': w('release-engine', 'release-model'),
  'fresh-readiness-unverified-approvers': w('readiness'),
  'fresh-mail-limit-case': w('mail-limits'),
  'fresh-invite-unsubscribed': w('beneficiaries', 'links'),
  'fresh-web-idle-lock-hours': web('vault-key', 'vault-passphrase'),
  'fresh-web-metadata-aad-item': web('crypto'),
  'fresh-web-can-cancel-twice': web('billing-logic'),
  // Second pass (scripts/fresh-mutations-2.mjs), chosen after that list was committed.
  'fresh2-web-recovery-wrap-purpose': web('recovery-code', 'vault-key'),
  'fresh2-web-envelope-old-version': web('crypto', 'crypto-content'),
  'fresh2-web-stream-truncated': web('crypto-content', 'crypto', 'stream-save'),
  'fresh2-web-heir-backup-other-person': web('heir-key-backup'),
  'fresh2-web-weak-rsa-key': web('crypto-beneficiary', 'crypto'),
  'fresh2-web-fingerprint-half': web('crypto-beneficiary', 'access-kit', 'format-vectors'),
  'fresh2-web-kit-one-fingerprint-enough': web('releases-seals', 'releases-portal'),
  'fresh2-web-manifest-size-unchecked': web('releases-seals', 'releases-portal'),
  'fresh2-web-unsealed-with-kit': web('releases-seals', 'releases-portal'),
  'fresh2-web-chain-head-removed': web('audit-log', 'dashboard-view-model'),
  'fresh2-web-wrap-for-unconfirmed-key': web('trusted-keys'),
  'fresh2-web-checkin-days-floor': web('dashboard-view-model'),
  'fresh2-web-protected-with-warnings': web('dashboard-view-model'),
  'fresh2-web-passphrase-twelve': web('vault-passphrase', 'passphrase-guessing'),
  'fresh2-signin-device-of-other-account': w('rate-limits', 'trusted-devices', 'auth-register-login'),
  'fresh2-notme-other-owners-keys': w('trust-mail'),
  'fresh2-notme-older-authenticator': w('trust-mail', 'authenticator'),
  'fresh2-recovery-code-twice': w('authenticator'),
  'fresh2-confirm-link-old-address': w('owner-email-confirmation', 'links'),
  'fresh2-trusted-last-paused-watch': w('trusted-devices'),
  'fresh2-device-loss-armed-today': w('trusted-devices', 'triggers'),
  'fresh2-death-report-before-arming': w('release-engine', 'release-cancel', 'release-model'),
  'fresh2-cancel-untrusted-checkin-device-loss': w('trusted-devices', 'release-cancel'),
  'fresh2-notice-to-unsubscribed-heir': w('release-engine', 'links', 'beneficiaries'),
  'fresh2-advance-rejects-too-early': w('approvals', 'release-engine'),
  'fresh2-advance-deleted-item-handed-over': w('release-engine', 'release-model', 'audit-acts'),
  'fresh2-signoff-changes-answer': w('approvals', 'release-engine'),
  'fresh2-approver-invite-before-confirmed': w('owner-email-confirmation', 'approvers'),
  'fresh2-access-request-while-approved': w('access-requests'),
  'fresh2-access-reask-a-day': w('access-requests', 'time-windows'),
  'fresh2-renewal-withdrawn-renewed': w('renewals'),
  'fresh2-download-ticket-hours': w('release-engine', 'release-model', 'time-windows'),
  'fresh2-mail-limit-one-more': w('mail-limits', 'time-windows'),
  'fresh2-upload-during-payment-issue': w('stripe-payments', 'billing', 'vault-uploads'),
  'fresh2-paused-account-usable': w('admin', 'billing'),
  'fresh2-stripe-same-second-event': w('stripe-payments', 'stripe-billing'),
  'fresh2-failure-of-paid-invoice': w('stripe-payments', 'stripe-billing'),
  'fresh2-readiness-enough-approvers': w('readiness'),
  'fresh2-audit-keys-unsorted': [...w('audit-chain-pages', 'audit-acts'), ...web('audit-log')],
  'fresh2-admin-deletes-self': w('admin', 'account-deletion'),
  // Third pass (scripts/fresh-mutations-3.mjs), chosen after that list was committed.
  'fresh3-signer-removal-zero-approvals': w('release-engine', 'approvers', 'approvals'),
  'fresh3-plan-unverified-signers': w('release-engine', 'approvals', 'release-model'),
  'fresh3-item-protocol-skips-window': w('safety-window', 'release-model', 'release-engine'),
  'fresh3-cancel-scheduled-date-passed': w('release-cancel', 'triggers', 'release-engine'),
  'fresh3-clock-one-day-grace-reminder': w('release-engine', 'time-windows'),
  'fresh3-unlock-failures-before-arming': w('failed-unlocks'),
  'fresh3-unlock-success-forgives-all': w('failed-unlocks'),
  'fresh3-advance-removed-grant-handed-over': w('release-engine', 'release-model', 'release-reach'),
  'fresh3-identity-one-more-approval': w('identity'),
  'fresh3-access-wait-skips-window': w('access-requests', 'safety-window'),
  'fresh3-access-policy-not-naming-heir': w('access-requests'),
  'fresh3-access-request-releases-to-all': w('access-requests'),
  'fresh3-renewal-owner-refusal-waits': w('renewals'),
  'fresh3-death-link-reusable': w('release-engine', 'links', 'readiness'),
  'fresh3-reset-link-a-day': w('password-reset', 'link-privacy'),
  'fresh3-fresh-proof-wrong-password-free': w('fresh-proof', 'rate-limits'),
  'fresh3-signin-authenticator-skipped': w('authenticator', 'auth-register-login'),
  'fresh3-notme-browsers-still-known': w('trust-mail', 'rate-limits', 'trusted-devices'),
  'fresh3-notme-keeps-deletion': w('trust-mail', 'deletion-freeze', 'account-deletion'),
  'fresh3-settle-other-owners-issue': w('stripe-payments', 'stripe-billing'),
  'fresh3-failure-other-subscription': w('stripe-payments', 'stripe-billing'),
  'fresh3-upload-storage-without-new-file': w('vault-limits', 'vault-uploads'),
  'fresh3-emergency-not-manual': [...w('readiness', 'release-model', 'release-engine'), ...web('vault-items-form', 'policies-upload')],
  'fresh3-third-party-mail-forgotten-hourly': w('mail-limits', 'time-windows'),
  'fresh3-deletion-before-grace': w('account-deletion', 'deletion-freeze'),
  'fresh3-admin-export-unaudited': w('admin', 'vault-export'),
  'fresh3-web-aad-length-little-endian': web('format-vectors', 'crypto'),
  'fresh3-web-passphrase-not-normalised': web('crypto', 'vault-key', 'vault-passphrase'),
  'fresh3-web-empty-file-no-chunk': web('crypto-content', 'crypto'),
  'fresh3-web-heir-backup-of-other-key': web('heir-key-backup'),
  'fresh3-web-broken-chain-resumed': web('audit-log'),
  'fresh3-web-chain-one-page': web('audit-log'),
  'fresh3-web-seal-other-item': web('releases-seals', 'releases-portal'),
  'fresh3-web-mismatch-opens-sealed': web('releases-seals', 'releases-portal'),
  'fresh3-web-unsealed-opens-unasked': web('releases-portal', 'releases-seals'),
  'fresh3-web-exhausted-still-available': web('releases-portal'),
  'fresh3-web-released-not-started': web('dashboard-view-model'),
  'fresh3-web-monitor-after-reminder': web('dashboard-view-model'),
  'fresh3-web-past-due-no-panel': web('billing-logic'),
  'fresh3-web-impossible-release-date': web('triggers-form'),
  // The fourth pass (fresh-mutations-4.mjs), chosen after that list's commit.
  'fresh4-tick-payment-grace-not-held': w('engine-interactions', 'release-engine', 'billing-lapsed'),
  'fresh4-tick-paused-triggers-fire': w('triggers', 'release-engine'),
  'fresh4-tick-scheduled-item-wrong-date': w('release-engine', 'triggers'),
  'fresh4-fire-window-swapped': w('safety-window', 'release-engine'),
  'fresh4-advance-due-by-creation': w('release-engine', 'safety-window'),
  'fresh4-advance-rejection-counts-as-approval': w('approvals', 'release-engine'),
  'fresh4-advance-verified-heir-not-told': w('identity', 'release-engine'),
  'fresh4-unlock-failure-counted-before-forgiving-time': w('failed-unlocks'),
  'fresh4-clock-grace-from-due-not-sent': w('release-engine', 'time-windows'),
  'fresh4-identity-decided-document-reviewed-again': w('identity'),
  'fresh4-access-unverified-approver-may-ask': w('access-requests'),
  'fresh4-access-latest-request-any-requester': w('access-requests'),
  'fresh4-renewal-cancelled-death-counts': w('renewals'),
  'fresh4-stripe-abandoned-subscription-takes-over': w('stripe-billing', 'stripe-payments'),
  'fresh4-dunning-reminder-window-sign': w('stripe-payments', 'billing'),
  'fresh4-admin-extend-from-lapsed-end': w('admin', 'stripe-payments'),
  'fresh4-mail-daily-limit-counts-hour': w('mail-limits', 'time-windows'),
  'fresh4-frozen-account-cannot-be-kept': w('deletion-freeze', 'account-deletion'),
  'fresh4-fresh-proof-code-ignores-hold': w('fresh-proof', 'authenticator'),
  'fresh4-sign-in-guard-extra-free-failure': w('rate-limits', 'auth-register-login'),
  'fresh4-trusted-browsers-unfiltered': w('trusted-devices'),
  'fresh4-audit-head-hash-unchecked': w('audit-chain-pages', 'audit-acts'),
  'fresh4-download-grant-of-another-heir': w('links', 'release-reach'),
  'fresh4-portal-link-any-beneficiary': w('links', 'link-privacy'),
  'fresh4-deletion-last-admin-counts-leaving-admins': w('account-deletion', 'admin'),
  'fresh4-completion-counts-own-upload': w('vault-limits', 'vault-uploads'),
  'fresh4-web-toast-with-status-prefix': web('api-client'),
  'fresh4-web-retry-after-proof-failure-ignored': web('api-client'),
  'fresh4-web-guard-status-not-access': e2e('billing-stripe'),
  'fresh4-web-direct-grant-flag-inverted': web('vault-items-upload', 'policies-upload'),
  'fresh4-web-part-chunk-index-off-by-one': web('vault-items-upload', 'manifest-format'),
  'fresh4-web-resume-does-not-skip-received': web('releases-download', 'stream-save'),
  'fresh4-web-failed-save-kept': web('releases-download', 'stream-save'),
  'fresh4-web-signing-key-extractable': web('crypto-signing'),
  'fresh4-web-refused-seal-downloadable': web('releases-portal', 'releases-seals'),
  'fresh4-web-earliest-shorter-of-two': web('triggers-earliest'),
  'fresh4-web-readiness-warnings-first': web('dashboard-view-model'),
  'fresh4-web-dry-run-verified-heir-flagged': web('triggers-dry-run'),
  'fresh4-web-plan-end-label-swapped': web('billing-logic'),
  'fresh4-web-approver-contact-loose-email': web('vault-items-form'),
  // The fifth pass (fresh-mutations-5.mjs), chosen after that list's commit.
  'fresh5-plan-approver-policy-needs-no-approval': w('approvals', 'release-engine', 'policies'),
  'fresh5-plan-access-request-releases-all-heirs': w('access-requests'),
  'fresh5-unlock-warning-one-failure-late': w('failed-unlocks'),
  'fresh5-cancel-rearm-status-swapped': w('release-cancel', 'triggers', 'release-engine'),
  'fresh5-death-links-to-unverified-approvers': w('release-engine', 'approvers', 'links'),
  'fresh5-session-expiry-ignored': w('sessions', 'auth-session', 'one-hop'),
  'fresh5-signin-untrusted-counts-as-trusted-use': w('trusted-devices', 'auth-register-login'),
  'fresh5-profile-2fa-off-without-fresh-proof': w('profile', 'fresh-proof', 'authenticator'),
  'fresh5-passkey-counter-not-increasing-accepted': w('security-keys'),
  'fresh5-beneficiary-plan-limit-off-by-one': w('beneficiaries', 'vault-limits'),
  'fresh5-key-statement-same-sequence-replayed': w('key-signing', 'statements', 'beneficiaries'),
  'fresh5-policy-unknown-beneficiary-accepted': w('policies'),
  'fresh5-heir-key-backup-for-old-key-served': w('heir-key-backup'),
  'fresh5-backup-link-hourly-limit-off-by-one': w('channels', 'mail-limits'),
  'fresh5-backup-link-verifies-another-address': w('channels'),
  'fresh5-mail-daily-third-party-limit-off-by-one': w('mail-limits', 'time-windows'),
  'fresh5-asset-exhausted-status-off-by-one': w('release-engine', 'links'),
  'fresh5-ticket-reused-for-another-asset': w('release-engine', 'links'),
  'fresh5-renewal-not-offered-at-download-limit': w('renewals'),
  'fresh5-identity-unverified-approver-reviews': w('identity'),
  'fresh5-webhook-replay-window-hours': w('stripe-billing', 'stripe-payments', 'channels'),
  'fresh5-sweep-ends-uncancelled-subscriptions': w('billing', 'billing-lapsed'),
  'fresh5-invoice-fixed-discount-in-cents': w('billing', 'stripe-billing'),
  'fresh5-admin-deletes-used-promo': w('admin', 'billing'),
  'fresh5-admin-refunded-total-counts-failed': w('admin'),
  'fresh5-audit-page-repeats-boundary-entry': w('audit-chain-pages', 'audit-acts'),
  'fresh5-web-vault-key-wrap-wrong-purpose': web('vault-key', 'vault-key-format', 'format-vectors'),
  'fresh5-web-new-heir-old-statement-trusted': web('trusted-keys'),
  'fresh5-web-bad-signature-shown-unconfirmed': web('trusted-keys'),
  'fresh5-web-heir-backup-confirmation-length-only': web('heir-key-backup', 'releases-portal'),
  'fresh5-web-short-download-saved-whole': web('stream-save'),
  'fresh5-web-estate-folder-holds-others-items': web('estate-bundle'),
  'fresh5-web-policy-covers-items-without-wraps': web('policies-grants'),
  'fresh5-web-access-request-without-who': web('policies-selectors'),
  'fresh5-web-item-without-heir-allowed': web('vault-items-form'),
  'fresh5-web-fresh-proof-never-asked': web('api-client'),
  'fresh5-web-dashboard-single-warning-hidden': web('dashboard-view-model'),
  'fresh5-web-upgrade-hidden-without-subscription': web('billing-logic'),
  'fresh5-web-portal-identity-step-hidden': web('releases-portal'),
  'fresh5-web-audit-group-filter-wrong-field': web('audit-log'),
  // Sixth pass (scripts/fresh-mutations-6.mjs), chosen after that list was committed.
  'fresh6-fresh-proof-window-in-seconds': w('fresh-proof'),
  'fresh6-session-trust-browser-without-proof': w('trusted-devices', 'fresh-proof', 'sessions'),
  'fresh6-passkey-register-without-proof': w('security-keys', 'fresh-proof'),
  'fresh6-beneficiary-delete-without-proof': w('beneficiaries', 'fresh-proof'),
  'fresh6-recovery-code-without-proof': w('vault-recovery', 'fresh-proof'),
  'fresh6-access-request-approve-without-proof': w('access-requests', 'fresh-proof'),
  'fresh6-emergency-alerts-toggle-no-proof': w('channels', 'fresh-proof', 'trust-mail'),
  'fresh6-last-watched-device-count-off-by-one': w('trusted-devices'),
  'fresh6-passkey-challenge-expiry-ignored': w('security-keys'),
  'fresh6-passkey-challenge-any-purpose': w('security-keys', 'fresh-proof'),
  'fresh6-passkey-rename-any-owner': w('security-keys'),
  'fresh6-passkey-last-key-removable-with-2fa': w('security-keys'),
  'fresh6-passkey-sign-in-paused-account': w('security-keys', 'admin'),
  'fresh6-authenticator-wrong-code-not-counted': w('authenticator', 'rate-limits'),
  'fresh6-authenticator-hold-known-browser': w('authenticator', 'rate-limits'),
  'fresh6-heir-backup-after-release': w('heir-key-backup'),
  'fresh6-heir-backup-any-key-version': w('heir-key-backup'),
  'fresh6-verify-link-old-nonce': w('links', 'beneficiaries'),
  'fresh6-secrecy-mode-shows-relationship': w('beneficiaries', 'links', 'link-privacy'),
  'fresh6-access-request-other-heirs-link': w('access-requests'),
  'fresh6-identity-smallest-minimum': w('identity'),
  'fresh6-identity-approve-unaccepted-type': w('identity'),
  'fresh6-withdrawn-asset-served-to-used-ticket': w('release-cancel', 'release-engine'),
  'fresh6-rotation-grants-wrong-items': w('key-rotation', 'key-rotation-pages'),
  'fresh6-change-mail-before-owner-confirmed': w('owner-email-confirmation', 'beneficiaries', 'trust-mail'),
  'fresh6-readiness-past-schedule-protects': w('readiness'),
  'fresh6-web-seal-stale-key-version': web('vault-seal-items'),
  'fresh6-web-seal-untrusted-keys': web('vault-seal-items', 'trusted-keys'),
  'fresh6-web-tag-match-case-sensitive': web('policies-selectors'),
  'fresh6-web-tag-match-needs-all-tags': web('policies-selectors'),
  'fresh6-web-paused-policy-adds-recipients': web('policies-upload'),
  'fresh6-web-coverage-some-items': web('policies-upload'),
  'fresh6-web-identity-reviewers-paused-policy': web('identity-reviewers'),
  'fresh6-web-identity-rejections-count': web('identity-reviewers'),
  'fresh6-web-one-file-too-many': web('vault-items-upload', 'vault-items-form'),
  'fresh6-web-different-file-dropped-as-duplicate': web('vault-items-upload', 'vault-items-form'),
  'fresh6-web-guessing-unavailable-passes': web('passphrase-guessing'),
  'fresh6-web-heir-export-unverified-seal': web('vault-export'),
  'fresh6-web-zip-names-case-collide': web('vault-export'),
  'fresh6-web-zip-opens-left-out-item': web('vault-export'),
  // Seventh pass (scripts/fresh-mutations-7.mjs), chosen after that list was committed.
  'fresh7-key-move-commits-with-one-missing': w('vault-key-move'),
  'fresh7-key-move-sweep-flipped': w('vault-key-move', 'vault-sweep'),
  'fresh7-upload-reserved-before-move-accepted': w('vault-key-move', 'vault-uploads'),
  'fresh7-backup-address-before-verified': w('channels'),
  'fresh7-emergency-contact-without-opt-in': w('channels'),
  'fresh7-heir-index-delete-other-owners': w('beneficiaries', 'approvers'),
  'fresh7-held-invitations-past-address-limit': w('mail-limits', 'owner-email-confirmation'),
  'fresh7-approver-link-wrong-purpose': w('links', 'approvers'),
  'fresh7-paused-account-gets-reset-link': w('password-reset'),
  'fresh7-confirmation-links-past-hourly-limit': w('owner-email-confirmation', 'time-windows'),
  'fresh7-weak-beneficiary-key-accepted': w('beneficiaries'),
  'fresh7-new-sign-in-ends-other-sessions': w('sessions', 'auth-session'),
  'fresh7-session-lifetime-units': w('auth-session', 'sessions'),
  'fresh7-sign-in-ticket-any-audience': w('security-keys', 'authenticator'),
  'fresh7-frozen-account-cannot-sign-out-others': w('deletion-freeze', 'sessions'),
  'fresh7-shorter-frequency-without-proof': w('fresh-proof', 'ping-settings'),
  'fresh7-deletion-keeps-requesting-session': w('account-deletion', 'deletion-freeze'),
  'fresh7-passphrase-change-without-proof': w('vault-passphrase-change', 'fresh-proof'),
  'fresh7-not-me-link-undoes-nothing': w('trust-mail'),
  'fresh7-password-change-removes-other-owners-keys': w('profile', 'security-keys'),
  'fresh7-access-request-on-owner-not-told': w('access-requests', 'policies'),
  'fresh7-unpaid-may-arm-not-stop': w('billing', 'billing-lapsed'),
  'fresh7-activate-trigger-without-plan': w('billing-lapsed', 'triggers'),
  'fresh7-incomplete-subscription-counts-as-paid': w('billing', 'stripe-billing'),
  'fresh7-second-deletion-request-moves-date': w('account-deletion'),
  'fresh7-approver-resend-flipped': w('approvers'),
  'fresh7-web-key-move-resume-uses-new-key': web('key-move'),
  'fresh7-web-data-key-unwrapped-not-extractable': web('crypto-content', 'crypto'),
  'fresh7-web-pbkdf2-iterations': web('crypto', 'format-vectors'),
  'fresh7-web-kit-vault-line-wrong-fingerprint': web('access-kit'),
  'fresh7-web-policy-without-tags-covers-nothing': web('policies-selectors'),
  'fresh7-web-portal-mismatch-on-one-failure': web('releases-portal'),
  'fresh7-web-proof-dialog-single-method': web('api-client'),
  'fresh7-web-upload-exact-limit-refused': web('vault-items-upload', 'vault-items-form'),
  'fresh7-web-id-document-exact-limit-refused': web('identity-files'),
  'fresh7-web-death-form-today-month': web('releases-portal'),
  'fresh7-web-audit-csv-quotes': web('audit-log'),
  'fresh7-web-invoice-paid-shows-due': web('billing-logic'),
  'fresh7-web-dashboard-errors-read-as-warnings': web('dashboard-view-model'),
  'fresh7-web-refund-exact-maximum-refused': web('admin-logic'),
  // Eighth pass (scripts/fresh-mutations-8.mjs), chosen after that list was committed.
  'fresh8-one-approval-counts-as-none': w('approvals', 'release-engine'),
  'fresh8-rejections-count-as-undecided': w('approvals', 'release-engine'),
  'fresh8-fire-alarm-not-set-for-future-release': w('release-engine', 'safety-window'),
  'fresh8-fire-prior-status-swapped': w('release-cancel', 'release-engine'),
  'fresh8-plan-single-item-ignores-deleted': w('release-engine', 'release-model'),
  'fresh8-plan-silence-a-day-short': w('release-engine', 'time-windows'),
  'fresh8-dry-run-drops-safety-window': w('safety-window', 'triggers'),
  'fresh8-signoff-on-finished-release': w('approvals', 'release-cancel'),
  'fresh8-death-link-opens-after-use': w('links', 'release-engine', 'triggers'),
  'fresh8-renewal-by-unverified-approver': w('renewals'),
  'fresh8-access-reask-counted-from-request': w('access-requests', 'time-windows'),
  'fresh8-access-refuse-after-release': w('access-requests'),
  'fresh8-access-approver-policy-tag': w('access-requests'),
  'fresh8-download-ticket-any-heir': w('release-engine', 'release-reach'),
  'fresh8-portal-link-gap-flipped': w('time-windows', 'links'),
  'fresh8-identity-upload-empty-front': w('identity'),
  'fresh8-vault-setup-twice-on-format-one': w('vault-setup', 'vault-key-move'),
  'fresh8-stale-format-wrap-accepted': w('vault-key-move'),
  'fresh8-owner-confirmed-needs-both': w('owner-email-confirmation'),
  'fresh8-any-browser-session-trusted': w('trusted-devices'),
  'fresh8-cancel-release-proof-as-trust': w('trusted-devices', 'release-cancel'),
  'fresh8-untrust-last-watched-allowed': w('trusted-devices'),
  'fresh8-session-touch-flipped': w('trusted-devices', 'sessions'),
  'fresh8-new-device-mail-inverted': w('trust-mail', 'auth-register-login'),
  'fresh8-last-admin-may-delete': w('account-deletion', 'admin'),
  'fresh8-outbox-one-extra-attempt': w('owner-activity-and-cron'),
  'fresh8-web-unsealed-names-decrypted-unasked': web('releases-seals', 'releases-portal'),
  'fresh8-web-verified-heir-asked-again': web('releases-portal'),
  'fresh8-web-unsealed-download-unasked': e2e('key-signing'),
  'fresh8-web-estate-other-owner-item': web('estate-bundle'),
  'fresh8-web-heir-backup-after-release': e2e('heir-key-backup'),
  'fresh8-web-approve-buttons-after-decision': e2e('release-engine'),
  'fresh8-web-key-changed-warning-hidden': e2e('key-signing'),
  'fresh8-web-lock-broadcast-ignored': web('vault-key'),
  'fresh8-web-signing-problem-inverted': web('vault-key'),
  'fresh8-web-format-one-never-moves': web('key-move', 'vault-key'),
  'fresh8-web-recovery-code-check-inverted': e2e('vault-recovery'),
  'fresh8-web-sign-out-only-this-device': [...web('sessions'), ...e2e('sessions')],
  'fresh8-web-lapsed-cannot-pause-active': e2e('roles'),
  'fresh8-web-security-key-limit-off-by-one': [...web('security-keys'), ...e2e('security-keys')],
  // Ninth pass (scripts/fresh-mutations-9.mjs), chosen after that list was committed.
  'fresh9-device-loss-fires-a-day-early': w('trusted-devices', 'release-engine'),
  'fresh9-untrusted-browser-counts-as-trusted-use': w('trusted-devices', 'sessions'),
  'fresh9-unlock-forgive-seconds-not-minutes': w('failed-unlocks', 'time-windows'),
  'fresh9-release-date-in-the-past-accepted': w('triggers', 'release-engine'),
  'fresh9-safety-window-sooner-arguments-swapped': w('safety-window', 'fresh-proof'),
  'fresh9-sweep-waits-an-hour-for-lost-alarms': w('vault-sweep', 'owner-activity-and-cron', 'release-engine'),
  'fresh9-unverified-heir-gets-assets-without-identity': w('identity', 'release-engine', 'release-reach'),
  'fresh9-identity-approvals-counted-across-documents': w('identity'),
  'fresh9-id-file-sniffed-by-one-byte': w('identity'),
  'fresh9-approval-link-email-keeps-colon': w('approvals', 'links', 'approvers'),
  'fresh9-untrusted-session-cancels-device-loss-release': w('trusted-devices', 'release-cancel'),
  'fresh9-untrusted-sign-in-counts-as-trusted': w('trusted-devices', 'auth-register-login'),
  'fresh9-portal-link-gap-never-starts': w('time-windows', 'links'),
  'fresh9-access-policy-activation-proof-inverted': w('fresh-proof', 'policies', 'access-requests'),
  'fresh9-owner-export-drops-vault-keys': w('vault-export'),
  'fresh9-item-list-cache-never-stale': w('vault-items', 'one-hop', 'vault-uploads'),
  'fresh9-sign-out-others-signs-out-self': w('sessions'),
  'fresh9-any-past-proof-is-fresh': w('fresh-proof'),
  'fresh9-deletion-grace-hours-not-days': w('account-deletion', 'deletion-freeze'),
  'fresh9-json-body-limit-megabytes': w('http', 'vault-limits'),
  'fresh9-referrer-leaks-token-links': w('security-headers'),
  'fresh9-names-take-invisible-characters': w('text-fields'),
  'fresh9-email-times-twelve-hour-clock': w('words', 'failed-unlocks'),
  'fresh9-unpaid-gets-403-not-402': w('billing', 'billing-lapsed'),
  'fresh9-stripe-paid-event-seconds-as-ms': w('stripe-payments', 'stripe-billing'),
  'fresh9-stripe-cancel-check-inverted': w('stripe-billing', 'billing'),
  'fresh9-web-vault-key-always-extractable': web('vault-key', 'crypto', 'vault-passphrase'),
  'fresh9-web-last-chunk-carries-stale-bytes': web('crypto-content', 'stream-save', 'format-vectors'),
  'fresh9-web-base64-not-anchored': web('crypto', 'format-vectors'),
  'fresh9-web-metadata-kept-after-lock': [...web('vault-key'), ...e2e('vault-items')],
  'fresh9-web-policy-grants-without-key-check': [...web('policies-grants', 'trusted-keys'), ...e2e('policies')],
  'fresh9-web-trust-button-sends-wrong-verb': [...web('trusted-devices'), ...e2e('trusted-devices')],
  'fresh9-web-release-word-any-case': [...web('triggers-copy'), ...e2e('release-engine')],
  'fresh9-web-reviewer-sees-form-again': [...web('identity-reviewers'), ...e2e('identity', 'heir-verification')],
  'fresh9-web-decided-request-offers-approve': e2e('access-request'),
  'fresh9-web-key-failure-not-reported': [...web('security-keys'), ...e2e('security-keys')],
  'fresh9-web-estate-bundle-without-offline-page': [...web('estate-bundle'), ...e2e('estate-bundle')],
  'fresh9-web-aborted-export-is-a-failure': [...web('vault-export'), ...e2e('vault-export')],
  'fresh9-web-past-due-banner-never-shown': [...web('billing-logic', 'billing-plans'), ...e2e('billing')],
  'fresh9-web-search-untagged-items-always-match': [...web('vault-items-form'), ...e2e('vault-items')],
  // Tenth pass (scripts/fresh-mutations-10.mjs), chosen after that list was committed.
  'fresh10-key-move-swept-after-minutes': w('vault-key-move', 'vault-sweep'),
  'fresh10-check-in-cancels-spent-releases': w('release-cancel', 'release-engine'),
  'fresh10-cancel-link-says-cancelled-when-partly': w('release-cancel', 'links'),
  'fresh10-owner-export-drops-audit-chain': w('owner-vault', 'vault-export'),
  'fresh10-audit-page-skips-first-entry': w('audit-chain-pages', 'audit-acts'),
  'fresh10-manifest-drops-first-grant': w('item-manifests', 'statements'),
  'fresh10-portal-identity-required-by-other-heir': w('identity', 'release-engine', 'release-reach'),
  'fresh10-download-count-not-ahead': w('release-engine', 'release-reach'),
  'fresh10-portal-link-gap-seconds': w('time-windows', 'links'),
  'fresh10-renewal-can-ask-with-nobody-to-answer': w('renewals'),
  'fresh10-renewal-refuser-can-approve-later': w('renewals'),
  'fresh10-heir-backup-too-small-for-2048-bit-key': w('heir-key-backup'),
  'fresh10-death-report-without-attestation': w('release-engine', 'links', 'triggers'),
  'fresh10-review-file-without-reviewer-check': w('identity'),
  'fresh10-unsigned-beneficiary-change-accepted': w('beneficiaries', 'key-signing', 'statements'),
  'fresh10-stale-rotation-not-a-conflict': w('key-rotation', 'key-rotation-pages'),
  'fresh10-recovery-code-l-not-read-as-one': w('vault-recovery'),
  'fresh10-backup-address-fresh-proof-not-awaited': w('channels', 'fresh-proof'),
  'fresh10-untrusted-key-proof-counts-as-trusted-use': w('trusted-devices', 'fresh-proof'),
  'fresh10-single-key-not-offered-for-proof': w('fresh-proof', 'security-keys'),
  'fresh10-key-trust-change-reported-unchanged': w('trusted-devices', 'security-keys'),
  'fresh10-untyped-body-accepted': w('http', 'security-suite'),
  'fresh10-pay-invoice-always-says-paid': w('stripe-payments', 'stripe-billing'),
  'fresh10-access-request-window-in-days': w('access-requests'),
  'fresh10-account-deletion-drops-everyones-pending-mail': w('account-deletion'),
  'fresh10-identity-document-type-not-checked': w('identity'),
  'fresh10-web-asset-expired-before-its-date': web('releases-portal', 'releases-download'),
  'fresh10-web-download-shape-checked-against-listing': web('releases-download', 'releases-seals'),
  'fresh10-web-manifest-signature-not-awaited': web('releases-seals', 'access-kit'),
  'fresh10-web-content-digest-not-checked': web('releases-seals', 'releases-download'),
  'fresh10-web-download-all-before-seals-checked': [...web('vault-export'), ...e2e('key-signing')],
  'fresh10-web-identity-offers-refused-types': [...web('words-copy'), ...e2e('heir-verification')],
  'fresh10-web-renewal-button-with-no-helper': [...web('renewal-messages'), ...e2e('renewal')],
  'fresh10-web-renewal-answer-buttons-after-decision': [...web('approval-state'), ...e2e('renewal')],
  'fresh10-web-cancel-page-says-nothing-released-after-downloads': [...web('releases-cancel'), ...e2e('release-engine')],
  'fresh10-web-manifest-grant-not-hashed': web('vault-items-upload', 'manifest-format'),
  'fresh10-web-stale-wraps-after-key-move': [...web('key-move', 'vault-unlock-rules'), ...e2e('vault-key')],
  'fresh10-web-closing-proof-dialog-counts-as-proof': [...web('api-client'), ...e2e('fresh-proof')],
  'fresh10-web-empty-safety-window-saved-as-zero': [...web('settings-copy', 'validation'), ...e2e('settings')],
  'fresh10-web-field-errors-not-shown': web('profile-form'),
}

/** Stage 2 for web mutations: the other web-unit files that import the changed module. */
const CROSS_WEB = {
  'fresh-web-idle-lock-hours': web('key-move', 'policies-grants', 'recovery-code', 'trusted-keys', 'vault-key-format'),
  'fresh-web-metadata-aad-item': web('estate-bundle', 'policies-grants', 'policies-selectors', 'policies-upload', 'vault-items-upload', 'vault-key-format', 'vault-seal-items'),
  'fresh-web-can-cancel-twice': web('billing-plans'),
  'fresh2-web-recovery-wrap-purpose': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'crypto', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-passphrase', 'vault-seal-items'),
  'fresh2-web-envelope-old-version': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-signing', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh2-web-stream-truncated': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-signing', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh2-web-heir-backup-other-person': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'crypto', 'estate-bundle', 'format-vectors', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh2-web-weak-rsa-key': web('access-kit', 'audit-log', 'crypto-content', 'crypto-signing', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh2-web-fingerprint-half': web('audit-log', 'crypto-content', 'crypto-signing', 'crypto', 'estate-bundle', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh2-web-kit-one-fingerprint-enough': web('access-kit', 'vault-export', 'estate-bundle'),
  'fresh2-web-manifest-size-unchecked': web('access-kit', 'vault-export', 'estate-bundle'),
  'fresh2-web-unsealed-with-kit': web('access-kit', 'vault-export', 'estate-bundle'),
  'fresh2-web-chain-head-removed': [],
  'fresh2-web-wrap-for-unconfirmed-key': web('vault-seal-items', 'policies-grants', 'policies-upload'),
  'fresh2-web-checkin-days-floor': [],
  'fresh2-web-protected-with-warnings': [],
  'fresh2-web-passphrase-twelve': web('heir-key-backup'),
  'fresh3-web-aad-length-little-endian': web('access-kit', 'audit-log', 'billing-logic', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'dashboard-view-model', 'estate-bundle', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-form', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items', 'words-copy'),
  'fresh3-web-passphrase-not-normalised': web('access-kit', 'audit-log', 'billing-logic', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'dashboard-view-model', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-form', 'vault-items-upload', 'vault-key-format', 'vault-seal-items', 'words-copy'),
  'fresh3-web-empty-file-no-chunk': web('access-kit', 'audit-log', 'billing-logic', 'crypto-beneficiary', 'crypto-signing', 'dashboard-view-model', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-form', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items', 'words-copy'),
  'fresh3-web-heir-backup-of-other-key': web('access-kit', 'audit-log', 'billing-logic', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'crypto', 'dashboard-view-model', 'estate-bundle', 'format-vectors', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-form', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items', 'words-copy'),
  'fresh3-web-broken-chain-resumed': web('dashboard-view-model'),
  'fresh3-web-chain-one-page': web('dashboard-view-model'),
  'fresh3-web-seal-other-item': web('access-kit', 'estate-bundle', 'releases-download', 'vault-export', 'words-copy'),
  'fresh3-web-mismatch-opens-sealed': web('access-kit', 'estate-bundle', 'releases-download', 'vault-export', 'words-copy'),
  'fresh3-web-unsealed-opens-unasked': web('releases-download', 'vault-export', 'words-copy'),
  'fresh3-web-exhausted-still-available': web('releases-download', 'releases-seals', 'vault-export', 'words-copy'),
  'fresh3-web-released-not-started': web(),
  'fresh3-web-monitor-after-reminder': web(),
  'fresh3-web-past-due-no-panel': web('billing-plans'),
  'fresh3-web-impossible-release-date': web('triggers-copy', 'trusted-devices'),
  'fresh4-web-toast-with-status-prefix': web('admin-logic', 'billing-logic', 'profile-form', 'security-keys', 'triggers-api', 'trusted-keys'),
  'fresh4-web-retry-after-proof-failure-ignored': web('admin-logic', 'billing-logic', 'profile-form', 'security-keys', 'triggers-api', 'trusted-keys'),
  'fresh4-web-guard-status-not-access': [],
  'fresh4-web-direct-grant-flag-inverted': web('manifest-format', 'stream-save', 'vault-export'),
  'fresh4-web-part-chunk-index-off-by-one': web('policies-upload', 'stream-save', 'vault-export'),
  'fresh4-web-resume-does-not-skip-received': web('releases-seals', 'vault-export', 'vault-items-form', 'vault-items-upload'),
  'fresh4-web-failed-save-kept': web('releases-seals', 'vault-export', 'vault-items-form', 'vault-items-upload'),
  'fresh4-web-signing-key-extractable': web('releases-seals', 'trusted-keys', 'vault-passphrase', 'crypto', 'vault-key'),
  'fresh4-web-refused-seal-downloadable': web('releases-download', 'vault-export'),
  'fresh4-web-earliest-shorter-of-two': web('trusted-devices', 'triggers-form'),
  'fresh4-web-readiness-warnings-first': [],
  'fresh4-web-dry-run-verified-heir-flagged': web('triggers-copy'),
  'fresh4-web-plan-end-label-swapped': web('billing-plans'),
  'fresh4-web-approver-contact-loose-email': web('policies-upload'),
  'fresh5-web-vault-key-wrap-wrong-purpose': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'crypto', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh5-web-new-heir-old-statement-trusted': [],
  'fresh5-web-bad-signature-shown-unconfirmed': [],
  'fresh5-web-heir-backup-confirmation-length-only': web('releases-download', 'releases-seals', 'access-kit'),
  'fresh5-web-short-download-saved-whole': web('releases-download', 'vault-items-upload', 'vault-export'),
  'fresh5-web-estate-folder-holds-others-items': web('vault-export'),
  'fresh5-web-policy-covers-items-without-wraps': web('policies-upload', 'policies-selectors'),
  'fresh5-web-access-request-without-who': web('policies-grants', 'policies-upload'),
  'fresh5-web-item-without-heir-allowed': web('policies-upload'),
  'fresh5-web-fresh-proof-never-asked': web('admin-logic', 'billing-logic', 'profile-form', 'security-keys', 'triggers-api', 'trusted-keys'),
  'fresh5-web-dashboard-single-warning-hidden': [],
  'fresh5-web-upgrade-hidden-without-subscription': web('billing-plans'),
  'fresh5-web-portal-identity-step-hidden': web('releases-download', 'releases-seals', 'vault-export'),
  'fresh5-web-audit-group-filter-wrong-field': [],
  'fresh6-web-seal-stale-key-version': [],
  'fresh6-web-seal-untrusted-keys': [],
  'fresh6-web-tag-match-case-sensitive': web('policies-upload'),
  'fresh6-web-tag-match-needs-all-tags': web('policies-upload'),
  'fresh6-web-paused-policy-adds-recipients': [],
  'fresh6-web-coverage-some-items': [],
  'fresh6-web-identity-reviewers-paused-policy': [],
  'fresh6-web-identity-rejections-count': [],
  'fresh6-web-one-file-too-many': web('identity-files', 'stream-save'),
  'fresh6-web-different-file-dropped-as-duplicate': web('identity-files', 'stream-save'),
  'fresh6-web-guessing-unavailable-passes': web('heir-key-backup'),
  'fresh6-web-heir-export-unverified-seal': [],
  'fresh6-web-zip-names-case-collide': [],
  'fresh6-web-zip-opens-left-out-item': [],
  'fresh7-web-key-move-resume-uses-new-key': [],
  'fresh7-web-data-key-unwrapped-not-extractable': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-signing', 'estate-bundle', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items', 'format-vectors'),
  'fresh7-web-pbkdf2-iterations': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-signing', 'estate-bundle', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items', 'crypto-content'),
  'fresh7-web-kit-vault-line-wrong-fingerprint': web('releases-portal', 'releases-seals'),
  'fresh7-web-policy-without-tags-covers-nothing': web('policies-upload'),
  'fresh7-web-portal-mismatch-on-one-failure': web('releases-download', 'releases-seals', 'vault-export'),
  'fresh7-web-proof-dialog-single-method': [],
  'fresh7-web-upload-exact-limit-refused': web('stream-save', 'identity-files'),
  'fresh7-web-id-document-exact-limit-refused': [],
  'fresh7-web-death-form-today-month': [],
  'fresh7-web-audit-csv-quotes': [],
  'fresh7-web-invoice-paid-shows-due': web('billing-plans'),
  'fresh7-web-dashboard-errors-read-as-warnings': [],
  'fresh7-web-refund-exact-maximum-refused': [],
  'fresh8-web-unsealed-names-decrypted-unasked': web('releases-download', 'vault-export'),
  'fresh8-web-verified-heir-asked-again': web('releases-seals', 'releases-download'),
  'fresh8-web-unsealed-download-unasked': [],
  'fresh8-web-estate-other-owner-item': [],
  'fresh8-web-heir-backup-after-release': [],
  'fresh8-web-approve-buttons-after-decision': [],
  'fresh8-web-key-changed-warning-hidden': [],
  'fresh8-web-lock-broadcast-ignored': web('key-move', 'policies-grants', 'recovery-code', 'trusted-keys', 'vault-key-format', 'vault-passphrase'),
  'fresh8-web-signing-problem-inverted': web('key-move', 'policies-grants', 'recovery-code', 'trusted-keys', 'vault-key-format', 'vault-passphrase'),
  'fresh8-web-format-one-never-moves': web('policies-grants', 'recovery-code', 'trusted-keys', 'vault-key-format', 'vault-passphrase'),
  'fresh8-web-recovery-code-check-inverted': [],
  'fresh8-web-sign-out-only-this-device': [],
  'fresh8-web-lapsed-cannot-pause-active': [],
  'fresh8-web-security-key-limit-off-by-one': [],
  'fresh9-web-vault-key-always-extractable': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'estate-bundle', 'format-vectors', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-seal-items'),
  'fresh9-web-last-chunk-carries-stale-bytes': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-signing', 'crypto', 'estate-bundle', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh9-web-base64-not-anchored': web('access-kit', 'audit-log', 'crypto-beneficiary', 'crypto-content', 'crypto-signing', 'estate-bundle', 'heir-key-backup', 'key-move', 'manifest-format', 'policies-grants', 'policies-selectors', 'policies-upload', 'recovery-code', 'releases-download', 'releases-portal', 'releases-seals', 'stream-save', 'trusted-keys', 'vault-export', 'vault-items-upload', 'vault-key-format', 'vault-key', 'vault-passphrase', 'vault-seal-items'),
  'fresh9-web-metadata-kept-after-lock': web('vault-seal-items', 'vault-items-upload', 'vault-passphrase'),
  'fresh9-web-policy-grants-without-key-check': web('policies-selectors', 'policies-upload'),
  'fresh9-web-trust-button-sends-wrong-verb': [],
  'fresh9-web-release-word-any-case': web('triggers-form', 'triggers-api'),
  'fresh9-web-reviewer-sees-form-again': web('identity-files'),
  'fresh9-web-decided-request-offers-approve': [],
  'fresh9-web-key-failure-not-reported': [],
  'fresh9-web-estate-bundle-without-offline-page': web('vault-export'),
  'fresh9-web-aborted-export-is-a-failure': web('estate-bundle'),
  'fresh9-web-past-due-banner-never-shown': web('shell'),
  'fresh9-web-search-untagged-items-always-match': web('vault-items-upload'),
  'fresh10-web-asset-expired-before-its-date': web('releases-seals', 'vault-export'),
  'fresh10-web-download-shape-checked-against-listing': web('releases-portal', 'vault-export'),
  'fresh10-web-manifest-signature-not-awaited': web('vault-export', 'releases-download'),
  'fresh10-web-content-digest-not-checked': web('access-kit', 'vault-export'),
  'fresh10-web-download-all-before-seals-checked': [],
  'fresh10-web-identity-offers-refused-types': [],
  'fresh10-web-renewal-button-with-no-helper': [],
  'fresh10-web-renewal-answer-buttons-after-decision': [],
  'fresh10-web-cancel-page-says-nothing-released-after-downloads': [],
  'fresh10-web-manifest-grant-not-hashed': web('vault-seal-items', 'policies-grants'),
  'fresh10-web-stale-wraps-after-key-move': [],
  'fresh10-web-closing-proof-dialog-counts-as-proof': [],
  'fresh10-web-empty-safety-window-saved-as-zero': [],
  'fresh10-web-field-errors-not-shown': [],
}

/**
 * Entries whose line a later refactor moved, committed list unchanged: the same one-line bug where
 * the rule lives now. The tenth list was written before the second web hardening pass moved these
 * rules out of their components into tested functions (NOTES-webharden2.md).
 */
const MOVED = {
  'fresh10-web-renewal-answer-buttons-after-decision': {
    file: 'web/features/releases/approval-state.ts',
    from: "  return view.status !== 'waiting' ? 'decided' : 'open'",
    to: "  return view.status === 'refused' ? 'decided' : 'open'",
  },
  'fresh10-web-cancel-page-says-nothing-released-after-downloads': {
    file: 'web/features/releases/cancel-rules.ts',
    from: '  } else if (view.downloaded.length === 0) {',
    to: '  } else {',
  },
  'fresh10-web-stale-wraps-after-key-move': {
    file: 'web/features/vault/unlock-rules.ts',
    from: '    refetchAll: state.moved,',
    to: '    refetchAll: !state.moved,',
  },
}

const chosen = FRESH.filter((m) => !only || only.has(m.id)).map((m) => (MOVED[m.id] ? { ...m, ...MOVED[m.id], movedFrom: m.file } : m))
for (const m of chosen) {
  const text = readFileSync(join(ROOT, m.file), 'utf8')
  if (text.split(m.from).length !== 2) throw new Error(`${m.id}: "from" must occur exactly once in ${m.file}`)
  if (!TESTS[m.id]) throw new Error(`${m.id}: no test files chosen`)
}

function run(dir, cmd, cmdArgs) {
  return new Promise((resolve) => {
    const child = spawn('nice', ['-n', '10', cmd, ...cmdArgs], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let out = ''
    child.stdout.on('data', (d) => (out = (out + d).slice(-8000)))
    child.stderr.on('data', (d) => (out = (out + d).slice(-8000)))
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), RUN_TIMEOUT_MS)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    })
  })
}

/**
 * Runs test files under their config (worker and web-unit files may be mixed: a contract/ module
 * is read by both; each kind runs under its own config, worker first, stopping at a failure);
 * resolves to the failing tests' full names and files (or a crash).
 */
async function runTests(dir, files, extra = []) {
  const e2eFiles = files.filter((f) => f.startsWith('test/e2e/'))
  if (e2eFiles.length && e2eFiles.length < files.length) {
    const first = await runTests(dir, files.filter((f) => !f.startsWith('test/e2e/')), extra)
    if (first.failed.length || first.crashed || first.code !== 0) return first
    return runTests(dir, e2eFiles, extra)
  }
  const webFiles = files.filter((f) => f.startsWith('test/web/'))
  const workerFiles = files.filter((f) => !f.startsWith('test/web/') && !f.startsWith('test/e2e/'))
  if (webFiles.length && workerFiles.length) {
    const first = await runTests(dir, workerFiles, extra)
    if (first.failed.length || first.crashed || first.code !== 0) return first
    return runTests(dir, webFiles, extra)
  }
  const config = e2eFiles.length ? 'vitest.e2e.config.ts' : webFiles.length ? 'vitest.web.config.ts' : 'vitest.worker.config.ts'
  const report = join(dir, `.fresh-${Date.now()}.json`)
  const { code, out } = await run(dir, join(dir, 'node_modules/.bin/vitest'), ['run', '--config', config, '--bail=1', '--reporter=json', `--outputFile=${report}`, ...extra, ...files])
  const failed = []
  let crashed = null
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'))
    for (const file of json.testResults) {
      const name = file.name.slice(file.name.indexOf('test/'))
      for (const a of file.assertionResults) {
        if (a.status === 'failed') failed.push({ file: name, test: a.fullName, message: (a.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300) })
      }
      if (file.status === 'failed' && file.assertionResults.every((a) => a.status !== 'failed')) crashed = `${name}: ${file.message?.split('\n')[0] ?? 'failed to run'}`
    }
    rmSync(report, { force: true })
  } catch {
    crashed = code === null ? 'timed out' : `no report (exit ${code}): ${out.split('\n').filter(Boolean).slice(-3).join(' | ')}`
  }
  return { code, failed, crashed }
}

const results = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : {}
const save = () => writeFileSync(OUT, JSON.stringify(results, null, 2))
const dir = scratchCopy(ROOT, 'fresh-mutate-')
console.log(`Scratch copy: ${dir}\n${chosen.length} mutation(s)${wide ? ' (wide re-check)' : ''}\n`)
try {
  for (const [i, m] of chosen.entries()) {
    const path = join(dir, m.file)
    const original = readFileSync(path, 'utf8')
    writeFileSync(path, original.replace(m.from, () => m.to))
    const started = Date.now()
    process.stdout.write(`[${i + 1}/${chosen.length}] ${m.id} … `)
    const isWeb = m.file.startsWith('web/')
    const stages = wide
      ? [['wide', opt('--files').split(',')]]
      : [
          ['area', TESTS[m.id]],
          ['cross', isWeb ? CROSS_WEB[m.id] : CROSS_WORKER],
        ]
    let verdict = { result: 'survived', by: null, stage: null }
    try {
      for (const [stage, files] of stages) {
        if (!files?.length) continue
        let r = await runTests(dir, files)
        // A test that only ran out of its 5 s may be the loaded machine (the load average is often
        // 6 times the cores): the stage runs again with a minute a test, and counts only then.
        const timedOut = (x) => x.failed.length > 0 && x.failed.every((f) => /timed out/i.test(f.message))
        if (timedOut(r)) r = await runTests(dir, files, ['--testTimeout=60000', '--hookTimeout=60000'])
        if (r.failed.length || r.crashed || r.code !== 0) {
          verdict = { result: 'killed', stage, by: r.failed.length ? r.failed.slice(0, 3) : [{ file: null, test: r.crashed ?? `exit ${r.code}` }] }
          break
        }
      }
      if (verdict.result === 'survived') {
        const tsc = await run(dir, join(dir, 'node_modules/.bin/tsc'), ['-b'])
        if (tsc.code !== 0) verdict = { result: 'killed by the compiler', stage: 'tsc', by: [{ file: null, test: tsc.out.split('\n').find((l) => l.includes('error TS')) ?? 'tsc failed' }] }
      }
    } finally {
      writeFileSync(path, original)
    }
    const secs = Math.round((Date.now() - started) / 1000)
    const key = wide ? `${m.id}#wide` : m.id
    results[key] = { ...verdict, file: m.file, rule: m.rule, seconds: secs }
    save()
    console.log(`${verdict.result}${verdict.by ? ` by ${verdict.by[0].file ?? ''} “${verdict.by[0].test}”` : ''} (${secs}s)`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const all = Object.entries(results).filter(([k]) => !k.endsWith('#wide'))
const killed = all.filter(([, r]) => r.result !== 'survived').length
console.log(`\n${killed}/${all.length} killed (${all.filter(([, r]) => r.result === 'killed by the compiler').length} by the compiler)`)
