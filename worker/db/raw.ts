import type { SQL } from 'drizzle-orm'
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core'

const dialect = new SQLiteAsyncDialect()

/**
 * A drizzle `sql` template as a D1 statement. Drizzle's own batch cannot carry raw statements,
 * and the engine's guarded writes (insert … select … where exists) are raw SQL.
 */
export function statement(env: Pick<Env, 'DB'>, query: SQL): D1PreparedStatement {
  const q = dialect.sqlToQuery(query)
  return env.DB.prepare(q.sql).bind(...q.params)
}

/** One D1 batch: a single transaction, all statements or none. */
export function batch(env: Pick<Env, 'DB'>, queries: SQL[]): Promise<D1Result[]> {
  return env.DB.batch(queries.map((q) => statement(env, q)))
}
