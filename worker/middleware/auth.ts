import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { ADMIN_MESSAGES } from '../../contract/admin'
import { DELETION_MESSAGES, deletionDueAt } from '../../contract/account-deletion'
import { AUTH_COOKIE } from '../../contract/constants'
import { AUTH_ERRORS } from '../../contract/messages'
import { conflict, forbidden, unauthorized } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import { eq } from 'drizzle-orm'
import { users, type UserRow } from '../db/schema'
import { authenticate } from '../services/sessions'
import { touchBrowser } from '../services/trusted-devices'
import { timed } from './server-timing'
import type { AppEnv } from '../types'

/** The session token from `Authorization: Bearer …` or, failing that, the HttpOnly cookie. */
export function readToken(c: Context<AppEnv>): string | undefined {
  const header = c.req.header('authorization')
  if (header?.toLowerCase().startsWith('bearer ')) {
    const token = header.slice(7).trim()
    if (token) return token
  }
  return getCookie(c, AUTH_COOKIE) || undefined
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])
const OPEN_WHILE_FROZEN = new Set([
  '/api/account/deletion/cancel',
  '/api/auth/fresh-proof',
  '/api/auth/fresh-proof/options',
  '/api/auth/sessions/:id',
  '/api/auth/sessions/sign-out-others',
  '/api/inactivity/ping',
])

export const requireUser = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    const token = readToken(c)
    if (!token) throw unauthorized(AUTH_ERRORS.notSignedIn)
    // One call to the owner's object: the session, its revocation and the account's state are there.
    const session = await timed(c, 'session', () => authenticate(c.env, token))
    if (!session) throw unauthorized(AUTH_ERRORS.sessionExpired)
    const { account } = session
    // Frozen for deletion: reading, proving it is them, signing devices out, checking in and keeping
    // the account are all that is left.
    if (account.deletionRequestedAt !== null && !READS.has(c.req.method) && !OPEN_WHILE_FROZEN.has(c.req.path.replace(/\/\d+$/, '/:id'))) {
      throw conflict(DELETION_MESSAGES.frozen(deletionDueAt(account.deletionRequestedAt)))
    }
    c.set('account', account)
    c.set('sessionId', session.sessionId)
    c.set('provedAt', session.provedAt)
    c.set('trustedDevice', session.trustedBrowser)
    // The browser's "last used" in D1, as often as its session's (the object records the trusted use itself).
    if (session.touched && session.trustedBrowser && session.browserId) {
      c.executionCtx.waitUntil(touchBrowser(c.var.db, account.id, session.browserId, Date.now()).catch((error) => console.error('browser touch failed', error)))
    }
    await next()
  }),
  { session: true },
)

/**
 * After requireUser, for a route that needs more of the account than its object keeps (the
 * password hash, billing ids, second factors…): the owner's D1 row, read once per request. Gone
 * (deleted meanwhile): 401, as for a revoked session.
 */
export function userOf(c: Context<AppEnv>): Promise<UserRow> {
  let row = c.get('userRow')
  if (!row) {
    const id = c.var.account.id
    row = c.var.db.query.users.findFirst({ where: eq(users.id, id) }).then((user) => {
      if (!user) throw unauthorized(AUTH_ERRORS.sessionExpired)
      return user
    })
    c.set('userRow', row)
  }
  return row
}

/** After requireUser: the back office's guard, on the role as the owner's object has it now (403 otherwise). */
export const requireAdmin = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.var.account.role !== 'admin') throw forbidden(ADMIN_MESSAGES.adminOnly)
    await next()
  }),
  { admin: true },
)
