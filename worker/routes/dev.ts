import { Hono } from 'hono'
import { notFound } from '../lib/errors'
import { runSweeps } from '../cron'
import { listOutbox } from '../mail/outbox'
import type { AppEnv } from '../types'
import { GENERIC_ERRORS } from '../../contract/messages'

/** Local-only tools. ENVIRONMENT is "production" unless .dev.vars (never deployed) says otherwise. */
export const devRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    if (c.env.ENVIRONMENT !== 'development') throw notFound(GENERIC_ERRORS.apiRouteNotFound)
    await next()
  })
  .get('/outbox', async (c) => c.json(await listOutbox(c.var.db)))
  // The cron's sweeps, now, with what they did and how long they took (npm run bench's sweep figures).
  .post('/sweep', async (c) => {
    const started = performance.now()
    const result = await runSweeps(c.env)
    return c.json({ ...result, ms: performance.now() - started })
  })
