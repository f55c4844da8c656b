import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { AuthResponse } from '../../contract/auth'
import { AUTH_ERRORS, VALIDATION } from '../../contract/messages'
import { app } from '../../worker/app'
import {
  call,
  callSettled,
  env,
  freshIp,
  login,
  me,
  messageOf,
  outbox,
  outboxFor,
  register,
  requestResetToken,
  resetTokenFrom,
  uniqueEmail,
  waitFor,
  ownerSessions,
} from './helpers'

const NEW_PASSWORD = 'a brand new passphrase'
const FORGOT_ANSWER = { message: 'If an account exists for that address, a reset link is on its way.' }

/** Asks for a reset link; resolves once what the request does after its answer has finished. */
function forgot(email: string) {
  return callSettled('/api/auth/forgot-password', { body: { email } })
}

/**
 * D1 as `env.DB`, except that every statement waits until `open()` is called: whatever a request
 * answers before that, it answered without reading or writing the database.
 */
function heldDatabase(db: D1Database) {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  let touched = 0
  const real = new WeakMap<object, D1PreparedStatement>()
  const held = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') return (...values: unknown[]) => held(target.bind(...values))
        if (name === 'first' || name === 'all' || name === 'run' || name === 'raw') {
          return async (...args: unknown[]) => {
            touched++
            await opened
            return (target[name] as (...a: unknown[]) => unknown).apply(target, args)
          }
        }
        const value = Reflect.get(target, name, target) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    real.set(wrapped, statement)
    return wrapped
  }
  const database = new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (query: string) => held(target.prepare(query))
      if (name === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          touched++
          await opened
          return target.batch(statements.map((s) => real.get(s) ?? s))
        }
      }
      const value = Reflect.get(target, name, target) as unknown
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { database, open: () => open(), touched: () => touched }
}

function reset(token: string, password = NEW_PASSWORD) {
  return call('/api/auth/reset-password', { body: { token, password } })
}

describe('POST /api/auth/forgot-password', () => {
  it('answers the same for an existing and an unknown address, and mails only the existing one', async () => {
    const account = await register({ displayName: 'Reset Owner' })
    const stranger = uniqueEmail('stranger')

    const known = await forgot(account.email)
    const unknown = await forgot(stranger)
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    const knownBody = await known.text()
    expect(await unknown.text()).toBe(knownBody)
    expect(JSON.parse(knownBody)).toEqual(FORGOT_ANSWER)

    expect(await outboxFor(stranger)).toEqual([])
    const messages = await outboxFor(account.email)
    expect(messages).toHaveLength(1)
    const [message] = messages as [(typeof messages)[number]]
    expect(Object.keys(message).sort()).toEqual(['createdAt', 'html', 'subject', 'text', 'to'])
    expect(message.to).toBe(account.email)
    expect(message.subject).toBe('Reset your Legacy Vault password')
    expect(Math.abs(Date.parse(message.createdAt) - Date.now())).toBeLessThan(60_000)
    expect(message.text).toContain('Hello Reset Owner,')

    const link = /http:\/\/localhost:8787\/reset-password\?token=[A-Za-z0-9_-]{43}/
    const textLink = link.exec(message.text)?.[0]
    const htmlLink = link.exec(message.html)?.[0]
    expect(textLink).toBeDefined()
    expect(htmlLink).toBe(textLink)
    expect(message.html).toContain(`href="${textLink}"`)
  })

  it('answers before the address is looked up, the same for an existing and an unknown one; the e-mail goes after', async () => {
    const account = await register()
    const stranger = uniqueEmail('stranger')
    for (const email of [account.email, stranger]) {
      const { database, open, touched } = heldDatabase(env.DB)
      const ctx = createExecutionContext()
      const answered = app.fetch(
        new Request('http://localhost/api/auth/forgot-password', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
          body: JSON.stringify({ email }),
        }),
        { ...env, DB: database },
        ctx,
      )
      // The answer comes while the database is still held: nothing it says waited for the lookup.
      const first = await Promise.race([answered, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 1000))])
      const mailedMeanwhile = await outboxFor(email)
      open()
      expect(first).not.toBe('still waiting')
      const res = first as Response
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual(FORGOT_ANSWER)
      expect(mailedMeanwhile).toEqual([])
      await waitOnExecutionContext(ctx)
      expect(touched()).toBeGreaterThan(0)
    }
    expect(await outboxFor(account.email)).toHaveLength(1)
    expect(await outboxFor(stranger)).toEqual([])
  })

  it('lists the outbox newest first', async () => {
    const account = await register()
    await forgot(account.email)
    await forgot(account.email)
    const all = await outbox()
    const times = all.map((m) => Date.parse(m.createdAt))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    // The newest reset mail carries the newest (and only working) link.
    const [newest, older] = (await outboxFor(account.email)) as [(typeof all)[number], (typeof all)[number]]
    expect(resetTokenFrom(newest)).not.toBe(resetTokenFrom(older))
    expect((await reset(resetTokenFrom(newest))).status).toBe(200)
  })

  it('finds the account whatever the case of the address', async () => {
    const account = await register()
    expect((await forgot(` ${account.email.toUpperCase()} `)).status).toBe(200)
    const messages = await outboxFor(account.email)
    expect(messages).toHaveLength(1)
    expect(messages[0]!.to).toBe(account.email)
  })

  it('delivers the message through the e-mail binding (outbox row marked sent)', async () => {
    const account = await register()
    await forgot(account.email)
    const row = await waitFor(async () => {
      const r = await env.DB.prepare("SELECT status, attempts, sent_at FROM email_outbox WHERE to_address = ? AND kind = 'password_reset'")
        .bind(account.email)
        .first<{ status: string; attempts: number; sent_at: number | null }>()
      return r?.status === 'sent' ? r : undefined
    })
    expect(row.attempts).toBe(1)
    expect(row.sent_at).toBeTypeOf('number')
  })

  it('stores only a hash of the token', async () => {
    const account = await register()
    const token = await requestResetToken(account.email)
    const rows = await env.DB.prepare('SELECT token_hash FROM password_resets WHERE user_id = ?')
      .bind(account.user.id)
      .all<{ token_hash: string }>()
    expect(rows.results).toHaveLength(1)
    expect(rows.results[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(rows.results[0]!.token_hash).not.toContain(token)
  })

  it('sends nothing for a paused account, with the same answer', async () => {
    const account = await register()
    await env.DB.prepare('UPDATE users SET paused_at = ? WHERE id = ?').bind(Date.now(), account.user.id).run()
    const res = await forgot(account.email)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(FORGOT_ANSWER)
    expect(await outboxFor(account.email)).toEqual([])
  })

  it('answers 400 to an invalid e-mail', async () => {
    const res = await forgot('not-an-email')
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(`email: ${VALIDATION.invalidEmail}`)
  })

  it('answers 400 to a missing e-mail', async () => {
    const res = await call('/api/auth/forgot-password', { body: {} })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(`email: ${VALIDATION.invalidEmail}`)
  })
})

describe('POST /api/auth/reset-password', () => {
  it('sets the new password: the old one fails, the new one works', async () => {
    const account = await register()
    const token = await requestResetToken(account.email)

    const res = await reset(token)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Your password has been reset. Sign in with your new password.' })

    const old = await login(account.email, account.password)
    expect(old.status).toBe(401)
    expect(await messageOf(old)).toBe(AUTH_ERRORS.invalidCredentials)
    const fresh = await login(account.email, NEW_PASSWORD)
    expect(fresh.status).toBe(200)
    expect(((await fresh.json()) as AuthResponse).user.id).toBe(account.user.id)
  })

  it('revokes every session that existed before the reset', async () => {
    const account = await register()
    const second = (await (await login(account.email, account.password)).json()) as AuthResponse
    expect((await me(account.token)).status).toBe(200)
    expect((await me(second.token)).status).toBe(200)

    expect((await reset(await requestResetToken(account.email))).status).toBe(200)

    expect((await me(account.token)).status).toBe(401)
    expect((await me(second.token)).status).toBe(401)
    const { n } = (await ownerSessions(account.user.id, 'SELECT count(*) AS n FROM sessions')
      .first<{ n: number }>())!
    expect(n).toBe(0)
  })

  it("does not touch another user's password or sessions", async () => {
    const account = await register()
    const bystander = await register()
    expect((await reset(await requestResetToken(account.email))).status).toBe(200)
    expect((await me(bystander.token)).status).toBe(200)
    expect((await login(bystander.email, bystander.password)).status).toBe(200)
  })

  it('sends a "password changed" notice after a reset', async () => {
    const account = await register({ displayName: 'Notice Owner' })
    expect((await reset(await requestResetToken(account.email))).status).toBe(200)
    const [newest] = await outboxFor(account.email)
    expect(newest?.subject).toBe('Your Legacy Vault password was changed')
    expect(newest?.text).toContain('Hello Notice Owner,')
    expect(newest?.text).toContain('http://localhost:8787/login')
    expect(newest?.html).toContain('href="http://localhost:8787/login"')
    const kinds = await env.DB.prepare('SELECT kind FROM email_outbox WHERE to_address = ? ORDER BY created_at, rowid')
      .bind(account.email)
      .all<{ kind: string }>()
    expect(kinds.results.map((r) => r.kind)).toEqual(['password_reset', 'password_changed'])
  })

  it('accepts a token only once', async () => {
    const account = await register()
    const token = await requestResetToken(account.email)
    expect((await reset(token)).status).toBe(200)

    const again = await reset(token, 'yet another passphrase')
    expect(again.status).toBe(400)
    expect(await again.json()).toEqual({ message: AUTH_ERRORS.resetLinkInvalid })
    // The second attempt changed nothing.
    expect((await login(account.email, NEW_PASSWORD)).status).toBe(200)
    expect((await login(account.email, 'yet another passphrase')).status).toBe(401)
  })

  it('rejects an expired token and keeps the old password', async () => {
    const account = await register()
    const token = await requestResetToken(account.email)
    await env.DB.prepare('UPDATE password_resets SET expires_at = ? WHERE user_id = ?')
      .bind(Date.now() - 1000, account.user.id)
      .run()

    const res = await reset(token)
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.resetLinkInvalid)
    expect((await login(account.email, account.password)).status).toBe(200)
    expect((await me(account.token)).status).toBe(200)
  })

  it('issues links valid for one hour', async () => {
    const account = await register()
    const before = Date.now()
    await requestResetToken(account.email)
    const row = await env.DB.prepare('SELECT created_at, expires_at FROM password_resets WHERE user_id = ?')
      .bind(account.user.id)
      .first<{ created_at: number; expires_at: number }>()
    expect(row!.expires_at - row!.created_at).toBe(60 * 60 * 1000)
    expect(row!.created_at).toBeGreaterThanOrEqual(before - 1000)
  })

  it('makes an earlier link stop working when a new one is requested', async () => {
    const account = await register()
    const first = await requestResetToken(account.email)
    const second = await requestResetToken(account.email)
    expect(second).not.toBe(first)

    const stale = await reset(first)
    expect(stale.status).toBe(400)
    expect(await messageOf(stale)).toBe(AUTH_ERRORS.resetLinkInvalid)
    expect((await reset(second)).status).toBe(200)
  })

  it("another account's new reset link leaves this account's link working", async () => {
    const account = await register()
    const mine = await requestResetToken(account.email)
    const other = await register()
    await requestResetToken(other.email)
    expect((await reset(mine)).status).toBe(200)
  })

  it('lets exactly one of several concurrent resets with one token win', async () => {
    const account = await register()
    const token = await requestResetToken(account.email)
    const passwords = ['first racer passphrase', 'second racer passphrase', 'third racer passphrase', 'fourth racer passphrase']
    const results = await Promise.all(passwords.map((password) => reset(token, password)))
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400])
    for (const loser of results.filter((r) => r.status === 400)) {
      expect(await messageOf(loser)).toBe(AUTH_ERRORS.resetLinkInvalid)
    }

    // The password that works is the winner's, and only that one.
    const winner = passwords[results.findIndex((r) => r.status === 200)]!
    for (const password of passwords) {
      expect((await login(account.email, password)).status).toBe(password === winner ? 200 : 401)
    }
    const notices = (await outboxFor(account.email)).filter((m) => m.subject.includes('was changed'))
    expect(notices).toHaveLength(1)
  })

  it('answers 400 to an unknown but well-formed token', async () => {
    const res = await reset('A'.repeat(43))
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.resetLinkInvalid)
  })

  it('validates before spending the token', async () => {
    const account = await register()
    const token = await requestResetToken(account.email)

    const short = await reset(token, 'short')
    expect(short.status).toBe(400)
    expect(await messageOf(short)).toBe(`password: ${VALIDATION.registerPasswordMin}`)

    const badToken = await reset('too-short')
    expect(badToken.status).toBe(400)
    expect(await messageOf(badToken)).toBe('token: The reset token is missing or malformed.')

    expect((await reset(token)).status).toBe(200)
  })
})
