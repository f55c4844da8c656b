import { HEIR_BACKUP_MESSAGES, type HeirBackupContext, type PortalKeyBackup } from '../../../contract/heir-key-backup'
import { RELEASE_MESSAGES } from '../../../contract/releases'
import { VAULT_MESSAGES } from '../../../contract/vault'
import { createHeirKeyBackup, DecryptionError, InvalidPrivateKeyError, KeyMismatchError, MissingPrivateKeyError, openHeirKeyBackup } from '@/crypto'
import { ApiRequestError } from '@/lib/api-client'
import type { FetchLike } from '@/features/vault/items/http'
import { checkGuessing, GUESSING_MESSAGES, type GuessingVerdict } from '@/features/vault/passphrase-guessing'
import { scorePassphrase, STRENGTH_MIN } from '@/features/vault/passphrase-strength'
import { linkJson } from './http'
import { portalUrls, type BeneficiaryLink, type KeyResult } from './portal'
import { kitVaultFingerprints } from './seals'

// The heir's own passphrase backup of their key (FORMAT.md "Heir key backup"): made in their
// browser from the kit, from the invitation's link; opened at the portal instead of the kit. The
// server only stores the wrapped bytes.

export const backupUrls = {
  context: (token: string) => `/api/beneficiary-key-backup?token=${encodeURIComponent(token)}`,
  store: '/api/beneficiary-key-backup',
}

export const fetchBackupContext = (token: string, fetchFn?: FetchLike) => linkJson<HeirBackupContext>('GET', backupUrls.context(token), undefined, fetchFn)

/** Why a new backup passphrase is refused, by the same rules as a vault passphrase (and the estimator); null: it may be used. */
export async function backupPassphraseProblem(passphrase: string, confirmation: string, personal: readonly string[] = []): Promise<string | null> {
  if (!passphrase) return HEIR_BACKUP_MESSAGES.enterPassphrase
  if (passphrase !== confirmation) return VAULT_MESSAGES.passphrasesDoNotMatch
  if (scorePassphrase(passphrase).score < STRENGTH_MIN) return VAULT_MESSAGES.tooWeak
  const verdict = await checkGuessing(passphrase, personal)
  return verdict.ok ? null : [GUESSING_MESSAGES.tooGuessable, ...verdict.advice].join(' ')
}

export type SaveResult = { ok: true } | { ok: false; error: string }

/**
 * Checks the passphrase, wraps the kit's key in this browser (the kit's key must be the one the
 * vault holds for them) and stores the wrapped bytes through the invitation's link.
 */
export async function saveHeirBackup(
  token: string,
  context: HeirBackupContext,
  kitText: string,
  passphrase: string,
  confirmation: string,
  { personal = [], fetchFn }: { personal?: readonly string[]; fetchFn?: FetchLike } = {},
): Promise<SaveResult> {
  const problem = await backupPassphraseProblem(passphrase, confirmation, personal)
  if (problem) return { ok: false, error: problem }
  let wrapped
  try {
    wrapped = await createHeirKeyBackup(kitText, kitVaultFingerprints(kitText), passphrase, context, context.publicKey)
  } catch (error) {
    if (error instanceof MissingPrivateKeyError) return { ok: false, error: RELEASE_MESSAGES.privateKeyRequired }
    if (error instanceof InvalidPrivateKeyError) return { ok: false, error: RELEASE_MESSAGES.privateKeyInvalid }
    if (error instanceof KeyMismatchError) return { ok: false, error: HEIR_BACKUP_MESSAGES.kitNotYours }
    throw error
  }
  await linkJson('PUT', backupUrls.store, { token, keyVersion: context.keyVersion, ...wrapped }, fetchFn)
  return { ok: true }
}

/**
 * The portal without the kit: the backup through the portal's link, opened with the passphrase.
 * It must authenticate for this owner, person and key version, and hold the key the vault holds
 * for them; then it is used exactly as a kit's key (with the kit's vault fingerprints inside it).
 */
export async function loadPrivateKeyFromPassphrase(link: BeneficiaryLink, passphrase: string, fetchFn?: FetchLike): Promise<KeyResult> {
  if (!passphrase) return { ok: false, error: HEIR_BACKUP_MESSAGES.enterPassphrase }
  let stored: PortalKeyBackup
  try {
    stored = await linkJson<PortalKeyBackup>('GET', portalUrls.keyBackup(link), undefined, fetchFn)
  } catch (error) {
    if (error instanceof ApiRequestError) return { ok: false, error: error.detail || HEIR_BACKUP_MESSAGES.noBackup }
    throw error
  }
  // The AAD's fields are this link's person; the owner and key version come with the backup and are
  // authenticated by it (a backup moved to another owner or version fails).
  const binding = { ownerId: stored.ownerId, beneficiaryId: link.id, keyVersion: stored.keyVersion }
  try {
    const { key, vaultFingerprints } = await openHeirKeyBackup(stored, passphrase, binding, stored.publicKey)
    return { ok: true, key, vaultFingerprints }
  } catch (error) {
    if (error instanceof DecryptionError) return { ok: false, error: HEIR_BACKUP_MESSAGES.wrongPassphrase }
    if (error instanceof KeyMismatchError) return { ok: false, error: HEIR_BACKUP_MESSAGES.backupNotYours }
    throw error
  }
}

/** The passphrase backup is offered only until items are released to the heir: from then on it is fixed. */
export function backupOffered(ctx: HeirBackupContext | undefined): ctx is HeirBackupContext {
  return ctx !== undefined && !ctx.released
}

/** "Save passphrase backup" is enabled only with a kit and a passphrase given, a passphrase not found guessable, and not while saving. */
export function canSaveBackup(form: { saving: boolean; kitText: string; passphrase: string; guessing: GuessingVerdict | null }): boolean {
  return !form.saving && form.kitText !== '' && form.passphrase !== '' && form.guessing?.ok !== false
}
