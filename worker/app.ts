import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { GENERIC_ERRORS } from '../contract/messages'
import { ApiError, notFound } from './lib/errors'
import { withDb } from './middleware/db'
import { securityHeaders } from './middleware/security-headers'
import { serverTiming } from './middleware/server-timing'
import { apiReferenceRoutes } from './routes/api-reference'
import { authRoutes } from './routes/auth'
import { channelRoutes, mailEventRoutes } from './routes/channels'
import { authenticatorRoutes } from './routes/authenticator'
import { approverRoutes } from './routes/approvers'
import { beneficiaryRoutes } from './routes/beneficiaries'
import { devRoutes } from './routes/dev'
import { emailPreviewRoutes } from './routes/email-preview'
import { identityOwnerRoutes, identityReviewRoutes } from './routes/identity'
import { linkRoutes } from './routes/links'
import { engineRoutes } from './routes/engine'
import { releaseLinkRoutes } from './routes/release-links'
import { accessRequestRoutes } from './routes/access-requests'
import { triggerRoutes } from './routes/triggers'
import { policyRoutes } from './routes/policies'
import { profileRoutes } from './routes/profile'
import { freshProofRoutes } from './routes/fresh-proof'
import { notMeRoutes } from './routes/not-me'
import { securityKeyRoutes } from './routes/security-keys'
import { sessionRoutes } from './routes/sessions'
import { accountRoutes } from './routes/account'
import { accountBillingRoutes } from './routes/account-billing'
import { billingRoutes } from './routes/billing'
import { adminRoutes } from './routes/admin'
import { stripeWebhookRoutes } from './routes/stripe-webhook'
import { userRoutes } from './routes/user'
import { vaultRoutes } from './routes/vault'
import type { AppEnv } from './types'

export const app = new Hono<AppEnv>()

app.use(securityHeaders)
app.use('/api/*', async (c, next) => {
  await next()
  c.header('Cache-Control', 'no-store')
})
app.use('/api/*', withDb)
app.use('/api/*', serverTiming)

app.get('/api/health', (c) => c.json({ ok: true }))
// The API described (OpenAPI 3.1, made from the routes below as mounted) and its reference page.
app.route('/api', apiReferenceRoutes(app))
// Stripe's signed webhooks read the raw body themselves (no JSON body limit or parsing before).
app.route('/api/stripe', stripeWebhookRoutes)
// The mail provider's signed events (bounces), likewise.
app.route('/api/mail', mailEventRoutes)
app.route('/api/auth', authRoutes)
app.route('/api/auth', securityKeyRoutes)
app.route('/api/auth', authenticatorRoutes)
app.route('/api/auth', freshProofRoutes)
app.route('/api/auth', notMeRoutes)
app.route('/api/auth', sessionRoutes)
// Token-link routes first: they sit under the same prefixes as the owner routes but need no session.
app.route('/api', linkRoutes)
app.route('/api', identityReviewRoutes)
app.route('/api', releaseLinkRoutes)
app.route('/api', accessRequestRoutes)
app.route('/api/email-preview', emailPreviewRoutes)
app.route('/api/vault', vaultRoutes)
app.route('/api/beneficiaries', beneficiaryRoutes)
app.route('/api/approvers', approverRoutes)
app.route('/api/policies', policyRoutes)
app.route('/api/user', userRoutes)
app.route('/api/triggers', triggerRoutes)
app.route('/api/profile', profileRoutes)
app.route('/api/channels', channelRoutes)
app.route('/api/account', accountRoutes)
app.route('/api/account', accountBillingRoutes)
app.route('/api', billingRoutes)
app.route('/api/admin', adminRoutes)
app.route('/api/dev', devRoutes)

app.route('/api', identityOwnerRoutes)
app.route('/api', engineRoutes)

app.all('/api/*', () => {
  throw notFound(GENERIC_ERRORS.apiRouteNotFound)
})

// Everything else is the SPA: Workers Assets answers files, and index.html for client routes.
app.all('*', async (c) => {
  const response = await c.env.ASSETS.fetch(c.req.raw)
  // Assets' headers are immutable; copy so the security headers can be added on the way out.
  return new Response(response.body, response)
})

app.onError((error, c) => {
  if (error instanceof ApiError) {
    return c.json({ ...error.extra, message: error.message }, error.status)
  }
  if (error instanceof HTTPException) {
    // Hono's own 4xx (malformed JSON and the like): the client's mistake, said plainly.
    const status = error.status
    const message = status === 400 ? GENERIC_ERRORS.invalidJson : error.message || GENERIC_ERRORS.internal
    return c.json({ message }, status)
  }
  console.error(`${c.req.method} ${c.req.path} failed:`, error)
  return c.json({ message: GENERIC_ERRORS.internal }, 500)
})
