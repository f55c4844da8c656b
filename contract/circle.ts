import { z } from 'zod'
import { keySignatureSchema } from './key-signing'
import { emailField } from './auth'
import { statementSequenceSchema, statementSignatureSchema } from './vault-statements'

// Beneficiaries and approvers: the owner's circle (seeds 001 §3, §5, §7).

/**
 * What the vault sends on the owner's behalf, so that it cannot be turned against third parties:
 * e-mails to one address an hour, and to people other than the owner a day (the engine's own mail
 * counts, but is never held back: only the owner's invitations and resends are refused). Counted
 * by address, so removing a person and adding them again starts nothing afresh.
 */
export const MAIL_LIMITS = { perPersonPerHour: 3, thirdPartyPerDay: 50 } as const

export const CIRCLE_MESSAGES = {
  fullNameMin: 'Full name must be at least 2 characters',
  relationshipMin: 'Relationship must be specified',
  roleMin: 'Role must be specified',
  privateKeyRefused:
    "A beneficiary's private key must never be sent to the server. Keep it in the Beneficiary Access Kit, outside this service.",
  publicKeyInvalid: 'publicKey must be an RSA-OAEP 2048-bit public key in base64 SPKI form',
  verifiedNotSettable: 'An address is verified only through the link e-mailed to it; use Resend Verification instead.',
  beneficiaryNotFound: 'Beneficiary not found.',
  approverNotFound: 'Approver not found.',
  duplicateBeneficiary: 'This person is already one of your beneficiaries.',
  beneficiaryIdTaken: 'This beneficiary was already added. Reload the page to see them.',
  duplicateApprover: 'This person is already one of your approvers.',
  beneficiaryLimit: (max: number) =>
    `Your Basic plan allows up to ${max} beneficiaries. Upgrade to Premium or Enterprise for unlimited beneficiaries.`,
  linkInvalid: 'This link is invalid or has been replaced by a newer one. Ask the vault owner to send a new one.',
  linkExpired: 'This link has expired. Ask the vault owner to send a new one.',
  linkWrongPerson: 'This link belongs to someone else.',
  alreadyVerified: 'This address is already verified.',
  noToken: 'Invalid verification link. No token provided.',
  verificationFailed: 'Verification failed. Please try again.',
  networkError: 'Network error. Please check your connection and try again.',
  unsubscribed: 'This person has unsubscribed from notifications; no e-mail was sent.',
  rotationIncomplete: 'Every item granted to this beneficiary must be re-wrapped with the new key; reload and try again.',
  keyChangedMeanwhile: "This beneficiary's key was changed meanwhile, in another tab or on another device. Reload and try again.",
  rotationNotFound: 'This key replacement is no longer open. Start it again.',
  resendLimit: `This person has been e-mailed ${MAIL_LIMITS.perPersonPerHour} times in the last hour. Please wait before sending another link.`,
  // Invitations and resends to one address count together, even if the person was removed and added again.
  invitationLimit: `This address has been e-mailed ${MAIL_LIMITS.perPersonPerHour} times by your vault in the last hour, the most it sends one person. Nothing was saved: try again in an hour, or add them without the verification e-mail and send it later.`,
  newAddressLimit: `This address has been e-mailed ${MAIL_LIMITS.perPersonPerHour} times by your vault in the last hour, the most it sends one person. Nothing was changed: please try again in an hour.`,
  invitationHeld: 'This invitation goes out once you confirm your e-mail address: follow the link we sent you at registration, or send yourself a new one.',
  dailyMailLimit: `Your vault has sent ${MAIL_LIMITS.thirdPartyPerDay} e-mails to other people today, the most it sends in a day. Please try again tomorrow.`,
} as const

const fullName = z
  .string({ error: CIRCLE_MESSAGES.fullNameMin })
  .trim()
  .min(2, CIRCLE_MESSAGES.fullNameMin)
  .max(120, 'Full name must be at most 120 characters')
const relationship = z
  .string({ error: CIRCLE_MESSAGES.relationshipMin })
  .trim()
  .min(2, CIRCLE_MESSAGES.relationshipMin)
  .max(60, 'Relationship must be at most 60 characters')

// RSA-2048 SPKI is 294 bytes, 392 base64 characters; allow a little slack for other encoders.
export const spkiPublicKey = z
  .string({ error: CIRCLE_MESSAGES.publicKeyInvalid })
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, CIRCLE_MESSAGES.publicKeyInvalid)
  .min(380, CIRCLE_MESSAGES.publicKeyInvalid)
  .max(420, CIRCLE_MESSAGES.publicKeyInvalid)

// Present only to be refused: the spec's client sent it; ours never does.
const refusedPrivateKey = z.never({ error: CIRCLE_MESSAGES.privateKeyRefused }).optional()

/** The Add Beneficiary form (seeds 001 §5), without the key the browser makes. */
export const beneficiaryFormSchema = z.object({
  fullName,
  email: emailField,
  relationship,
  sendVerificationEmail: z.boolean(),
  sendAssetNotifications: z.boolean(),
  delayNotifications: z.boolean(),
})
export type BeneficiaryForm = z.input<typeof beneficiaryFormSchema>
export const BENEFICIARY_FORM_DEFAULTS: BeneficiaryForm = {
  fullName: '',
  email: '',
  relationship: '',
  sendVerificationEmail: true,
  sendAssetNotifications: true,
  delayNotifications: false,
}

export const beneficiaryCreateBodySchema = z.object({
  fullName,
  email: emailField,
  relationship,
  sendVerificationEmail: z.boolean().default(true),
  sendAssetNotifications: z.boolean().default(true),
  delayNotifications: z.boolean().default(false),
  // Chosen by the owner's browser, because the statement it signs names it.
  id: z.uuid('id must be a UUID'),
  publicKey: spkiPublicKey,
  // The owner's vault signature over the beneficiary statement (contract/vault-statements.ts, key version 1).
  keySignature: keySignatureSchema,
  statementSequence: statementSequenceSchema,
  privateKey: refusedPrivateKey,
  // The spec's client sends `verified: false`; nothing else is accepted.
  verified: z.literal(false).optional(),
})
export type BeneficiaryCreateBody = z.input<typeof beneficiaryCreateBodySchema>

export const beneficiaryUpdateBodySchema = z
  .object({
    fullName: fullName.optional(),
    email: emailField.optional(),
    relationship: relationship.optional(),
    sendAssetNotifications: z.boolean().optional(),
    delayNotifications: z.boolean().optional(),
    verified: z.never({ error: CIRCLE_MESSAGES.verifiedNotSettable }).optional(),
    privateKey: refusedPrivateKey,
    // Required with a new name, relationship or e-mail: the vault's statement over the row as it will be.
    keySignature: keySignatureSchema.optional(),
    statementSequence: statementSequenceSchema.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to update', path: ['body'] })
  .refine((v) => (v.keySignature === undefined) === (v.statementSequence === undefined), {
    message: 'keySignature and statementSequence go together',
    path: ['statementSequence'],
  })
export type BeneficiaryUpdateBody = z.input<typeof beneficiaryUpdateBodySchema>

export const IDENTITY_STATUSES = ['unverified', 'pending', 'verified', 'rejected'] as const
export const NOTIFICATION_STATUSES = ['pending', 'opted_in', 'unsubscribed'] as const

export const beneficiarySchema = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  relationship: z.string(),
  verified: z.boolean(),
  identityVerified: z.boolean(),
  identityStatus: z.enum(IDENTITY_STATUSES),
  sendAssetNotifications: z.boolean(),
  delayNotifications: z.boolean(),
  notificationStatus: z.enum(NOTIFICATION_STATUSES),
  // The owner's browser wraps each item's data key with it (a grant).
  publicKey: z.string(),
  publicKeyFingerprint: z.string(),
  keyVersion: z.number().int(),
  /**
   * The owner's vault signature over the beneficiary statement (contract/vault-statements.ts), or
   * over a v1 key statement (contract/key-signing.ts) when statementSequence is null; null until a
   * vault made before signing keys signs it.
   */
  keySignature: z.string().nullable(),
  /** The vault-wide sequence of the v2 statement keySignature is over; null for a v1 statement (contract/vault-statements.ts). */
  statementSequence: z.number().int().nullable(),
  /** Whether the Access Kit of the current key carries the vault's fingerprint (kits made from 0.3 on). */
  kitHasVaultFingerprint: z.boolean(),
  /** Whether the beneficiary protected a copy of their current key with a passphrase of their own (contract/heir-key-backup.ts). */
  hasKeyBackup: z.boolean(),
  /** Asked for before the owner confirmed their own address: it goes out once they do. */
  invitationHeld: z.boolean(),
  createdAt: z.string(),
})
export type Beneficiary = z.infer<typeof beneficiarySchema>

/** POST /api/beneficiaries/{id}/key-signature: a key stored before signing keys, signed once the owner confirmed it. */
export const beneficiaryKeySignatureBodySchema = z.object({ keySignature: keySignatureSchema, statementSequence: statementSequenceSchema })

/** One grant of a key rotation: an item's data key re-wrapped with the new public key. */
const rotatedGrant = z.object({ itemId: z.uuid(), wrappedKey: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/).max(1024) })

/** Grants a page of a staged rotation carries: within the grants body limit (GRANTS_BODY_MAX_BYTES). */
export const ROTATION_PAGE_SIZE = 250

/**
 * A rotation in pages, for a beneficiary with more items than one request holds: start it with the
 * new key (signed for the next version), send the re-wrapped grants in pages, then commit, which
 * switches key and grants at once. Until the commit the old key and grants stay in force.
 */
export const rotationStartBodySchema = z.object({
  publicKey: spkiPublicKey,
  keySignature: keySignatureSchema,
  statementSequence: statementSequenceSchema,
  replacesKeyVersion: z.number().int().min(1),
  privateKey: refusedPrivateKey,
})
export type RotationStartBody = z.input<typeof rotationStartBodySchema>
export const rotationGrantsBodySchema = z.object({ grants: z.array(rotatedGrant).min(1).max(ROTATION_PAGE_SIZE) })
export type RotationGrantsBody = z.infer<typeof rotationGrantsBodySchema>
/** The commit: the vault's signature over grantsStatement of every grant staged (contract/vault-statements.ts). */
export const rotationCommitBodySchema = z.object({ grantsSignature: statementSignatureSchema })
export type RotationCommitBody = z.infer<typeof rotationCommitBodySchema>
export const rotationStartedSchema = z.object({
  rotationId: z.string(),
  /** Items granted to the beneficiary now: each needs its grant re-wrapped before the commit. */
  grantedItems: z.number().int(),
})
export type RotationStarted = z.infer<typeof rotationStartedSchema>

/**
 * Key rotation for a lost Access Kit: the new public key, and every item granted to this
 * beneficiary re-wrapped with it, in one request, so no grant is left under the old key.
 */
export const beneficiaryRotateKeyBodySchema = z.object({
  publicKey: spkiPublicKey,
  // The owner's vault signature over the statement for the new key, at the version it will have (current + 1).
  keySignature: keySignatureSchema,
  statementSequence: statementSequenceSchema,
  // The vault's signature over grantsStatement of `grants`, each at the new key version.
  grantsSignature: statementSignatureSchema,
  privateKey: refusedPrivateKey,
  // The version of the key being replaced, as the owner saw it: a rotation made meanwhile (another
  // tab or device) wins, and this one is refused rather than silently replacing that new kit.
  replacesKeyVersion: z.number().int().min(1).optional(),
  grants: z.array(rotatedGrant).max(10_000),
})
export type BeneficiaryRotateKeyBody = z.input<typeof beneficiaryRotateKeyBodySchema>

export const approverFormSchema = z.object({
  fullName,
  email: emailField,
  role: z
    .string({ error: CIRCLE_MESSAGES.roleMin })
    .trim()
    .min(2, CIRCLE_MESSAGES.roleMin)
    .max(60, 'Role must be at most 60 characters'),
  sendVerificationEmail: z.boolean().default(true),
})
export type ApproverForm = z.input<typeof approverFormSchema>
export const APPROVER_FORM_DEFAULTS: ApproverForm = { fullName: '', email: '', role: '', sendVerificationEmail: true }

export const approverSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.string(),
  verified: z.boolean(),
  invitationHeld: z.boolean(),
  createdAt: z.string(),
})
export type Approver = z.infer<typeof approverSchema>

/** POST answers: the record plus whether the verification e-mail went out (seeds 001 §7). */
export type WithEmailSent<T> = T & { verificationEmailSent: boolean }
const emailSent = z.object({ verificationEmailSent: z.boolean() })
export const beneficiaryWithEmailSentSchema = z.intersection(beneficiarySchema, emailSent)
export const approverWithEmailSentSchema = z.intersection(approverSchema, emailSent)

export const linkTokenBodySchema = z.object({
  token: z.string({ error: CIRCLE_MESSAGES.noToken }).min(20, CIRCLE_MESSAGES.noToken).max(2048),
})
export const beneficiaryVerifyBodySchema = linkTokenBodySchema.extend({ id: z.string().max(64).optional() })
export const linkTokenQuerySchema = linkTokenBodySchema

export interface NotificationPreferences {
  fullName: string
  relationship: string | null
  ownerName: string
  status: (typeof NOTIFICATION_STATUSES)[number]
  secrecyMode: boolean
}

/** Formats a SHA-256 digest as the Access Kit shows it: 16 groups of 4 upper-case hex digits. */
export function formatFingerprint(digest: Uint8Array): string {
  const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase()
  return (hex.match(/.{4}/g) ?? []).slice(0, 16).join(' ')
}
