import { z } from 'zod'
import { formatBytes } from './format-bytes'
import type { DocumentType } from './identity'
import type { RenewalState } from './renewals'
import type { ItemType } from './vault-items'

// Releases as beneficiaries, approvers and the owner meet them through e-mailed links
// (seeds 001 §2 beneficiary verification and assets view, §3 released asset, §5, §7, §8).

export const RELEASE_LIMITS = {
  /** Downloads of one released asset by its beneficiary. */
  maxDownloads: 5,
  /** Days an asset stays downloadable once it becomes available. */
  assetTtlDays: 90,
  /** Minutes a download ticket lets the ciphertext be fetched (and re-fetched after a network error). */
  contentTicketMinutes: 30,
} as const

/** How an Access Kit labels the vault's fingerprint, and how the portal finds it in a kit or a pasted key block. */
export const KIT_VAULT_FINGERPRINT_LABEL = 'Vault fingerprint'

export const RELEASE_MESSAGES = {
  noReviewerYet: (ownerName: string) =>
    `Your identity is checked by someone ${ownerName} trusts, and none of them can review documents yet. You can send your document now: it will be reviewed as soon as one of them confirms their e-mail address, and we will e-mail you when your items open. Nothing is lost in the meantime.`,
  portalLinkSent:
    'If this address has items waiting for it, a new link to them is on its way. It can take a few minutes to arrive; check your spam folder too.',
  portalEmailInvalid: 'Please enter a valid email address',
  privateKeyRequired: 'Private key is required for decryption',
  privateKeyInvalid: 'Invalid private key format',
  /** A loaded key that opened none of the items it was tried on (another heir's kit, or another vault's). */
  keyDoesNotFitTitle: 'This key does not open your assets',
  keyDoesNotFit: 'This key does not open the assets released to you. Check that you loaded the Access Kit made for you.',
  keyDoesNotFitItem: 'Load the private key from your own Access Kit to open this item.',
  /** The button on the released-items page back to the portal's first page. */
  backToPortal: 'Back to Portal',
  downloadFailed: 'Download Failed',
  noAssets: 'No Assets Available',
  noAssetsBody: 'Nothing has been released to you yet. You will receive an e-mail when something is.',
  untitled: 'Untitled Asset',
  assetNotFound: 'Asset not found.',
  // What ran out, as a fact; who can allow more is RENEWAL_MESSAGES.whoCanHelp (contract/renewals.ts), from the facts.
  downloadLimit: 'This asset has reached its download limit.',
  assetExpired: 'This asset has expired and can no longer be downloaded.',
  assetPendingIdentity: 'This asset becomes available once your identity has been verified.',
  linkInvalid: 'This link is invalid or no longer works.',
  linkExpired: 'This link has expired.',
  releaseNotWaiting: 'This release is no longer waiting: it was already released or cancelled.',
  releaseAlreadyCancelled: 'This release was already cancelled.',
  alreadySigned: 'You have already answered for this release.',
  releaseCancelled: 'The release was cancelled. Your inactivity clock has been reset.',
  /** The same, for an owner with no active inactivity trigger: no clock runs to reset. */
  releaseCancelledNoClock: 'The release was cancelled.',
  assetWithdrawn: (ownerName: string) => `${ownerName} withdrew this release. It can no longer be downloaded.`,
  checkedIn: 'Thank you. Your check-in was recorded and your inactivity clock has been reset.',
  /** The same, for an owner with no active inactivity trigger: no clock runs to reset. */
  checkedInNoClock: 'Thank you. Your check-in was recorded.',
  reportLinkVoid: 'This link no longer works: it was already used, or the vault owner withdrew it. If a new one was sent to you, please use that.',
  alreadyReported: 'You have already confirmed this. The owner’s release instructions are in motion.',
  deathConfirmed: 'Thank you. The confirmation was recorded and the owner’s release instructions are now in motion.',
  certificateRequired: 'Certificate number is required',
  dateOfDeathRequired: 'Date of death is required',
  attestationRequired: 'You must confirm that you have seen the death certificate',
  // The heir's check of each item's seal (web/features/releases/seals.ts). `item` is describeReleasedItem's.
  sealedBy: (ownerName: string) => `Sealed by ${ownerName}’s vault`,
  sealedByFingerprint: (ownerName: string) => `Sealed by the vault with the fingerprint above, which should be ${ownerName}’s`,
  sealRefused: (ownerName: string, item: string) => `${item} was not sealed by ${ownerName}’s vault, so it may not be theirs. It has not been opened.`,
  sealMismatchRefused: (item: string) => `${item} has not been opened: this site’s vault key is not the one in your Access Kit.`,
  notSealed: 'Not sealed',
  notSealedBody: (ownerName: string) =>
    `${ownerName}’s vault never sealed this item, so this site cannot prove that it is theirs. Items stored before vaults sealed what they hold stay unsealed until the owner opens their vault again, which ${ownerName} may not have done. Open it only if you expected something like it from ${ownerName}.`,
  openUnsealed: 'Open it anyway',
  contentNotSealed: (ownerName: string) =>
    `This file is not the one ${ownerName}’s vault sealed, so it was not completed. Do not use any part of it that was saved.`,
  vaultKeyMismatchTitle: 'This is not the vault your Access Kit names',
  vaultKeyMismatch: (ownerName: string) =>
    `The vault key this site shows for ${ownerName} is not the one in your Access Kit, so nothing has been opened. Do not trust anything listed here, and tell the executor or ${ownerName}’s family before you act on it.`,
  vaultKeyMatched: (ownerName: string) =>
    `Your Access Kit names ${ownerName}’s vault, and it matches: each item below opens only if that vault sealed it.`,
  oldKitTitle: 'Check the vault fingerprint',
  oldKit: (ownerName: string) =>
    `Your Access Kit was printed before kits carried the fingerprint of ${ownerName}’s vault, so this site cannot check for you that the items below come from it. Compare this fingerprint with one you trust: the “Vault fingerprint” on a newer Access Kit another of ${ownerName}’s beneficiaries holds, or one ${ownerName} wrote down for you. All 16 groups must be the same. If any differs, do not trust what is listed here.`,
  oldKitNoVaultKey: (ownerName: string) =>
    `Your Access Kit was printed before kits carried the fingerprint of ${ownerName}’s vault, and this vault shows none, so nothing listed here carries ${ownerName}’s seal. Open an item only if you expected something like it from ${ownerName}.`,
} as const

/** POST /api/beneficiary-portal/link: an heir who lost their e-mail asks for a new portal link. */
export const portalLinkRequestSchema = z.object({ email: z.email(RELEASE_MESSAGES.portalEmailInvalid).max(254).transform((e) => e.toLowerCase()) })

/** Query of the beneficiary's link pages and API calls. */
export const beneficiaryAccessQuerySchema = z.object({ token: z.string().min(10, RELEASE_MESSAGES.linkInvalid).max(2048) })

/** 'withdrawn': the owner cancelled the release it came from; it can no longer be downloaded. */
export const ASSET_STATUSES = ['available', 'pending_identity', 'expired', 'exhausted', 'withdrawn'] as const
export type AssetStatus = (typeof ASSET_STATUSES)[number]

/** GET /api/beneficiaries/{id}/assets?token=… — one entry per released item. */
export interface ReleasedAsset {
  id: string
  status: AssetStatus
  downloadCount: number
  maxDownloads: number
  expiresAt: string | null
  releasedAt: string
  vaultItem: {
    id: string
    type: ItemType
    /** Sealed under the item's data key: the beneficiary opens it with their private key. */
    encryptedMetadata: string
    /** The item's data key wrapped with this beneficiary's public key (RSA-OAEP). */
    wrappedKey: string
    plainSize: number
    /** The item manifest the owner's vault signed (contract/vault-statements.ts), verbatim; null until the item is sealed. */
    manifest: string | null
    /** The vault's signature over `manifest`; null with it. */
    manifestSignature: string | null
  }
}

/** GET /api/beneficiaries/{id}/portal?token=… */
export interface BeneficiaryPortalView {
  fullName: string
  ownerName: string
  identityStatus: 'unverified' | 'pending' | 'verified' | 'rejected'
  /** True when some released asset waits on this beneficiary's identity verification. */
  identityRequired: boolean
  /** Whether anyone can review this beneficiary's identity document today (a verified approver). */
  reviewerReady: boolean
  /** The document types their identity can be verified with (the owner's policies); null: any government-issued ID. */
  acceptedDocumentTypes: DocumentType[] | null
  /** The approver's note on their latest document, when it was rejected. */
  rejectionReason: string | null
  /** The owner's vault signing public key (base64 SPKI), which seals every item; null for a vault without one. */
  vaultSigningKey: string | null
  /** Asking for more downloads and time once something ran out (contract/renewals.ts). */
  renewal: RenewalState
}

/**
 * GET …/assets/{assetId}/download?token=… — hands out a content ticket if a download is still
 * open. The download is counted when the ticket first fetches the content, not here.
 */
export interface AssetDownload {
  /** The item's data key wrapped for this beneficiary (the spec's name for it). */
  encryptedMasterKey: string
  /** The count once this ticket's content is served. */
  downloadCount: number
  maxDownloads: number
  item: { id: string; type: ItemType; encryptedMetadata: string; plainSize: number; cipherSize: number; chunkBytes: number; partCount: number }
  /** GET this (same origin) for the ciphertext; it works for RELEASE_LIMITS.contentTicketMinutes, and its first fetch counts. */
  contentUrl: string
}

/** What an approver sees before signing off a release (GET /api/release-approvals?token=…). */
export interface ReleaseApprovalView {
  ownerName: string
  approverName: string
  policyName: string
  triggerType: string
  reason: string | null
  itemCount: number
  beneficiaryNames: string[]
  approvals: number
  requiredApprovals: number
  status: 'waiting' | 'released' | 'cancelled'
  yourDecision: 'approved' | 'rejected' | null
}

export const releaseApprovalBodySchema = z.object({
  token: z.string().min(10).max(2048),
  decision: z.enum(['approved', 'rejected']),
  notes: z.string().trim().max(1000).default(''),
})

/** An approver's confirmation of the owner's death, from their own signed link. */
export const deathConfirmationBodySchema = z.object({
  token: z.string().min(10).max(2048),
  certificateNumber: z.string({ error: RELEASE_MESSAGES.certificateRequired }).trim().min(1, RELEASE_MESSAGES.certificateRequired).max(100),
  dateOfDeath: z.iso.date({ error: RELEASE_MESSAGES.dateOfDeathRequired }),
  issuingAuthority: z.string().trim().max(200).default(''),
  attest: z.literal(true, { error: RELEASE_MESSAGES.attestationRequired }),
})

export interface DeathReportView {
  ownerName: string
  approverName: string
  alreadyConfirmed: boolean
}

/** One-click links from e-mail: `{token}` only. */
export const linkActionBodySchema = z.object({ token: z.string().min(10).max(2048) })

/** A copy an heir already downloaded: no cancel can take it back. The item by what the server knows of it (names are sealed). */
export interface DownloadedCopy {
  itemType: ItemType
  plainSize: number
  itemAddedAt: string
  beneficiaryName: string
  downloadedAt: string
}

/** What a cancel took back (the e-mailed link, the monitor, a check-in or sign-in). */
export interface CancelOutcome {
  /** Releases stopped while waiting or withdrawn after they made items available. */
  cancelledReleases: number
  /** Items that were available to someone and no longer are. */
  withdrawnItems: number
  /** Heirs e-mailed that the release to them was withdrawn. */
  heirsTold: number
  downloaded: DownloadedCopy[]
}

/** GET /api/releases/cancel?token=… : what the owner's cancel link would stop, before they click. */
export interface CancelView {
  /** 'cancelled': this firing was already cancelled; 'over': nothing of it is left to take back. */
  state: 'waiting' | 'available' | 'cancelled' | 'over'
  triggerLabel: string
  /** The earliest time something still waiting would become available. */
  earliestAt: string | null
  waitingReleases: number
  /** Items available to an heir now (a cancel withdraws them). */
  availableItems: number
  downloaded: DownloadedCopy[]
  /** Whether an inactivity clock runs (a cancel through the link restarts it). */
  clockRuns: boolean
}

/** POST /api/releases/cancel */
export interface CancelLinkResult extends CancelOutcome {
  message: string
  /** Whether the cancel restarted the inactivity clock (only a running one can be). */
  clockReset: boolean
}

const ITEM_NOUNS: Record<ItemType, string> = { doc: 'A document', photo: 'A photo', video: 'A video', password: 'A password entry' }
const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })

/** "A document (2.1 MB, released 3 Nov 2026)": a released item named without decrypting anything. */
export function describeReleasedItem(asset: { releasedAt: string; vaultItem: { type: ItemType; plainSize: number } }): string {
  return `${ITEM_NOUNS[asset.vaultItem.type] ?? 'An item'} (${formatBytes(asset.vaultItem.plainSize)}, released ${day(asset.releasedAt)})`
}

/** "A document (2.1 MB, added 3 Nov 2026)": an item as the server can name it (its name is sealed). */
export function describeCopyItem(copy: Pick<DownloadedCopy, 'itemType' | 'plainSize' | 'itemAddedAt'>): string {
  return `${ITEM_NOUNS[copy.itemType] ?? 'An item'} (${formatBytes(copy.plainSize)}, added ${day(copy.itemAddedAt)})`
}
