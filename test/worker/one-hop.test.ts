import { mirrorAccount } from '../../worker/owner/account'
import { describe, expect, it } from 'vitest'
import { AUTH_ERRORS } from '../../contract/messages'
import { WEBAUTHN_PATHS } from '../../contract/webauthn'
import { getDb } from '../../worker/db/client'
import { users } from '../../worker/db/schema'
import { deleteAccount } from '../../worker/services/account-deletion'
import { eq } from 'drizzle-orm'
import { call, callSettled, env, login, messageOf, register } from './helpers'

/** The worker's env with its D1 binding counting every statement the request sends. */
function countingD1(): { env: Env; statements: string[] } {
  const statements: string[] = []
  const db = new Proxy(env.DB, {
    get(target, name) {
      const member = Reflect.get(target, name) as unknown
      if (typeof member !== 'function') return member
      return (...args: unknown[]) => {
        statements.push(`${String(name)}${name === 'prepare' ? `: ${String(args[0])}` : ''}`)
        return (member as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { env: { ...env, DB: db }, statements }
}

describe("one hop: an owner's request is judged in the owner's object", () => {
  it('lists the items and takes a check-in with no D1 statement on the way', async () => {
    const owner = await register()
    // The first request after sign-in: the session's "last seen" is fresh, nothing to write.
    for (const [path, method] of [
      ['/api/vault/items', 'GET'],
      ['/api/inactivity/ping', 'POST'],
    ] as const) {
      const counted = countingD1()
      const res = await callSettled(path, { method, token: owner.token }, counted.env)
      expect(res.status, path).toBe(200)
      expect(counted.statements, path).toEqual([])
    }
  })

  it('refuses a session signed out from another device at its very next request', async () => {
    const owner = await register()
    const other = await login(owner.email, owner.password)
    const otherToken = ((await other.json()) as { token: string }).token
    expect((await call('/api/vault/items', { token: otherToken })).status).toBe(200)
    expect((await call('/api/auth/sessions/sign-out-others', { method: 'POST', token: owner.token })).status).toBe(200)
    const refused = await call('/api/vault/items', { token: otherToken })
    expect(refused.status).toBe(401)
    expect(await messageOf(refused)).toBe(AUTH_ERRORS.sessionExpired)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)
  })

  it("refuses a deleted account's token: its object forgets the account and its sessions", async () => {
    const owner = await register()
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)
    const row = await getDb(env).query.users.findFirst({ where: eq(users.id, owner.user.id) })
    await deleteAccount(env, getDb(env), row!)
    const refused = await call('/api/vault/items', { token: owner.token })
    expect(refused.status).toBe(401)
    expect(await messageOf(refused)).toBe(AUTH_ERRORS.sessionExpired)
  })

  it('sees a plan that ended at the very next request (the sweep writes D1 and the mirror)', async () => {
    const owner = await register()
    expect((await call('/api/account/cancel-subscription', { method: 'POST', token: owner.token })).status).toBe(200)
    await env.DB.prepare('update users set subscription_period_end = ? where id = ?').bind(Date.now() - 1000, owner.user.id).run()
    await mirrorAccount(owner.user.id)
    const { runSweeps } = await import('../../worker/cron')
    await runSweeps(env)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(402)
  })

  // The browser tests' ways into the owner's object, where SQL on D1 no longer reaches.
  it("the dev route age-proof makes the owner's next sensitive act ask who they are", async () => {
    const owner = await register()
    expect((await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token })).status).toBe(200)
    const aged = await call('/api/dev/age-proof', { body: { email: owner.email } })
    expect(await aged.json()).toEqual({ sessions: 1 })
    expect((await call(WEBAUTHN_PATHS.registerOptions, { method: 'POST', token: owner.token })).status).toBe(403)
  })

  it('the dev route mirror-account gives an open session the row SQL on D1 changed', async () => {
    const owner = await register()
    await env.DB.prepare("update users set subscription_status = 'canceled' where id = ?").bind(owner.user.id).run()
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(200)
    expect((await call('/api/dev/mirror-account', { body: { email: owner.email } })).status).toBe(200)
    expect((await call('/api/vault/items', { token: owner.token })).status).toBe(402)
  })
})
