import { z } from 'zod'
import {
  DEFAULT_DELAY_HOURS,
  POLICY_MESSAGES,
  policyFormSchema,
  type PolicyCreateBody,
  type PolicyForm,
  type PolicySelectors,
} from '../../../contract/policies'
import { ACCESS_REQUEST, ACCESS_REQUEST_MESSAGES } from '../../../contract/access-requests'
import { parseTags } from '../../../contract/vault-items'
import { normalizeSelectors } from './selectors'

// The Create Policy form (seeds 001 §5 'Policy form'): the contract's fields and messages, with
// its approver rule checked even while other fields are still wrong (zod skips an object's
// refinements until its fields pass, which would hide that message until last), plus a length
// cap on tags so the sealed selectors always fit what the server stores.

export const TAGS_MAX = 500
export const TAGS_TOO_LONG = `Tags must be at most ${TAGS_MAX} characters`

type Raw = { requiresApprover?: unknown; approverContact?: unknown; tags?: unknown; accessRequestOn?: unknown; accessRequestBy?: unknown }
const always = { when: () => true }

export const policyDialogSchema = z
  .object(policyFormSchema.shape)
  .refine(
    (v) => {
      const raw = v as Raw
      if (raw.requiresApprover !== true) return true
      return typeof raw.approverContact === 'string' && z.email().safeParse(raw.approverContact.trim()).success
    },
    { message: POLICY_MESSAGES.approverContactRequired, path: ['approverContact'], ...always },
  )
  .refine((v) => (v as Raw).accessRequestOn !== true || (Array.isArray((v as Raw).accessRequestBy) && ((v as Raw).accessRequestBy as unknown[]).length > 0), {
    message: ACCESS_REQUEST_MESSAGES.requestersRequired,
    path: ['accessRequestBy'],
    ...always,
  })
  .refine((v) => typeof (v as Raw).tags !== 'string' || ((v as Raw).tags as string).length <= TAGS_MAX, {
    message: TAGS_TOO_LONG,
    path: ['tags'],
    ...always,
  })

export type PolicyFormValues = PolicyForm
export type PolicyFormOutput = z.output<typeof policyFormSchema>

export const POLICY_FORM_DEFAULTS: PolicyFormValues = {
  name: '',
  description: '',
  types: [],
  tags: '',
  beneficiaryIds: [],
  triggers: [],
  delayHours: DEFAULT_DELAY_HOURS,
  requiresApprover: false,
  approverContact: '',
  minimumApprovals: 1,
  requiresIdentityVerification: false,
  identityVerificationApprovers: [],
  requiredDocumentTypes: [],
  accessRequestOn: false,
  accessRequestDays: ACCESS_REQUEST.defaultDays,
  accessRequestBy: ['beneficiaries'],
}

/** What the browser seals: the ticked types and the comma-separated tags (trimmed, empties dropped). */
export function selectorsFrom(values: Pick<PolicyFormOutput, 'types' | 'tags'>): PolicySelectors {
  return normalizeSelectors({ types: values.types, tags: parseTags(values.tags) })
}

/**
 * POST /api/policies's body: the form's clear settings, and the selectors only as ciphertext.
 * Settings that a switched-off option would leave behind (an approver address, reviewers,
 * document types) are not sent. New policies start active (seeds 001 §4).
 */
export function createBodyFrom(
  values: PolicyFormOutput,
  sealed: { encryptedSelectors: string; wrappedKey: string },
): PolicyCreateBody {
  const identity = values.requiresIdentityVerification
  return {
    name: values.name,
    description: values.description,
    ruleJson: {
      assign: [...new Set(values.beneficiaryIds)].map((beneficiaryId) => ({ beneficiaryId, access: 'read' as const })),
      release: { on: [...new Set(values.triggers)], delayHours: values.delayHours, requiresApprover: values.requiresApprover },
    },
    encryptedSelectors: sealed.encryptedSelectors,
    wrappedKey: sealed.wrappedKey,
    requiresApprover: values.requiresApprover,
    approverContact: values.requiresApprover ? values.approverContact : undefined,
    requiresIdentityVerification: identity,
    identityVerificationApprovers: identity ? [...new Set(values.identityVerificationApprovers)] : [],
    requiredDocumentTypes: identity ? [...new Set(values.requiredDocumentTypes)] : [],
    minimumApprovals: values.minimumApprovals,
    accessRequest: values.accessRequestOn ? { days: values.accessRequestDays, by: [...new Set(values.accessRequestBy)] } : null,
    status: 'active',
  }
}
