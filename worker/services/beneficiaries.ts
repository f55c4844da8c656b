import { and, asc, eq, lt, sql } from 'drizzle-orm'
import { DAY_MS } from '../../contract/constants'
import {
  CIRCLE_MESSAGES,
  type Beneficiary,
  type BeneficiaryCreateBody,
  type BeneficiaryUpdateBody,
  type RotationStarted,
  type WithEmailSent,
} from '../../contract/circle'
import { KEY_SIGNING_MESSAGES } from '../../contract/key-signing'
import { grantsStatement, type BeneficiaryStatementFields } from '../../contract/vault-statements'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import { randomToken } from '../lib/crypto'
import type { OwnerDb } from '../owner/db'
import { beneficiaries, itemGrants, keyRotations, rotationGrants, type BeneficiaryRow, type KeyRotationRow } from '../owner/schema'
import { CLEARED_BACKUP } from './heir-key-backup'
import type { Unit } from '../owner/unit'
import { beneficiaryChangedOldAddressEmail, beneficiaryChangedOwnerEmail } from '../mail/templates'
import { sendBeneficiaryInvitation } from './invitations'
import { assertMayMail } from '../owner/mail-limits'
import { planLimitsFor } from './plan-limits'

// The owner's beneficiaries (seeds 001 §7), run inside the owner's object.

// Rows per multi-row insert of staged grants (3 parameters each, 100 at most a statement).
const ROTATION_ROWS_PER_STATEMENT = 30

const UPDATABLE_FIELDS = ['fullName', 'email', 'relationship', 'sendAssetNotifications', 'delayNotifications'] as const

export function toBeneficiary(row: BeneficiaryRow): Beneficiary {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    relationship: row.relationship,
    verified: row.emailVerifiedAt !== null,
    identityVerified: row.identityStatus === 'verified',
    identityStatus: row.identityStatus,
    sendAssetNotifications: row.sendAssetNotifications,
    delayNotifications: row.delayNotifications,
    notificationStatus: row.notificationStatus,
    publicKey: row.publicKey,
    publicKeyFingerprint: row.publicKeyFingerprint,
    keyVersion: row.keyVersion,
    keySignature: row.keySignature,
    statementSequence: row.statementSequence,
    kitHasVaultFingerprint: row.kitHasVaultFingerprint,
    hasKeyBackup: row.keyBackup !== null && row.keyBackupVersion === row.keyVersion,
    invitationHeld: row.invitationHeldAt !== null,
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

export function listBeneficiaries(db: OwnerDb): BeneficiaryRow[] {
  return db.select().from(beneficiaries).orderBy(asc(beneficiaries.createdAt)).all()
}

export function findBeneficiary(db: OwnerDb, id: string): BeneficiaryRow | undefined {
  return db.select().from(beneficiaries).where(eq(beneficiaries.id, id)).get()
}

function requireBeneficiary(db: OwnerDb, id: string): BeneficiaryRow {
  const row = findBeneficiary(db, id)
  if (!row) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  return row
}

function byEmail(db: OwnerDb, email: string): BeneficiaryRow | undefined {
  return db.select().from(beneficiaries).where(eq(beneficiaries.email, email)).get()
}

type NewBeneficiary = Omit<BeneficiaryCreateBody, 'privateKey' | 'verified' | 'sendVerificationEmail' | 'statementSequence'> & { publicKeyFingerprint: string }

/** What the object verified a beneficiary statement over (contract/vault-statements.ts), before the act: the check is asynchronous. */
export type Stated = Omit<BeneficiaryStatementFields, 'ownerId'>

/**
 * The vault-wide high-water mark of beneficiary statements, kept by the owner's object in its own
 * storage and written in the act's transaction: a statement is taken only above it, so a replayed
 * one (a deleted beneficiary's old key, an earlier address) is refused for good.
 */
export interface StatementLedger {
  highest(): number
  accept(sequence: number): void
}

/** The act's last step before it writes: the statement's sequence must be above every one accepted. */
function acceptStatement(ledger: StatementLedger, stated: Stated): void {
  const highest = ledger.highest()
  // The newest accepted goes back with the refusal, for the owner's browser to sign once above it.
  if (stated.sequence <= highest) throw new ApiError(409, KEY_SIGNING_MESSAGES.statementOutdated, { statementSequence: highest })
  ledger.accept(stated.sequence)
}

type StatedRow = Pick<BeneficiaryRow, 'id' | 'fullName' | 'relationship' | 'email' | 'keyVersion' | 'publicKey'>

/** The statement's fields for a row as it is, or will be, at `sequence`. */
export function statementOf(row: StatedRow, sequence: number): Stated {
  return { sequence, beneficiaryId: row.id, fullName: row.fullName, relationship: row.relationship, email: row.email, keyVersion: row.keyVersion, publicKey: row.publicKey }
}

/** The statement is over the row as the act is about to leave it (nothing changed it between the check and the act). */
function assertStatedFor(stated: Stated | undefined, row: StatedRow): asserts stated is Stated {
  if (
    !stated ||
    stated.beneficiaryId !== row.id ||
    stated.fullName !== row.fullName ||
    stated.relationship !== row.relationship ||
    stated.email.toLowerCase() !== row.email.toLowerCase() ||
    stated.keyVersion !== row.keyVersion ||
    stated.publicKey !== row.publicKey
  ) {
    throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
  }
}

/** Adds a beneficiary unless the plan's limit is reached (counted in the same transaction). */
export function createBeneficiary(u: Unit, body: NewBeneficiary, sendVerificationEmail: boolean, stated: Stated, ledger: StatementLedger): WithEmailSent<Beneficiary> {
  const { db, now } = u
  if (findBeneficiary(db, body.id)) throw conflict(CIRCLE_MESSAGES.beneficiaryIdTaken)
  if (byEmail(db, body.email)) throw conflict(CIRCLE_MESSAGES.duplicateBeneficiary)
  const limit = planLimitsFor(u.account).maxBeneficiaries
  const count = db.select({ n: sql<number>`count(*)` }).from(beneficiaries).get()?.n ?? 0
  if (limit !== null && count >= limit) throw new ApiError(402, CIRCLE_MESSAGES.beneficiaryLimit(limit))
  if (sendVerificationEmail) assertMayMail(u, body.email, 'invitation')
  assertStatedFor(stated, { ...body, keyVersion: 1 })
  acceptStatement(ledger, stated)
  const row = db
    .insert(beneficiaries)
    .values({
      id: body.id,
      fullName: body.fullName,
      email: body.email,
      relationship: body.relationship,
      publicKey: body.publicKey,
      publicKeyFingerprint: body.publicKeyFingerprint,
      keySignature: body.keySignature,
      statementSequence: stated.sequence,
      sendAssetNotifications: body.sendAssetNotifications ?? true,
      delayNotifications: body.delayNotifications ?? false,
      // The kit made with this key carries the vault's fingerprint (web/features/circle/access-kit.ts).
      kitHasVaultFingerprint: true,
      verificationNonce: randomToken(),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()!
  const verificationEmailSent = sendVerificationEmail ? sendBeneficiaryInvitation(u, row) : false
  u.audit({ actor: 'user', action: 'circle.beneficiary_added', details: { beneficiaryId: row.id, verificationEmailSent } })
  return { ...toBeneficiary(requireBeneficiary(db, row.id)), verificationEmailSent }
}

/**
 * Tells the owner and the beneficiary's address before the change that an address or key changed.
 * Not before the owner confirmed their address: it may be a stranger's, and the beneficiary has
 * never heard from the vault.
 */
function tellOfChange(u: Unit, before: BeneficiaryRow, change: 'email' | 'key'): void {
  if (!u.ownerConfirmed) return
  u.mail(u.account.email, 'beneficiary_changed', beneficiaryChangedOwnerEmail({ displayName: u.account.displayName, beneficiaryName: before.fullName, change, appUrl: u.env.APP_ORIGIN }))
  u.mail(before.email, 'beneficiary_changed', beneficiaryChangedOldAddressEmail({ beneficiaryName: before.fullName, ownerName: u.account.displayName, change }))
}

/** Whether an edit changes what the beneficiary statement covers (name, relationship, address). */
export function changesStatement(current: BeneficiaryRow, body: BeneficiaryUpdateBody): boolean {
  return (
    (body.fullName !== undefined && body.fullName !== current.fullName) ||
    (body.relationship !== undefined && body.relationship !== current.relationship) ||
    (body.email !== undefined && body.email !== current.email)
  )
}

/** The row an edit would leave, as far as the beneficiary statement goes. */
export function editedRow(current: BeneficiaryRow, body: BeneficiaryUpdateBody): StatedRow {
  return {
    id: current.id,
    fullName: body.fullName ?? current.fullName,
    relationship: body.relationship ?? current.relationship,
    email: body.email ?? current.email,
    keyVersion: current.keyVersion,
    publicKey: current.publicKey,
  }
}

/**
 * Applies an edit. A new name, relationship or address comes with the vault's statement over the
 * row as it will be (`stated`, checked by the object); the notification switches need none. A new
 * address is unverified until its owner follows the fresh link sent to it; the owner and the old
 * address are told.
 */
export function updateBeneficiary(u: Unit, id: string, body: BeneficiaryUpdateBody, stated: Stated | undefined, ledger: StatementLedger): WithEmailSent<Beneficiary> {
  const { db, now } = u
  const current = requireBeneficiary(db, id)
  const emailChanged = body.email !== undefined && body.email !== current.email
  if (emailChanged && byEmail(db, body.email!)) throw conflict(CIRCLE_MESSAGES.duplicateBeneficiary)
  if (changesStatement(current, body) || stated) {
    assertStatedFor(stated, editedRow(current, body))
  }
  if (emailChanged) assertMayMail(u, body.email!, 'new-address')
  if (stated) acceptStatement(ledger, stated)
  const row = db
    .update(beneficiaries)
    .set({
      ...(body.fullName !== undefined && { fullName: body.fullName }),
      ...(body.relationship !== undefined && { relationship: body.relationship }),
      ...(body.sendAssetNotifications !== undefined && { sendAssetNotifications: body.sendAssetNotifications }),
      ...(body.delayNotifications !== undefined && { delayNotifications: body.delayNotifications }),
      ...(stated && { keySignature: body.keySignature, statementSequence: stated.sequence }),
      ...(emailChanged && { email: body.email, emailVerifiedAt: null, verificationNonce: randomToken(), notificationStatus: 'pending' as const }),
      updatedAt: now,
    })
    .where(eq(beneficiaries.id, id))
    .returning()
    .get()!
  // A changed address must prove itself again: a fresh link goes to the new address.
  const verificationEmailSent = emailChanged ? sendBeneficiaryInvitation(u, row) : false
  if (emailChanged) tellOfChange(u, current, 'email')
  // Which fields changed, by name only: the values are the beneficiary's own details.
  const fields = UPDATABLE_FIELDS.filter((f) => (f === 'email' ? emailChanged : body[f] !== undefined))
  u.audit({ actor: 'user', action: 'circle.beneficiary_updated', details: { beneficiaryId: id, fields: fields.join(','), verificationEmailSent } })
  return { ...toBeneficiary(emailChanged ? requireBeneficiary(db, id) : row), verificationEmailSent }
}

/** A fresh verification link (the only one that works from now on) to a not yet verified address. */
export function resendBeneficiaryVerification(u: Unit, id: string): WithEmailSent<Beneficiary> {
  const current = requireBeneficiary(u.db, id)
  if (current.emailVerifiedAt !== null) throw conflict(CIRCLE_MESSAGES.alreadyVerified)
  if (current.notificationStatus === 'unsubscribed') throw conflict(CIRCLE_MESSAGES.unsubscribed)
  if (!u.ownerConfirmed) throw conflict(CIRCLE_MESSAGES.invitationHeld)
  assertMayMail(u, current.email, 'resend')
  const row = u.db
    .update(beneficiaries)
    .set({ verificationNonce: randomToken(), updatedAt: u.now })
    .where(eq(beneficiaries.id, id))
    .returning()
    .get()!
  const verificationEmailSent = sendBeneficiaryInvitation(u, row)
  u.audit({ actor: 'user', action: 'circle.verification_resent', details: { beneficiaryId: id, verificationEmailSent } })
  return { ...toBeneficiary(requireBeneficiary(u.db, id)), verificationEmailSent }
}

/**
 * Replaces a beneficiary's public key and re-wraps all their grants at once. The request must
 * cover exactly the items granted now; otherwise nothing changes, so no grant is ever left wrapped
 * for a key whose kit was lost.
 */
export function rotateBeneficiaryKey(
  u: Unit,
  id: string,
  key: { publicKey: string; fingerprint: string; keySignature: string; replacesKeyVersion?: number },
  grants: Array<{ itemId: string; wrappedKey: string }>,
  stated: Stated,
  ledger: StatementLedger,
): Beneficiary {
  const { db, now } = u
  const current = requireBeneficiary(db, id)
  if (key.replacesKeyVersion !== undefined && key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
  // The object verified the grants' signature at the version stated, which this makes the next one.
  assertStatedFor(stated, { ...current, keyVersion: current.keyVersion + 1, publicKey: key.publicKey })
  const wanted = new Set(db.select({ itemId: itemGrants.itemId }).from(itemGrants).where(eq(itemGrants.beneficiaryId, id)).all().map((g) => g.itemId))
  const given = new Set(grants.map((g) => g.itemId))
  if (given.size !== grants.length || wanted.size !== given.size || [...wanted].some((i) => !given.has(i))) {
    throw conflict(CIRCLE_MESSAGES.rotationIncomplete)
  }
  acceptStatement(ledger, stated)
  const keyVersion = current.keyVersion + 1
  return switchKey(u, current, { ...key, keyVersion, statementSequence: stated.sequence }, grants.length, () => {
    for (const g of grants) {
      db.update(itemGrants)
        .set({ wrappedKey: g.wrappedKey, keyVersion, createdAt: now })
        .where(sql`${itemGrants.itemId} = ${g.itemId} and ${itemGrants.beneficiaryId} = ${id}`)
        .run()
    }
  })
}

/**
 * Puts a beneficiary's new key in force, with the grants `rewrap` re-wraps, in the caller's
 * transaction: the one place a key changes, for a rotation in one request and one in pages alike.
 */
function switchKey(
  u: Unit,
  current: BeneficiaryRow,
  key: { publicKey: string; fingerprint: string; keySignature: string; keyVersion: number; statementSequence: number },
  items: number,
  rewrap: () => void,
): Beneficiary {
  // A new key comes with a new kit, and kits from this version on print the vault's fingerprint.
  const row = u.db
    .update(beneficiaries)
    .set({
      publicKey: key.publicKey,
      publicKeyFingerprint: key.fingerprint,
      keySignature: key.keySignature,
      statementSequence: key.statementSequence,
      kitHasVaultFingerprint: true,
      keyVersion: key.keyVersion,
      ...CLEARED_BACKUP,
      updatedAt: u.now,
    })
    .where(eq(beneficiaries.id, current.id))
    .returning()
    .get()!
  rewrap()
  u.audit({ actor: 'user', action: 'circle.beneficiary_key_rotated', details: { beneficiaryId: current.id, items, keyVersion: key.keyVersion } })
  tellOfChange(u, current, 'key')
  return toBeneficiary(row)
}

/** Staged rotations not committed within this long are swept (their grants were never used). */
export const ROTATION_TTL_MS = DAY_MS

function rotationOf(db: OwnerDb, beneficiaryId: string, rotationId: string): KeyRotationRow {
  const row = db.select().from(keyRotations).where(and(eq(keyRotations.id, rotationId), eq(keyRotations.beneficiaryId, beneficiaryId))).get()
  if (!row) throw notFound(CIRCLE_MESSAGES.rotationNotFound)
  return row
}

/**
 * Starts a rotation in pages: the new key (stated by the vault for the next version) waits for its
 * grants. The statement's sequence is taken now, so nothing replays it later.
 */
export function startRotation(
  u: Unit,
  id: string,
  key: { publicKey: string; fingerprint: string; keySignature: string; replacesKeyVersion: number },
  stated: Stated,
  ledger: StatementLedger,
): RotationStarted {
  const current = requireBeneficiary(u.db, id)
  if (key.replacesKeyVersion !== current.keyVersion) throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
  assertStatedFor(stated, { ...current, keyVersion: current.keyVersion + 1, publicKey: key.publicKey })
  acceptStatement(ledger, stated)
  const rotationId = crypto.randomUUID()
  u.db.insert(keyRotations)
    .values({
      id: rotationId,
      beneficiaryId: id,
      publicKey: key.publicKey,
      publicKeyFingerprint: key.fingerprint,
      keySignature: key.keySignature,
      statementSequence: stated.sequence,
      keyVersion: current.keyVersion + 1,
      createdAt: u.now,
    })
    .run()
  u.dueAt(u.now + ROTATION_TTL_MS)
  const grantedItems = u.db.select({ n: sql<number>`count(*)` }).from(itemGrants).where(eq(itemGrants.beneficiaryId, id)).get()?.n ?? 0
  return { rotationId, grantedItems }
}

/** One page of re-wrapped grants (a page sent again replaces what it sent before). */
export function addRotationGrants(db: OwnerDb, beneficiaryId: string, rotationId: string, grants: Array<{ itemId: string; wrappedKey: string }>): { received: number } {
  rotationOf(db, beneficiaryId, rotationId)
  for (let i = 0; i < grants.length; i += ROTATION_ROWS_PER_STATEMENT) {
    db.insert(rotationGrants)
      .values(grants.slice(i, i + ROTATION_ROWS_PER_STATEMENT).map((g) => ({ rotationId, itemId: g.itemId, wrappedKey: g.wrappedKey })))
      .onConflictDoUpdate({ target: [rotationGrants.rotationId, rotationGrants.itemId], set: { wrappedKey: sql`excluded.wrapped_key` } })
      .run()
  }
  return { received: db.select({ n: sql<number>`count(*)` }).from(rotationGrants).where(eq(rotationGrants.rotationId, rotationId)).get()?.n ?? 0 }
}

/**
 * Switches to the rotation's key and every grant at once, if the key is still the one it replaces
 * and every item granted now has its re-wrapped grant; otherwise nothing changes (an incomplete
 * rotation stays, to be completed; one overtaken by another change is dropped).
 */
export function commitRotation(u: Unit, beneficiaryId: string, rotationId: string, stated: Stated | undefined, signedGrants: string): Beneficiary {
  const { db, now } = u
  const rotation = rotationOf(db, beneficiaryId, rotationId)
  const current = requireBeneficiary(db, beneficiaryId)
  // Overtaken: another key, or a statement newer than the rotation's (which would otherwise roll it back).
  const restatedSince = rotation.statementSequence === null || (current.statementSequence !== null && current.statementSequence >= rotation.statementSequence)
  if (current.keyVersion + 1 !== rotation.keyVersion || restatedSince) {
    db.delete(keyRotations).where(eq(keyRotations.id, rotationId)).run()
    throw conflict(CIRCLE_MESSAGES.keyChangedMeanwhile)
  }
  assertStatedFor(stated, { ...current, keyVersion: rotation.keyVersion, publicKey: rotation.publicKey })
  // The staged set the object verified the vault's signature over is still the one staged.
  if (stagedGrantsStatement(db, u.ownerId, rotation) !== signedGrants) throw badRequest(`grantsSignature: ${KEY_SIGNING_MESSAGES.grantsSignatureInvalid}`)
  const missing = db.get<{ n: number }>(sql`select count(*) as n from item_grants g
    where g.beneficiary_id = ${beneficiaryId}
      and not exists (select 1 from rotation_grants r where r.rotation_id = ${rotationId} and r.item_id = g.item_id)`)?.n ?? 0
  if (missing > 0) throw conflict(CIRCLE_MESSAGES.rotationIncomplete)
  const items = db.select({ n: sql<number>`count(*)` }).from(itemGrants).where(eq(itemGrants.beneficiaryId, beneficiaryId)).get()?.n ?? 0
  const key = {
    publicKey: rotation.publicKey,
    fingerprint: rotation.publicKeyFingerprint,
    keySignature: rotation.keySignature,
    keyVersion: rotation.keyVersion,
    statementSequence: stated.sequence,
  }
  return switchKey(u, current, key, items, () => {
    db.run(sql`update item_grants set
        wrapped_key = (select r.wrapped_key from rotation_grants r where r.rotation_id = ${rotationId} and r.item_id = item_grants.item_id),
        key_version = ${rotation.keyVersion}, created_at = ${now}
      where beneficiary_id = ${beneficiaryId}`)
    db.delete(keyRotations).where(eq(keyRotations.id, rotationId)).run()
  })
}

/**
 * The grants statement (contract/vault-statements.ts) over every grant a rotation staged, each with
 * the rotation's beneficiary and new key version: what the vault must have signed for the commit.
 */
export function stagedGrantsStatement(db: OwnerDb, ownerId: string, rotation: KeyRotationRow): string {
  const staged = db.select({ itemId: rotationGrants.itemId, wrappedKey: rotationGrants.wrappedKey }).from(rotationGrants).where(eq(rotationGrants.rotationId, rotation.id)).all()
  return grantsStatement(
    ownerId,
    staged.map((g) => ({ ...g, beneficiaryId: rotation.beneficiaryId, keyVersion: rotation.keyVersion })),
  )
}

/** The rotation a commit would apply, for the object to check its signatures against the row as it is now. */
export function pendingRotation(db: OwnerDb, beneficiaryId: string, rotationId: string): { rotation: KeyRotationRow; current: BeneficiaryRow } {
  return { rotation: rotationOf(db, beneficiaryId, rotationId), current: requireBeneficiary(db, beneficiaryId) }
}

/** Rotations started before `before` and never committed: their staged grants go. */
export function sweepRotations(db: OwnerDb, before: number): number {
  return db.delete(keyRotations).where(lt(keyRotations.createdAt, before)).returning({ id: keyRotations.id }).all().length
}

/**
 * Stores the vault's statement over the row as it is (checked by the object): a key stored before
 * signing keys, confirmed by the owner, or one under a v1 statement restated as v2. The kit is the
 * same, so whether it shows the vault's fingerprint does not change.
 */
export function signStoredKey(u: Unit, id: string, keySignature: string, stated: Stated, ledger: StatementLedger): Beneficiary {
  const current = requireBeneficiary(u.db, id)
  assertStatedFor(stated, current)
  acceptStatement(ledger, stated)
  const row = u.db
    .update(beneficiaries)
    .set({ keySignature, statementSequence: stated.sequence, updatedAt: u.now })
    .where(eq(beneficiaries.id, id))
    .returning()
    .get()!
  u.audit({ actor: 'user', action: 'circle.beneficiary_key_signed', details: { beneficiaryId: id, keyVersion: current.keyVersion } })
  return toBeneficiary(row)
}

export function deleteBeneficiary(u: Unit, id: string): void {
  const gone = u.db.delete(beneficiaries).where(eq(beneficiaries.id, id)).returning({ id: beneficiaries.id }).get()
  if (!gone) throw notFound(CIRCLE_MESSAGES.beneficiaryNotFound)
  u.audit({ actor: 'user', action: 'circle.beneficiary_removed', details: { beneficiaryId: id } })
}
