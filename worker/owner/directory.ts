import { sql } from 'drizzle-orm'
import { batch } from '../db/raw'
import { hmacSha256Hex } from '../lib/sync-crypto'
import type { OwnerDb } from './db'
import { beneficiaries } from './schema'
import { vaultUsage } from '../services/vault-items'

/** What D1's directory holds of one owner (worker/db/schema.ts `owner_directory`, `heir_index`). */
export interface DirectoryEntry {
  nextDueAt: number | null
  items: number
  storageBytes: number
  beneficiaries: number
  /** Keyed hashes of the beneficiaries' addresses (heirAddressKey). */
  heirKeys: number[]
}

/**
 * A beneficiary address as the directory indexes it: HMAC-SHA-256 under the server's secret (so a
 * copy of D1 cannot be searched for a known address), cut to 53 bits so it is an exact integer in
 * JavaScript and in SQLite. Collisions are harmless: the object matches the address itself.
 */
export function heirAddressKey(env: Pick<Env, 'JWT_SECRET'>, email: string): number {
  const mac = hmacSha256Hex(env.JWT_SECRET, `heir-address\n${email.trim().toLowerCase()}`)
  return Number(BigInt(`0x${mac.slice(0, 14)}`) >> 3n)
}

export function directoryEntry(env: Pick<Env, 'JWT_SECRET'>, db: OwnerDb, nextDueAt: number | null): DirectoryEntry {
  const usage = vaultUsage(db, ['active'])
  const emails = db.select({ email: beneficiaries.email }).from(beneficiaries).all()
  return {
    nextDueAt,
    items: usage.items,
    storageBytes: usage.bytes,
    beneficiaries: emails.length,
    heirKeys: [...new Set(emails.map((e) => heirAddressKey(env, e.email)))].sort((a, b) => a - b),
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
 * Writes the owner's row and the changes to their heir keys in one D1 transaction. Written only
 * while the account exists (a deletion meanwhile leaves nothing behind) and only over an older
 * revision, so a late write never replaces a newer one.
 */
export async function writeDirectory(env: Env, ownerId: string, entry: DirectoryEntry, previous: DirectoryEntry | null, revision: number): Promise<void> {
  const owner = sql`exists (select 1 from users where id = ${ownerId})`
  const before = new Set(previous?.heirKeys ?? [])
  const after = new Set(entry.heirKeys)
  await batch(env, [
    sql`insert into owner_directory (owner_id, next_due_at, items, storage_bytes, beneficiaries, revision)
      select ${ownerId}, ${entry.nextDueAt}, ${entry.items}, ${entry.storageBytes}, ${entry.beneficiaries}, ${revision} where ${owner}
      on conflict (owner_id) do update set next_due_at = excluded.next_due_at, items = excluded.items,
        storage_bytes = excluded.storage_bytes, beneficiaries = excluded.beneficiaries, revision = excluded.revision
      where excluded.revision > owner_directory.revision`,
    ...[...before].filter((k) => !after.has(k)).map((k) => sql`delete from heir_index where address_key = ${k} and owner_id = ${ownerId}`),
    ...[...after].filter((k) => !before.has(k)).map((k) => sql`insert into heir_index (address_key, owner_id) select ${k}, ${ownerId} where ${owner} on conflict do nothing`),
  ])
}

/** Removes what the directory holds of a deleted owner's heirs (their row goes with the account). */
export async function forgetHeirs(env: Env, ownerId: string, heirKeys: number[]): Promise<void> {
  if (heirKeys.length === 0) return
  await batch(env, heirKeys.map((k) => sql`delete from heir_index where address_key = ${k} and owner_id = ${ownerId}`))
}
