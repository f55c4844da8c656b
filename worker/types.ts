import type { UserRow } from './db/schema'
import type { Db } from './db/client'

export interface AppEnv {
  Bindings: Env
  Variables: {
    db: Db
    user: UserRow
    sessionId: string
  }
}
