import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { app } from '../../worker/app'
import { call, env } from './helpers'
import { ownerWithBeneficiary, uploadItem } from './vault-helpers'

// Where a request's time goes: a Server-Timing header, locally only (worker/middleware/server-timing.ts).

const metrics = (res: Response) =>
  Object.fromEntries((res.headers.get('server-timing') ?? '').split(', ').filter(Boolean).map((m) => {
    const [name, dur] = m.split(';dur=')
    return [name, Number(dur)]
  }))

describe('Server-Timing', () => {
  it('locally names the session check and the route\'s call (both hops to the owner\'s object) and the whole; a bare route only the whole', async () => {
    const { token, beneficiary } = await ownerWithBeneficiary()
    await uploadItem(token, [beneficiary.id])
    const items = await call('/api/vault/items', { token })
    expect(items.status).toBe(200)
    // The session check is a call to the owner's object, no D1 query (one-hop.test.ts): it counts apart from the route's call.
    expect(Object.keys(metrics(items)).sort()).toEqual(['owner', 'session', 'total'])
    for (const ms of Object.values(metrics(items))) expect(ms).toBeGreaterThanOrEqual(0)
    expect(Object.keys(metrics(await call('/api/health')))).toEqual(['total'])
    // The hop is counted through the object's answer: the list is the owner's, whole.
    expect(((await items.json()) as unknown[]).length).toBe(1)
  })

  it('is never sent by a deployed worker', async () => {
    const { token } = await ownerWithBeneficiary()
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request('http://localhost/api/vault/items', { headers: { authorization: `Bearer ${token}` } }), { ...env, ENVIRONMENT: 'production' }, ctx)
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(200)
    expect(res.headers.get('server-timing')).toBeNull()
  })
})
