import { z } from 'zod'
import { ACCESS_REQUEST, ACCESS_REQUEST_MESSAGES, ACCESS_REQUESTERS, accessRequestSettingSchema } from './access-requests'
import { grantKeyVersionSchema, ITEM_TYPES } from './vault-items'
import { isBase64, statementSignatureSchema } from './vault-statements'

// Access policies (seeds 001 §2 'Access Policies page', §3 'Policy', §5 'Policy form', §9).
// Which items a policy covers is decided in the browser: its selectors (tags, types) are
// encrypted there, since tags are. The server keeps who receives, after which triggers, with
// which delay and checks: what the release engine needs.

export const POLICY_TRIGGERS = ['inactivity', 'verified_death', 'biometric_failure', 'device_loss', 'manual_release'] as const
export const POLICY_STATUSES = ['active', 'draft', 'inactive'] as const
export const POLICY_DOCUMENT_TYPES = ['drivers_license', 'passport', 'state_id', 'national_id'] as const
export const POLICY_DOCUMENT_TYPE_LABELS: Record<(typeof POLICY_DOCUMENT_TYPES)[number], string> = {
  drivers_license: "Driver's licence",
  passport: 'Passport',
  state_id: 'State ID',
  national_id: 'National ID',
}
export const DEFAULT_DELAY_HOURS = 72
export const MINIMUM_APPROVAL_OPTIONS = [1, 2, 3] as const

export const POLICY_MESSAGES = {
  nameMin: 'Policy name must be at least 2 characters',
  descriptionMin: 'Description must be at least 10 characters',
  typesRequired: 'Select at least one item type',
  beneficiariesRequired: 'Select at least one beneficiary',
  triggersRequired: 'Select at least one trigger',
  delayMin: 'Delay must be at least 0 hours',
  approverContactRequired: 'Approver contact is required when approver is needed',
  selectorsInClear: 'Selectors are encrypted in the browser; send encryptedSelectors instead.',
  policyNotFound: 'Policy not found.',
  unknownBeneficiary: 'One of the chosen beneficiaries does not exist.',
  unknownApprover: 'One of the chosen approvers does not exist.',
} as const

/** What the browser encrypts into `encryptedSelectors`. */
export interface PolicySelectors {
  types: (typeof ITEM_TYPES)[number][]
  tags: string[]
}

const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64').refine(isBase64, 'must be base64')

export const policyFormSchema = z
  .object({
    name: z.string().trim().min(2, POLICY_MESSAGES.nameMin).max(100),
    description: z.string().trim().min(10, POLICY_MESSAGES.descriptionMin).max(1000),
    types: z.array(z.enum(ITEM_TYPES)).min(1, POLICY_MESSAGES.typesRequired),
    tags: z.string(),
    beneficiaryIds: z.array(z.string()).min(1, POLICY_MESSAGES.beneficiariesRequired),
    triggers: z.array(z.enum(POLICY_TRIGGERS)).min(1, POLICY_MESSAGES.triggersRequired),
    delayHours: z.number({ error: POLICY_MESSAGES.delayMin }).int().min(0, POLICY_MESSAGES.delayMin).max(24 * 365),
    requiresApprover: z.boolean(),
    approverContact: z.string().trim(),
    minimumApprovals: z.number().int().min(1).max(3),
    requiresIdentityVerification: z.boolean(),
    identityVerificationApprovers: z.array(z.string()),
    requiredDocumentTypes: z.array(z.enum(POLICY_DOCUMENT_TYPES)),
    accessRequestOn: z.boolean(),
    accessRequestDays: z
      .number({ error: ACCESS_REQUEST_MESSAGES.daysRange })
      .int(ACCESS_REQUEST_MESSAGES.daysRange)
      .min(ACCESS_REQUEST.minDays, ACCESS_REQUEST_MESSAGES.daysRange)
      .max(ACCESS_REQUEST.maxDays, ACCESS_REQUEST_MESSAGES.daysRange),
    accessRequestBy: z.array(z.enum(ACCESS_REQUESTERS)),
  })
  .refine((v) => !v.requiresApprover || z.email().safeParse(v.approverContact).success, {
    message: POLICY_MESSAGES.approverContactRequired,
    path: ['approverContact'],
  })
export type PolicyForm = z.input<typeof policyFormSchema>

export const policyCreateBodySchema = z
  .object({
    name: z.string({ error: POLICY_MESSAGES.nameMin }).trim().min(2, POLICY_MESSAGES.nameMin).max(100),
    description: z.string({ error: POLICY_MESSAGES.descriptionMin }).trim().min(10, POLICY_MESSAGES.descriptionMin).max(1000),
    ruleJson: z.object({
      selectors: z.never({ error: POLICY_MESSAGES.selectorsInClear }).optional(),
      assign: z
        .array(z.object({ beneficiaryId: z.uuid(POLICY_MESSAGES.unknownBeneficiary), access: z.literal('read').default('read') }))
        .min(1, POLICY_MESSAGES.beneficiariesRequired)
        .max(200),
      release: z.object({
        on: z.array(z.enum(POLICY_TRIGGERS)).min(1, POLICY_MESSAGES.triggersRequired),
        delayHours: z.number({ error: POLICY_MESSAGES.delayMin }).int().min(0, POLICY_MESSAGES.delayMin).max(24 * 365).default(DEFAULT_DELAY_HOURS),
        requiresApprover: z.boolean().default(false),
      }),
    }),
    encryptedSelectors: base64.max(8 * 1024),
    wrappedKey: base64.max(1024),
    // As for an upload (contract/vault-items.ts): the vault format whose key wrapped `wrappedKey`.
    vaultFormat: z.union([z.literal(1), z.literal(2)]).optional(),
    requiresApprover: z.boolean().default(false),
    approverContact: z.email(POLICY_MESSAGES.approverContactRequired).max(254).optional().or(z.literal('').transform(() => undefined)),
    requiresIdentityVerification: z.boolean().default(false),
    identityVerificationApprovers: z.array(z.uuid(POLICY_MESSAGES.unknownApprover)).max(50).default([]),
    requiredDocumentTypes: z.array(z.enum(POLICY_DOCUMENT_TYPES)).default([]),
    minimumApprovals: z.number().int().min(1).max(3).default(1),
    status: z.enum(POLICY_STATUSES).default('active'),
    /** Access on request (contract/access-requests.ts); absent or null, off. */
    accessRequest: accessRequestSettingSchema.optional(),
  })
  .refine((v) => !v.requiresApprover || !!v.approverContact, {
    message: POLICY_MESSAGES.approverContactRequired,
    path: ['approverContact'],
  })
export type PolicyCreateBody = z.input<typeof policyCreateBodySchema>

export const policyStatusBodySchema = z.object({ status: z.enum(POLICY_STATUSES) })

export const policySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.enum(POLICY_STATUSES),
  ruleJson: z.object({
    assign: z.array(z.object({ beneficiaryId: z.string(), access: z.literal('read') })),
    release: z.object({ on: z.array(z.enum(POLICY_TRIGGERS)), delayHours: z.number(), requiresApprover: z.boolean() }),
  }),
  encryptedSelectors: z.string(),
  wrappedKey: z.string(),
  requiresApprover: z.boolean(),
  approverContact: z.string().nullable(),
  requiresIdentityVerification: z.boolean(),
  identityVerificationApprovers: z.array(z.string()),
  requiredDocumentTypes: z.array(z.enum(POLICY_DOCUMENT_TYPES)),
  minimumApprovals: z.number().int(),
  accessRequest: z.object({ days: z.number().int(), by: z.array(z.enum(['beneficiaries', 'approvers'])) }).nullable(),
  createdAt: z.string(),
})
export type Policy = z.infer<typeof policySchema>

/** PUT /api/policies/{id}/items: the items the owner's browser matched to the policy's selectors. */
export const policyItemsBodySchema = z.object({ itemIds: z.array(z.uuid()).min(1).max(300) })
export type PolicyItemsBody = z.infer<typeof policyItemsBodySchema>

export const itemGrantsBodySchema = z.object({
  grants: z.array(z.object({ beneficiaryId: z.uuid(), wrappedKey: base64.max(1024), keyVersion: grantKeyVersionSchema })).min(1).max(200),
  /** The vault's signature over `grantsStatement` of exactly these grants (contract/vault-statements.ts). */
  grantsSignature: statementSignatureSchema,
})
export type ItemGrantsBody = z.infer<typeof itemGrantsBodySchema>
