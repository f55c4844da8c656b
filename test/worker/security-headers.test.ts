import { describe, expect, it } from 'vitest'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { app } from '../../worker/app'
import { call, env } from './helpers'

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get('content-security-policy') ?? ''
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).toContain("default-src 'self'")
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("object-src 'none'")
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  expect(res.headers.get('x-frame-options')).toBe('DENY')
  expect(res.headers.get('referrer-policy')).toBe('no-referrer')
  expect(res.headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains; preload')
}

describe('security headers', () => {
  // dist/client may be empty in tests, so the status of asset paths is whatever Assets answers.
  it.each(['/', '/login', '/reset-password?token=abc', '/assets/app.js'])('are set on %s (served by Assets)', async (path) => {
    const res = await call(path)
    expect(res.status).toBeLessThan(500)
    expectSecurityHeaders(res)
  })

  it('are set on API errors', async () => {
    const notFound = await call('/api/no-such-thing')
    expect(notFound.status).toBe(404)
    expectSecurityHeaders(notFound)

    const unauthorized = await call('/api/auth/me')
    expect(unauthorized.status).toBe(401)
    expectSecurityHeaders(unauthorized)
    expect(unauthorized.headers.get('cache-control')).toBe('no-store')

    const malformed = await call('/api/auth/login', { rawBody: '{nope' })
    expect(malformed.status).toBe(400)
    expectSecurityHeaders(malformed)
  })

  it("allow Stripe's origins only when billing is on", async () => {
    const plain = (await call('/')).headers.get('content-security-policy') ?? ''
    expect(plain).not.toContain('stripe')
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('http://localhost/'), { ...env, STRIPE_PUBLISHABLE_KEY: 'pk_test_123' }, ctx)
    await waitOnExecutionContext(ctx)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self' https://js.stripe.com")
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com')
    expect(csp).toContain("frame-ancestors 'none'")
  })
})
