import { userOf } from '../middleware/auth'
import { ownerVault } from '../owner/client'
import type { Context } from 'hono'
import { FRESH_PROOF_MESSAGES, type FreshProofBody, type ProofMethod } from '../../contract/fresh-proof'
import { AUTH_ERRORS } from '../../contract/messages'
import type { Db } from '../db/client'
import { ApiError, tooManyRequests } from '../lib/errors'
import { countKeys } from '../webauthn/credentials'
import { verifySignIn } from '../webauthn/ceremonies'
import { hasAuthenticator, proveWithAuthenticator } from './authenticator'
import { verifyPassword } from './passwords'
import { clearFailures, heldUntil, recordFailure } from './sign-in-guard'
import type { AppEnv } from '../types'

/** The ways this owner can give fresh proof: the password always, a key or an app once set up. */
export async function proofMethodsOf(db: Db, userId: string): Promise<ProofMethod[]> {
  const methods: ProofMethod[] = ['password']
  if ((await countKeys(db, userId)) > 0) methods.push('security_key')
  if (await hasAuthenticator(db, userId)) methods.push('authenticator')
  return methods
}

/**
 * Checks the proof the signed-in person gives and, if it is the owner's, marks the session as
 * proved now. A wrong password or code counts against the account like a failed sign-in (so a
 * stolen session cannot guess at it faster than a stranger at the sign-in page).
 */
export async function giveFreshProof(c: Context<AppEnv>, body: FreshProofBody, now = Date.now()): Promise<ProofMethod> {
  const db = c.var.db
  const user = (await userOf(c))
  if (body.method === 'password' || body.method === 'authenticator') {
    if (await heldUntil(db, user.email, now)) throw tooManyRequests(AUTH_ERRORS.rateLimited)
  }
  switch (body.method) {
    case 'password': {
      if (!(await verifyPassword(body.password, user.passwordHash))) {
        await recordFailure(db, user.email, now)
        throw new ApiError(401, FRESH_PROOF_MESSAGES.passwordWrong)
      }
      await clearFailures(db, user.email)
      break
    }
    case 'security_key': {
      const outcome = await verifySignIn(db, c.env, body.response, now)
      if (!outcome.ok) throw new ApiError(outcome.status, outcome.message)
      if (outcome.user.id !== user.id) throw new ApiError(401, FRESH_PROOF_MESSAGES.keyNotYours)
      // A trusted key's answer is a use of a trusted device (worker/engine/device-loss.ts).
      if (outcome.key.trustedAt !== null) c.executionCtx.waitUntil(ownerVault(c.env, user.id).recordTrustedUse(now).catch((error) => console.error('trusted use failed', error)))
      break
    }
    case 'authenticator': {
      if (!(await hasAuthenticator(db, user.id))) throw new ApiError(409, FRESH_PROOF_MESSAGES.noAuthenticator)
      // A current code (each time step once) or an unused recovery code, which it uses up.
      if ((await proveWithAuthenticator(db, user.id, body.code, now)) !== 'ok') {
        await recordFailure(db, user.email, now)
        throw new ApiError(401, FRESH_PROOF_MESSAGES.codeWrong)
      }
      await clearFailures(db, user.email)
      break
    }
  }
  await ownerVault(c.env, user.id).markProved(c.var.sessionId, now)
  c.set('provedAt', now)
  return body.method
}
