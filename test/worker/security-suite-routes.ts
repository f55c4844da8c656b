import { GRANTS_BODY_MAX_BYTES, partSize } from '../../contract/vault-items'
import type { LinkPurpose } from '../../worker/lib/link-tokens'
import { uniqueEmail } from './helpers'
import { WELL_FORMED_SIGNATURE, WRAPPED_SIGNING_KEY_STANDIN } from './vault-signing'

/** Shaped like a P-256 SPKI in base64 (124 characters); no key. */
const SIGNING_KEY_SHAPED = 'A'.repeat(124)
/** A rotation id no owner has started. */
const NO_ROTATION = '00000000-0000-4000-8000-00000000f00d'
/** A renewal request no heir has made. */
const NO_RENEWAL = '00000000-0000-4000-8000-00000000beef'

// The route table of the security suite (security-suite.test.ts): every endpoint the app serves
// under /api, who may call it, and what it reads. The suite fails when app.routes and this table
// disagree, so a new route cannot be added without being classified (and so attacked) here.

export type Access =
  /** Open to anyone (sign-in, sign-up, reset, billing config, Stripe's webhook, the API reference). */
  | 'public'
  /** Opened from an e-mailed link: a signed token in the query or body is the only credential. */
  | 'link'
  /** The signed-in owner's own data (a live session; 401 otherwise). */
  | 'owner'
  /** The back office: an administrator's live session (401 otherwise, 403 for an owner). */
  | 'admin'
  /** Local tools, only when ENVIRONMENT is "development". */
  | 'dev'

/**
 * What the route reads from the body: JSON (16 KB limit), raw text it verifies itself (Stripe's
 * webhook), one binary upload part, or a multipart identity-document upload.
 */
export type BodyKind = 'json' | 'raw' | 'binary' | 'multipart'

/** Owner A's things (and the other values the table names), filled in by the suite's setup. */
export interface Fixture {
  userId: string
  email: string
  /** An active vault item, granted to the beneficiary and released to them. */
  itemId: string
  /** An upload left open, its first part sent. */
  uploadId: string
  beneficiaryId: string
  /** A verified approver. */
  approverId: string
  /** The nonce of the approver's current death-report link (a genuine link carries it). */
  deathLinkNonce: string | null
  policyId: string
  /** An active trigger that has not fired. */
  triggerId: string
  /** A release waiting (its delay, an approver's sign-off). */
  releaseId: string
  /** The manual firing that made the release. */
  firingId: string
  /** The sign-off a release waits for: its release and the signer's address. */
  signoff: { releaseId: string; email: string }
  /** An identity document of the beneficiary (front and back). */
  documentId: string
  /** A waiting access request of the beneficiary's, on a policy that lets beneficiaries and approvers ask. */
  accessRequestId: string
  /** That policy. */
  requestablePolicyId: string
  /** A security key's credential id. */
  keyId: string
  /** A second signed-in session of owner A's (its number; never the suite's own token). */
  sessionId: string
  /** An asset released to the beneficiary (32 hex digits). */
  assetId: string
  /** A throwaway account the admin routes name (never owner A). */
  targetUserId: string
  /** The same account's address (dev routes that take one). */
  targetEmail: string
  /** A promotion code the admin routes name. */
  promoCodeId: string
  /** An RSA-OAEP public key (base64 SPKI), for bodies that need one. */
  publicKey: string
}

export interface LinkSpec {
  /** The purpose (audience) a genuine token is signed for. */
  purpose: LinkPurpose
  /** Where the token goes. */
  in: 'query' | 'body'
  /** The token's field or query parameter ('token' unless told). */
  name?: 'token' | 'ticket'
  /** The subject a genuine token for owner A's things names. */
  subject: (f: Fixture) => string
}

export interface RouteSpec {
  access: Access
  body?: BodyKind
  /**
   * A well-formed body naming owner A's things (for link routes: without the token). For
   * multipart routes, the text fields; the suite adds the image under `fileField`.
   */
  sample?: (f: Fixture) => unknown
  /** The body limit, when not the 16 KiB of JSON routes (the grants routes take more). */
  bodyLimit?: number
  fileField?: string
  /** Owner A's values for the path parameters. */
  params?: (f: Fixture) => Record<string, string>
  /** The query parameters the route validates (besides a link's token), with valid values. */
  query?: Record<string, string>
  link?: LinkSpec
}

const b64 = (s: string) => btoa(s)
const wrapped = b64('wrapped key')

function credential(response: Record<string, unknown>) {
  return { id: 'AAAAAAAAAAAAAAAAAAAAAA', rawId: 'AAAAAAAAAAAAAAAAAAAAAA', type: 'public-key', clientExtensionResults: {}, response }
}

function policyBody(f: Fixture) {
  return {
    name: 'Probe policy',
    description: 'A policy sent by the security suite.',
    ruleJson: { assign: [{ beneficiaryId: f.beneficiaryId, access: 'read' }], release: { on: ['verified_death'], delayHours: 72, requiresApprover: false } },
    encryptedSelectors: b64('sealed selectors'),
    wrappedKey: wrapped,
    requiresApprover: false,
    requiresIdentityVerification: true,
    identityVerificationApprovers: [f.approverId],
    requiredDocumentTypes: [],
    minimumApprovals: 1,
    status: 'active',
  }
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString()
const beneficiary = (f: Fixture) => ({ id: f.beneficiaryId })
const asset = (f: Fixture) => ({ id: f.beneficiaryId, assetId: f.assetId })
const portalLink: LinkSpec = { purpose: 'beneficiaryAccess', in: 'query', subject: (f) => f.beneficiaryId }

export const ROUTES: Record<string, RouteSpec> = {
  // --- Public ---
  'GET /api/health': { access: 'public' },
  'GET /api/openapi.json': { access: 'public' },
  'GET /api/docs': { access: 'public' },
  'GET /api/docs/app.js': { access: 'public' },
  'POST /api/stripe/webhook': { access: 'public', body: 'raw', sample: () => ({ id: 'evt_probe', type: 'invoice.paid' }) },
  'POST /api/mail/events': { access: 'public', body: 'raw', sample: (f) => ({ type: 'email.bounced', data: { to: [f.email] } }) },
  'POST /api/auth/register': {
    access: 'public',
    body: 'json',
    sample: () => ({ email: uniqueEmail('probe'), password: 'correct horse battery', displayName: 'Probe Person' }),
  },
  'POST /api/auth/login': { access: 'public', body: 'json', sample: () => ({ email: uniqueEmail('nobody'), password: 'not the password' }) },
  'POST /api/auth/logout': { access: 'public' },
  'POST /api/auth/forgot-password': { access: 'public', body: 'json', sample: () => ({ email: uniqueEmail('nobody') }) },
  'POST /api/auth/reset-password': { access: 'public', body: 'json', sample: () => ({ token: 'x'.repeat(43), password: 'another fine password' }) },
  'POST /api/auth/webauthn/login/options': { access: 'public' },
  'POST /api/auth/webauthn/login/verify': {
    access: 'public',
    body: 'json',
    sample: () => ({ response: credential({ clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' }) }),
  },
  'POST /api/auth/authenticator/sign-in': { access: 'public', body: 'json', sample: () => ({ ticket: 'x'.repeat(120), code: '123456' }) },
  'POST /api/auth/webauthn/second-factor/abandon': { access: 'public', body: 'json', sample: () => ({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) },
  'GET /api/billing/config': { access: 'public' },
  'POST /api/create-subscription-guest': { access: 'public', body: 'json', sample: () => ({ email: uniqueEmail('guest'), plan: 'basic' }) },
  'GET /api/email-preview/beneficiary-invitation': { access: 'public', query: { secrecy: '1' } },

  // --- Token links ---
  'POST /api/beneficiaries/verify': {
    access: 'link',
    body: 'json',
    sample: (f) => ({ id: f.beneficiaryId }),
    link: { purpose: 'beneficiaryVerify', in: 'body', subject: (f) => f.beneficiaryId },
  },
  'POST /api/auth/not-me': { access: 'link', body: 'json', sample: () => ({}), link: { purpose: 'notMe', in: 'body', subject: (f) => f.userId } },
  'POST /api/auth/confirm-email': { access: 'link', body: 'json', sample: () => ({}), link: { purpose: 'ownerEmailConfirm', in: 'body', subject: (f) => f.userId } },
  'POST /api/approvers/verify': { access: 'link', body: 'json', sample: () => ({}), link: { purpose: 'approverVerify', in: 'body', subject: (f) => f.approverId } },
  'GET /api/beneficiary-notifications': { access: 'link', link: { purpose: 'beneficiaryNotifications', in: 'query', subject: (f) => f.beneficiaryId } },
  'POST /api/beneficiary-notifications/opt-in': {
    access: 'link',
    body: 'json',
    sample: () => ({}),
    link: { purpose: 'beneficiaryNotifications', in: 'body', subject: (f) => f.beneficiaryId },
  },
  'POST /api/beneficiary-notifications/unsubscribe': {
    access: 'link',
    body: 'json',
    sample: () => ({}),
    link: { purpose: 'beneficiaryNotifications', in: 'body', subject: (f) => f.beneficiaryId },
  },
  'GET /api/beneficiary-key-backup': { access: 'link', link: { purpose: 'beneficiaryNotifications', in: 'query', subject: (f) => f.beneficiaryId } },
  'PUT /api/beneficiary-key-backup': {
    access: 'link',
    body: 'json',
    sample: () => ({ keyVersion: 1, backup: 'A'.repeat(64), salt: 'A'.repeat(43) + '=' }),
    link: { purpose: 'beneficiaryNotifications', in: 'body', subject: (f) => f.beneficiaryId },
  },
  'GET /api/identity-reviews': { access: 'link', link: { purpose: 'identityReview', in: 'query', subject: (f) => `${f.documentId}:${f.approverId}` } },
  'GET /api/identity-reviews/file/:side': {
    access: 'link',
    params: () => ({ side: 'front' }),
    link: { purpose: 'identityReview', in: 'query', subject: (f) => `${f.documentId}:${f.approverId}` },
  },
  'POST /api/identity-verifications': {
    access: 'link',
    body: 'json',
    sample: () => ({ status: 'approved', verificationNotes: 'Looks right.' }),
    link: { purpose: 'identityReview', in: 'body', subject: (f) => `${f.documentId}:${f.approverId}` },
  },
  // An heir's request for a new portal link: the same 200 whoever asks.
  'POST /api/beneficiary-portal/link': { access: 'public', body: 'json', sample: () => ({ email: uniqueEmail('probe') }) },
  'POST /api/inactivity/check-in': { access: 'link', body: 'json', sample: () => ({}), link: { purpose: 'checkIn', in: 'body', subject: (f) => f.userId } },
  'POST /api/releases/cancel': { access: 'link', body: 'json', sample: () => ({}), link: { purpose: 'releaseCancel', in: 'body', subject: (f) => f.firingId } },
  'GET /api/releases/cancel': { access: 'link', link: { purpose: 'releaseCancel', in: 'query', subject: (f) => f.firingId } },
  'GET /api/release-approvals': {
    access: 'link',
    link: { purpose: 'releaseApproval', in: 'query', subject: (f) => `${f.signoff.releaseId}:${f.signoff.email}` },
  },
  'POST /api/release-approvals': {
    access: 'link',
    body: 'json',
    sample: () => ({ decision: 'approved', notes: 'Fine by me.' }),
    link: { purpose: 'releaseApproval', in: 'body', subject: (f) => `${f.signoff.releaseId}:${f.signoff.email}` },
  },
  'GET /api/access-requests/refuse': { access: 'link', link: { purpose: 'accessRefuse', in: 'query', subject: (f) => f.accessRequestId } },
  'POST /api/access-requests/refuse': { access: 'link', body: 'json', sample: () => ({}), link: { purpose: 'accessRefuse', in: 'body', subject: (f) => f.accessRequestId } },
  'GET /api/access-requests/by-link': { access: 'link', link: { purpose: 'accessRequest', in: 'query', subject: (f) => f.approverId } },
  'POST /api/access-requests/by-link': {
    access: 'link',
    body: 'json',
    sample: (f) => ({ policyId: f.requestablePolicyId }),
    link: { purpose: 'accessRequest', in: 'body', subject: (f) => f.approverId },
  },
  'GET /api/beneficiaries/:id/access-requests': { access: 'link', params: beneficiary, link: portalLink },
  'POST /api/beneficiaries/:id/access-requests': { access: 'link', body: 'json', sample: (f) => ({ policyId: f.requestablePolicyId }), params: beneficiary, link: portalLink },
  'GET /api/death-reports': { access: 'link', link: { purpose: 'deathReport', in: 'query', subject: (f) => f.approverId } },
  'POST /api/death-reports': {
    access: 'link',
    body: 'json',
    sample: () => ({ certificateNumber: 'C-1', dateOfDeath: '2030-01-01', issuingAuthority: 'Registry', attest: true }),
    link: { purpose: 'deathReport', in: 'body', subject: (f) => f.approverId },
  },
  'GET /api/beneficiaries/:id/key-backup': { access: 'link', params: beneficiary, link: portalLink },
  'POST /api/beneficiaries/:id/renewals': { access: 'link', params: beneficiary, link: portalLink },
  // The suite's owner has no renewal request: a genuine token names one that does not exist (a 400).
  'GET /api/renewal-decisions': { access: 'link', link: { purpose: 'renewalDecision', in: 'query', subject: (f) => `${NO_RENEWAL}:${f.email}` } },
  'POST /api/renewal-decisions': {
    access: 'link',
    body: 'json',
    sample: () => ({ decision: 'approved' }),
    link: { purpose: 'renewalDecision', in: 'body', subject: (f) => `${NO_RENEWAL}:${f.email}` },
  },
  'GET /api/beneficiaries/:id/portal': { access: 'link', params: beneficiary, link: portalLink },
  'GET /api/beneficiaries/:id/assets': { access: 'link', params: beneficiary, link: portalLink },
  'GET /api/beneficiaries/:id/assets/:assetId/download': { access: 'link', params: asset, link: portalLink },
  'GET /api/beneficiaries/:id/assets/:assetId/content': {
    access: 'link',
    params: asset,
    link: { purpose: 'assetContent', in: 'query', name: 'ticket', subject: (f) => `${f.assetId}:${f.beneficiaryId}` },
  },
  'POST /api/beneficiaries/:id/identity-document': {
    access: 'link',
    body: 'multipart',
    sample: () => ({ documentType: 'passport' }),
    fileField: 'frontImage',
    params: beneficiary,
    link: portalLink,
  },

  // --- The owner's own ---
  'GET /api/auth/me': { access: 'owner' },
  'POST /api/auth/confirm-email/resend': { access: 'owner' },
  // Signed out is an answer here ({ user: null }); signed in, the caller's own account only.
  'GET /api/auth/session': { access: 'public' },
  'POST /api/auth/webauthn/register/options': { access: 'owner' },
  'POST /api/auth/webauthn/register/verify': {
    access: 'owner',
    body: 'json',
    sample: () => ({ response: credential({ clientDataJSON: 'AAAA', attestationObject: 'AAAA' }), name: 'Probe key' }),
  },
  'GET /api/auth/authenticator': { access: 'owner' },
  'POST /api/auth/authenticator/setup': { access: 'owner' },
  'POST /api/auth/authenticator/confirm': { access: 'owner', body: 'json', sample: () => ({ code: '123456' }) },
  'DELETE /api/auth/authenticator': { access: 'owner' },
  'POST /api/auth/authenticator/recovery-codes': { access: 'owner' },
  'GET /api/auth/security-keys': { access: 'owner' },
  'POST /api/auth/fresh-proof/options': { access: 'owner' },
  'POST /api/auth/fresh-proof': { access: 'owner', body: 'json', sample: () => ({ method: 'password', password: 'not the password' }) },
  'PATCH /api/auth/security-keys/:id': { access: 'owner', body: 'json', sample: () => ({ name: 'Renamed key' }), params: (f) => ({ id: f.keyId }) },
  'DELETE /api/auth/security-keys/:id': { access: 'owner', params: (f) => ({ id: f.keyId }) },
  'PUT /api/auth/security-keys/:id/trust': { access: 'owner', params: (f) => ({ id: f.keyId }) },
  'DELETE /api/auth/security-keys/:id/trust': { access: 'owner', params: (f) => ({ id: f.keyId }) },
  'PUT /api/auth/sessions/:id/trust': { access: 'owner', params: (f) => ({ id: f.sessionId }) },
  'DELETE /api/auth/sessions/:id/trust': { access: 'owner', params: (f) => ({ id: f.sessionId }) },
  'GET /api/auth/sessions': { access: 'owner' },
  'DELETE /api/auth/sessions/:id': { access: 'owner', params: (f) => ({ id: f.sessionId }) },
  'POST /api/auth/sessions/sign-out-others': { access: 'owner' },
  'POST /api/vault/setup': {
    access: 'owner',
    body: 'json',
    sample: () => ({
      vaultSalt: btoa(String.fromCharCode(...new Uint8Array(32))),
      passphraseCheck: b64('a passphrase check value'),
      wrappedVaultKey: btoa('k'.repeat(61)),
      signingPublicKey: SIGNING_KEY_SHAPED,
      wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN,
    }),
  },
  'POST /api/vault/passphrase': { access: 'owner', body: 'json', sample: () => ({ vaultSalt: btoa('s'.repeat(32)), passphraseCheck: btoa('c'.repeat(45)), wrappedVaultKey: btoa('k'.repeat(61)) }) },
  'POST /api/vault/key-move': { access: 'owner', body: 'json', sample: () => ({ wrappedVaultKey: btoa('k'.repeat(61)), wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN }) },
  'PUT /api/vault/key-move/pages': {
    access: 'owner',
    body: 'json',
    bodyLimit: GRANTS_BODY_MAX_BYTES,
    sample: () => ({ wraps: [{ kind: 'item', id: 'an-item', wrappedKey: btoa('k'.repeat(61)) }] }),
  },
  'POST /api/vault/key-move/commit': { access: 'owner' },
  'PUT /api/vault/recovery': { access: 'owner', body: 'json', sample: () => ({ recoverySalt: btoa('r'.repeat(32)), wrappedVaultKey: btoa('k'.repeat(61)) }) },
  'POST /api/vault/signing-key': { access: 'owner', body: 'json', sample: () => ({ signingPublicKey: SIGNING_KEY_SHAPED, wrappedSigningKey: WRAPPED_SIGNING_KEY_STANDIN }) },
  'POST /api/vault/exports': { access: 'owner', body: 'json', sample: () => ({ included: 3, leftOut: 0 }) },
  'POST /api/vault/uploads': { access: 'owner', body: 'json', sample: () => ({ type: 'doc', plainSize: 100 }) },
  'GET /api/vault/uploads/:itemId': { access: 'owner', params: (f) => ({ itemId: f.uploadId }) },
  'PUT /api/vault/uploads/:itemId/parts/:partNumber': {
    access: 'owner',
    body: 'binary',
    sample: () => new Uint8Array(partSize(1, 100)),
    params: (f) => ({ itemId: f.uploadId, partNumber: '1' }),
  },
  'POST /api/vault/uploads/:itemId/complete': {
    access: 'owner',
    body: 'json',
    bodyLimit: GRANTS_BODY_MAX_BYTES,
    sample: (f) => ({
      encryptedMetadata: b64('encrypted metadata'),
      wrappedKey: wrapped,
      policy: {},
      grants: [{ beneficiaryId: f.beneficiaryId, wrappedKey: wrapped }],
      policyIds: [f.policyId],
      manifestSignature: WELL_FORMED_SIGNATURE,
    }),
    params: (f) => ({ itemId: f.uploadId }),
  },
  'DELETE /api/vault/uploads/:itemId': { access: 'owner', params: (f) => ({ itemId: f.uploadId }) },
  'GET /api/vault/items': { access: 'owner' },
  'GET /api/vault/estate': { access: 'owner' },
  'GET /api/vault/items/:id/content': { access: 'owner', params: (f) => ({ id: f.itemId }) },
  'PUT /api/vault/items/:id/grants': {
    access: 'owner',
    body: 'json',
    bodyLimit: GRANTS_BODY_MAX_BYTES,
    sample: (f) => ({ grants: [{ beneficiaryId: f.beneficiaryId, wrappedKey: wrapped }], grantsSignature: WELL_FORMED_SIGNATURE }),
    params: (f) => ({ id: f.itemId }),
  },
  'GET /api/vault/seal': { access: 'owner', query: { after: '00000000-0000-4000-8000-000000000000' } },
  'POST /api/vault/items/:id/seal': {
    access: 'owner',
    body: 'json',
    bodyLimit: GRANTS_BODY_MAX_BYTES,
    sample: (f) => ({ grants: [{ beneficiaryId: f.beneficiaryId, wrappedKey: wrapped }], manifestSignature: WELL_FORMED_SIGNATURE }),
    params: (f) => ({ id: f.itemId }),
  },
  'DELETE /api/vault/items/:id': { access: 'owner', params: (f) => ({ id: f.itemId }) },
  'GET /api/beneficiaries': { access: 'owner' },
  'POST /api/beneficiaries': {
    access: 'owner',
    body: 'json',
    sample: (f) => ({
      fullName: 'Probe Beneficiary',
      email: uniqueEmail('probe'),
      relationship: 'Friend',
      id: crypto.randomUUID(),
      publicKey: f.publicKey,
      keySignature: WELL_FORMED_SIGNATURE,
      statementSequence: 1,
      sendVerificationEmail: false,
    }),
  },
  'PUT /api/beneficiaries/:id': {
    access: 'owner',
    body: 'json',
    sample: () => ({ fullName: 'Mallory Renamed', keySignature: WELL_FORMED_SIGNATURE, statementSequence: 1 }),
    params: beneficiary,
  },
  'POST /api/beneficiaries/:id/resend-verification': { access: 'owner', params: beneficiary },
  'POST /api/beneficiaries/:id/rotate-key': {
    access: 'owner',
    body: 'json',
    sample: (f) => ({
      publicKey: f.publicKey,
      keySignature: WELL_FORMED_SIGNATURE,
      statementSequence: 1,
      grantsSignature: WELL_FORMED_SIGNATURE,
      grants: [{ itemId: f.itemId, wrappedKey: wrapped }],
    }),
    params: beneficiary,
  },
  'POST /api/beneficiaries/:id/rotations': {
    access: 'owner',
    body: 'json',
    sample: (f) => ({ publicKey: f.publicKey, keySignature: WELL_FORMED_SIGNATURE, statementSequence: 1, replacesKeyVersion: 1 }),
    params: beneficiary,
  },
  'PUT /api/beneficiaries/:id/rotations/:rotationId/grants': {
    access: 'owner',
    body: 'json',
    bodyLimit: GRANTS_BODY_MAX_BYTES,
    sample: (f) => ({ grants: [{ itemId: f.itemId, wrappedKey: wrapped }] }),
    params: (f) => ({ id: f.beneficiaryId, rotationId: NO_ROTATION }),
  },
  'POST /api/beneficiaries/:id/rotations/:rotationId/commit': {
    access: 'owner',
    body: 'json',
    sample: () => ({ grantsSignature: WELL_FORMED_SIGNATURE }),
    params: (f) => ({ id: f.beneficiaryId, rotationId: NO_ROTATION }),
  },
  'POST /api/beneficiaries/:id/key-signature': {
    access: 'owner',
    body: 'json',
    sample: () => ({ keySignature: WELL_FORMED_SIGNATURE, statementSequence: 1 }),
    params: beneficiary,
  },
  'DELETE /api/beneficiaries/:id': { access: 'owner', params: beneficiary },
  'GET /api/approvers': { access: 'owner' },
  'POST /api/approvers': {
    access: 'owner',
    body: 'json',
    sample: () => ({ fullName: 'Probe Approver', email: uniqueEmail('probe'), role: 'Notary', sendVerificationEmail: false }),
  },
  'POST /api/approvers/:id/resend-verification': { access: 'owner', params: (f) => ({ id: f.approverId }) },
  'DELETE /api/approvers/:id': { access: 'owner', params: (f) => ({ id: f.approverId }) },
  'GET /api/policies': { access: 'owner' },
  'POST /api/policies': { access: 'owner', body: 'json', sample: policyBody },
  'PUT /api/policies/:id': { access: 'owner', body: 'json', sample: () => ({ status: 'inactive' }), params: (f) => ({ id: f.policyId }) },
  'PUT /api/policies/:id/items': { access: 'owner', body: 'json', sample: (f) => ({ itemIds: [f.itemId] }), params: (f) => ({ id: f.policyId }) },
  'DELETE /api/policies/:id': { access: 'owner', params: (f) => ({ id: f.policyId }) },
  'GET /api/user/safety-window': { access: 'owner' },
  'PUT /api/user/safety-window': { access: 'owner', body: 'json', sample: () => ({ hours: 48 }) },
  'GET /api/channels': { access: 'owner' },
  'PUT /api/channels/backup': { access: 'owner', body: 'json', sample: () => ({ email: uniqueEmail('backup') }) },
  'POST /api/channels/backup/resend': { access: 'owner' },
  'POST /api/channels/backup/verify': { access: 'owner', body: 'json', sample: () => ({ token: 'x'.repeat(40) }) },
  'DELETE /api/channels/backup': { access: 'owner' },
  'PUT /api/channels/contact': { access: 'owner', body: 'json', sample: () => ({ email: uniqueEmail('contact'), alerts: true }) },
  'PUT /api/user/ping-settings': { access: 'owner', body: 'json', sample: () => ({ pingFrequency: 30, gracePeriod: 3 }) },
  'GET /api/triggers': { access: 'owner' },
  'POST /api/triggers': {
    access: 'owner',
    body: 'json',
    sample: (f) => ({ type: 'scheduled', status: 'active', config: { releaseDate: inAWeek(), beneficiaries: [f.beneficiaryId], description: 'Probe' } }),
  },
  'PUT /api/triggers/:id': { access: 'owner', body: 'json', sample: () => ({ status: 'paused' }), params: (f) => ({ id: f.triggerId }) },
  'POST /api/triggers/:id/resend-report-links': { access: 'owner', params: (f) => ({ id: f.triggerId }) },
  'PUT /api/profile': {
    access: 'owner',
    body: 'json',
    sample: () => ({ displayName: 'Mallory Probe', country: 'UK', timezone: 'Europe/London', emailNotifications: true, twoFactorEnabled: false }),
  },
  'POST /api/profile/password': {
    access: 'owner',
    body: 'json',
    sample: (f) => ({ currentPassword: 'not the password', newPassword: 'a brand new password', confirmPassword: 'a brand new password', removeKeyIds: [f.keyId] }),
  },
  'DELETE /api/account/delete': { access: 'owner' },
  'POST /api/account/deletion/cancel': { access: 'owner' },
  'GET /api/account/subscription': { access: 'owner' },
  'POST /api/account/cancel-subscription': { access: 'owner' },
  'POST /api/account/resume-subscription': { access: 'owner' },
  'POST /api/account/payment-method': { access: 'owner' },
  'POST /api/account/pay-invoice': { access: 'owner' },
  'GET /api/account/invoices': { access: 'owner', query: { after: 'in_probe', limit: '10' } },
  'POST /api/create-subscription': { access: 'owner', body: 'json', sample: () => ({ plan: 'premium' }) },
  'POST /api/identity-verification/:beneficiaryId': {
    access: 'owner',
    body: 'multipart',
    sample: () => ({ documentType: 'passport' }),
    fileField: 'document',
    params: (f) => ({ beneficiaryId: f.beneficiaryId }),
  },
  'POST /api/identity-documents': {
    access: 'owner',
    body: 'multipart',
    sample: (f) => ({ beneficiaryId: f.beneficiaryId, documentType: 'national_id' }),
    fileField: 'frontImage',
  },
  'GET /api/identity-documents/beneficiary/:beneficiaryId': { access: 'owner', params: (f) => ({ beneficiaryId: f.beneficiaryId }) },
  'GET /api/identity-documents/:id/file/:side': { access: 'owner', params: (f) => ({ id: f.documentId, side: 'front' }) },
  'GET /api/trigger-engine/status': { access: 'owner' },
  'POST /api/trigger-engine/dry-run/:id': { access: 'owner', params: (f) => ({ id: f.triggerId }) },
  'POST /api/trigger-engine/manual/:id': {
    access: 'owner',
    body: 'json',
    sample: () => ({ reason: 'Probe', confirm: 'RELEASE' }),
    params: (f) => ({ id: f.triggerId }),
  },
  'POST /api/trigger-engine/releases/:releaseId/cancel': { access: 'owner', params: (f) => ({ releaseId: f.releaseId }) },
  'GET /api/access-requests': { access: 'owner' },
  'POST /api/access-requests/:id/approve': { access: 'owner', params: (f) => ({ id: f.accessRequestId }) },
  'POST /api/access-requests/:id/refuse': { access: 'owner', params: (f) => ({ id: f.accessRequestId }) },
  'POST /api/trigger-engine/biometric-failure': { access: 'owner', body: 'json', sample: () => ({ kind: 'vault_unlock' }) },
  'POST /api/trigger-engine/unlock-success': { access: 'owner', body: 'json', sample: () => ({ kind: 'vault_unlock' }) },
  'POST /api/inactivity/ping': { access: 'owner' },
  'GET /api/audit': { access: 'owner', query: { from: '1', limit: '10' } },
  'GET /api/audit/verify': { access: 'owner' },
  'GET /api/release-readiness': { access: 'owner' },
  'GET /api/audit/export': { access: 'owner' },

  // --- The back office ---
  'GET /api/admin/dashboard': { access: 'admin' },
  'GET /api/admin/analytics': { access: 'admin' },
  'GET /api/admin/actions': { access: 'admin' },
  // The cursor: a search's position (["q", "probe", a uuid]), as the list hands one out.
  'GET /api/admin/users': { access: 'admin', query: { q: 'probe', limit: '5', cursor: 'WyJxIiwicHJvYmUiLCIwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDAiXQ' } },
  'POST /api/admin/users/:id/pause': { access: 'admin', body: 'json', sample: () => ({ reason: 'Probe' }), params: (f) => ({ id: f.targetUserId }) },
  'POST /api/admin/users/:id/resume': { access: 'admin', params: (f) => ({ id: f.targetUserId }) },
  'POST /api/admin/users/:id/extend': { access: 'admin', body: 'json', sample: () => ({ days: 5 }), params: (f) => ({ id: f.targetUserId }) },
  'GET /api/admin/users/:id/vault-export': { access: 'admin', params: (f) => ({ id: f.targetUserId }) },
  'DELETE /api/admin/users/:id': { access: 'admin', params: (f) => ({ id: f.targetUserId }) },
  'GET /api/admin/promo-codes': { access: 'admin' },
  'POST /api/admin/promo-codes': {
    access: 'admin',
    body: 'json',
    sample: () => ({ code: `PROBE${crypto.randomUUID().slice(0, 6)}`, type: 'percentage', value: 10, maxUses: 5 }),
  },
  'DELETE /api/admin/promo-codes/:id': { access: 'admin', params: (f) => ({ id: f.promoCodeId }) },
  'GET /api/admin/refunds': { access: 'admin' },
  'POST /api/admin/refunds': { access: 'admin', body: 'json', sample: (f) => ({ userId: f.targetUserId, amount: 1, reason: 'Probe' }) },

  // --- Development only ---
  'GET /api/dev/outbox': { access: 'dev' },
  'POST /api/dev/sweep': { access: 'dev' },
  'GET /api/dev/users-before-paging': { access: 'dev', query: { q: 'probe' } },
  'POST /api/dev/audit-fill': { access: 'dev', body: 'json', sample: (f) => ({ email: f.email, count: 1 }) },
  'POST /api/dev/vault-fill': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail, items: 1 }) },
  'POST /api/dev/legacy-vault': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail }) },
  'POST /api/dev/format-one-vault': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail, wrappedSigningKey: 'x', wraps: [] }) },
  'POST /api/dev/unsealed-items': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail }) },
  'POST /api/dev/plant-item': {
    access: 'dev',
    body: 'json',
    sample: (f) => ({
      email: f.targetEmail,
      id: crypto.randomUUID(),
      type: 'doc',
      plainSize: 1,
      chunkBytes: 1024,
      encryptedMetadata: btoa('metadata'),
      content: btoa('content'),
      dataKey: btoa('k'.repeat(32)),
    }),
  },
  'POST /api/dev/age-proof': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail }) },
  'POST /api/dev/mirror-account': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail }) },
  'POST /api/dev/older-kits': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail }) },
  'POST /api/dev/access-requests/elapse': { access: 'dev', body: 'json', sample: (f) => ({ email: f.targetEmail }) },
}
