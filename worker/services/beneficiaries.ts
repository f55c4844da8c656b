import { and, asc, eq, sql } from 'drizzle-orm'
import type { Beneficiary, BeneficiaryCreateBody, BeneficiaryUpdateBody } from '../../contract/circle'
import type { Db } from '../db/client'
import { beneficiaries, itemGrants, type BeneficiaryRow, type UserRow } from '../db/schema'
import { randomToken } from '../lib/crypto'
import { planLimitsFor } from './plan-limits'

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
    createdAt: new Date(row.createdAt).toISOString(),
  }
}

/** The owner's plan limit on beneficiaries, or null for unlimited. */
export function beneficiaryLimit(owner: UserRow): number | null {
  return planLimitsFor(owner).maxBeneficiaries
}

export async function listBeneficiaries(db: Db, ownerId: string): Promise<BeneficiaryRow[]> {
  return db.select().from(beneficiaries).where(eq(beneficiaries.ownerId, ownerId)).orderBy(asc(beneficiaries.createdAt))
}


/** Scoped by owner in the query itself: another owner's id finds nothing. */
export async function findBeneficiary(db: Db, ownerId: string, id: string): Promise<BeneficiaryRow | undefined> {
  return db.query.beneficiaries.findFirst({ where: and(eq(beneficiaries.id, id), eq(beneficiaries.ownerId, ownerId)) })
}

export async function findBeneficiaryByEmail(db: Db, ownerId: string, email: string) {
  return db.query.beneficiaries.findFirst({ where: and(eq(beneficiaries.ownerId, ownerId), eq(beneficiaries.email, email)) })
}

export type CreateResult = { ok: true; row: BeneficiaryRow } | { ok: false; reason: 'limit' | 'duplicate' }

/**
 * Inserts a beneficiary unless the plan limit is reached. The count and the insert are one SQL
 * statement, so concurrent requests cannot pass the limit together.
 */
export async function createBeneficiary(
  db: Db,
  owner: UserRow,
  body: Omit<BeneficiaryCreateBody, 'privateKey' | 'verified'> & { publicKeyFingerprint: string },
  now = Date.now(),
): Promise<CreateResult> {
  if (await findBeneficiaryByEmail(db, owner.id, body.email)) return { ok: false, reason: 'duplicate' }
  const limit = beneficiaryLimit(owner)
  const id = crypto.randomUUID()
  const values = {
    id,
    ownerId: owner.id,
    fullName: body.fullName,
    email: body.email,
    relationship: body.relationship,
    publicKey: body.publicKey,
    publicKeyFingerprint: body.publicKeyFingerprint,
    sendAssetNotifications: body.sendAssetNotifications ?? true,
    delayNotifications: body.delayNotifications ?? false,
    verificationNonce: randomToken(),
    createdAt: now,
    updatedAt: now,
  }
  try {
    const rows = await db.all<{ id: string }>(sql`
      INSERT INTO ${beneficiaries} (id, owner_id, full_name, email, relationship, public_key, public_key_fingerprint,
        send_asset_notifications, delay_notifications, verification_nonce, created_at, updated_at)
      SELECT ${values.id}, ${values.ownerId}, ${values.fullName}, ${values.email}, ${values.relationship}, ${values.publicKey},
        ${values.publicKeyFingerprint}, ${values.sendAssetNotifications ? 1 : 0}, ${values.delayNotifications ? 1 : 0},
        ${values.verificationNonce}, ${now}, ${now}
      WHERE ${limit === null ? sql`1` : sql`(SELECT COUNT(*) FROM ${beneficiaries} WHERE owner_id = ${owner.id}) < ${limit}`}
      RETURNING id`)
    if (rows.length === 0) return { ok: false, reason: 'limit' }
  } catch (error) {
    if (String(error).includes('UNIQUE')) return { ok: false, reason: 'duplicate' }
    throw error
  }
  const row = await findBeneficiary(db, owner.id, id)
  if (!row) throw new Error('beneficiary vanished after insert')
  return { ok: true, row }
}

export type UpdateResult = { ok: true; row: BeneficiaryRow; emailChanged: boolean } | { ok: false; reason: 'not_found' | 'duplicate' }

/** Applies an edit; a new e-mail address is unverified until its owner follows a fresh link. */
export async function updateBeneficiary(
  db: Db,
  ownerId: string,
  id: string,
  body: BeneficiaryUpdateBody,
  now = Date.now(),
): Promise<UpdateResult> {
  const current = await findBeneficiary(db, ownerId, id)
  if (!current) return { ok: false, reason: 'not_found' }
  const emailChanged = body.email !== undefined && body.email !== current.email
  if (emailChanged && (await findBeneficiaryByEmail(db, ownerId, body.email!))) return { ok: false, reason: 'duplicate' }
  let row: BeneficiaryRow | undefined
  try {
    ;[row] = await db
    .update(beneficiaries)
    .set({
      ...(body.fullName !== undefined && { fullName: body.fullName }),
      ...(body.relationship !== undefined && { relationship: body.relationship }),
      ...(body.sendAssetNotifications !== undefined && { sendAssetNotifications: body.sendAssetNotifications }),
      ...(body.delayNotifications !== undefined && { delayNotifications: body.delayNotifications }),
      ...(emailChanged && {
        email: body.email,
        emailVerifiedAt: null,
        verificationNonce: randomToken(),
        notificationStatus: 'pending' as const,
      }),
      updatedAt: now,
    })
    .where(and(eq(beneficiaries.id, id), eq(beneficiaries.ownerId, ownerId)))
    .returning()
  } catch (error) {
    // Two edits racing to the same address: the unique index decides, the loser gets 409.
    if (String(error).includes('UNIQUE')) return { ok: false, reason: 'duplicate' }
    throw error
  }
  if (!row) return { ok: false, reason: 'not_found' }
  return { ok: true, row, emailChanged }
}

export async function deleteBeneficiary(db: Db, ownerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(beneficiaries)
    .where(and(eq(beneficiaries.id, id), eq(beneficiaries.ownerId, ownerId)))
    .returning({ id: beneficiaries.id })
  return rows.length > 0
}

/** A fresh verification nonce: the link sent with it is the only one that works. */
export async function rotateVerificationNonce(db: Db, ownerId: string, id: string, now = Date.now()) {
  const [row] = await db
    .update(beneficiaries)
    .set({ verificationNonce: randomToken(), updatedAt: now })
    .where(and(eq(beneficiaries.id, id), eq(beneficiaries.ownerId, ownerId)))
    .returning()
  return row
}

export type RotateResult = { ok: true; row: BeneficiaryRow } | { ok: false; reason: 'not_found' | 'incomplete' }

/**
 * Replaces a beneficiary's public key and re-wraps all their grants in one transaction. The
 * request must cover exactly the items granted now; otherwise nothing changes, so no grant is
 * ever left wrapped for a key whose kit was lost.
 */
export async function rotateBeneficiaryKey(
  db: Db,
  ownerId: string,
  id: string,
  publicKey: string,
  fingerprint: string,
  grants: Array<{ itemId: string; wrappedKey: string }>,
  now = Date.now(),
): Promise<RotateResult> {
  const current = await findBeneficiary(db, ownerId, id)
  if (!current) return { ok: false, reason: 'not_found' }
  const existing = await db.select({ itemId: itemGrants.itemId }).from(itemGrants).where(eq(itemGrants.beneficiaryId, id))
  const wanted = new Set(existing.map((g) => g.itemId))
  const given = new Set(grants.map((g) => g.itemId))
  if (given.size !== grants.length || wanted.size !== given.size || [...wanted].some((i) => !given.has(i))) {
    return { ok: false, reason: 'incomplete' }
  }
  const nextVersion = current.keyVersion + 1
  // Guarded by the key version read above: a concurrent rotation makes this one change nothing.
  const [[row]] = await db.batch([
    db
      .update(beneficiaries)
      .set({ publicKey, publicKeyFingerprint: fingerprint, keyVersion: nextVersion, updatedAt: now })
      .where(and(eq(beneficiaries.id, id), eq(beneficiaries.ownerId, ownerId), eq(beneficiaries.keyVersion, current.keyVersion)))
      .returning(),
    ...grants.map((g) =>
      db
        .update(itemGrants)
        .set({ wrappedKey: g.wrappedKey, keyVersion: nextVersion, createdAt: now })
        .where(
          and(
            eq(itemGrants.itemId, g.itemId),
            eq(itemGrants.beneficiaryId, id),
            sql`exists (select 1 from ${beneficiaries} where ${beneficiaries.id} = ${id} and ${beneficiaries.keyVersion} = ${nextVersion} and ${beneficiaries.publicKey} = ${publicKey})`,
          ),
        ),
    ),
  ])
  if (!row) return { ok: false, reason: 'incomplete' }
  return { ok: true, row }
}
