import { drizzle } from 'drizzle-orm/d1'
import * as schema from './schema'

function connect(database: D1Database) {
  return drizzle(database, { schema })
}

export type Db = ReturnType<typeof connect>

// Making a drizzle instance walks the whole schema's relations (a quarter of a bare request's CPU
// when done per request): one per D1 binding, kept for the isolate's life.
const instances = new WeakMap<D1Database, Db>()

export function getDb(env: Pick<Env, 'DB'>): Db {
  let db = instances.get(env.DB)
  if (!db) {
    db = connect(env.DB)
    instances.set(env.DB, db)
  }
  return db
}
