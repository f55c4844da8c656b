import { KEY_MOVE_MESSAGES, KEY_MOVE_PAGE_MAX, KEY_MOVE_TTL_MS, type KeyMovePageBody, type KeyMoveStartBody, type KeyMoveState } from '../../contract/vault-key-move'
import { VAULT_KEY_FORMAT } from '../../contract/vault'
import { conflict, notFound } from '../lib/errors'
import type { Unit } from './unit'
import { VAULT_KEYS, vaultKeysOf, type VaultKeys } from './vault-keys'

// The move of a format-1 vault to a vault key (contract/vault-key-move.ts). The staged wraps sit
// in vault_key_staging and the move's own keys under one kv key; nothing in force changes until
// commitKeyMove swaps everything in the act's one transaction.

const KEY_MOVE = 'vaultKeyMove'

interface KeyMove {
  wrappedVaultKey: string
  wrappedSigningKey: string
  startedAt: number
}

function moveOf(storage: DurableObjectStorage): KeyMove | null {
  return storage.kv.get<KeyMove>(KEY_MOVE) ?? null
}

/** What must move: every active item's wrap and every policy's. */
const TO_MOVE = `
  select 'item' as kind, id, wrapped_key from vault_items where status = 'active' and wrapped_key is not null
  union all
  select 'policy' as kind, id, wrapped_key from policies`

function missingWraps(storage: DurableObjectStorage, limit: number): KeyMoveState['missing'] {
  return storage.sql
    .exec<{ kind: 'item' | 'policy'; id: string; wrapped_key: string }>(
      `select kind, id, wrapped_key from (${TO_MOVE}) m
       where not exists (select 1 from vault_key_staging s where s.kind = m.kind and s.ref_id = m.id)
       order by kind, id limit ?`,
      limit,
    )
    .toArray()
    .map((r) => ({ kind: r.kind, id: r.id, wrappedKey: r.wrapped_key }))
}

function remainingCount(storage: DurableObjectStorage): number {
  return storage.sql
    .exec<{ n: number }>(
      `select count(*) as n from (${TO_MOVE}) m where not exists (select 1 from vault_key_staging s where s.kind = m.kind and s.ref_id = m.id)`,
    )
    .one().n
}

function stateOf(storage: DurableObjectStorage, move: KeyMove): KeyMoveState {
  return { wrappedVaultKey: move.wrappedVaultKey, wrappedSigningKey: move.wrappedSigningKey, missing: missingWraps(storage, KEY_MOVE_PAGE_MAX), remaining: remainingCount(storage) }
}

function formatOneKeys(storage: DurableObjectStorage): VaultKeys {
  const keys = vaultKeysOf(storage)
  if (!keys) throw conflict(KEY_MOVE_MESSAGES.notSetUp)
  if (keys.format === VAULT_KEY_FORMAT || keys.vaultKey) throw conflict(KEY_MOVE_MESSAGES.alreadyMoved)
  return keys
}

/**
 * Starts the move, or resumes the one under way: then the body is ignored and the staged vault
 * key is answered, so the browser re-wraps under that key (it is wrapped by the same passphrase).
 */
export function startKeyMove(storage: DurableObjectStorage, u: Unit, body: KeyMoveStartBody): KeyMoveState {
  formatOneKeys(storage)
  const current = moveOf(storage)
  if (current) return stateOf(storage, current)
  const move: KeyMove = { wrappedVaultKey: body.wrappedVaultKey, wrappedSigningKey: body.wrappedSigningKey, startedAt: u.now }
  storage.sql.exec('delete from vault_key_staging')
  storage.kv.put(KEY_MOVE, move)
  u.dueAt(u.now + KEY_MOVE_TTL_MS)
  return stateOf(storage, move)
}

/** Stages one page (re-sent wraps replace their earlier ones); wraps of things no longer in the vault are skipped. */
export function stageKeyMovePage(storage: DurableObjectStorage, u: Unit, body: KeyMovePageBody): KeyMoveState {
  formatOneKeys(storage)
  const move = moveOf(storage)
  if (!move) throw notFound(KEY_MOVE_MESSAGES.noMove)
  for (const w of body.wraps) {
    const table = w.kind === 'item' ? "vault_items where status = 'active' and wrapped_key is not null and" : 'policies where'
    if (storage.sql.exec(`select 1 from ${table} id = ?`, w.id).toArray().length === 0) continue
    storage.sql.exec(
      `insert into vault_key_staging (kind, ref_id, wrapped_key, created_at) values (?, ?, ?, ?)
       on conflict (kind, ref_id) do update set wrapped_key = excluded.wrapped_key, created_at = excluded.created_at`,
      w.kind,
      w.id,
      w.wrappedKey,
      u.now,
    )
  }
  return stateOf(storage, move)
}

/**
 * Swaps every wrap and the vault's keys at once, or refuses (409) while anything active lacks its
 * staged wrap (an item uploaded during the move: the browser stages it and commits again).
 */
export function commitKeyMove(storage: DurableObjectStorage, u: Unit): { moved: number } {
  const keys = formatOneKeys(storage)
  const move = moveOf(storage)
  if (!move) throw notFound(KEY_MOVE_MESSAGES.noMove)
  if (remainingCount(storage) > 0) throw conflict(KEY_MOVE_MESSAGES.incomplete)
  const items = storage.sql.exec(
    `update vault_items set wrapped_key = (select s.wrapped_key from vault_key_staging s where s.kind = 'item' and s.ref_id = vault_items.id)
     where status = 'active' and wrapped_key is not null`,
  ).rowsWritten
  const policies = storage.sql.exec(
    `update policies set wrapped_key = (select s.wrapped_key from vault_key_staging s where s.kind = 'policy' and s.ref_id = policies.id)`,
  ).rowsWritten
  storage.sql.exec('delete from vault_key_staging')
  storage.kv.delete(KEY_MOVE)
  const signing = keys.signing && { ...keys.signing, wrapped: move.wrappedSigningKey }
  storage.kv.put(VAULT_KEYS, { ...keys, signing, vaultKey: move.wrappedVaultKey, format: VAULT_KEY_FORMAT, movedAt: u.now } satisfies VaultKeys)
  u.audit({ actor: 'user', action: 'vault.key_moved', details: { items, policies } })
  return { moved: items + policies }
}

/** A move left for a day is dropped with its staged wraps; the old wraps were never out of force. */
export function sweepKeyMove(storage: DurableObjectStorage, now: number): boolean {
  const move = moveOf(storage)
  if (!move || move.startedAt + KEY_MOVE_TTL_MS > now) return false
  storage.transactionSync(() => {
    storage.sql.exec('delete from vault_key_staging')
    storage.kv.delete(KEY_MOVE)
  })
  return true
}

/** When the move under way falls due for the sweep (null: none). */
export function keyMoveDueAt(storage: DurableObjectStorage): number | null {
  const move = moveOf(storage)
  return move ? move.startedAt + KEY_MOVE_TTL_MS : null
}

/**
 * An upload reserved before the move committed was wrapped by the key in force then (the
 * passphrase's), which the vault no longer uses for data keys: refused, so the browser adds it again.
 */
export function assertUploadAfterMove(storage: DurableObjectStorage, reservedAt: number): void {
  const movedAt = vaultKeysOf(storage)?.movedAt
  if (movedAt !== undefined && reservedAt < movedAt) throw conflict(KEY_MOVE_MESSAGES.uploadedDuringMove)
}
