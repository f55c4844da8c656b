import { getTableName, sql } from 'drizzle-orm'
import { badRequest } from '../lib/errors'
import type { OwnerDb } from './db'
import * as schema from './schema'

/**
 * An owner's vault as stored: ciphertext, wrapped keys, public keys, metadata and the audit chain,
 * never a secret (the object holds none). For support, and to move or restore an object. Mail
 * waiting to be handed over is left out: it holds live signed links.
 */
type Scalar = string | number | boolean | null
/** The object's keyed state is flat: scalars, or records of scalars (the clock, the audit head). */
type StateValue = Scalar | Record<string, Scalar>

export interface OwnerExport {
  format: 'legacy-vault/owner-export'
  version: 1
  ownerId: string
  exportedAt: string
  tables: Record<string, Array<Record<string, SqlStorageValue>>>
  state: Record<string, StateValue>
}

// Parents before children, so an import never meets a foreign key it cannot satisfy.
const TABLES = [
  schema.vaultItems,
  schema.uploadParts,
  schema.beneficiaries,
  schema.approvers,
  schema.itemGrants,
  schema.keyRotations,
  schema.rotationGrants,
  schema.vaultKeyStaging,
  schema.policies,
  schema.policyBeneficiaries,
  schema.policyItems,
  schema.identityDocuments,
  schema.identityReviews,
  schema.triggers,
  schema.unlockFailures,
  schema.firings,
  schema.releases,
  schema.releaseTargets,
  schema.releaseSignoffs,
  schema.releasedAssets,
  schema.servedTickets,
  schema.renewalRequests,
  schema.firingRecipients,
  schema.deathReports,
  schema.accessRequests,
  schema.auditEntries,
  schema.blobDeletions,
].map(getTableName)

/**
 * The object's keyed state that belongs to the vault: the clock, the last sign of life, the audit
 * head, the vault's keys, and the newest beneficiary statement taken (a restored vault must not
 * take an older one again).
 */
export const EXPORTED_STATE = ['clock', 'lastActivityAt', 'lastActivity', 'auditHead', 'vaultKeys', 'statementSequence'] as const

export function exportVault(storage: DurableObjectStorage, ownerId: string, now = Date.now()): OwnerExport {
  const tables: OwnerExport['tables'] = {}
  for (const name of TABLES) tables[name] = storage.sql.exec(`select * from "${name}"`).toArray()
  const state: Record<string, StateValue> = {}
  for (const key of EXPORTED_STATE) {
    const value = storage.kv.get<StateValue>(key)
    if (value !== undefined) state[key] = value
  }
  return { format: 'legacy-vault/owner-export', version: 1, ownerId, exportedAt: new Date(now).toISOString(), tables, state }
}

/** Loads an export into an empty object, in one transaction (the caller's). */
export function importVault(storage: DurableObjectStorage, db: OwnerDb, data: OwnerExport): void {
  if (data.format !== 'legacy-vault/owner-export' || data.version !== 1) throw badRequest('This is not an owner export this version can read.')
  const used = db.get<{ n: number }>(sql`select (select count(*) from vault_items) + (select count(*) from beneficiaries) + (select count(*) from audit) as n`)
  if (used.n > 0) throw badRequest('Only an empty vault can take an import.')
  for (const name of TABLES) {
    for (const row of data.tables[name] ?? []) {
      const columns = Object.keys(row)
      storage.sql.exec(
        `insert into "${name}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        ...columns.map((c) => row[c]!),
      )
    }
  }
  for (const key of EXPORTED_STATE) if (data.state[key] !== undefined) storage.kv.put(key, data.state[key])
}
