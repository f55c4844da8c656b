import { describe, expect, it } from 'vitest'
import { call } from './helpers'

describe('HTTP surface', () => {
  it('answers unknown /api routes with 404 JSON', async () => {
    const res = await call('/api/no-such-thing')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(await res.json()).toEqual({ message: 'There is no such API route.' })
  })

  it('sets the security headers on API responses', async () => {
    const res = await call('/api/health')
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline\'; script')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('strict-transport-security')).toContain('max-age=')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
  })
})
