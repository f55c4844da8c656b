import { z } from 'zod'
import { VALIDATION } from '../../../../contract/messages'
import {
  DEFAULT_RELEASE_PROTOCOL,
  parseTags,
  RELEASE_PROTOCOLS,
  VAULT_ITEM_MESSAGES,
  type ItemMetadata,
  type PasswordEntry,
} from '../../../../contract/vault-items'
import type { UploadPolicy } from './upload-file'

// The Add Item form (seeds 001 §5 'Upload form'). Files and password entries share the release
// settings; the messages are the contract's.

export const UPLOAD_MODES = ['files', 'password'] as const
export type UploadMode = (typeof UPLOAD_MODES)[number]

/** Password-entry fields have no wording in the seeds; these are ours. */
export const PASSWORD_ENTRY_MESSAGES = {
  siteRequired: 'Site or service required',
  passwordRequired: 'Password required',
} as const

export const uploadFormSchema = z
  .object({
    mode: z.enum(UPLOAD_MODES),
    files: z.array(z.custom<File>((value) => typeof Blob !== 'undefined' && value instanceof Blob)),
    site: z.string().max(200, 'Site must be at most 200 characters'),
    username: z.string().max(200, 'Username must be at most 200 characters'),
    password: z.string().max(1000, 'Password must be at most 1000 characters'),
    notes: z.string().max(5000, 'Notes must be at most 5000 characters'),
    tags: z.string().max(500, 'Tags must be at most 500 characters'),
    protocol: z.union([z.enum(RELEASE_PROTOCOLS), z.literal('')]),
    beneficiaryIds: z.array(z.string()),
    /** Set by the dialog: every item already goes to someone through an active access policy. */
    coveredByPolicies: z.boolean(),
    requiresApprover: z.boolean(),
    approverContact: z.string().trim(),
    /** A datetime-local value (local time, no offset). */
    scheduledAt: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.beneficiaryIds.length === 0 && !v.coveredByPolicies) {
      ctx.addIssue({ code: 'custom', path: ['beneficiaryIds'], message: VAULT_ITEM_MESSAGES.beneficiariesRequired })
    }
    if (v.mode === 'files' && v.files.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['files'], message: VAULT_ITEM_MESSAGES.noFiles })
    }
    if (v.mode === 'password') {
      if (!v.site.trim()) ctx.addIssue({ code: 'custom', path: ['site'], message: PASSWORD_ENTRY_MESSAGES.siteRequired })
      if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_ENTRY_MESSAGES.passwordRequired })
    }
    if (v.requiresApprover) {
      if (!v.approverContact) {
        ctx.addIssue({ code: 'custom', path: ['approverContact'], message: VAULT_ITEM_MESSAGES.approverRequired })
      } else if (!z.email().safeParse(v.approverContact).success) {
        ctx.addIssue({ code: 'custom', path: ['approverContact'], message: VALIDATION.invalidEmail })
      }
    }
    if (v.protocol === 'SCHEDULED') {
      const when = v.scheduledAt ? new Date(v.scheduledAt) : null
      if (!when || Number.isNaN(when.getTime())) {
        ctx.addIssue({ code: 'custom', path: ['scheduledAt'], message: VAULT_ITEM_MESSAGES.scheduleRequired })
      } else if (when.getTime() <= Date.now()) {
        ctx.addIssue({ code: 'custom', path: ['scheduledAt'], message: VAULT_ITEM_MESSAGES.scheduleInPast })
      }
    }
  })

export type UploadFormValues = z.input<typeof uploadFormSchema>

export const UPLOAD_FORM_DEFAULTS: UploadFormValues = {
  mode: 'files',
  files: [],
  site: '',
  username: '',
  password: '',
  notes: '',
  tags: '',
  protocol: DEFAULT_RELEASE_PROTOCOL,
  beneficiaryIds: [],
  coveredByPolicies: false,
  requiresApprover: false,
  approverContact: '',
  scheduledAt: '',
}

/** The policy sent with every item of one submission; no protocol chosen means VERIFIED_DEATH. */
export function policyFrom(values: UploadFormValues): UploadPolicy {
  const protocol = values.protocol || DEFAULT_RELEASE_PROTOCOL
  return {
    protocol,
    requiresApprover: values.requiresApprover,
    approverContact: values.requiresApprover ? values.approverContact.trim() : undefined,
    scheduledAt: protocol === 'SCHEDULED' && values.scheduledAt ? new Date(values.scheduledAt).toISOString() : undefined,
  }
}

export const PASSWORD_ENTRY_MIME = 'application/json'

/** A password entry as content (its JSON) and metadata (the site as its name). */
export function passwordEntryItem(values: UploadFormValues): { content: Blob; metadata: ItemMetadata } {
  const entry: PasswordEntry = {
    site: values.site.trim(),
    username: values.username,
    password: values.password,
    notes: values.notes,
  }
  const content = new Blob([JSON.stringify(entry)], { type: PASSWORD_ENTRY_MIME })
  return { content, metadata: { filename: entry.site, mimetype: PASSWORD_ENTRY_MIME, size: content.size, tags: parseTags(values.tags) } }
}

/** `min` for the schedule input: now, in the datetime-local format (local time, minutes). */
export function localDateTimeNow(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`
}
