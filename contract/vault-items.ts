import { z } from 'zod'
import { FAILED_UNLOCK_TRIGGER_NAME } from './trigger-types'
import { isBase64, statementSignatureSchema } from './vault-statements'

// Vault items (seeds 001 §2 'Secure Vault page', §3 'Vault item', §5 'Upload files/form', §9).
// The server sees type, sizes and times in clear; file name, MIME type, tags and password-entry
// fields travel only inside `encryptedMetadata` and the ciphertext.

export const ITEM_TYPES = ['doc', 'photo', 'video', 'password'] as const
export type ItemType = (typeof ITEM_TYPES)[number]

export const RELEASE_PROTOCOLS = [
  'VERIFIED_DEATH',
  'INACTIVITY_30_DAYS',
  'INACTIVITY_60_DAYS',
  'INACTIVITY_90_DAYS',
  'INACTIVITY_180_DAYS',
  'INACTIVITY_365_DAYS',
  'MANUAL_RELEASE',
  'SCHEDULED',
  'EMERGENCY',
  'BIOMETRIC_FAILURE',
] as const
export type ReleaseProtocol = (typeof RELEASE_PROTOCOLS)[number]
export const DEFAULT_RELEASE_PROTOCOL: ReleaseProtocol = 'VERIFIED_DEATH'

export const RELEASE_PROTOCOL_LABELS: Record<ReleaseProtocol, string> = {
  VERIFIED_DEATH: 'Verified Death',
  INACTIVITY_30_DAYS: 'Inactivity (30 days)',
  INACTIVITY_60_DAYS: 'Inactivity (60 days)',
  INACTIVITY_90_DAYS: 'Inactivity (90 days)',
  INACTIVITY_180_DAYS: 'Inactivity (6 months)',
  INACTIVITY_365_DAYS: 'Inactivity (1 year)',
  MANUAL_RELEASE: 'Manual Release',
  SCHEDULED: 'Scheduled Date',
  EMERGENCY: 'Emergency',
  BIOMETRIC_FAILURE: FAILED_UNLOCK_TRIGGER_NAME,
}

const MB = 1024 * 1024
export const MAX_FILE_BYTES = 100 * MB
export const MAX_FILES_PER_DROP = 10
/**
 * Plaintext bytes per encrypted chunk, and so per R2 multipart part. R2 wants every part but the
 * last at least 5 MiB and all of one size; 8 MiB keeps a 100 MB file to 13 requests, each far
 * below Workers' request-size limit, and bounds the browser to about two chunks in memory.
 */
export const UPLOAD_CHUNK_BYTES = 8 * MB
/** Per chunk: format version (1) + IV (12) + GCM tag (16). Must match web/crypto. */
export const CHUNK_OVERHEAD_BYTES = 29

export function partCount(plainSize: number, chunkBytes = UPLOAD_CHUNK_BYTES): number {
  return Math.max(1, Math.ceil(plainSize / chunkBytes))
}
export function cipherSize(plainSize: number, chunkBytes = UPLOAD_CHUNK_BYTES): number {
  return plainSize + partCount(plainSize, chunkBytes) * CHUNK_OVERHEAD_BYTES
}
/** The exact ciphertext length of part n (1-based), so the server can refuse anything else. */
export function partSize(partNumber: number, plainSize: number, chunkBytes = UPLOAD_CHUNK_BYTES): number {
  const parts = partCount(plainSize, chunkBytes)
  if (partNumber < parts) return chunkBytes + CHUNK_OVERHEAD_BYTES
  return plainSize - (parts - 1) * chunkBytes + CHUNK_OVERHEAD_BYTES
}

export const VAULT_ITEM_MESSAGES = {
  noFiles: 'No files selected',
  approverRequired: 'Approver contact required',
  scheduleRequired: 'Schedule date required',
  scheduleInPast: 'Schedule date must be in the future',
  beneficiariesRequired: 'Beneficiaries required',
  locked: 'Vault is locked. Please unlock your vault first.',
  uploadFailed: (filename: string) => `Failed to upload ${filename}`,
  tooManyFiles: 'Too many files',
  fileTooLarge: (bytes: number) => `File is larger than ${bytes} bytes`,
  fileTooLargeServer: `A file can be at most ${MAX_FILE_BYTES / MB} MB.`,
  itemLimit: (max: number) => `Your plan allows up to ${max} vault items. Upgrade to store more.`,
  storageLimit: (maxBytes: number) =>
    `This upload would pass your plan's storage limit of ${maxBytes >= 1024 * MB ? `${maxBytes / (1024 * MB)} GB` : `${maxBytes / MB} MB`}. Upgrade or delete items to make room.`,
  itemNotFound: 'Vault item not found.',
  uploadNotFound: 'Upload not found. It may have expired or been cancelled; start it again.',
  partSizeMismatch: (expected: number) => `This part must be exactly ${expected} bytes.`,
  partTooLarge: (max: number) => `A part can be at most ${max} bytes.`,
  partNumberInvalid: 'Part number is out of range.',
  partsMissing: 'Some parts have not been uploaded yet.',
  unknownBeneficiary: 'One of the chosen beneficiaries does not exist.',
  uploadsPausedForPayment:
    'New uploads are paused until your payment is restored. Everything already in your vault stays available.',
  grantsMustMatch: 'Each chosen beneficiary needs exactly one wrapped key.',
  vaultMovedElsewhere: 'Your vault was moved to its new vault key on another device. Lock your vault, unlock it again, then try again.',
  manifestInvalid: 'This item is not sealed by your vault: the seal does not match what was uploaded. Unlock your vault and upload it again.',
  grantsSignatureInvalid: 'These grants are not signed by your vault. Unlock your vault and try again.',
  keyChangedMeanwhile: 'One of the chosen beneficiaries was given a new key meanwhile. Please try again.',
  sealGrantsChanged: 'Who this item is left to changed meanwhile. Reload and try again.',
  alreadySealed: 'This item is already sealed by your vault.',
  sealNotReady: 'This item is not ready to be sealed yet. Reload and try again.',
  notYetSealed: 'Not yet sealed',
  notYetSealedHint:
    'This item was stored before items were sealed by your vault. It will be sealed the next time you unlock your vault, so your beneficiaries can check it really came from you.',
} as const

const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64').refine(isBase64, 'must be base64')

export const uploadStartBodySchema = z.object({
  type: z.enum(ITEM_TYPES),
  // The vault format whose key this browser holds (1: the passphrase's key, 2: a vault key): a
  // browser unlocked before the vault moved to a vault key on another device must not wrap with the
  // old key, so the start is refused (VAULT_ITEM_MESSAGES.vaultMovedElsewhere).
  vaultFormat: z.union([z.literal(1), z.literal(2)]).optional(),
  plainSize: z
    .number({ error: 'plainSize must be a number' })
    .int()
    .min(0)
    .max(MAX_FILE_BYTES, VAULT_ITEM_MESSAGES.fileTooLargeServer),
})
export type UploadStartBody = z.infer<typeof uploadStartBodySchema>

export const uploadSessionSchema = z.object({
  itemId: z.string(),
  chunkBytes: z.number().int(),
  partCount: z.number().int(),
  cipherSize: z.number().int(),
  uploadedParts: z.array(z.number().int()),
})
export type UploadSession = z.infer<typeof uploadSessionSchema>

export const itemPolicySchema = z
  .object({
    protocol: z.enum(RELEASE_PROTOCOLS).default(DEFAULT_RELEASE_PROTOCOL),
    requiresApprover: z.boolean().default(false),
    approverContact: z.email('approverContact: Please enter a valid email address').max(254).optional(),
    scheduledAt: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((p) => !p.requiresApprover || !!p.approverContact, {
    message: VAULT_ITEM_MESSAGES.approverRequired,
    path: ['approverContact'],
  })
  .refine((p) => p.protocol !== 'SCHEDULED' || !!p.scheduledAt, {
    message: VAULT_ITEM_MESSAGES.scheduleRequired,
    path: ['scheduledAt'],
  })
  .refine((p) => !p.scheduledAt || Date.parse(p.scheduledAt) > Date.now(), {
    message: VAULT_ITEM_MESSAGES.scheduleInPast,
    path: ['scheduledAt'],
  })

/**
 * The body an upload's completion (or an item's new grants) may need within its own schema: 32 KiB
 * of metadata, a wrapped key, and grants for up to 200 beneficiaries of at most 1 KiB each with
 * their JSON (about 250 KiB at the very most), with room to spare. Other JSON routes keep 16 KiB.
 */
export const GRANTS_BODY_MAX_BYTES = 320 * 1024

/**
 * The beneficiary's key version the browser wrapped for (and signed): one the server no longer
 * has is a 409, so the browser can wrap and sign again rather than be told its seal is wrong.
 */
export const grantKeyVersionSchema = z.number().int().min(1).optional()

export const uploadCompleteBodySchema = z.object({
  encryptedMetadata: base64.max(32 * 1024, 'encryptedMetadata is too large'),
  wrappedKey: base64.max(1024, 'wrappedKey is too long'),
  policy: itemPolicySchema,
  grants: z
    .array(
      z.object({
        beneficiaryId: z.uuid(),
        wrappedKey: base64.max(1024),
        keyVersion: grantKeyVersionSchema,
        // False for someone who receives the item only through an access policy: they get it when
        // that policy releases, not under the item's own protocol.
        direct: z.boolean().default(true),
      }),
    )
    .min(1, VAULT_ITEM_MESSAGES.beneficiariesRequired)
    .max(200),
  /** Active policies whose (sealed) selectors the browser matched to this item. */
  policyIds: z.array(z.uuid()).max(100).default([]),
  /** The vault's signature over the item's manifest (contract/vault-statements.ts `itemManifest`). */
  manifestSignature: statementSignatureSchema,
})
export type UploadCompleteBody = z.input<typeof uploadCompleteBodySchema>

export const vaultItemSchema = z.object({
  id: z.string(),
  type: z.enum(ITEM_TYPES),
  plainSize: z.number().int(),
  cipherSize: z.number().int(),
  chunkBytes: z.number().int(),
  createdAt: z.string(),
  encryptedMetadata: z.string(),
  wrappedKey: z.string(),
  accessPolicy: z.object({
    name: z.string(),
    protocol: z.enum(RELEASE_PROTOCOLS),
    requiresApprover: z.boolean(),
    approverContact: z.string().nullable(),
    scheduledAt: z.string().nullable(),
  }),
  beneficiaryIds: z.array(z.string()),
  /** Whether the vault signed the item's manifest; false for an item stored before manifests, until it is sealed. */
  sealed: z.boolean(),
})
export type VaultItem = z.infer<typeof vaultItemSchema>

// Sealing items stored before manifests (GET /api/vault/seal, POST /api/vault/items/:id/seal), at the
// owner's next unlock, a page at a time.

export const SEAL_PAGE_SIZE = 20

export const sealPageQuerySchema = z.object({
  /** The last item id of the page before (pages go by id). */
  after: z.uuid('after must be an item id').optional(),
})

/** What the browser needs to prove an unsealed item is the owner's and sign its manifest. */
export const unsealedItemSchema = z.object({
  id: z.string(),
  type: z.enum(ITEM_TYPES),
  plainSize: z.number().int(),
  chunkCount: z.number().int(),
  /** Computed by the server from the item's stored ciphertext, chunk by chunk. */
  contentDigest: z.string(),
  encryptedMetadata: z.string(),
  wrappedKey: z.string(),
  /** Who it is granted to, each with their current key version. */
  grants: z.array(z.object({ beneficiaryId: z.string(), keyVersion: z.number().int() })),
})
export type UnsealedItem = z.infer<typeof unsealedItemSchema>

export const sealPageSchema = z.object({
  items: z.array(unsealedItemSchema),
  /** Items whose stored ciphertext is gone: they cannot be sealed. */
  missing: z.array(z.string()),
  /** Pass as `after` for the next page; null after the last. */
  next: z.string().nullable(),
})
export type SealPage = z.infer<typeof sealPageSchema>

export const sealItemBodySchema = z.object({
  /** The item's grants, wrapped again by the owner's browser for the same beneficiaries. */
  grants: z
    .array(z.object({ beneficiaryId: z.uuid(), wrappedKey: base64.max(1024), keyVersion: grantKeyVersionSchema }))
    .max(200),
  manifestSignature: statementSignatureSchema,
})
export type SealItemBody = z.infer<typeof sealItemBodySchema>

/** What the browser encrypts into `encryptedMetadata`. */
export interface ItemMetadata {
  filename: string
  mimetype: string
  size: number
  tags: string[]
}

/** A password entry's content, encrypted like a file. */
export interface PasswordEntry {
  site: string
  username: string
  password: string
  notes: string
}

/** Comma-separated tags: trimmed, empties dropped (seeds 001 §5). */
export function parseTags(input: string): string[] {
  return input
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
}

/**
 * The types the spec lists (seeds 001 §5), MIME type → extensions: they name a file's type when the
 * system does not, and decide how an item is shown. Any other file is kept too, as a document.
 */
export const ACCEPTED_FILE_TYPES: Record<string, string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/bmp': ['.bmp'],
  'image/webp': ['.webp'],
  'video/mp4': ['.mp4'],
  'video/x-msvideo': ['.avi'],
  'video/quicktime': ['.mov'],
  'video/x-ms-wmv': ['.wmv'],
  'video/x-flv': ['.flv'],
  'video/webm': ['.webm'],
  'application/pdf': ['.pdf'],
  'text/plain': ['.txt'],
  'text/markdown': ['.md'],
  'text/csv': ['.csv'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.ms-excel': ['.xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.ms-powerpoint': ['.ppt'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['.pptx'],
}

/** The item type a file is stored as: photos and videos by MIME type, everything else a document. */
export function itemTypeFor(mimetype: string): Exclude<ItemType, 'password'> {
  if (mimetype.startsWith('image/')) return 'photo'
  if (mimetype.startsWith('video/')) return 'video'
  return 'doc'
}
