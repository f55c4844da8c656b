import { z } from 'zod'
import { trustResultSchema } from '../../contract/trusted-devices'
import { authResponseSchema, emailConfirmedSchema, meResponseSchema, messageResponseSchema, outboxMessageSchema, publicUserSchema } from '../../contract/auth'
import { auditEntrySchema, serverVerificationSchema } from '../../contract/audit'
import { authenticatorSetupSchema, authenticatorSignInResponseSchema, authenticatorStatusSchema, recoveryCodesSchema } from '../../contract/authenticator'
import {
  approverSchema,
  approverWithEmailSentSchema,
  beneficiarySchema,
  beneficiaryWithEmailSentSchema,
  rotationStartedSchema,
} from '../../contract/circle'
import { ID_DOCUMENT_MIME_TYPES, identityDocumentFieldsSchema, identityDocumentSchema } from '../../contract/identity'
import { policySchema } from '../../contract/policies'
import { accessRefuseViewSchema, accessRequestResultSchema, accessRequestSchema, ownerAccessRequestsSchema, requesterViewSchema } from '../../contract/access-requests'
import { channelsResponseSchema } from '../../contract/channels'
import { changePasswordResponseSchema, profileResponseSchema } from '../../contract/profile'
import { revokeSessionResponseSchema, sessionListSchema, signOutOthersResponseSchema } from '../../contract/sessions'
import {
  dryRunResultSchema,
  engineStatusSchema,
  manualReleaseResultSchema,
  releaseSummarySchema,
  triggerSchema,
  unlockFailureResultSchema,
  unlockSuccessResultSchema,
  UNLOCK_FORGIVE_MS,
} from '../../contract/triggers'
import { sealPageSchema, uploadSessionSchema, vaultItemSchema } from '../../contract/vault-items'
import { estateItemSchema } from '../../contract/estate-bundle'
import { keyMoveStateSchema } from '../../contract/vault-key-move'
import { registerKeyResponseSchema, secondFactorResponseSchema, securityKeyListSchema, securityKeySchema } from '../../contract/webauthn'
import type { ErrorStatus } from './errors'

// What the document says of each endpoint that its mounted middleware cannot: a summary, the
// success status and answer, a body or query the handler reads itself, and the errors its handler
// and services give (those of the middleware — 400, 401, 402, 403, 413, 415, 429 — and the 404
// of a path parameter are added from the route itself). Keyed as the security suite's table is;
// openapi.test.ts fails when an endpoint has no entry here or an entry names no endpoint.

/** A body or answer in a type other than JSON (or in several), or JSON the handler builds as it goes. */
export interface Media {
  type: string | readonly string[]
  schema?: z.ZodType
  description?: string
}

export interface Operation {
  summary: string
  description?: string
  /** The success status: 200 unless said. */
  status?: 200 | 201
  /** The success answer: a zod schema of JSON, another media type, or (not said) a JSON object. */
  answer?: z.ZodType | Media
  /** A body the handler reads itself, without a validator (multipart, binary, raw). */
  body?: Media
  /** Query parameters the handler reads itself, without a validator. */
  query?: z.ZodObject
  /** Error statuses its handler and services give beyond those implied by its middleware and parameters. */
  errors?: ErrorStatus[]
}

const message = messageResponseSchema
const binary = (description: string): Media => ({ type: 'application/octet-stream', description })
const identityFile: Media = { type: ID_DOCUMENT_MIME_TYPES, description: 'The image or PDF as uploaded, in its own type.' }
const identityUpload = (fileField: string, extra: z.ZodRawShape = {}): Media => ({
  type: 'multipart/form-data',
  schema: identityDocumentFieldsSchema.extend({ [fileField]: z.file(), backImage: z.file().optional(), ...extra }),
})
const publicUserAnswer = z.object({ message: z.string(), user: publicUserSchema })

export const OPERATIONS: Record<string, Operation> = {
  // --- The reference itself, and health ---
  'GET /api/openapi.json': { summary: 'This API described in OpenAPI 3.1', answer: { type: 'application/json', description: 'The OpenAPI document.' } },
  'GET /api/docs': { summary: 'The API reference page', answer: { type: 'text/html', description: 'A page that reads /api/openapi.json.' } },
  'GET /api/docs/app.js': { summary: "The reference page's script", answer: { type: 'text/javascript' } },
  'GET /api/health': { summary: 'Check that the API answers', answer: z.object({ ok: z.literal(true) }) },

  // --- Accounts and sessions ---
  'POST /api/auth/register': { summary: 'Create an account and sign in', status: 201, answer: authResponseSchema, errors: [409] },
  'POST /api/auth/login': {
    summary: 'Sign in with e-mail and password',
    description:
      'With two-factor sign-in on, answers the second factors the account has instead of a session: the options of the security-key step, and a ticket for the authenticator app\'s code.',
    answer: z.union([authResponseSchema, secondFactorResponseSchema]),
    errors: [401, 403],
  },
  'POST /api/auth/confirm-email': { summary: "Confirm the owner's e-mail address (link token)", answer: emailConfirmedSchema, errors: [409] },
  'POST /api/auth/confirm-email/resend': { summary: 'Send a new confirmation link', answer: message, errors: [409, 429] },
  'GET /api/auth/me': { summary: 'The signed-in account', answer: meResponseSchema },
  'GET /api/auth/session': { summary: 'The account of the session, if any (never 401)', answer: z.object({ user: publicUserSchema.nullable() }) },
  'POST /api/auth/logout': { summary: 'Sign out and revoke the session', answer: message },
  'POST /api/auth/forgot-password': { summary: 'E-mail a password reset link', description: 'The same answer whether or not the address has an account.', answer: message },
  'POST /api/auth/reset-password': { summary: 'Set a new password with a reset link', answer: message },
  'POST /api/auth/webauthn/register/options': { summary: 'Start registering a security key', errors: [409] },
  'POST /api/auth/webauthn/register/verify': { summary: 'Finish registering a security key', status: 201, answer: registerKeyResponseSchema, errors: [409] },
  'POST /api/auth/webauthn/login/options': { summary: 'Start signing in with a security key' },
  'POST /api/auth/webauthn/login/verify': { summary: 'Finish signing in with a security key', answer: authResponseSchema, errors: [401, 403] },
  'POST /api/auth/webauthn/second-factor/abandon': { summary: 'Report a second factor that was not completed', answer: message },
  'GET /api/auth/authenticator': { summary: "The account's authenticator app: on or off, recovery codes left", answer: authenticatorStatusSchema },
  'POST /api/auth/authenticator/setup': {
    summary: 'Start setting up an authenticator app',
    description: 'A new secret (base32, and as an otpauth:// URI), waiting for its first code. It replaces a setup still waiting; an app already on keeps working until the new one is confirmed.',
    answer: authenticatorSetupSchema,
  },
  'POST /api/auth/authenticator/confirm': {
    summary: 'Turn the authenticator app on with its first code',
    description: 'Answers the ten recovery codes: this once only (the server keeps their hashes).',
    answer: recoveryCodesSchema,
    errors: [409],
  },
  'DELETE /api/auth/authenticator': { summary: 'Turn the authenticator app off', answer: z.object({ message: z.string(), status: authenticatorStatusSchema }), errors: [404] },
  'POST /api/auth/authenticator/recovery-codes': {
    summary: 'Make a new set of recovery codes',
    description: 'Every earlier code stops working; the new ones are in this answer only.',
    answer: recoveryCodesSchema,
    errors: [404],
  },
  'POST /api/auth/authenticator/sign-in': {
    summary: 'Finish a password sign-in with a code from the authenticator app, or a recovery code',
    description: 'The ticket is the one the password step answered (valid five minutes). Wrong codes count against the account as wrong passwords do.',
    answer: authenticatorSignInResponseSchema,
    errors: [401, 403],
  },
  'POST /api/auth/fresh-proof/options': { summary: "Start proving it's you with a security key (fresh proof)", errors: [409] },
  'POST /api/auth/fresh-proof': {
    summary: "Prove it's you again (fresh proof)",
    description:
      'The password, an answer from one of the account\'s security keys (challenge from `/fresh-proof/options`) or an authenticator code. For the next 5 minutes this session may make the changes that answer 403 with `requiresFreshProof: true` without it. A wrong password or code counts like a failed sign-in.',
    answer: z.object({ message: z.string(), provedUntil: z.string() }),
    errors: [401, 409],
  },
  'POST /api/auth/not-me': {
    summary: "This wasn't me: undo a change of trust from its e-mail",
    description:
      'The link in every e-mail about a change of trust. Signs out every session, removes the security keys added since the sign-in that made the change, and answers a password reset token for choosing a new password. No session needed.',
    answer: z.object({ message: z.string(), sessionsSignedOut: z.number(), keysRemoved: z.number(), authenticatorRemoved: z.boolean(), trustWithdrawn: z.number(), resetToken: z.string() }),
  },
  'GET /api/auth/security-keys': { summary: "The account's security keys", answer: securityKeyListSchema },
  'GET /api/auth/sessions': {
    summary: "The account's signed-in devices",
    description:
      'Every live session of the owner: an id (its number, never the token), the browser as its user agent names it ("Chrome on Windows"), the approximate place of the sign-in or null, when it signed in and was last used (to within 5 minutes), and `current` for the session asking. This device first, then the most recently used.',
    answer: sessionListSchema,
  },
  'DELETE /api/auth/sessions/:id': {
    summary: 'Sign out one device',
    description:
      "Ends the owner's session with that id: its token no longer works. The session asking may end itself (a sign-out: its cookie is removed too). Another owner's session, or one that is over, is not found. Needs no fresh proof: signing out is a safety act.",
    answer: revokeSessionResponseSchema,
  },
  'POST /api/auth/sessions/sign-out-others': {
    summary: 'Sign out every other device',
    description: 'Ends every session of the owner but the one asking, which stays signed in. Needs no fresh proof.',
    answer: signOutOthersResponseSchema,
  },
  'PUT /api/auth/sessions/:id/trust': {
    summary: "Mark a session's browser as a trusted device",
    description:
      "Marks the browser the session was opened in (known across sign-ins by its device cookie) as trusted: the Loss of trusted devices trigger watches trusted devices. Needs fresh proof; the owner is e-mailed. 404 for a session that is not the owner's or is over; 409 for a session opened before browsers were remembered.",
    answer: trustResultSchema,
    errors: [409],
  },
  'DELETE /api/auth/sessions/:id/trust': {
    summary: "Stop trusting a session's browser",
    description: 'As marking it, the other way. Needs fresh proof; the owner is e-mailed.',
    answer: trustResultSchema,
    errors: [409],
  },
  'PUT /api/auth/security-keys/:id/trust': {
    summary: 'Mark a security key as a trusted device',
    description: "Needs fresh proof; the owner is e-mailed. Another owner's key is not found.",
    answer: trustResultSchema,
  },
  'DELETE /api/auth/security-keys/:id/trust': {
    summary: 'Stop trusting a security key',
    description: "Needs fresh proof; the owner is e-mailed. Another owner's key is not found.",
    answer: trustResultSchema,
  },
  'PATCH /api/auth/security-keys/:id': { summary: 'Rename a security key', answer: z.object({ key: securityKeySchema }) },
  'DELETE /api/auth/security-keys/:id': {
    summary: 'Remove a security key',
    answer: z.object({ message: z.string(), securityKeyCount: z.number().int() }),
    errors: [409],
  },

  // --- Profile, settings, account ---
  'PUT /api/profile': {
    summary: 'Update the profile',
    description:
      'Naming, changing or removing the emergency contact needs fresh proof and the owner is e-mailed (as `PUT /api/channels/contact`); removing it also stops them being told. Turning two-factor sign-in off needs fresh proof too. Other fields need none.',
    answer: profileResponseSchema,
    errors: [409],
  },
  'POST /api/profile/password': {
    summary: 'Change the password (other sessions are signed out)',
    description:
      "Needs the current password. `removeKeyIds` (optional, at most 50) names security keys of the account to remove in the same request, after the password is checked: ids that are not one of the owner's keys are ignored. If no key is left and two-factor sign-in was on, it is turned off. The answer (and the e-mail the owner gets) says how many keys were removed and how many can still sign in.",
    answer: changePasswordResponseSchema,
    errors: [409, 429],
  },
  'PUT /api/user/ping-settings': { summary: 'Set the check-in frequency', answer: publicUserAnswer },
  'GET /api/user/safety-window': { summary: 'The safety window before automatic releases', answer: z.object({ hours: z.number() }) },
  'PUT /api/user/safety-window': { summary: 'Set the safety window', answer: z.object({ hours: z.number(), message: z.string() }) },
  'GET /api/channels': { summary: "The owner's channels: address, backup address, emergency contact (and which bounce)", answer: channelsResponseSchema },
  'PUT /api/channels/backup': {
    summary: 'Name a backup address (fresh proof); a link is sent to it',
    description: 'It receives nothing but that link until the owner, signed in, follows it. The owner is e-mailed at once. 400 if it is the address they sign in with; 429 past three links an hour.',
    answer: z.object({ message: z.string(), channels: channelsResponseSchema }),
    errors: [429],
  },
  'POST /api/channels/backup/resend': { summary: 'Send the backup address a new link', answer: message, errors: [404, 409, 429] },
  'POST /api/channels/backup/verify': {
    summary: 'Confirm the backup address (its link token, signed in)',
    description: "404 for a link of another account; 400 for one sent to an address that is no longer the backup.",
    answer: z.object({ message: z.string(), channels: channelsResponseSchema }),
    errors: [404],
  },
  'DELETE /api/channels/backup': { summary: 'Remove the backup address (fresh proof)', answer: z.object({ message: z.string(), channels: channelsResponseSchema }), errors: [404] },
  'PUT /api/channels/contact': {
    summary: "The emergency contact's address, and whether they are told when a release starts without the owner (fresh proof)",
    description:
      'They are told only that the owner has not answered and how to reach them: no link, no item. Adding, changing or removing the contact, or opting in or out, needs fresh proof and the owner is e-mailed at their own addresses (a save that changes neither needs none).',
    answer: z.object({ message: z.string(), channels: channelsResponseSchema }),
  },
  'POST /api/mail/events': {
    summary: "The mail provider's signed events (bounces)",
    description:
      'Only with MAIL_WEBHOOK_SECRET configured (404 otherwise). Standard Webhooks framing: webhook-id, webhook-timestamp (within 5 minutes) and webhook-signature (v1, HMAC-SHA256). An `email.bounced` event marks its recipients as bouncing; other events change nothing.',
    body: { type: 'application/json', description: 'The event exactly as the provider sent it: `{ type, created_at, data: { to, bounce } }`.' },
    answer: z.object({ received: z.literal(true), bounced: z.number() }),
  },
  'DELETE /api/account/delete': {
    summary: 'Delete the account and everything in it, after 7 days',
    description:
      'Needs fresh proof. The account is frozen at once (every session ends, changes answer 409, nothing fires or reaches an heir) and the owner is e-mailed; the cron sweep deletes it 7 days later unless the owner keeps it (`POST /api/account/deletion/cancel` after signing in, or "This wasn\'t me" in the e-mail). 409 if already asked, or for the last administrator.',
    answer: z.object({ message: z.string(), deletionScheduledFor: z.string(), deletedUserEmail: z.string() }),
    errors: [409],
  },
  'POST /api/account/deletion/cancel': {
    summary: 'Keep the account: take back its deletion',
    description: 'Needs fresh proof (signing in gives it). 409 if no deletion was asked for.',
    answer: z.object({ message: z.string(), user: publicUserSchema }),
    errors: [409],
  },
  'GET /api/account/subscription': { summary: 'The subscription, payment method and invoices' },
  'POST /api/account/cancel-subscription': { summary: 'Cancel at the end of the period', errors: [409, 502] },
  'POST /api/account/resume-subscription': {
    summary: 'Keep the subscription: undo a cancellation at the end of the period',
    description: '409 when no cancellation is pending.',
    errors: [409, 502],
  },
  'POST /api/account/payment-method': {
    summary: "Stripe's page for changing the card",
    description: 'A Stripe customer-portal session on the card update; Stripe brings the owner back to /account?payment=updated. 409 without billing.',
    answer: z.object({ url: z.string() }),
    errors: [409, 502],
  },
  'POST /api/account/pay-invoice': {
    summary: 'Pay the open invoice now with the card on file',
    description: "Stripe's own invoice and amount; nothing in the request sets a price. 409 when nothing is due, 400 with the bank's reason when it refuses.",
    errors: [400, 409, 429, 502],
  },
  'GET /api/account/invoices': { summary: 'The billing history, a page at a time, with refunds', errors: [502] },

  // --- Billing ---
  'GET /api/billing/config': { summary: 'Whether billing is on, and its publishable key', answer: z.object({ billingEnabled: z.boolean(), publishableKey: z.string().nullable() }) },
  'POST /api/create-subscription': {
    summary: 'Subscribe to a plan',
    description:
      'A change of plan on an active subscription is made only with `confirm: true`; without it the answer is `confirm_change` with `planChange` (Stripe\'s preview of the next invoice) and nothing changes. While a cancellation is pending the answer is `cancellation_pending`: keep the subscription (POST /api/account/resume-subscription) rather than start a second one.',
    errors: [409, 502],
  },
  'POST /api/create-subscription-guest': { summary: 'Subscribe before creating the account', errors: [409, 502] },
  'POST /api/stripe/webhook': {
    summary: "Stripe's signed events",
    description: 'Only with Stripe configured (404 otherwise). The body is verified against the Stripe-Signature header.',
    body: { type: 'application/json', description: 'The event exactly as Stripe sent it.' },
    answer: z.object({ received: z.literal(true), duplicate: z.literal(true).optional() }),
  },

  // --- The vault ---
  'POST /api/vault/setup': { summary: 'Set up the vault (salt, passphrase check, vault key, signing key)', answer: publicUserAnswer, errors: [409] },
  'POST /api/vault/passphrase': { summary: 'Change the vault passphrase: the vault key re-wrapped (fresh proof)', answer: publicUserAnswer, errors: [403, 409] },
  'POST /api/vault/key-move': { summary: 'Start or resume the move of an older vault to a vault key', answer: keyMoveStateSchema, errors: [409] },
  'PUT /api/vault/key-move/pages': { summary: 'Stage a page of data keys re-wrapped by the new vault key', answer: keyMoveStateSchema, errors: [404, 409] },
  'POST /api/vault/key-move/commit': { summary: 'Swap every wrap to the vault key in one transaction (fresh proof)', answer: publicUserAnswer, errors: [403, 404, 409] },
  'PUT /api/vault/recovery': { summary: 'A new recovery code’s wrap of the vault key, voiding the one before (fresh proof)', answer: publicUserAnswer, errors: [403, 409] },
  'POST /api/vault/signing-key': { summary: 'Add the signing key to a vault made before them (fresh proof)', answer: publicUserAnswer, errors: [403, 409] },
  'POST /api/vault/uploads': { summary: 'Start an encrypted upload', status: 201, answer: uploadSessionSchema, errors: [402, 413] },
  'GET /api/vault/uploads/:itemId': { summary: 'An open upload and the parts received', answer: uploadSessionSchema },
  'PUT /api/vault/uploads/:itemId/parts/:partNumber': {
    summary: 'Send one encrypted part',
    body: binary('The part, exactly the size the upload session gives it.'),
    answer: z.object({ partNumber: z.number().int(), size: z.number().int() }),
  },
  'POST /api/vault/uploads/:itemId/complete': {
    summary: 'Complete an upload with its metadata, grants and the manifest the vault signed',
    status: 201,
    answer: vaultItemSchema,
    errors: [409, 413],
  },
  'DELETE /api/vault/uploads/:itemId': { summary: 'Cancel an upload', answer: message },
  'GET /api/vault/items': { summary: 'Every item in the vault (ciphertext metadata)', answer: z.array(vaultItemSchema) },
  'GET /api/vault/items/:id/content': { summary: "An item's ciphertext", answer: binary('The encrypted content.') },
  'GET /api/vault/estate': { summary: 'Every item with its seal and grants, for the estate bundle (ciphertext metadata only)', answer: z.array(estateItemSchema) },
  'POST /api/vault/exports': { summary: 'Record a finished "Download my vault" in the audit chain (counts only)', status: 201, answer: message },
  'PUT /api/vault/items/:id/grants': {
    summary: 'Add or replace grants on an item, signed by the vault',
    answer: z.object({ beneficiaryIds: z.array(z.string()) }),
    errors: [409],
  },
  'GET /api/vault/seal': { summary: 'A page of items stored before manifests, to be sealed by the vault', answer: sealPageSchema },
  'POST /api/vault/items/:id/seal': { summary: 'Seal an item stored before manifests: its manifest and re-wrapped grants', answer: vaultItemSchema, errors: [409] },
  'DELETE /api/vault/items/:id': { summary: 'Delete an item', answer: message },

  // --- Beneficiaries ---
  'GET /api/beneficiaries': { summary: 'The beneficiaries', answer: z.array(beneficiarySchema) },
  'POST /api/beneficiaries': { summary: 'Add a beneficiary', status: 201, answer: beneficiaryWithEmailSentSchema, errors: [402, 409, 429] },
  'PUT /api/beneficiaries/:id': { summary: 'Update a beneficiary', answer: beneficiaryWithEmailSentSchema, errors: [409, 429] },
  'POST /api/beneficiaries/:id/resend-verification': { summary: 'Send the verification link again', answer: beneficiaryWithEmailSentSchema, errors: [409, 429] },
  'POST /api/beneficiaries/:id/rotate-key': { summary: "Replace a beneficiary's key and re-wrapped grants at once", answer: beneficiarySchema, errors: [409] },
  'POST /api/beneficiaries/:id/rotations': { summary: 'Start a key replacement in pages', status: 201, answer: rotationStartedSchema, errors: [409] },
  'PUT /api/beneficiaries/:id/rotations/:rotationId/grants': { summary: 'Send a page of re-wrapped grants', answer: z.object({ received: z.number().int() }) },
  'POST /api/beneficiaries/:id/rotations/:rotationId/commit': { summary: 'Switch to the new key and grants', answer: beneficiarySchema, errors: [409] },
  'POST /api/beneficiaries/:id/key-signature': { summary: "State a beneficiary as they are: a key stored before signing keys, or a v1 statement restated", answer: beneficiarySchema, errors: [409] },
  'DELETE /api/beneficiaries/:id': { summary: 'Remove a beneficiary', answer: message },
  'POST /api/beneficiaries/verify': {
    summary: "Confirm a beneficiary's address (link token)",
    answer: z.object({ message: z.string(), beneficiary: z.object({ fullName: z.string(), ownerName: z.string() }) }),
    errors: [409],
  },
  'GET /api/beneficiary-notifications': { summary: "A beneficiary's notification choice (link token)" },
  'POST /api/beneficiary-notifications/opt-in': { summary: 'Opt in to notifications (link token)', answer: z.object({ status: z.literal('opted_in') }) },
  'GET /api/beneficiary-key-backup': { summary: "What an heir's browser needs to protect their key with a passphrase (invitation link token)" },
  'PUT /api/beneficiary-key-backup': {
    summary: "Store the heir's passphrase-wrapped key (invitation link token), before anything is released to them",
    answer: z.object({ keyBackupAt: z.string() }),
    errors: [409],
  },
  'POST /api/beneficiary-notifications/unsubscribe': {
    summary: 'Unsubscribe from notifications (link token)',
    answer: z.object({ status: z.literal('unsubscribed'), alreadyUnsubscribed: z.boolean() }),
  },

  // --- Approvers ---
  'GET /api/approvers': { summary: 'The approvers', answer: z.array(approverSchema) },
  'POST /api/approvers': {
    summary: 'Add an approver (fresh proof)',
    description: 'Once verified, an approver can confirm a death (firing a Verified Death trigger) and sign off releases, so adding one needs fresh proof and the owner is e-mailed at once.',
    status: 201,
    answer: approverWithEmailSentSchema,
    errors: [409, 429],
  },
  'POST /api/approvers/:id/resend-verification': { summary: 'Send the verification link again', answer: approverWithEmailSentSchema, errors: [409, 429] },
  'DELETE /api/approvers/:id': { summary: 'Remove an approver', answer: message },
  'POST /api/approvers/verify': { summary: "Confirm an approver's address (link token)", errors: [409] },

  // --- Policies ---
  'GET /api/policies': { summary: 'The access policies', answer: z.array(policySchema) },
  'POST /api/policies': {
    summary: 'Create a policy',
    description: 'Turning on access on request needs fresh proof (403 with the ways to give it), and the owner is e-mailed.',
    status: 201,
    answer: policySchema,
    errors: [403],
  },
  'PUT /api/policies/:id': { summary: "Set a policy's status", description: 'Activating a policy with access on request needs fresh proof.', answer: policySchema, errors: [403] },
  'PUT /api/policies/:id/items': { summary: 'Add the items the browser matched to a policy', answer: z.object({ itemCount: z.number().int() }) },
  'DELETE /api/policies/:id': { summary: 'Delete a policy', answer: message },

  // --- Triggers and the engine ---
  'GET /api/triggers': { summary: 'The triggers', answer: z.array(triggerSchema) },
  'POST /api/triggers': { summary: 'Create a trigger (a second inactivity trigger is a 409)', status: 201, answer: triggerSchema, errors: [409] },
  'PUT /api/triggers/:id': { summary: "Pause or activate a trigger, or change an inactivity trigger's schedule", answer: triggerSchema, errors: [409] },
  'POST /api/triggers/:id/resend-report-links': { summary: 'Send death-report links to the approvers again', answer: z.object({ sent: z.number().int(), message: z.string() }), errors: [409, 429] },
  'GET /api/trigger-engine/status': { summary: 'The check-in clock and the releases', answer: engineStatusSchema },
  'POST /api/trigger-engine/dry-run/:id': { summary: 'What a trigger would release, without firing it', answer: dryRunResultSchema },
  'POST /api/trigger-engine/manual/:id': { summary: 'Release by hand', answer: manualReleaseResultSchema, errors: [409] },
  'POST /api/trigger-engine/releases/:releaseId/cancel': { summary: 'Cancel a waiting release', answer: releaseSummarySchema, errors: [409] },
  'POST /api/trigger-engine/biometric-failure': {
    summary: 'Report a failed vault unlock (a wrong passphrase)',
    description: `Counts toward Failed unlock attempts triggers once ${UNLOCK_FORGIVE_MS / 60_000} minutes pass without a successful unlock; the answer says how many attempts are left.`,
    answer: unlockFailureResultSchema,
  },
  'POST /api/trigger-engine/unlock-success': {
    summary: 'Report a successful vault unlock',
    description: `Forgives the failed unlock attempts of the ${UNLOCK_FORGIVE_MS / 60_000} minutes before it.`,
    answer: unlockSuccessResultSchema,
  },
  'POST /api/inactivity/ping': {
    summary: 'Check in from the app',
    answer: z.object({ lastCheckInAt: z.string().nullable(), nextCheckInAt: z.string().nullable(), cancelledReleases: z.number().int() }),
  },
  'POST /api/inactivity/check-in': { summary: 'Check in from the e-mail (link token)', answer: z.object({ message: z.string(), cancelledReleases: z.number().int() }) },
  'GET /api/release-readiness': { summary: 'Whether what was chosen would reach the people chosen' },

  // --- Audit ---
  'GET /api/audit': {
    summary: 'A page of the audit chain',
    description: 'Without `from`: the newest entries, newest first. With `from`: entries from that seq on, oldest first.',
    answer: z.array(auditEntrySchema),
  },
  'GET /api/audit/export': { summary: 'The whole audit chain, oldest first', answer: { type: 'application/json', schema: z.array(auditEntrySchema), description: 'Streamed as a download.' } },
  'GET /api/audit/verify': { summary: "The server's check of the audit chain", answer: serverVerificationSchema },

  // --- Identity documents ---
  'POST /api/identity-verification/:beneficiaryId': {
    summary: "Upload a beneficiary's identity document (dialog)",
    status: 201,
    body: identityUpload('document'),
    answer: identityDocumentSchema,
    errors: [400, 409],
  },
  'POST /api/identity-documents': {
    summary: "Upload a beneficiary's identity document (page)",
    status: 201,
    body: identityUpload('frontImage', { beneficiaryId: z.uuid() }),
    answer: identityDocumentSchema,
    errors: [400, 404, 409],
  },
  'GET /api/identity-documents/beneficiary/:beneficiaryId': { summary: "A beneficiary's identity documents", answer: z.array(identityDocumentSchema) },
  'GET /api/identity-documents/:id/file/:side': { summary: "One side of a document's file", answer: identityFile },
  'GET /api/identity-reviews': { summary: 'The document an approver is asked to review (link token)' },
  'GET /api/identity-reviews/file/:side': { summary: 'One side of the document under review (link token)', answer: identityFile },
  'POST /api/identity-verifications': {
    summary: "An approver's review of a document (link token)",
    answer: z.object({ message: z.string(), documentStatus: z.string() }),
    errors: [409],
  },

  // --- Releases, through e-mailed links ---
  'GET /api/releases/cancel': { summary: "What the owner's cancel link would take back (link token)" },
  'POST /api/releases/cancel': {
    summary: 'Cancel a release: stop what waits, withdraw what is available (link token)',
    answer: z.object({ message: z.string(), cancelledReleases: z.number().int(), withdrawnItems: z.number().int(), heirsTold: z.number().int() }),
    errors: [409],
  },
  'GET /api/release-approvals': { summary: 'The release an approver is asked to sign off (link token)' },
  'POST /api/release-approvals': { summary: "An approver's sign-off (link token)", errors: [409] },
  // --- Access on request ---
  'GET /api/access-requests': { summary: 'Access requests, and what a request on each policy would release (dry run)', answer: ownerAccessRequestsSchema },
  'POST /api/access-requests/:id/approve': { summary: 'Approve an access request now (fresh proof)', answer: accessRequestSchema, errors: [409] },
  'POST /api/access-requests/:id/refuse': { summary: 'Refuse an access request', answer: accessRequestSchema, errors: [409] },
  'GET /api/access-requests/refuse': { summary: "What the owner's Refuse link refuses (link token)", answer: accessRefuseViewSchema },
  'POST /api/access-requests/refuse': { summary: 'Refuse an access request (link token)', answer: z.object({ message: z.string(), request: accessRequestSchema }), errors: [404, 409] },
  'GET /api/access-requests/by-link': { summary: 'What an approver may ask for (link token)', answer: requesterViewSchema },
  'POST /api/access-requests/by-link': { summary: "An approver's request for access (link token)", status: 201, answer: accessRequestResultSchema, errors: [404, 409] },
  'GET /api/beneficiaries/:id/access-requests': { summary: 'What a beneficiary may ask for (link token)', answer: requesterViewSchema, errors: [403] },
  'POST /api/beneficiaries/:id/access-requests': {
    summary: "A beneficiary's request for access (link token)",
    status: 201,
    answer: accessRequestResultSchema,
    errors: [403, 404, 409],
  },
  'GET /api/death-reports': { summary: 'The death report an approver is asked for (link token)' },
  'POST /api/death-reports': { summary: "An approver's confirmation of the owner's death (link token)", answer: message, errors: [409] },
  'POST /api/beneficiary-portal/link': { summary: 'E-mail a new portal link', description: 'The same answer whoever asks.', answer: message },
  'GET /api/beneficiaries/:id/key-backup': { summary: "The heir's passphrase-wrapped key, for the portal without the kit (link token)", errors: [403, 404] },
  'GET /api/beneficiaries/:id/portal': { summary: "The beneficiary portal's summary (link token)", errors: [403] },
  'GET /api/beneficiaries/:id/assets': { summary: 'The items released to a beneficiary (link token)', errors: [403] },
  'GET /api/beneficiaries/:id/assets/:assetId/download': { summary: 'A download ticket for a released item (link token)', errors: [403, 409, 410] },
  'GET /api/beneficiaries/:id/assets/:assetId/content': { summary: "A released item's ciphertext (download ticket)", answer: binary('The encrypted content.'), errors: [403] },
  'POST /api/beneficiaries/:id/renewals': {
    summary: 'An heir whose released items ran out asks for more downloads and time (link token)',
    status: 201,
    errors: [403, 409],
  },
  'GET /api/renewal-decisions': { summary: "The request for more time the owner or an approver is asked to answer (link token)", errors: [403] },
  'POST /api/renewal-decisions': { summary: "The owner's or an approver's answer to a request for more time (link token)", errors: [403, 409] },
  'POST /api/beneficiaries/:id/identity-document': {
    summary: "A beneficiary's own identity document (link token)",
    status: 201,
    body: identityUpload('frontImage'),
    answer: z.object({ identityStatus: z.literal('pending') }),
    errors: [400, 403, 409],
  },

  // --- E-mail preview ---
  'GET /api/email-preview/beneficiary-invitation': {
    summary: 'The beneficiary invitation, filled with sample values',
    query: z.object({ secrecy: z.enum(['1']).optional() }),
  },

  // --- The back office ---
  'GET /api/admin/dashboard': { summary: 'Figures for the dashboard' },
  'GET /api/admin/analytics': { summary: 'Sign-ups and revenue over time' },
  'GET /api/admin/actions': { summary: "The administrators' trail (newest 100)", answer: z.array(z.object({}).loose()) },
  'GET /api/admin/users': {
    summary: 'A page of accounts, newest first or searched by the start of an e-mail or name',
    answer: z.object({ users: z.array(z.object({}).loose()), nextCursor: z.string().nullable() }),
    errors: [400],
  },
  'POST /api/admin/users/:id/pause': { summary: 'Pause an account', errors: [409] },
  'POST /api/admin/users/:id/resume': { summary: 'Resume a paused account', errors: [409] },
  'POST /api/admin/users/:id/extend': { summary: "Extend an account's subscription", errors: [409] },
  'GET /api/admin/users/:id/vault-export': { summary: "An owner's vault as stored (ciphertext only)" },
  'DELETE /api/admin/users/:id': { summary: 'Delete an account', answer: z.object({ message: z.string(), deletedUserEmail: z.string() }), errors: [409] },
  'GET /api/admin/promo-codes': { summary: 'Promotion codes', answer: z.array(z.object({}).loose()) },
  'POST /api/admin/promo-codes': { summary: 'Create a promotion code', status: 201, errors: [409] },
  'DELETE /api/admin/promo-codes/:id': { summary: 'Delete an unused promotion code', answer: z.object({ message: z.string(), id: z.string() }), errors: [409] },
  'GET /api/admin/refunds': { summary: 'Refunds issued', answer: z.array(z.object({}).loose()) },
  'POST /api/admin/refunds': { summary: 'Refund a payment', status: 201, errors: [409, 502] },

  // --- Development only ---
  'GET /api/dev/outbox': { summary: 'Every e-mail the server sent (local mailbox)', answer: z.array(outboxMessageSchema) },
  'POST /api/dev/audit-fill': { summary: "Fill an owner's audit chain", answer: z.object({ appended: z.number().int() }) },
  'POST /api/dev/vault-fill': { summary: 'Fill a vault with contentless items', answer: z.object({ items: z.number().int() }) },
  'POST /api/dev/legacy-vault': { summary: 'Make a vault as one made before signing keys', answer: z.object({ beneficiaries: z.number().int() }) },
  'POST /api/dev/format-one-vault': { summary: 'Make a vault of format 1 from wraps the caller computed', answer: z.object({ wraps: z.number().int() }) },
  'POST /api/dev/unsealed-items': { summary: "Make an owner's items as if stored before manifests", answer: z.object({ items: z.number().int() }) },
  'POST /api/dev/sweep': { summary: "Run the cron's sweeps now" },
  'GET /api/dev/users-before-paging': {
    summary: 'The users list as read before it was paged, with D1 rows read (bench reference)',
    answer: z.object({ accounts: z.number().int(), rowsRead: z.number() }),
  },
  'POST /api/dev/plant-item': { summary: 'Plant an item as a hostile server could', answer: z.object({ id: z.string() }) },
  'POST /api/dev/access-requests/elapse': { summary: "End the wait of an owner's waiting access requests now", answer: z.object({ released: z.number().int() }) },
  'POST /api/dev/age-proof': { summary: "Make every session of an owner as if its proof were long past", answer: z.object({ sessions: z.number().int() }) },
  'POST /api/dev/mirror-account': { summary: "Copy an account's row into its owner's object again", answer: z.object({ mirrored: z.boolean() }) },
  'POST /api/dev/older-kits': { summary: "Mark every beneficiary's kit as printed before vault fingerprints", answer: z.object({ beneficiaries: z.number().int() }) },
}
