import { sql } from 'drizzle-orm'
import { batch } from '../db/raw'
import { hmacSha256Hex } from '../lib/sync-crypto'
import type { OwnerDb } from './db'
import { approvers, beneficiaries } from './schema'
import { vaultUsage } from './usage'

/** What D1's directory holds of one owner (the `users` row's directory columns, and `heir_index`). */
export interface DirectoryEntry {
  nextDueAt: number | null
  items: number
  storageBytes: number
  beneficiaries: number
  /** Keyed hashes of the beneficiaries' and approvers' addresses (heirAddressKey): approvers may ask for access. */
  heirKeys: number[]
}

/**
 * A beneficiary address as the directory indexes it: HMAC-SHA-256 under the server's secret (so a
 * copy of D1 cannot be searched for a known address), cut to 48 bits (an exact integer in
 * JavaScript, six bytes in SQLite). Collisions are harmless: the object matches the address itself.
 */
export function heirAddressKey(env: Pick<Env, 'JWT_SECRET'>, email: string): number {
  const mac = hmacSha256Hex(env.JWT_SECRET, `heir-address\n${email.trim().toLowerCase()}`)
  return Number.parseInt(mac.slice(0, 12), 16)
}

/** An owner id (a UUID) as the heir index stores it: its 16 bytes. */
export function ownerIdBytes(ownerId: string): ArrayBuffer {
  const hex = ownerId.replace(/-/g, '')
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not an owner id: ${ownerId}`)
  const bytes = new Uint8Array(16)
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes.buffer
}

/** The owner id back from `hex(owner_id)`. */
export function ownerIdFromHex(hex: string): string {
  const h = hex.toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

export function directoryEntry(env: Pick<Env, 'JWT_SECRET'>, db: OwnerDb, nextDueAt: number | null): DirectoryEntry {
  const usage = vaultUsage(db, ['active'])
  const emails = db.select({ email: beneficiaries.email }).from(beneficiaries).all()
  const approverEmails = db.select({ email: approvers.email }).from(approvers).all()
  return {
    nextDueAt,
    items: usage.items,
    storageBytes: usage.bytes,
    beneficiaries: emails.length,
    heirKeys: [...new Set([...emails, ...approverEmails].map((e) => heirAddressKey(env, e.email)))].sort((a, b) => a - b),
  }
}

export function sameEntry(a: DirectoryEntry | null, b: DirectoryEntry): boolean {
  return (
    a !== null &&
    a.nextDueAt === b.nextDueAt &&
    a.items === b.items &&
    a.storageBytes === b.storageBytes &&
    a.beneficiaries === b.beneficiaries &&
    a.heirKeys.length === b.heirKeys.length &&
    a.heirKeys.every((k, i) => k === b.heirKeys[i])
  )
}

/**
 * After a check-in (which moves the due time on every time): whether D1's row must be rewritten to
 * hold `entry`. Not when only the due time moved later: a recorded time that is too early only
 * makes the sweep wake the object early, and that tick rewrites the row. Anything else, an earlier
 * time included, is written. One D1 write fewer per check-in.
 */
export function directoryNeedsWrite(recorded: DirectoryEntry | null, entry: DirectoryEntry): boolean {
  if (recorded === null || !sameEntry(recorded, { ...entry, nextDueAt: recorded.nextDueAt })) return true
  if (recorded.nextDueAt === entry.nextDueAt) return false
  return recorded.nextDueAt === null || entry.nextDueAt === null || entry.nextDueAt < recorded.nextDueAt
}

/**
 * Writes the owner's directory columns and the changes to their heir keys in one D1 transaction.
 * Written only while the account exists (a deletion meanwhile leaves nothing behind) and only over
 * an older revision, so a late write never replaces a newer one.
 */
export async function writeDirectory(env: Env, ownerId: string, entry: DirectoryEntry, previous: DirectoryEntry | null, revision: number): Promise<void> {
  const owner = sql`exists (select 1 from users where id = ${ownerId})`
  const before = new Set(previous?.heirKeys ?? [])
  const after = new Set(entry.heirKeys)
  const gone = [...before].filter((k) => !after.has(k))
  const added = [...after].filter((k) => !before.has(k))
  const key = gone.length + added.length > 0 ? ownerIdBytes(ownerId) : null
  await batch(env, [
    sql`update users set next_due_at = ${entry.nextDueAt}, vault_items = ${entry.items}, vault_bytes = ${entry.storageBytes},
        vault_beneficiaries = ${entry.beneficiaries}, vault_revision = ${revision}
      where id = ${ownerId} and vault_revision < ${revision}`,
    ...gone.map((k) => sql`delete from heir_index where address_key = ${k} and owner_id = ${key}`),
    ...added.map((k) => sql`insert into heir_index (address_key, owner_id) select ${k}, ${key} where ${owner} on conflict do nothing`),
  ])
}

/** Removes what the directory holds of a deleted owner's heirs (the directory columns go with the account). */
export async function forgetHeirs(env: Env, ownerId: string, heirKeys: number[]): Promise<void> {
  if (heirKeys.length === 0) return
  const key = ownerIdBytes(ownerId)
  await batch(env, heirKeys.map((k) => sql`delete from heir_index where address_key = ${k} and owner_id = ${key}`))
}

/** The owners whose beneficiaries may include this address (each object confirms it itself). */
export async function ownersNamingHeir(env: Env, email: string): Promise<string[]> {
  const { results } = await env.DB.prepare('select hex(owner_id) as owner from heir_index where address_key = ?')
    .bind(heirAddressKey(env, email))
    .all<{ owner: string }>()
  return results.map((r) => ownerIdFromHex(r.owner))
}
