import { createMiddleware } from 'hono/factory'
import { getDb } from '../db/client'
import type { AppEnv } from '../types'

export const withDb = createMiddleware<AppEnv>(async (c, next) => {
  c.set('db', getDb(c.env))
  await next()
})
