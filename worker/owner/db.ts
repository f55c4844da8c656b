import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite'
import { migrate } from 'drizzle-orm/durable-sqlite/migrator'
import migrations from './migrations/migrations.js'
import * as schema from './schema'

/**
 * The owner's own database: drizzle over the Durable Object's SQLite. Its queries run
 * synchronously (`.all()`, `.get()`, `.run()`), so an act's reads and writes, and its audit entry,
 * happen inside one `transactionSync` with nothing else in between.
 */
export type OwnerDb = DrizzleSqliteDODatabase<typeof schema>

export function openOwnerDb(storage: DurableObjectStorage): OwnerDb {
  return drizzle(storage, { schema })
}

/** Brings the object's schema up to date; run once when the object starts. */
export function migrateOwnerDb(db: OwnerDb): Promise<void> {
  return migrate(db, migrations)
}

/** Values per `IN (…)` list: Durable Object SQLite binds at most 100 parameters a statement. */
export const IN_LIST_MAX = 80

/**
 * Rows one statement reads from one JSON parameter (`json_each(?)`), the way past IN_LIST_MAX for
 * bulk writes: a bound value holds at most 2 MB, and rows of a few hundred bytes stay well under it.
 */
export const JSON_ROWS_MAX = 2_000

/** `rows` as JSON arrays of at most JSON_ROWS_MAX, one per statement. */
export function* jsonSlices(rows: readonly unknown[]): Generator<string> {
  for (let i = 0; i < rows.length; i += JSON_ROWS_MAX) yield JSON.stringify(rows.slice(i, i + JSON_ROWS_MAX))
}

/** Runs `query` over slices of `values` small enough to bind, and joins the rows. */
export function inSlices<V, T>(values: readonly V[], query: (slice: V[]) => T[]): T[] {
  const rows: T[] = []
  for (let i = 0; i < values.length; i += IN_LIST_MAX) rows.push(...query(values.slice(i, i + IN_LIST_MAX)))
  return rows
}
