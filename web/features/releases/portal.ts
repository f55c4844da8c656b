import { z } from 'zod'
import { CIRCLE_MESSAGES } from '../../../contract/circle'
import {
  describeReleasedItem,
  RELEASE_MESSAGES,
  type AssetDownload,
  type AssetStatus,
  type BeneficiaryPortalView,
  type ReleasedAsset,
} from '../../../contract/releases'
import type { PasswordEntry } from '../../../contract/vault-items'
import type { ItemManifestFields } from '../../../contract/vault-statements'
import {
  DecryptionError,
  decryptMetadata,
  importBeneficiaryPrivateKey,
  MissingPrivateKeyError,
  unwrapDataKeyForBeneficiary,
  type BeneficiaryPrivateKey,
  type DataKey,
} from '@/crypto'
import { ApiRequestError } from '@/lib/api-client'
import {
  chooseSaveTarget,
  collectBlob,
  decryptContent,
  parsePasswordEntry,
  type DecryptOptions,
  type SaveTargetOptions,
} from '@/features/vault/items/download'
import { isAbortError, type FetchLike } from '@/features/vault/items/http'
import { linkForm, linkJson } from './http'
import { checkSeal, ContentNotSealedError, contentCheck, kitVaultFingerprints, manifestStates, sealVerdict, type SealVerdict, type VaultTrust } from './seals'

// The beneficiary portal's logic (seeds 001 §2 assets view, §5 'Beneficiary decrypt', §7): the
// released assets, the private key from the Access Kit, and the download that decrypts in this
// browser. The key is a non-extractable CryptoKey held in memory by the page; it is never sent.

export interface BeneficiaryLink {
  id: string
  token: string
}

export type IdentityStatus = BeneficiaryPortalView['identityStatus']

export interface DownloadCounts {
  downloadCount: number
  maxDownloads: number
}

const beneficiaryUrl = (link: BeneficiaryLink, path: string) =>
  `/api/beneficiaries/${encodeURIComponent(link.id)}${path}?token=${encodeURIComponent(link.token)}`

export const portalUrls = {
  portal: (link: BeneficiaryLink) => beneficiaryUrl(link, '/portal'),
  assets: (link: BeneficiaryLink) => beneficiaryUrl(link, '/assets'),
  download: (link: BeneficiaryLink, assetId: string) => beneficiaryUrl(link, `/assets/${encodeURIComponent(assetId)}/download`),
  identityDocument: (link: BeneficiaryLink) => beneficiaryUrl(link, '/identity-document'),
  keyBackup: (link: BeneficiaryLink) => beneficiaryUrl(link, '/key-backup'),
  renewals: (link: BeneficiaryLink) => beneficiaryUrl(link, '/renewals'),
}

export const fetchPortal = (link: BeneficiaryLink, fetchFn?: FetchLike) => linkJson<BeneficiaryPortalView>('GET', portalUrls.portal(link), undefined, fetchFn)
export const fetchAssets = (link: BeneficiaryLink, fetchFn?: FetchLike) =>
  linkJson<ReleasedAsset[]>('GET', portalUrls.assets(link), undefined, fetchFn)

export interface IdentityUpload {
  documentType: string
  documentNumber: string
  issuingAuthority: string
  expirationDate: string
  frontImage: File
  backImage: File | null
}

export function uploadIdentityDocument(link: BeneficiaryLink, upload: IdentityUpload, fetchFn?: FetchLike) {
  const form = new FormData()
  form.append('documentType', upload.documentType)
  form.append('documentNumber', upload.documentNumber)
  form.append('issuingAuthority', upload.issuingAuthority)
  form.append('expirationDate', upload.expirationDate)
  form.append('frontImage', upload.frontImage)
  if (upload.backImage) form.append('backImage', upload.backImage)
  return linkForm<{ identityStatus: 'pending' }>(portalUrls.identityDocument(link), form, fetchFn)
}

// ---- The private key ----

/** `vaultFingerprints`: what the kit says the owner's vault key is (none on a kit printed before 0.3). */
export type KeyResult = { ok: true; key: BeneficiaryPrivateKey; vaultFingerprints: string[] } | { ok: false; error: string }

/** An Access Kit is a few kilobytes; anything much larger is not one. */
export const MAX_KIT_FILE_BYTES = 64 * 1024

/** The pasted key, a PEM block or a whole Access Kit's text, with the spec's two messages. */
export async function loadPrivateKey(text: string): Promise<KeyResult> {
  try {
    return { ok: true, key: await importBeneficiaryPrivateKey(text), vaultFingerprints: kitVaultFingerprints(text) }
  } catch (error) {
    return { ok: false, error: error instanceof MissingPrivateKeyError ? RELEASE_MESSAGES.privateKeyRequired : RELEASE_MESSAGES.privateKeyInvalid }
  }
}

/** An Access Kit is a few kilobytes: a file over 64 KiB is refused as not a kit, before it is read; one of exactly 64 KiB is read. */
export function kitFileTooLarge(size: number): boolean {
  return size > MAX_KIT_FILE_BYTES
}

export async function loadPrivateKeyFile(file: Blob): Promise<KeyResult> {
  if (kitFileTooLarge(file.size)) return { ok: false, error: RELEASE_MESSAGES.privateKeyInvalid }
  return loadPrivateKey(await file.text())
}

// ---- Identity ----

export type IdentityStep = 'none' | 'upload' | 'pending'

/** Whether the portal asks for an identity document, says one is under review, or neither. */
export function identityStep(portal: Pick<BeneficiaryPortalView, 'identityRequired' | 'identityStatus'>, assets: readonly ReleasedAsset[] = []): IdentityStep {
  if (portal.identityStatus === 'pending') return 'pending'
  if (portal.identityStatus === 'verified') return 'none'
  const needed = portal.identityRequired || assets.some((a) => a.status === 'pending_identity')
  return needed ? 'upload' : 'none'
}

// ---- Asset cards ----

export type AssetIconKind = 'photo' | 'video' | 'password' | 'document' | 'other'

const TYPE_INFO: Record<string, { icon: AssetIconKind; label: string }> = {
  doc: { icon: 'document', label: 'Document' },
  document: { icon: 'document', label: 'Document' },
  photo: { icon: 'photo', label: 'Photo' },
  video: { icon: 'video', label: 'Video' },
  password: { icon: 'password', label: 'Password' },
}

export const ASSET_STATUS_LABELS: Record<AssetStatus, string> = {
  available: 'Available',
  pending_identity: 'Pending identity',
  expired: 'Expired',
  exhausted: 'Download limit reached',
  withdrawn: 'Withdrawn',
}

const BLOCKED_REASONS: Record<Exclude<AssetStatus, 'available'>, (ownerName: string) => string> = {
  pending_identity: () => RELEASE_MESSAGES.assetPendingIdentity,
  expired: () => RELEASE_MESSAGES.assetExpired,
  exhausted: () => RELEASE_MESSAGES.downloadLimit,
  withdrawn: (ownerName) => RELEASE_MESSAGES.assetWithdrawn(ownerName),
}

export interface AssetCardModel {
  id: string
  title: string
  icon: AssetIconKind
  typeLabel: string
  status: AssetStatus
  statusLabel: string
  statusVariant: 'default' | 'secondary'
  downloadsText: string
  expiresText: string
  canDownload: boolean
  /** Why the asset cannot be downloaded at all (not shown for a merely busy page). */
  blockedReason: string | null
  /** What its seal says, once the heir's kit is loaded. */
  seal: { tone: 'sealed' | 'unsealed' | 'refused'; label: string; detail: string | null } | null
  /** An unsealed item the heir may choose to open (an older kit). */
  canOpenUnsealed: boolean
}

/** An item's seal as the card shows it: the verdict, what the heir's kit can check, and whether they chose to open an unsealed one. */
export interface CardSeal {
  verdict: SealVerdict
  trust: VaultTrust
  opened: boolean
}

function sealView(asset: ReleasedAsset, { verdict, trust, opened }: CardSeal, ownerName: string): NonNullable<AssetCardModel['seal']> {
  if (verdict.state === 'sealed') {
    return { tone: 'sealed', label: trust.kind === 'kit' ? RELEASE_MESSAGES.sealedBy(ownerName) : RELEASE_MESSAGES.sealedByFingerprint(ownerName), detail: null }
  }
  if (verdict.state === 'unsealed') return { tone: 'unsealed', label: RELEASE_MESSAGES.notSealed, detail: opened ? null : RELEASE_MESSAGES.notSealedBody(ownerName) }
  const item = describeReleasedItem(asset)
  const detail = trust.kind === 'mismatch' ? RELEASE_MESSAGES.sealMismatchRefused(item) : RELEASE_MESSAGES.sealRefused(ownerName, item)
  return { tone: 'refused', label: 'Not opened', detail }
}

/** Whether the item may be decrypted: sealed, or unsealed and chosen by the heir. */
export function mayOpen(seal: Pick<CardSeal, 'verdict' | 'opened'>): boolean {
  return seal.verdict.state === 'sealed' || (seal.verdict.state === 'unsealed' && seal.opened)
}

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

/** The status that applies now: the counters and expiry can be ahead of the server's label. */
export function effectiveStatus(asset: Pick<ReleasedAsset, 'status' | 'downloadCount' | 'maxDownloads' | 'expiresAt'>, now = new Date()): AssetStatus {
  if (asset.status !== 'available') return asset.status
  if (asset.downloadCount >= asset.maxDownloads) return 'exhausted'
  if (asset.expiresAt && Date.parse(asset.expiresAt) <= now.getTime()) return 'expired'
  return 'available'
}

export function assetCardModel(
  asset: ReleasedAsset,
  {
    name,
    busy = false,
    now = new Date(),
    ownerName = 'The owner',
    seal = null,
    keyFits = true,
  }: {
    name?: string | null
    busy?: boolean
    now?: Date
    ownerName?: string
    seal?: CardSeal | null
    /** False when the loaded key opened none of the items (SealedNames.mismatch): nothing can be downloaded with it. */
    keyFits?: boolean
  } = {},
): AssetCardModel {
  const type = TYPE_INFO[asset.vaultItem.type] ?? { icon: 'other' as const, label: 'Other' }
  const status = effectiveStatus(asset, now)
  const expires = asset.expiresAt ? new Date(asset.expiresAt) : null
  const open = seal === null || mayOpen(seal)
  const sealed = seal && sealView(asset, seal, ownerName)
  return {
    id: asset.id,
    // An item not opened is named by what the server knows of it; its real name stays sealed.
    title: open ? name?.trim() || RELEASE_MESSAGES.untitled : describeReleasedItem(asset),
    icon: type.icon,
    typeLabel: type.label,
    status,
    statusLabel: ASSET_STATUS_LABELS[status] ?? status,
    statusVariant: status === 'available' ? 'default' : 'secondary',
    downloadsText: `Downloads: ${asset.downloadCount}/${asset.maxDownloads}`,
    // A withdrawn item no longer expires: it is gone.
    expiresText: status === 'withdrawn' ? 'No longer available' : expires && !Number.isNaN(expires.getTime()) ? `Expires ${dateFormat.format(expires)}` : 'No expiry date',
    canDownload: status === 'available' && !busy && open && keyFits,
    blockedReason:
      status !== 'available'
        ? BLOCKED_REASONS[status](ownerName)
        : sealed?.tone === 'refused'
          ? sealed.detail
          : keyFits
            ? null
            : RELEASE_MESSAGES.keyDoesNotFitItem,
    seal: sealed,
    canOpenUnsealed: seal !== null && seal.verdict.state === 'unsealed' && !seal.opened,
  }
}

/** A download that used the last allowed one: the portal is fetched again, so it can offer to ask for more time. */
export function downloadsUsedUp(counts: DownloadCounts): boolean {
  return counts.downloadCount >= counts.maxDownloads
}

/** How far a download is, in whole percent (never over 100); null while its size is not known. */
export function downloadPercent(received: number, total: number): number | null {
  return total > 0 ? Math.min(100, Math.round((received / total) * 100)) : null
}

/** No download starts while another runs, nor, with a key loaded, before the items' seals have been checked. */
export function downloadsHeld(state: { downloading: boolean; keyLoaded: boolean; sealsChecked: boolean }): boolean {
  return state.downloading || (state.keyLoaded && !state.sealsChecked)
}

/** The list with one asset's counters replaced by a download's answer. */
export function withCounts(assets: readonly ReleasedAsset[], assetId: string, counts: DownloadCounts): ReleasedAsset[] {
  return assets.map((a) => (a.id === assetId ? { ...a, ...counts } : a))
}

// ---- Decryption ----

export interface AssetMetadata {
  filename: string
  mimetype: string
}

const metadataSchema = z.object({
  filename: z.string().catch(''),
  mimetype: z.string().min(1).catch('application/octet-stream'),
})

async function openMetadata(dek: DataKey, itemId: string, encrypted: string): Promise<AssetMetadata> {
  return metadataSchema.parse(await decryptMetadata<unknown>(dek, itemId, encrypted))
}

/** The data key and metadata from the list entry; rejects with DecryptionError when the key does not fit. */
async function openListed({ vaultItem }: Pick<ReleasedAsset, 'vaultItem'>, key: BeneficiaryPrivateKey) {
  const dek = await unwrapDataKeyForBeneficiary(vaultItem.wrappedKey, key)
  return { dek, metadata: await openMetadata(dek, vaultItem.id, vaultItem.encryptedMetadata) }
}

/** The asset's real file name (null when it has none); rejects when the key does not open it. */
export async function decryptAssetName(asset: Pick<ReleasedAsset, 'vaultItem'>, key: BeneficiaryPrivateKey): Promise<string | null> {
  return (await openListed(asset, key)).metadata.filename || null
}

export interface SealedNames {
  verdicts: Record<string, SealVerdict>
  /** The real names of the items opened (null: none, or the key did not open it); nothing for the others. */
  names: Record<string, string | null>
  /** The key opened none of the items it was tried on. */
  mismatch: boolean
}

/**
 * Each listed item's seal, checked first, then the names of those it lets open (and of unsealed
 * ones the heir chose to open): an item refused is never decrypted, not even its name.
 */
export async function sealsAndNames(
  list: readonly Pick<ReleasedAsset, 'id' | 'vaultItem'>[],
  key: BeneficiaryPrivateKey,
  trust: VaultTrust,
  vaultSigningKey: string | null,
  openedUnsealed: ReadonlySet<string> = new Set(),
): Promise<SealedNames> {
  const results = await Promise.all(
    list.map(async (asset) => {
      const verdict = sealVerdict(await checkSeal(asset.vaultItem, vaultSigningKey), trust)
      if (!mayOpen({ verdict, opened: openedUnsealed.has(asset.id) })) return { id: asset.id, verdict, tried: false, opened: false, name: null }
      const name = await decryptAssetName(asset, key).then((n) => ({ n }), () => null)
      return { id: asset.id, verdict, tried: true, opened: name !== null, name: name?.n ?? null }
    }),
  )
  const tried = results.filter((r) => r.tried)
  return {
    verdicts: Object.fromEntries(results.map((r) => [r.id, r.verdict])),
    names: Object.fromEntries(results.map((r) => [r.id, r.name])),
    mismatch: tried.length > 0 && tried.every((r) => !r.opened),
  }
}

/** Re-fetches of a content ticket's URL after a network error; the ticket outlives them (RELEASE_LIMITS). */
export const CONTENT_RETRIES = 2

/** The plaintext behind a download ticket, each piece authenticated before it is yielded. */
export function decryptAssetContent(download: AssetDownload, dek: DataKey, options: DecryptOptions = {}) {
  const { id: itemId, chunkBytes, cipherSize } = download.item
  // The ticket in the URL is the credential: no session goes along.
  return decryptContent({ url: download.contentUrl, itemId, chunkBytes, cipherSize }, dek, { retries: CONTENT_RETRIES, ...options })
}

export type DownloadOutcome =
  | { kind: 'saved'; filename: string; counts: DownloadCounts }
  | { kind: 'password'; title: string; entry: PasswordEntry; counts: DownloadCounts }
  | { kind: 'cancelled' }

export interface AssetDownloadOptions extends DecryptOptions, SaveTargetOptions {
  /** Called once the ticket is issued (its first fetch counts the download), before the content arrives. */
  onCounted?: (counts: DownloadCounts, metadata: AssetMetadata) => void
  /**
   * The item's verified manifest (seals.ts): the download must state the same item, and the file
   * is completed only if its ciphertext is the one sealed. Absent only for an unsealed item the heir chose to open.
   */
  seal?: ItemManifestFields
}

/**
 * Opens the item's data key and name from the list entry (a key that does not fit fails here,
 * before anything is counted), opens the save dialog, then GET …/download (a ticket) and fetches
 * and decrypts the content behind it: the ticket's first fetch counts one download, and re-fetching
 * on it after a network error (RELEASE_LIMITS.contentTicketMinutes) counts nothing more.
 * A password entry is returned for display; anything else is saved. Call it straight from a
 * click: the save dialog needs the user's gesture.
 */
export async function downloadReleasedAsset(
  link: BeneficiaryLink,
  asset: Pick<ReleasedAsset, 'id' | 'vaultItem'>,
  key: BeneficiaryPrivateKey,
  options: AssetDownloadOptions = {},
): Promise<DownloadOutcome> {
  if (options.seal && !manifestStates(options.seal, asset.vaultItem)) throw new ContentNotSealedError()
  const listed = await openListed(asset, key)
  const listedName = listed.metadata.filename
  const target =
    asset.vaultItem.type === 'password' ? null : await chooseSaveTarget(listedName || RELEASE_MESSAGES.untitled, { ...options, size: asset.vaultItem.plainSize })
  if (target === 'cancelled') return { kind: 'cancelled' }

  const { counts, metadata, content, plainSize } = await openTicket(link, asset, key, listed.dek, options)
  if (!target) {
    const text = await (await collectBlob(content)).text()
    return { kind: 'password', title: metadata.filename || RELEASE_MESSAGES.untitled, entry: parsePasswordEntry(text), counts }
  }
  const filename = metadata.filename || listedName || RELEASE_MESSAGES.untitled
  try {
    await target.write(content, { filename, mimetype: metadata.mimetype, size: plainSize })
  } catch (error) {
    // Cancelled in the browser's own download list (the download was counted all the same).
    if (isAbortError(error) && !options.signal?.aborted) return { kind: 'cancelled' }
    throw error
  }
  return { kind: 'saved', filename, counts }
}

/** A released item opened: its counters after this download, its metadata, and its plaintext (checked against its seal). */
export interface OpenedAsset {
  counts: DownloadCounts
  metadata: AssetMetadata
  plainSize: number
  content: AsyncGenerator<Uint8Array<ArrayBuffer>, void, undefined>
}

/**
 * GET …/download (a ticket: its content's first fetch counts one download), then the content,
 * decrypted and, for a sealed item, held to its seal exactly as a single download is.
 */
async function openTicket(
  link: BeneficiaryLink,
  asset: Pick<ReleasedAsset, 'id' | 'vaultItem'>,
  key: BeneficiaryPrivateKey,
  listedDek: DataKey,
  options: AssetDownloadOptions,
): Promise<OpenedAsset> {
  const download = await linkJson<AssetDownload>('GET', portalUrls.download(link, asset.id), undefined, options.fetch)
  if (options.seal && !manifestStates(options.seal, download.item)) throw new ContentNotSealedError()
  const counts = { downloadCount: download.downloadCount, maxDownloads: download.maxDownloads }
  const dek = download.encryptedMasterKey === asset.vaultItem.wrappedKey ? listedDek : await unwrapDataKeyForBeneficiary(download.encryptedMasterKey, key)
  const metadata = await openMetadata(dek, download.item.id, download.item.encryptedMetadata)
  options.onCounted?.(counts, metadata)
  const check = options.seal && contentCheck(options.seal)
  const content = check ? check.hold(decryptAssetContent(download, dek, { ...options, onEncryptedChunk: check.see })) : decryptAssetContent(download, dek, options)
  return { counts, metadata, plainSize: download.item.plainSize, content }
}

/**
 * A released item opened without a save dialog (Download all): the same checks as a single
 * download, in the same order (its seal's statement, then its key, then the ticket, which counts).
 */
export async function openReleasedAsset(
  link: BeneficiaryLink,
  asset: Pick<ReleasedAsset, 'id' | 'vaultItem'>,
  key: BeneficiaryPrivateKey,
  options: AssetDownloadOptions = {},
): Promise<OpenedAsset> {
  if (options.seal && !manifestStates(options.seal, asset.vaultItem)) throw new ContentNotSealedError()
  const listed = await openListed(asset, key)
  return openTicket(link, asset, key, listed.dek, options)
}

export const DOWNLOAD_FALLBACK = 'The asset could not be downloaded. Please try again.'
export const WRONG_KEY_TEXT =
  'This asset could not be decrypted with the private key you loaded. Check that it is the key from the Access Kit made for you.'

/** The words under a 'Download Failed' toast. */
export function downloadErrorText(error: unknown, ownerName = 'The owner'): string {
  if (error instanceof ContentNotSealedError) return RELEASE_MESSAGES.contentNotSealed(ownerName)
  if (error instanceof DecryptionError) return WRONG_KEY_TEXT
  if (error instanceof ApiRequestError) return error.detail || DOWNLOAD_FALLBACK
  if (error instanceof TypeError) return CIRCLE_MESSAGES.networkError
  if (error instanceof Error && error.message) return error.message
  return DOWNLOAD_FALLBACK
}
