import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { ADMIN_MESSAGES } from '../../contract/admin'
import { AUTH_COOKIE } from '../../contract/constants'
import { AUTH_ERRORS } from '../../contract/messages'
import { forbidden, unauthorized } from '../lib/errors'
import { withFacts } from '../openapi/facts'
import { authenticate, LAST_SEEN_EVERY_MS, touchSession } from '../services/sessions'
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

export const requireUser = withFacts(
  createMiddleware<AppEnv>(async (c, next) => {
    const token = readToken(c)
    if (!token) throw unauthorized(AUTH_ERRORS.notSignedIn)
    const session = await timed(c, 'session', () => authenticate(c.var.db, c.env, token))
    if (!session) throw unauthorized(AUTH_ERRORS.sessionExpired)
    c.set('user', session.user)
    c.set('sessionId', session.sessionId)
    c.set('provedAt', session.provedAt)
    const now = Date.now()
    if ((session.lastSeenAt ?? 0) + LAST_SEEN_EVERY_MS <= now) {
      c.executionCtx.waitUntil(touchSession(c.var.db, session.user.id, session.sessionId, now).catch((error) => console.error('session touch failed', error)))
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
