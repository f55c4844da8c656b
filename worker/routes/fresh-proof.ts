import { Hono } from 'hono'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS, freshProofBodySchema } from '../../contract/fresh-proof'
import { conflict } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { rateLimitByIp } from '../middleware/rate-limit'
import { audit } from '../services/audit'
import { giveFreshProof } from '../services/fresh-proof'
import { countKeys } from '../webauthn/credentials'
import { secondFactorOptions } from '../webauthn/ceremonies'
import type { AppEnv } from '../types'

// Mounted at /api/auth. Step-up: the signed-in person proves again that they are the owner, so the
// session may make trust changes for the next FRESH_PROOF_MS (worker/middleware/fresh-proof.ts).
export const freshProofRoutes = new Hono<AppEnv>()
  // A security key's challenge for this account's keys only.
  .post('/fresh-proof/options', requireUser, rateLimitByIp('LOGIN_LIMITER', 'fresh-proof'), async (c) => {
    if ((await countKeys(c.var.db, c.var.account.id)) === 0) throw conflict(FRESH_PROOF_MESSAGES.noKeys)
    return c.json(await secondFactorOptions(c.var.db, c.env, (await userOf(c))))
  })
  .post('/fresh-proof', requireUser, rateLimitByIp('LOGIN_LIMITER', 'fresh-proof'), validate('json', freshProofBodySchema), async (c) => {
    const now = Date.now()
    const method = await giveFreshProof(c, c.req.valid('json'), now)
    await audit(c, 'account.proof_given', { method })
    return c.json({ message: FRESH_PROOF_MESSAGES.proved, provedUntil: new Date(now + FRESH_PROOF_MS).toISOString() })
  })
