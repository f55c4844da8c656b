import type { Context } from 'hono'
import { setCookie } from 'hono/cookie'
import { AUTH_COOKIE, SESSION_TTL_SECONDS } from '../../contract/constants'
import type { UserRow } from '../db/schema'
import { auditOwner } from '../services/audit'
import { accountOf } from '../owner/account'
import { recordOwnerActivity } from '../owner/client'
import { createSession, deviceOf } from '../services/sessions'
import { knownBrowserId, rememberDevice } from '../services/sign-in-guard'
import { noteBrowser } from '../services/trusted-devices'
import { tellOwner } from '../services/trust-mail'
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
export async function signIn(c: Context<AppEnv>, user: UserRow, details: Record<string, string> = {}, options: { trustedKey?: boolean } = {}) {
  const now = Date.now()
  const knownId = await knownBrowserId(c, user)
  const browserId = knownId ?? crypto.randomUUID()
  const device = deviceOf(c)
  const trustedBrowser = await noteBrowser(c.var.db, user.id, browserId, device, now)
  const token = await createSession(c.env, user, now, device, browserId, trustedBrowser)
  setSessionCookie(c, token)
  await rememberDevice(c, user.id, browserId)
  // A browser that has not signed in to this account before: the owner hears of it at once.
  if (knownId === null) await tellOwner(c, user, 'new_device', { since: now })
  // From a trusted browser or with a trusted key: a use of a trusted device (worker/engine/device-loss.ts).
  c.executionCtx.waitUntil(recordOwnerActivity(c.env, accountOf(user), 'signed_in', trustedBrowser || options.trustedKey === true))
  await auditOwner(c.env, user.id, 'account.signed_in', details)
  return { token, user: await publicUserOf(c.env, c.var.db, user) }
}
