import { z } from 'zod'
import { ACCESS_AUDIT_ACTIONS } from './access-requests'
import { auditSha256Hex } from './audit-hash'

// The owner's tamper-evident audit chain (seeds 001 §2 'Audit Log', §3, §4, §9; ARCHITECTURE §5).
// Each entry's hash is SHA-256 (hex) over `${prevHash}\n${canonicalEntry(entry)}`; the first
// entry's prevHash is GENESIS_HASH. Anyone holding an export can re-check it with these rules.

export const AUDIT_ACTORS = ['user', 'system', 'beneficiary', 'approver'] as const
export type AuditActor = (typeof AUDIT_ACTORS)[number]

export const GENESIS_HASH = '0'.repeat(64)

export const auditEntrySchema = z.object({
  id: z.string(),
  /** 1, 2, 3… with no gaps: a deleted entry shows as a gap as well as a broken link. */
  seq: z.number().int(),
  action: z.string(),
  actor: z.enum(AUDIT_ACTORS),
  /** Ids, counts, types and reasons; never secrets, keys, plaintext or file names. */
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  createdAt: z.string(),
  hash: z.string(),
  prevHash: z.string(),
})
export type AuditEntry = z.infer<typeof auditEntrySchema>

/** Action groups for the Audit Log filter; an action belongs to the group its prefix names. */
export const AUDIT_ACTION_GROUPS = {
  account: 'Account',
  vault: 'Vault',
  circle: 'Beneficiaries & approvers',
  policy: 'Policies',
  trigger: 'Triggers',
  release: 'Releases',
  checkin: 'Check-ins',
  access: 'Access requests',
} as const
export type AuditActionGroup = keyof typeof AUDIT_ACTION_GROUPS

export function actionGroup(action: string): AuditActionGroup | 'other' {
  const prefix = action.split('.')[0] ?? ''
  return prefix in AUDIT_ACTION_GROUPS ? (prefix as AuditActionGroup) : 'other'
}

/** The audit actions of failed unlock attempts (contract/triggers.ts, UNLOCK_FORGIVE_MS). */
export const UNLOCK_AUDIT_ACTIONS = {
  /** A wrong vault passphrase reported by the app. Details: kind, attemptsLeft. */
  passphraseFailed: 'vault.unlock_failed',
  /** A security key's failed answer that is the owner's. Details: kind, reason, attemptsLeft. */
  keyFailed: 'account.security_key_failed',
  /** A successful unlock that forgave the failed attempts of the minutes before it. Details: kind, forgiven. */
  forgiven: 'vault.unlock_failures_forgiven',
  /** The owner was e-mailed that one attempt is left. Details: triggerId, failures, attemptsLeft. */
  warned: 'vault.unlock_warning_sent',
} as const

/** Actions the generic wording of the Audit Log would not name well enough. */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  [UNLOCK_AUDIT_ACTIONS.passphraseFailed]: 'Failed vault unlock (wrong passphrase)',
  [UNLOCK_AUDIT_ACTIONS.keyFailed]: 'Failed security key answer',
  [UNLOCK_AUDIT_ACTIONS.forgiven]: 'Failed unlock attempts forgiven by a successful unlock',
  [UNLOCK_AUDIT_ACTIONS.warned]: 'E-mailed: someone tried to open your vault',
  'account.authenticator_added': 'Authenticator app turned on',
  'account.authenticator_removed': 'Authenticator app turned off',
  'account.authenticator_failed': 'Wrong authenticator code at sign-in',
  'account.recovery_codes_created': 'New recovery codes made',
  'account.recovery_code_used': 'Recovery code used to sign in',
  'account.device_trusted': 'A device was marked as trusted',
  'account.device_untrusted': 'A device is no longer trusted',
  'release.renewal_requested': 'A beneficiary asked for more downloads and time',
  'release.renewed': 'More downloads and time allowed to a beneficiary',
  'release.renewal_refused': 'A request for more downloads and time refused',
  [ACCESS_AUDIT_ACTIONS.requested]: 'Someone asked for access',
  [ACCESS_AUDIT_ACTIONS.refused]: 'You refused a request for access',
  [ACCESS_AUDIT_ACTIONS.approved]: 'You approved a request for access now',
  [ACCESS_AUDIT_ACTIONS.linkSent]: 'A link to ask for access was sent',
  'account.emergency_contact_set': 'Emergency contact changed',
}

/** What an unlock attempt was, as the Audit Log shows a `kind` detail. */
export const UNLOCK_KIND_LABELS: Readonly<Record<string, string>> = {
  vault_unlock: 'Vault passphrase',
  passkey: 'Security key',
}

export const AUDIT_MESSAGES = {
  chainVerified: 'Chain Verified',
  chainVerifiedBody: 'Every entry links to the one before it and every hash matches its contents.',
  chainCompromised: 'Chain Compromised',
  chainCompromisedBody: 'An entry was changed, removed or reordered. The first break is marked below.',
  empty: 'No activity yet - Start by uploading your first document or adding a beneficiary',
} as const

/** JSON with keys sorted and no spaces: the form every audit hash covers. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null)
  // Loops rather than map/join: the verifier calls this once per entry.
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i])
    return `${out}]`
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).sort()
  let out = '{'
  for (let i = 0; i < keys.length; i++) out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalJson(record[keys[i]!])}`
  return `${out}}`
}

/** The bytes an entry's hash covers: everything but the hash itself, keys sorted, no spaces. */
export function canonicalEntry(entry: Omit<AuditEntry, 'hash' | 'prevHash'>): string {
  // canonicalJson of { id, seq, action, actor, details, createdAt }, made by one native
  // JSON.stringify of an object whose keys were inserted in sorted order (the verifier runs this
  // once per entry, and the generic walk cost a third of the hash). Only where that is exactly the
  // same text: details of primitives (as the schema says) with no key that JSON would reorder.
  const details = sortedFlat(entry.details)
  if (details === null) {
    const j = canonicalJson
    return `{"action":${j(entry.action)},"actor":${j(entry.actor)},"createdAt":${j(entry.createdAt)},"details":${j(entry.details)},"id":${j(entry.id)},"seq":${j(entry.seq)}}`
  }
  return JSON.stringify({ action: entry.action, actor: entry.actor, createdAt: entry.createdAt, details, id: entry.id, seq: entry.seq })
}

/** The record with its keys in sorted order, or null when JSON.stringify would not write it as canonicalJson does. */
function sortedFlat(record: unknown): Record<string, unknown> | null {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return null
  const source = record as Record<string, unknown>
  const keys = Object.keys(source)
  let inOrder = true
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const value = source[key]
    // Integer-like keys are written first by JSON.stringify, whatever their order; objects,
    // undefined and numbers JSON cannot hold are left to the generic walk.
    const first = key.charCodeAt(0)
    if ((first >= 48 && first <= 57) || (value !== null && typeof value === 'object') || value === undefined || typeof value === 'function' || typeof value === 'bigint') return null
    if (i > 0 && keys[i - 1]! > key) inOrder = false
  }
  if (inOrder) return source
  const sorted: Record<string, unknown> = {}
  for (const key of keys.sort()) sorted[key] = source[key]
  return sorted
}

export function hashInput(prevHash: string, entry: Omit<AuditEntry, 'hash' | 'prevHash'>): string {
  return `${prevHash}\n${canonicalEntry(entry)}`
}

export const chainVerificationSchema = z.object({
  valid: z.boolean(),
  checked: z.number().int(),
  /** seq of the first entry that does not fit, if any. */
  brokenAt: z.number().int().nullable(),
})
export type ChainVerification = z.infer<typeof chainVerificationSchema>

/** GET /api/audit/verify: the server's own check, and whether the newest entry is the head it recorded. */
export const serverVerificationSchema = chainVerificationSchema.extend({ headMatches: z.boolean() })

/** Where a verified stretch of the chain ends: the next entry must have seq + 1 and this prevHash. */
export interface ChainTip {
  seq: number
  hash: string
}

export const GENESIS_TIP: ChainTip = { seq: 0, hash: GENESIS_HASH }

/** The most entries one page of GET /api/audit returns. */
export const AUDIT_PAGE_MAX = 1000

/**
 * GET /api/audit's query. Without `from`: the newest `limit` entries, newest first (the spec's
 * shape). With `from`: up to `limit` entries from that seq on, oldest first, to walk the whole chain.
 */
export const auditPageQuerySchema = z.object({
  from: z.coerce.number().int('Start from a whole entry number.').min(1, 'Start from entry 1 or later.').optional(),
  limit: z.coerce
    .number()
    .int('Ask for a whole number of entries.')
    .min(1, 'Ask for at least 1 entry.')
    .max(AUDIT_PAGE_MAX, `A page holds at most ${AUDIT_PAGE_MAX} entries.`)
    .default(AUDIT_PAGE_MAX),
})
export type AuditPageQuery = z.infer<typeof auditPageQuerySchema>

/** A synchronous SHA-256 as lower-case hex; auditSha256Hex unless a caller brings its own. */
export type AuditHasher = (input: string) => string

/**
 * Checks a stretch of the chain given oldest first, continuing from `tip` (the genesis unless a
 * stretch before it was already checked). Valid when seqs run on from the tip with no gap, each
 * prevHash is the hash before it, and each hash is the digest of its own entry. `tip` is the new
 * end when valid. Synchronous: a chain is checked at hashing speed, with no await per entry.
 */
export function verifyChainFrom(entries: readonly AuditEntry[], from: ChainTip, sha256Hex: AuditHasher = auditSha256Hex): ChainVerification & { tip: ChainTip } {
  let prev = from
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    const ok = e.seq === prev.seq + 1 && e.prevHash === prev.hash && sha256Hex(hashInput(e.prevHash, e)) === e.hash
    if (!ok) return { valid: false, checked: i, brokenAt: e.seq, tip: prev }
    prev = { seq: e.seq, hash: e.hash }
  }
  return { valid: true, checked: entries.length, brokenAt: null, tip: prev }
}

/** The whole chain, given oldest first from seq 1. */
export function verifyChain(entries: readonly AuditEntry[], sha256Hex: AuditHasher = auditSha256Hex): ChainVerification {
  const { valid, checked, brokenAt } = verifyChainFrom(entries, GENESIS_TIP, sha256Hex)
  return { valid, checked, brokenAt }
}
