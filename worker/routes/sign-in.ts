import type { Context } from 'hono'
import { setCookie } from 'hono/cookie'
import { AUTH_COOKIE, SESSION_TTL_SECONDS } from '../../contract/constants'
import type { UserRow } from '../db/schema'
import { auditOwner } from '../services/audit'
import { accountOf } from '../owner/account'
import { recordOwnerActivity } from '../owner/client'
import { createSession, type SessionDevice } from '../services/sessions'
import { rememberDevice } from '../services/sign-in-guard'
import { publicUserOf } from '../services/users'
import type { AppEnv } from '../types'

export function setSessionCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, AUTH_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'Strict',
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  })
}

/**
 * Opens a revocable session for someone who has proved who they are (password, security key, or
 * both), resets their inactivity clock and records the sign-in in their audit chain.
 */
/** The browser and the approximate place of a request, as the owner's list of devices shows them. */
export function deviceOf(c: Context<AppEnv>): SessionDevice {
  const cf = (c.req.raw as { cf?: { city?: unknown; country?: unknown } }).cf
  const place = [cf?.city, cf?.country].filter((part): part is string => typeof part === 'string' && part.length > 0).join(', ')
  return { userAgent: c.req.header('user-agent') ?? null, place: place || null }
}

export async function signIn(c: Context<AppEnv>, user: UserRow, details: Record<string, string> = {}) {
  const token = await createSession(c.var.db, c.env, user.id, Date.now(), deviceOf(c))
  setSessionCookie(c, token)
  await rememberDevice(c, user.id)
  c.executionCtx.waitUntil(recordOwnerActivity(c.env, accountOf(user), 'signed_in'))
  await auditOwner(c.env, user.id, 'account.signed_in', details)
  return { token, user: await publicUserOf(c.env, c.var.db, user) }
}
