import { z } from 'zod'

// An heir's own backup of their private key (0.3 · 4 of 7; FORMAT.md "Heir key backup"): the
// PKCS#8 key wrapped in their browser under a key from a passphrase of their own. The server
// stores and returns the bytes; only the heir's browser can open them.

export const HEIR_BACKUP_MESSAGES = {
  keyChanged: 'Your key was replaced by a new Access Kit meanwhile. Reload the page and load the new kit.',
  alreadyReleased: 'Items have already been released to you, so the backup can no longer be changed. Open them at the portal.',
  noBackup: 'No passphrase backup was made for this key. Use the Access Kit instead.',
  backupInvalid: 'The backup is not in the expected form.',
  // In the heir's browser:
  kitNotYours: "This Access Kit's key is not the one the vault holds for you. Load the newest kit the owner gave you.",
  wrongPassphrase:
    'This passphrase does not open your backup. Check it and try again. If you are sure it is right, the stored backup has been changed: use your Access Kit instead.',
  backupNotYours: 'The stored backup holds a key that is not yours, so it was not used. Use your Access Kit instead.',
  enterPassphrase: 'Please enter the passphrase you chose for your backup.',
  saved: 'Your passphrase backup is saved. You can now open what is left to you with your Access Kit or with this passphrase.',
  replacedKitNote: 'If you are ever given a new Access Kit, this backup stops working: come back here and make a new one with the new kit.',
} as const

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
/** A 2048-bit PKCS#8 key and a fingerprint come to about 2.4 kB of base64; room for 4096-bit keys. */
export const HEIR_BACKUP_MAX_CHARS = 8192

export const heirKeyBackupSchema = z.object({
  keyVersion: z.number().int().min(1).max(0xffff_ffff),
  backup: z.string().min(40, HEIR_BACKUP_MESSAGES.backupInvalid).max(HEIR_BACKUP_MAX_CHARS, HEIR_BACKUP_MESSAGES.backupInvalid).regex(base64, HEIR_BACKUP_MESSAGES.backupInvalid),
  // base64 of 32 bytes.
  salt: z.string().length(44, HEIR_BACKUP_MESSAGES.backupInvalid).regex(base64, HEIR_BACKUP_MESSAGES.backupInvalid),
})
export type HeirKeyBackup = z.infer<typeof heirKeyBackupSchema>

/** PUT /api/beneficiary-key-backup: the invitation link's token and the wrapped key. */
export const heirKeyBackupBodySchema = heirKeyBackupSchema.extend({
  token: z.string().min(20).max(2048),
})

/** What the heir's browser needs to make (or replace) a backup: the AAD's fields and the key to match. */
export interface HeirBackupContext {
  ownerId: string
  beneficiaryId: string
  keyVersion: number
  /** base64 SPKI: the public key the vault holds for them; the kit's key must match it. */
  publicKey: string
  hasKeyBackup: boolean
  /** Items were released to them: the backup is fixed from then on. */
  released: boolean
}

/** GET /api/beneficiaries/:id/key-backup at the portal: the backup, with the AAD's fields. */
export interface PortalKeyBackup extends HeirKeyBackup {
  ownerId: string
  beneficiaryId: string
  publicKey: string
}
