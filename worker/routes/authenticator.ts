import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import {
  AUTHENTICATOR_MESSAGES,
  authenticatorSignInBodySchema,
  confirmAuthenticatorBodySchema,
  type AuthenticatorSetup,
  type AuthenticatorSignInResponse,
} from '../../contract/authenticator'
import { AUTHENTICATOR } from '../../contract/authenticator-constants'
import { AUTH_ERRORS } from '../../contract/messages'
import { users } from '../db/schema'
import { badRequest, conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { requireFreshProof } from '../middleware/fresh-proof'
import { rateLimitByIp } from '../middleware/rate-limit'
import { tellOwner } from '../services/trust-mail'
import { audit, auditOwner } from '../services/audit'
import {
  authenticatorStatus,
  confirmSetup,
  otpauthUri,
  regenerateRecoveryCodes,
  removeAuthenticator,
  startSetup,
  verifySecondFactor,
} from '../services/authenticator'
import { clearFailures, heldUntil, isKnownDevice, recordFailure } from '../services/sign-in-guard'
import { readSignInTicket } from '../services/sign-in-ticket'
import type { AppEnv } from '../types'
import { signIn } from './sign-in'

// The authenticator app as a second factor (worker/services/authenticator.ts). Mounted at /api/auth
// beside the password and security-key routes (the JSON body limit of /api/auth applies). Setting
// up, confirming, turning off and new recovery codes are the signed-in owner's; the code step of a
// sign-in is open, its ticket naming the account whose password was right. Starting a setup,
// turning the app off and new recovery codes need fresh proof: a stolen session could otherwise
// put its own app on the account (locking the owner out), take the second factor away, or make
// itself codes. Confirming needs none: only whoever started the setup has the secret to answer it.

export const authenticatorRoutes = new Hono<AppEnv>()
  .get('/authenticator', requireUser, async (c) => c.json(await authenticatorStatus(c.var.db, c.var.account.id)))
  // A new secret, shown once to the owner: it replaces a setup still waiting for its first code.
  .post('/authenticator/setup', requireUser, requireFreshProof, async (c) => {
    const user = (await userOf(c))
    const secret = await startSetup(c.var.db, user.id)
    const answer: AuthenticatorSetup = {
      secret,
      uri: otpauthUri(secret, user.email),
      issuer: AUTHENTICATOR.issuer,
      accountName: user.email,
      algorithm: AUTHENTICATOR.algorithm,
      digits: AUTHENTICATOR.digits,
      period: AUTHENTICATOR.periodSeconds,
    }
    return c.json(answer)
  })
  // The first code of the new secret turns the app on; the recovery codes are in this answer only.
  .post('/authenticator/confirm', requireUser, validate('json', confirmAuthenticatorBodySchema), async (c) => {
    const user = (await userOf(c))
    const outcome = await confirmSetup(c.var.db, user.id, c.req.valid('json').code)
    if (!outcome.ok && outcome.reason === 'no_setup') throw conflict(AUTHENTICATOR_MESSAGES.noPendingSetup)
    // 400, not 401: the session is fine, and a 401 reads as "signed out" to clients.
    if (!outcome.ok) throw badRequest(`code: ${AUTHENTICATOR_MESSAGES.wrongConfirmCode}`, { errors: [{ field: 'code', message: AUTHENTICATOR_MESSAGES.wrongConfirmCode }] })
    await audit(c, 'account.authenticator_added', { replaced: outcome.replaced })
    await tellOwner(c, c.var.account, 'authenticator_added')
    await audit(c, 'account.recovery_codes_created', { count: outcome.recoveryCodes.length })
    return c.json({
      message: AUTHENTICATOR_MESSAGES.enabledBody,
      recoveryCodes: outcome.recoveryCodes,
      status: await authenticatorStatus(c.var.db, user.id),
    })
  })
  .delete('/authenticator', requireUser, requireFreshProof, async (c) => {
    if (!(await removeAuthenticator(c.var.db, c.var.account.id))) throw notFound(AUTHENTICATOR_MESSAGES.notOn)
    await audit(c, 'account.authenticator_removed')
    await tellOwner(c, c.var.account, 'authenticator_removed')
    return c.json({ message: AUTHENTICATOR_MESSAGES.disabledBody, status: await authenticatorStatus(c.var.db, c.var.account.id) })
  })
  // A new set of ten: every earlier code, used or not, stops working.
  .post('/authenticator/recovery-codes', requireUser, requireFreshProof, async (c) => {
    const codes = await regenerateRecoveryCodes(c.var.db, c.var.account.id)
    if (!codes) throw notFound(AUTHENTICATOR_MESSAGES.notOn)
    await audit(c, 'account.recovery_codes_created', { count: codes.length })
    return c.json({ message: AUTHENTICATOR_MESSAGES.codesRegeneratedBody, recoveryCodes: codes, status: await authenticatorStatus(c.var.db, c.var.account.id) })
  })
  // The code step of a password sign-in. Wrong codes count against the account as wrong passwords
  // do (held after a few, longer each time, never in a browser that signed in to it before), so the
  // six digits cannot be tried one after another; the per-address limit holds as for the password.
  .post('/authenticator/sign-in', rateLimitByIp('LOGIN_LIMITER', 'authenticator'), validate('json', authenticatorSignInBodySchema), async (c) => {
    const { ticket, code } = c.req.valid('json')
    const db = c.var.db
    const userId = await readSignInTicket(c.env, ticket)
    const user = userId ? await db.query.users.findFirst({ where: eq(users.id, userId) }) : undefined
    if (!user) throw unauthorized(AUTHENTICATOR_MESSAGES.ticketInvalid)
    if (user.pausedAt) throw forbidden(AUTH_ERRORS.accountPaused)
    if (!(await isKnownDevice(c, user)) && (await heldUntil(db, user.email))) throw tooManyRequests(AUTH_ERRORS.rateLimited)
    const outcome = await verifySecondFactor(db, user.id, code)
    if (!outcome.ok) {
      // The app was turned off since the password step: that ticket can no longer sign in.
      if (outcome.reason === 'not_enabled') throw unauthorized(AUTHENTICATOR_MESSAGES.ticketInvalid)
      await recordFailure(db, user.email)
      await auditOwner(c.env, user.id, 'account.authenticator_failed', { reason: outcome.reason })
      throw unauthorized(outcome.reason === 'replayed' ? AUTHENTICATOR_MESSAGES.codeAlreadyUsed : AUTHENTICATOR_MESSAGES.wrongCode)
    }
    await clearFailures(db, user.email)
    if (outcome.method === 'recovery_code') await auditOwner(c.env, user.id, 'account.recovery_code_used', { left: outcome.left })
    const session = await signIn(c, user, { method: outcome.method })
    const answer: AuthenticatorSignInResponse = {
      ...session,
      method: outcome.method,
      ...(outcome.method === 'recovery_code' ? { recoveryCodesLeft: outcome.left } : {}),
    }
    return c.json(answer)
  })
