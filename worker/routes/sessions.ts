import { Hono, type Context } from 'hono'
import { deleteCookie } from 'hono/cookie'
import { AUTH_COOKIE } from '../../contract/constants'
import { describeUserAgent, SESSION_MESSAGES, sessionIdParamSchema, type SignedInSession } from '../../contract/sessions'
import type { OwnerSessionRow } from '../owner/schema'
import { ownerVault } from '../owner/client'
import { TRUSTED_DEVICE_MESSAGES } from '../../contract/trusted-devices'
import { badRequest, conflict, notFound } from '../lib/errors'
import { requireFreshProof } from '../middleware/fresh-proof'
import { assertNotLastWatched, isSessionBrowserTrusted, setSessionBrowserTrust, trustedBrowserIds } from '../services/trusted-devices'
import { tellOwner } from '../services/trust-mail'
import { validate } from '../lib/validate'
import { requireUser } from '../middleware/auth'
import { audit } from '../services/audit'
import type { AppEnv } from '../types'

function toSignedInSession(row: OwnerSessionRow, currentId: number, trusted: ReadonlySet<string>): SignedInSession {
  return {
    id: String(row.id),
    device: describeUserAgent(row.userAgent),
    place: row.place,
    createdAt: new Date(row.createdAt).toISOString(),
    lastSeenAt: new Date(row.lastSeenAt ?? row.createdAt).toISOString(),
    current: row.id === currentId,
    trusted: row.browserId !== null && trusted.has(row.browserId),
    canTrust: row.browserId !== null,
  }
}

async function setBrowserTrust(c: Context<AppEnv>, trusted: boolean) {
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id)) throw badRequest(`id: ${SESSION_MESSAGES.idInvalid}`)
  if (!trusted) await assertNotLastWatched(c, () => isSessionBrowserTrusted(c.env, c.var.db, c.var.account.id, id))
  const outcome = await setSessionBrowserTrust(c.env, c.var.db, c.var.account.id, id, trusted)
  if (outcome === 'not_found') throw notFound(SESSION_MESSAGES.notFound)
  if (outcome === 'no_browser') throw conflict(TRUSTED_DEVICE_MESSAGES.signInAgain)
  if (outcome === 'changed') {
    const row = await ownerVault(c.env, c.var.account.id).session(id)
    await audit(c, trusted ? 'account.device_trusted' : 'account.device_untrusted', { device: 'browser', session: String(id) })
    await tellOwner(c, c.var.account, trusted ? 'device_trusted' : 'device_untrusted', {
      detail: TRUSTED_DEVICE_MESSAGES.mailDetail('browser', describeUserAgent(row?.userAgent ?? null), trusted),
    })
  }
  return c.json({ trusted, message: trusted ? TRUSTED_DEVICE_MESSAGES.marked : TRUSTED_DEVICE_MESSAGES.unmarked })
}

// Mounted at /api/auth. The owner's signed-in devices, and signing them out. Ending a session is a
// safety act, not a grant of trust: a stolen session could only sign the owner out (who signs in
// again), so none of this asks for fresh proof.
export const sessionRoutes = new Hono<AppEnv>()
  .get('/sessions', requireUser, async (c) => {
    const current = c.var.sessionId
    const [rows, trusted] = await Promise.all([ownerVault(c.env, c.var.account.id).listSessions(), trustedBrowserIds(c.var.db, c.var.account.id)])
    // This device first, then the others, most recently used first.
    const sessions = rows.map((row) => toSignedInSession(row, current, trusted)).sort((a, b) => Number(b.current) - Number(a.current))
    return c.json({ sessions })
  })
  .post('/sessions/sign-out-others', requireUser, async (c) => {
    const signedOut = await ownerVault(c.env, c.var.account.id).revokeSessions(c.var.sessionId)
    await audit(c, 'account.sessions_revoked', { count: signedOut })
    return c.json({ message: SESSION_MESSAGES.othersRevoked(signedOut), signedOut })
  })
  // Marks the browser a session was opened in as trusted (PUT), or stops trusting it (DELETE): a
  // change of trust, so fresh proof and an e-mail.
  .put('/sessions/:id/trust', requireUser, requireFreshProof, validate('param', sessionIdParamSchema), (c) => setBrowserTrust(c, true))
  .delete('/sessions/:id/trust', requireUser, requireFreshProof, validate('param', sessionIdParamSchema), (c) => setBrowserTrust(c, false))
  // One session by its number: another owner's, or one that is over, is not found. Signing out the
  // session that asks is allowed and is a sign-out (its cookie goes too).
  .delete('/sessions/:id', requireUser, validate('param', sessionIdParamSchema), async (c) => {
    const id = Number(c.req.valid('param').id)
    if (!Number.isSafeInteger(id)) throw badRequest(`id: ${SESSION_MESSAGES.idInvalid}`)
    const current = id === c.var.sessionId
    if (!(await ownerVault(c.env, c.var.account.id).revokeSession(id))) throw notFound(SESSION_MESSAGES.notFound)
    await audit(c, 'account.session_revoked', { session: String(id), current })
    if (current) deleteCookie(c, AUTH_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict' })
    return c.json({ message: current ? SESSION_MESSAGES.revokedCurrent : SESSION_MESSAGES.revoked, current })
  })
