import { noteBrowser } from '../services/trusted-devices'
import { Hono, type Context } from 'hono'
import { eq } from 'drizzle-orm'
import { deleteCookie } from 'hono/cookie'
import {
  confirmEmailBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  registerBodySchema,
  resetPasswordBodySchema,
} from '../../contract/auth'
import { AUTH_COOKIE } from '../../contract/constants'
import { AUTHENTICATOR_MESSAGES, type SecondFactorMethod } from '../../contract/authenticator-constants'
import type { SecondFactorResponse } from '../../contract/webauthn'
import type { UserRow } from '../db/schema'
import { hasAuthenticator } from '../services/authenticator'
import { issueSignInTicket } from '../services/sign-in-ticket'
import { countKeys } from '../webauthn/credentials'
import { WEBAUTHN_MESSAGES } from '../../contract/webauthn'
import { AUTH_ERRORS, EMAIL_CONFIRMATION } from '../../contract/messages'
import { badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../lib/errors'
import { validate } from '../lib/validate'
import { sendEmail } from '../mail'
import { passwordChangedEmail } from '../mail/templates'
import { readToken, requireUser, userOf } from '../middleware/auth'
import { jsonBodyLimit } from '../middleware/body-limit'
import { clientIp, rateLimitByIp } from '../middleware/rate-limit'
import { auditOwner } from '../services/audit'
import { accountOf } from '../owner/account'
import { recordOwnerActivity } from '../owner/client'
import { dummyPasswordHash, hashPassword, verifyPassword } from '../services/passwords'
import { resetPasswordWithToken, sendResetLink } from '../services/password-reset'
import { confirmOwnerEmail, sendConfirmationLink } from '../services/email-confirmation'
import { authenticate, createSession, deviceOf, readSessionToken } from '../services/sessions'
import { ownerVault } from '../owner/client'
import { clearFailures, heldUntil, isKnownDevice, recordFailure, rememberDevice } from '../services/sign-in-guard'
import { notMeUrl } from '../services/trust-mail'
import { findUserByEmail, insertAccount, publicUserOf } from '../services/users'
import type { AppEnv } from '../types'
import { billingFor } from '../billing/provider'
import { claimGuestSubscription } from '../billing/subscriptions'
import { users } from '../db/schema'
import { secondFactorOptions } from '../webauthn/ceremonies'
import { setSessionCookie, signIn } from './sign-in'

export const authRoutes = new Hono<AppEnv>()
  .use(jsonBodyLimit)
  .post('/register', rateLimitByIp('SIGNUP_LIMITER', 'register'), validate('json', registerBodySchema), async (c) => {
    const body = c.req.valid('json')
    const db = c.var.db
    if (await findUserByEmail(db, body.email)) throw conflict(AUTH_ERRORS.emailTaken)
    const user = await insertAccount(
      db,
      { email: body.email, passwordHash: await hashPassword(body.password), displayName: body.displayName },
      { billingEnabled: billingFor(c.env).enabled },
    )
    // A concurrent registration of the same address won the unique index.
    if (!user) throw conflict(AUTH_ERRORS.emailTaken)
    // A subscription made as a guest before registering is attached only if it was made for this
    // address and is still unclaimed; the other pending-subscription fields are never trusted.
    const claimed = body.subscriptionId ? await claimGuestSubscription(c.env, user, body.subscriptionId) : false
    const account = claimed ? ((await db.query.users.findFirst({ where: eq(users.id, user.id) })) ?? user) : user
    // The registering browser is the account's first: it can be marked as trusted like any other.
    const now = Date.now()
    const browserId = crypto.randomUUID()
    await noteBrowser(db, user.id, browserId, deviceOf(c), now)
    const token = await createSession(c.env, account, now, deviceOf(c), browserId)
    setSessionCookie(c, token)
    await rememberDevice(c, user.id, browserId, now)
    c.executionCtx.waitUntil(recordOwnerActivity(c.env, accountOf(account), 'registered'))
    // Awaited, so the chain starts with it before anything the new owner does next.
    await auditOwner(c.env, user.id, 'account.registered')
    await sendConfirmationLink(c.env, c.executionCtx, db, account)
    if (claimed) await auditOwner(c.env, user.id, 'account.subscribed', { plan: account.planTier, status: account.subscriptionStatus, guest: true })
    return c.json({ token, user: await publicUserOf(c.env, db, account) }, 201)
  })
  .post('/login', rateLimitByIp('LOGIN_LIMITER', 'login'), validate('json', loginBodySchema), async (c) => {
    const { email, password } = c.req.valid('json')
    const db = c.var.db
    const user = await findUserByEmail(db, email)
    // Guessing spread over many addresses is held per account, by failures only, and never in a
    // browser that has signed in to the account before: strangers cannot lock the owner out.
    const known = user ? await isKnownDevice(c, user) : false
    if (!known && (await heldUntil(db, email))) throw tooManyRequests(AUTH_ERRORS.rateLimited)
    const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()))
    if (!user || !valid) {
      await recordFailure(db, email)
      throw unauthorized(AUTH_ERRORS.invalidCredentials)
    }
    if (user.pausedAt) {
      await clearFailures(db, email)
      throw forbidden(AUTH_ERRORS.accountPaused)
    }
    const step = await secondStep(c, user)
    // The failures are forgiven once the sign-in is complete: with an authenticator app, after its
    // code, so a right password cannot reset the count of wrong codes.
    if (!step?.methods.includes('authenticator')) await clearFailures(db, email)
    if (step) return c.json(step)
    return c.json(await signIn(c, user))
  })
  // One click from the mailbox; no session needed (the link may be opened on another device).
  .post('/confirm-email', rateLimitByIp('LINK_LIMITER', 'confirm-email'), validate('json', confirmEmailBodySchema), async (c) =>
    c.json(await confirmOwnerEmail(c.env, c.var.db, c.req.valid('json').token)),
  )
  .post('/confirm-email/resend', requireUser, async (c) => {
    await sendConfirmationLink(c.env, c.executionCtx, c.var.db, (await userOf(c)))
    return c.json({ message: EMAIL_CONFIRMATION.sent((await userOf(c)).email) })
  })
  .get('/me', requireUser, async (c) => c.json({ user: await publicUserOf(c.env, c.var.db, (await userOf(c))) }))
  // The web app's session check: signed out is an answer here, not an error (so a visitor's browser
  // logs no failed request). API clients keep /me and its 401.
  .get('/session', async (c) => {
    const token = readToken(c)
    const session = token ? await authenticate(c.env, token) : null
    const user = session ? await c.var.db.query.users.findFirst({ where: eq(users.id, session.account.id) }) : undefined
    return c.json({ user: user ? await publicUserOf(c.env, c.var.db, user) : null })
  })
  .post('/logout', async (c) => {
    const token = readToken(c)
    if (token) {
      const named = await readSessionToken(c.env, token)
      if (named && (await ownerVault(c.env, named.ownerId).revokeSession(named.sessionId))) {
        await auditOwner(c.env, named.ownerId, 'account.signed_out')
      }
    }
    deleteCookie(c, AUTH_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict' })
    return c.json({ message: 'Signed out.' })
  })
  .post(
    '/forgot-password',
    rateLimitByIp('RESET_LIMITER', 'forgot'),
    validate('json', forgotPasswordBodySchema),
    async (c) => {
      const { email } = c.req.valid('json')
      // The same answer, after the same work, whether or not the address has an account: the lookup,
      // the per-account limit, the token and the e-mail all happen after it (services/password-reset.ts).
      c.executionCtx.waitUntil(
        sendResetLink(c, email).catch((error: unknown) => console.error('forgot-password: no reset link sent', error)),
      )
      return c.json({ message: 'If an account exists for that address, a reset link is on its way.' })
    },
  )
  .post('/reset-password', rateLimitByIp('RESET_LIMITER', 'reset'), validate('json', resetPasswordBodySchema), async (c) => {
    const { token, password } = c.req.valid('json')
    const db = c.var.db
    const user = await resetPasswordWithToken(c.env, db, token, password)
    if (!user) throw badRequest(AUTH_ERRORS.resetLinkInvalid)
    // Whoever holds the e-mailed link acts as the owner; every session was revoked with it.
    await auditOwner(c.env, user.id, 'account.password_reset', { sessionsRevoked: true })
    await sendEmail(c.env, c.executionCtx, db, {
      to: user.email,
      kind: 'password_changed',
      // A reset removes no key: the e-mail says how many can still sign in.
      ...passwordChangedEmail({
        displayName: user.displayName,
        loginUrl: `${c.env.APP_ORIGIN}/login`,
        removedKeys: 0,
        keysLeft: await countKeys(db, user.id),
        notMeUrl: notMeUrl(c.env, user.id, Date.now()),
      }),
    })
    console.log(`password reset for user ${user.id} from ${clientIp(c)}`)
    return c.json({ message: 'Your password has been reset. Sign in with your new password.' })
  })

/**
 * What a password sign-in of an account with two-factor on answers instead of a session: the
 * second factors it has (a security key: only its own keys; an authenticator app: a ticket for
 * the code), or undefined when the password alone signs in.
 */
async function secondStep(c: Context<AppEnv>, user: UserRow): Promise<SecondFactorResponse | undefined> {
  const db = c.var.db
  const [app, keys] = await Promise.all([hasAuthenticator(db, user.id), countKeys(db, user.id)])
  if (!user.twoFactorEnabled && !app) return undefined
  const methods: SecondFactorMethod[] = []
  if (app) methods.push('authenticator')
  if (user.twoFactorEnabled || keys > 0) methods.push('security_key')
  return {
    twoFactorRequired: true,
    methods,
    ...(methods.includes('security_key') ? { options: await secondFactorOptions(db, c.env, user) } : {}),
    ...(app ? { ticket: await issueSignInTicket(c.env, user.id) } : {}),
    message: !app ? WEBAUTHN_MESSAGES.secondFactorPrompt : methods.length > 1 ? AUTHENTICATOR_MESSAGES.secondFactorPromptWithKey : AUTHENTICATOR_MESSAGES.secondFactorPrompt,
  }
}
