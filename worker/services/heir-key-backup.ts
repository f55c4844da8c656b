import { and, eq } from 'drizzle-orm'
import { CIRCLE_MESSAGES } from '../../contract/circle'
import { HEIR_BACKUP_MESSAGES, type HeirBackupContext, type HeirKeyBackup, type PortalKeyBackup } from '../../contract/heir-key-backup'
import { badRequest, conflict, notFound } from '../lib/errors'
import type { OwnerDb } from '../owner/db'
import { beneficiaries, releasedAssets } from '../owner/schema'

// An heir's passphrase backup of their private key, run in the owner's object the link names.
// The server only keeps the bytes: it cannot tell a good backup from a bad one, and the heir's
// browser refuses one that does not authenticate (FORMAT.md "Heir key backup").

function heir(db: OwnerDb, beneficiaryId: string) {
  const b = db.select().from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).get()
  if (!b) throw badRequest(CIRCLE_MESSAGES.linkInvalid)
  return b
}

function released(db: OwnerDb, beneficiaryId: string): boolean {
  return !!db.select({ id: releasedAssets.id }).from(releasedAssets).where(eq(releasedAssets.beneficiaryId, beneficiaryId)).get()
}

export function backupContext(db: OwnerDb, ownerId: string, beneficiaryId: string): HeirBackupContext {
  const b = heir(db, beneficiaryId)
  return { ownerId, beneficiaryId: b.id, keyVersion: b.keyVersion, publicKey: b.publicKey, hasKeyBackup: b.keyBackup !== null, released: released(db, b.id) }
}

/** Stores (or replaces) the backup, for the key in force only, and only before anything is released to them. */
export function storeBackup(db: OwnerDb, beneficiaryId: string, body: HeirKeyBackup, now: number): { keyBackupAt: string } {
  const b = heir(db, beneficiaryId)
  if (released(db, b.id)) throw conflict(HEIR_BACKUP_MESSAGES.alreadyReleased)
  const stored = db
    .update(beneficiaries)
    .set({ keyBackup: body.backup, keyBackupSalt: body.salt, keyBackupVersion: body.keyVersion, keyBackupAt: now, updatedAt: now })
    .where(and(eq(beneficiaries.id, b.id), eq(beneficiaries.keyVersion, body.keyVersion)))
    .returning({ id: beneficiaries.id })
    .get()
  if (!stored) throw conflict(HEIR_BACKUP_MESSAGES.keyChanged)
  return { keyBackupAt: new Date(now).toISOString() }
}

/** The backup of the key in force, for the portal; 404 when there is none (or only one of an older key). */
export function portalBackup(db: OwnerDb, ownerId: string, beneficiaryId: string): PortalKeyBackup {
  const b = heir(db, beneficiaryId)
  if (b.keyBackup === null || b.keyBackupSalt === null || b.keyBackupVersion !== b.keyVersion) throw notFound(HEIR_BACKUP_MESSAGES.noBackup)
  return { ownerId, beneficiaryId: b.id, keyVersion: b.keyVersion, publicKey: b.publicKey, backup: b.keyBackup, salt: b.keyBackupSalt }
}

/** The columns a key change clears: a backup wraps one key version, and the next kit's key is another. */
export const CLEARED_BACKUP = { keyBackup: null, keyBackupSalt: null, keyBackupVersion: null, keyBackupAt: null } as const
