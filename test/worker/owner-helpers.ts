import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import type { OwnerVault } from '../../worker/host/vault-object'

// Reading and arranging an owner's own database (their object's SQLite) directly, where a test must
// see what the API does not show, or seed what would take too long to make through it.

/** The owner's object. */
export function vaultOf(ownerId: string) {
  return env.OWNER_VAULT.get(env.OWNER_VAULT.idFromName(ownerId))
}

/** Runs SQL inside the owner's object and returns its rows. */
export function ownerRows<T = Record<string, unknown>>(ownerId: string, query: string, ...params: unknown[]): Promise<T[]> {
  return runInDurableObject(vaultOf(ownerId), async (_instance: OwnerVault, state) => state.storage.sql.exec(query, ...(params as SqlStorageValue[])).toArray() as T[])
}

/** The first row, or null. */
export async function ownerRow<T = Record<string, unknown>>(ownerId: string, query: string, ...params: unknown[]): Promise<T | null> {
  return (await ownerRows<T>(ownerId, query, ...params))[0] ?? null
}

/** Runs statements inside the owner's object, in one transaction. */
export function ownerExec(ownerId: string, ...statements: Array<[string, ...unknown[]]>): Promise<void> {
  return runInDurableObject(vaultOf(ownerId), async (_instance: OwnerVault, state) => {
    state.storage.transactionSync(() => {
      for (const [query, ...params] of statements) state.storage.sql.exec(query, ...(params as SqlStorageValue[]))
    })
  })
}

/** A value of the object's keyed state (clock, alarmAt, auditHead…). */
export function ownerState<T>(ownerId: string, key: string): Promise<T | undefined> {
  return runInDurableObject(vaultOf(ownerId), async (_instance: OwnerVault, state) => state.storage.kv.get<T>(key))
}

export const SEED_PREFIX = 'seed-'

/**
 * Makes the owner's vault hold `items` active items and `bytes` ciphertext bytes in all, by adding
 * rows with no content beside the real ones (ids starting with `seed-`), then lets the object tell
 * the directory. So a limit can be reached without uploading hundreds of megabytes.
 */
export async function seedVaultUsage(ownerId: string, usage: { items: number; bytes: number }): Promise<void> {
  await ownerExec(ownerId, [`delete from vault_items where id like '${SEED_PREFIX}%'`])
  const real = (await ownerRow<{ n: number; b: number }>(ownerId, "select count(*) as n, coalesce(sum(cipher_size), 0) as b from vault_items where status = 'active'"))!
  const count = usage.items - real.n
  const bytes = usage.bytes - real.b
  if (count < 0 || bytes < 0 || (bytes > 0 && count === 0)) throw new Error(`cannot seed ${JSON.stringify(usage)} over ${real.n} items, ${real.b} bytes`)
  const now = Date.now()
  const rows: Array<[string, ...unknown[]]> = Array.from({ length: count }, (_, i) => [
    `insert into vault_items (id, type, status, plain_size, cipher_size, chunk_bytes, part_count, r2_key, created_at, completed_at)
     values (?, 'doc', 'active', 0, ?, 8388608, 1, ?, ?, ?)`,
    `${SEED_PREFIX}${i}`,
    i === 0 ? bytes : 0,
    `items/${ownerId}/${SEED_PREFIX}${i}`,
    now - 1000,
    now - 1000,
  ])
  if (rows.length) await ownerExec(ownerId, ...rows)
  await vaultOf(ownerId).tick()
}
