import { Hono } from 'hono'
import { VAULT_MESSAGES, vaultSetupBodySchema } from '../../contract/vault'
import { conflict } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { jsonBodyLimit } from '../middleware/body-limit'
import { toPublicUser } from '../services/users'
import { setUpVault } from '../services/vault'
import type { AppEnv } from '../types'

export const vaultRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(jsonBodyLimit)
  .post('/setup', validate('json', vaultSetupBodySchema), async (c) => {
    const user = await setUpVault(c.var.db, c.var.user.id, c.req.valid('json'))
    if (!user) throw conflict(VAULT_MESSAGES.alreadySetUp)
    return c.json({ message: 'Vault set up.', user: toPublicUser(user) })
  })
