import { TRUSTED_DEVICE_MESSAGES } from '../../contract/trusted-devices'
import { assertNotLastWatched, isKeyTrusted, setKeyTrust } from '../services/trusted-devices'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { AUTH_ERRORS } from '../../contract/messages'
import {
  abandonSecondFactorBodySchema,
  registerKeyBodySchema,
  renameKeyBodySchema,
  signInWithKeyBodySchema,
  WEBAUTHN_MESSAGES,
} from '../../contract/webauthn'
import { ownerVault } from '../owner/client'
import { ApiError, badRequest, conflict, forbidden, notFound } from '../lib/errors'
import { validate } from '../lib/validate'
import { requireUser, userOf } from '../middleware/auth'
import { requireFreshProof } from '../middleware/fresh-proof'
import { rateLimitByIp } from '../middleware/rate-limit'
import { audit } from '../services/audit'
import { tellOwner } from '../services/trust-mail'
import {
  abandonSecondFactor,
  registrationOptions,
  signInOptions,
  verifyRegistration,
  verifySignIn,
  type FailureReason,
} from '../webauthn/ceremonies'
import { countKeys, listKeys, removeKey, renameKey, toSecurityKey } from '../webauthn/credentials'
import type { AppEnv } from '../types'
import { signIn } from './sign-in'

const keyParam = z.object({ id: z.string().min(1).max(1024) })
// Audit entries name a key by the start of its id: enough to tell keys apart, never its name.
const keyRef = (id: string) => id.slice(0, 12)

/**
 * A failed security-key step that is the owner's own (see verifySignIn): it counts toward their
 * Failed unlock attempts triggers, without holding up the answer, and goes into their audit chain
 * (with the same act).
 */
function ownersKeyFailure(c: Context<AppEnv>, ownerId: string, reason: FailureReason) {
  c.executionCtx.waitUntil(ownerVault(c.env, ownerId).engine().recordUnlockFailure('passkey', undefined, undefined, reason).catch((error) => console.error('passkey failure report failed', error)))
}

/** A key the server verified: its owner's successful unlock, forgiving the failed attempts just before it. */
function ownersKeySuccess(c: Context<AppEnv>, ownerId: string) {
  c.executionCtx.waitUntil(ownerVault(c.env, ownerId).engine().recordUnlockSuccess('passkey').catch((error) => console.error('passkey success report failed', error)))
}

// Mounted at /api/auth beside the password routes (which apply the JSON body limit to all of
// /api/auth). Sign-in is open; everything else is the signed-in owner's own keys.
async function setTrust(c: Context<AppEnv>, id: string, trusted: boolean) {
  if (!trusted) await assertNotLastWatched(c, () => isKeyTrusted(c.var.db, c.var.account.id, id))
  const outcome = await setKeyTrust(c.var.db, c.var.account.id, id, trusted)
  if (outcome === 'not_found') throw notFound(WEBAUTHN_MESSAGES.notFound)
  if (outcome === 'changed') {
    const key = (await listKeys(c.var.db, c.var.account.id)).find((k) => k.id === id)
    await audit(c, trusted ? 'account.device_trusted' : 'account.device_untrusted', { device: 'security_key', key: keyRef(id) })
    await tellOwner(c, c.var.account, trusted ? 'device_trusted' : 'device_untrusted', { detail: TRUSTED_DEVICE_MESSAGES.mailDetail('key', key?.name ?? '', trusted) })
  }
  return c.json({ trusted, message: trusted ? TRUSTED_DEVICE_MESSAGES.marked : TRUSTED_DEVICE_MESSAGES.unmarked })
}

export const securityKeyRoutes = new Hono<AppEnv>()
  .post('/webauthn/register/options', requireUser, requireFreshProof, async (c) => c.json(await registrationOptions(c.var.db, c.env, (await userOf(c)))))
  .post('/webauthn/register/verify', requireUser, requireFreshProof, validate('json', registerKeyBodySchema), async (c) => {
    const { response, name } = c.req.valid('json')
    const { key, securityKeyCount } = await verifyRegistration(c.var.db, c.env, (await userOf(c)), response, name)
    await audit(c, 'account.security_key_added', { key: keyRef(key.id), format: key.attestationFormat ?? 'none' })
    await tellOwner(c, c.var.account, 'key_added', { detail: `It is named “${key.name}”.` })
    return c.json({ key: toSecurityKey(key), securityKeyCount }, 201)
  })
  .post('/webauthn/login/options', rateLimitByIp('LOGIN_LIMITER', 'webauthn'), async (c) => c.json(await signInOptions(c.var.db, c.env)))
  .post('/webauthn/login/verify', rateLimitByIp('LOGIN_LIMITER', 'webauthn'), validate('json', signInWithKeyBodySchema), async (c) => {
    const outcome = await verifySignIn(c.var.db, c.env, c.req.valid('json').response)
    if (!outcome.ok) {
      if ('ownerId' in outcome) ownersKeyFailure(c, outcome.ownerId, outcome.reason)
      throw new ApiError(outcome.status, outcome.message)
    }
    ownersKeySuccess(c, outcome.user.id)
    if (outcome.user.pausedAt) throw forbidden(AUTH_ERRORS.accountPaused)
    return c.json(await signIn(c, outcome.user, { method: 'security_key', key: keyRef(outcome.key.id) }, { trustedKey: outcome.key.trustedAt !== null }))
  })
  .post('/webauthn/second-factor/abandon', rateLimitByIp('LOGIN_LIMITER', 'webauthn'), validate('json', abandonSecondFactorBodySchema), async (c) => {
    const ownerId = await abandonSecondFactor(c.var.db, c.req.valid('json').challenge)
    if (!ownerId) throw badRequest(WEBAUTHN_MESSAGES.challengeInvalid)
    ownersKeyFailure(c, ownerId, 'not_completed')
    return c.json({ message: 'Sign in again with your password to retry.' })
  })
  .get('/security-keys', requireUser, async (c) => {
    const keys = await listKeys(c.var.db, c.var.account.id)
    return c.json({ keys: keys.map(toSecurityKey), twoFactorEnabled: (await userOf(c)).twoFactorEnabled })
  })
  .patch('/security-keys/:id', requireUser, validate('param', keyParam), validate('json', renameKeyBodySchema), async (c) => {
    const key = await renameKey(c.var.db, c.var.account.id, c.req.valid('param').id, c.req.valid('json').name)
    if (!key) throw notFound(WEBAUTHN_MESSAGES.notFound)
    return c.json({ key: toSecurityKey(key) })
  })
  // Marks a key as a trusted device (PUT), or stops trusting it (DELETE): a change of trust, so fresh proof and an e-mail.
  .put('/security-keys/:id/trust', requireUser, requireFreshProof, validate('param', keyParam), (c) => setTrust(c, c.req.valid('param').id, true))
  .delete('/security-keys/:id/trust', requireUser, requireFreshProof, validate('param', keyParam), (c) => setTrust(c, c.req.valid('param').id, false))
  .delete('/security-keys/:id', requireUser, requireFreshProof, validate('param', keyParam), async (c) => {
    const id = c.req.valid('param').id
    await assertNotLastWatched(c, () => isKeyTrusted(c.var.db, c.var.account.id, id))
    const outcome = await removeKey(c.var.db, c.var.account.id, id)
    if (outcome === 'not_found') throw notFound(WEBAUTHN_MESSAGES.notFound)
    if (outcome === 'last_key_with_two_factor') throw conflict(WEBAUTHN_MESSAGES.lastKeyWithTwoFactor)
    await audit(c, 'account.security_key_removed', { key: keyRef(id) })
    await tellOwner(c, c.var.account, 'key_removed')
    return c.json({ message: 'Security key removed.', securityKeyCount: await countKeys(c.var.db, c.var.account.id) })
  })
