import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { ADMIN_MESSAGES } from '../../contract/admin'
import { DELETION_MESSAGES, deletionDueAt } from '../../contract/account-deletion'
import { AUTH_COOKIE } from '../../contract/constants'
import { AUTH_ERRORS } from '../../contract/messages'
import { conflict, forbidden, unauthorized } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import { authenticate, LAST_SEEN_EVERY_MS, touchSession } from '../services/sessions'
import { touchBrowser } from '../services/trusted-devices'
import { ownerVault } from '../owner/client'
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
    const session = await timed(c, 'session', () => authenticate(c.var.db, c.env, token))
    if (!session) throw unauthorized(AUTH_ERRORS.sessionExpired)
    // Frozen for deletion: reading, proving it is them, signing devices out, checking in and keeping
    // the account are all that is left.
    if (session.user.deletionRequestedAt !== null && !READS.has(c.req.method) && !OPEN_WHILE_FROZEN.has(c.req.path.replace(/\/\d+$/, '/:id'))) {
      throw conflict(DELETION_MESSAGES.frozen(deletionDueAt(session.user.deletionRequestedAt)))
    }
    c.set('user', session.user)
    c.set('sessionId', session.sessionId)
    c.set('provedAt', session.provedAt)
    c.set('trustedDevice', session.trustedBrowser)
    const now = Date.now()
    if ((session.lastSeenAt ?? 0) + LAST_SEEN_EVERY_MS <= now) {
      c.executionCtx.waitUntil(touchSession(c.var.db, session.user.id, session.sessionId, now).catch((error) => console.error('session touch failed', error)))
      // A trusted browser's use, as often as its session's: the owner's object keeps the time.
      if (session.trustedBrowser && session.browserId) {
        const { id } = session.user
        const browserId = session.browserId
        c.executionCtx.waitUntil(
          Promise.all([touchBrowser(c.var.db, id, browserId, now), ownerVault(c.env, id).recordTrustedUse(now)]).catch((error) => console.error('trusted use failed', error)),
        )
      }
    }
    await next()
  }),
  { session: true },
)

/** After requireUser: the back office's guard, on the role in the database as it is now (403 otherwise). */
export const requireAdmin = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.var.user.role !== 'admin') throw forbidden(ADMIN_MESSAGES.adminOnly)
    await next()
  }),
  { admin: true },
)
