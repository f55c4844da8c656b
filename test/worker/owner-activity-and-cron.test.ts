import { ownerVault } from '../../worker/owner/client'
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import type { OutboxMessage } from '../../contract/auth'
import { GENERIC_ERRORS } from '../../contract/messages'
import { app } from '../../worker/app'
import { runSweeps } from '../../worker/cron'
import { getDb } from '../../worker/db/client'
import worker from '../../worker/index'
import { deliverDue, deliverOne, enqueueEmail, OUTBOX_RETENTION_MS } from '../../worker/mail/outbox'
import type { MailSender } from '../../worker/mail/sender'
import type { OwnerVaultState } from '../../worker/owner/host'
import { loadAccount } from '../../worker/owner/account'
import { call, env, login, register, waitFor } from './helpers'
import { vaultOf } from './owner-helpers'

const DAY_MS = 24 * 60 * 60 * 1000

const guard = vaultOf

async function waitForActivity(userId: string, kind: OwnerVaultState['lastActivity']): Promise<OwnerVaultState> {
  return waitFor(async () => {
    const state = await guard(userId).state()
    return state.lastActivity === kind ? state : undefined
  })
}

async function outboxRow(id: string) {
  return env.DB.prepare('SELECT status, attempts, sent_at, last_error, next_attempt_at FROM email_outbox WHERE id = ?')
    .bind(id)
    .first<{ status: string; attempts: number; sent_at: number | null; last_error: string | null; next_attempt_at: number }>()
}

function testEmail(to = `cron-${crypto.randomUUID().slice(0, 8)}@example.com`) {
  return { to, kind: 'test', subject: 'Sweep test', text: 'Hello', html: '<p>Hello</p>' }
}

/** Whether the owner's object still holds the session (expired or not): ends it, so ask once, last. */
async function sessionExists(userId: string, id: number): Promise<boolean> {
  return ownerVault(env, userId).revokeSession(id)
}

/** A session row for the user that expires `expiresInMs` from now (negative: already expired). */
async function sessionRow(userId: string, expiresInMs: number): Promise<number> {
  const id = Math.floor(Math.random() * 2 ** 48)
  const now = Date.now()
  const account = (await loadAccount(env, userId))!
  await ownerVault(env, userId).openSession(account, { id, createdAt: now - DAY_MS, expiresAt: now + expiresInMs, userAgent: null, place: null, browserId: null, browserTrusted: false })
  return id
}

describe("the owner's object: activity", () => {
  it('starts with no activity', async () => {
    expect(await guard(crypto.randomUUID()).state()).toEqual({ lastActivityAt: null, lastActivity: null })
  })

  it('records registration, then sign-in, with a recent time', async () => {
    const before = Date.now()
    const account = await register()
    const registered = await waitForActivity(account.user.id, 'registered')
    expect(registered.lastActivityAt).toBeGreaterThanOrEqual(before - 1000)

    const res = await login(account.email, account.password)
    expect(res.status).toBe(200)
    const signedIn = await waitForActivity(account.user.id, 'signed_in')
    expect(signedIn.lastActivityAt).toBeGreaterThanOrEqual(registered.lastActivityAt!)
    expect(signedIn.lastActivityAt).toBeLessThanOrEqual(Date.now() + 1000)
    expect(Date.now() - signedIn.lastActivityAt!).toBeLessThan(60_000)
  })

  it('is one object per owner: another owner is unaffected', async () => {
    const account = await register()
    await waitForActivity(account.user.id, 'registered')
    expect(await guard(crypto.randomUUID()).state()).toEqual({ lastActivityAt: null, lastActivity: null })
  })

  it('does not record a failed login', async () => {
    const account = await register()
    const registered = await waitForActivity(account.user.id, 'registered')
    expect((await login(account.email, 'wrong password')).status).toBe(401)
    // Give a (wrongly) scheduled report time to land.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await guard(account.user.id).state()).toEqual(registered)
  })

  it('only moves the clock forward: an older report does not rewind it', async () => {
    const stub = guard(crypto.randomUUID())
    const now = Date.now()
    expect(await stub.recordActivity('signed_in', now)).toEqual({ lastActivityAt: now, lastActivity: 'signed_in' })

    const afterOld = await stub.recordActivity('registered', now - 60_000)
    expect(afterOld).toEqual({ lastActivityAt: now, lastActivity: 'signed_in' })
    expect(await stub.state()).toEqual({ lastActivityAt: now, lastActivity: 'signed_in' })

    const afterNew = await stub.recordActivity('checked_in', now + 1000)
    expect(afterNew).toEqual({ lastActivityAt: now + 1000, lastActivity: 'checked_in' })
  })

  it('keeps its state across stubs (it is stored, not held in memory of one stub)', async () => {
    const id = crypto.randomUUID()
    await guard(id).recordActivity('checked_in', 1234)
    expect(await guard(id).state()).toEqual({ lastActivityAt: 1234, lastActivity: 'checked_in' })
  })
})

describe('cron sweeps', () => {
  it('delivers a pending outbox message', async () => {
    const { id } = await enqueueEmail(getDb(env), testEmail())
    expect((await outboxRow(id))?.status).toBe('pending')

    const result = await runSweeps(env)
    expect(result.emailsSent).toBeGreaterThanOrEqual(1)
    const row = await outboxRow(id)
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null })
    expect(row?.sent_at).toBeTypeOf('number')

    // Idempotent: a second sweep does not send it again.
    await runSweeps(env)
    expect((await outboxRow(id))?.attempts).toBe(1)
  })

  it('runs from the scheduled handler', async () => {
    const { id } = await enqueueEmail(getDb(env), testEmail())
    const ctx = createExecutionContext()
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/5 * * * *' }), env, ctx)
    await waitOnExecutionContext(ctx)
    expect((await outboxRow(id))?.status).toBe('sent')
  })

  it('runs from the scheduled event of the deployed entrypoint', async () => {
    const { id } = await enqueueEmail(getDb(env), testEmail())
    // The loopback binding of the default export also takes scheduled events (not in its type).
    const loopback = (await import('cloudflare:workers')).exports.default as unknown as {
      scheduled(options: { scheduledTime?: number; cron?: string }): Promise<unknown>
    }
    await loopback.scheduled({ scheduledTime: Date.now(), cron: '*/5 * * * *' })
    const row = await waitFor(async () => {
      const r = await outboxRow(id)
      return r?.status === 'sent' ? r : undefined
    })
    expect(row.attempts).toBe(1)
  })

  it('leaves a message alone until its next attempt is due', async () => {
    const { id } = await enqueueEmail(getDb(env), testEmail())
    await env.DB.prepare('UPDATE email_outbox SET next_attempt_at = ? WHERE id = ?').bind(Date.now() + 60_000, id).run()
    await runSweeps(env)
    expect((await outboxRow(id))?.status).toBe('pending')
    await runSweeps(env, Date.now() + 120_000)
    expect((await outboxRow(id))?.status).toBe('sent')
  })

  it('takes the longest-waiting message first when more are due than one run takes', async () => {
    const db = getDb(env)
    const sent: string[] = []
    const recording: MailSender = { keepDelivered: true, send: async (m) => void sent.push(m.to) }
    const older = testEmail()
    const newer = testEmail()
    const a = await enqueueEmail(db, newer)
    const b = await enqueueEmail(db, older)
    await env.DB.prepare('UPDATE email_outbox SET next_attempt_at = ? WHERE id = ?').bind(Date.now() - 1000, a.id).run()
    await env.DB.prepare('UPDATE email_outbox SET next_attempt_at = ? WHERE id = ?').bind(1, b.id).run()
    expect(await deliverDue(db, recording, Date.now(), 1)).toBe(1)
    expect(sent).toEqual([older.to])
  })

  it('retries a failed delivery with backoff, then gives up after 8 attempts', async () => {
    const db = getDb(env)
    const failing: MailSender = {
      keepDelivered: true,
      send: async () => {
        throw new Error('mail server down')
      },
    }
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { id } = await enqueueEmail(db, testEmail())
    const now = Date.now()
    expect(await deliverOne(db, failing, id, now)).toBe(false)
    // The operator sees each failure in the logs.
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('attempt 1 failed: mail server down'))
    let row = await outboxRow(id)
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'mail server down', sent_at: null })
    expect(row!.next_attempt_at).toBe(now + 60_000)

    // Not due yet: a delivery before the back-off has passed does not even try.
    expect(await deliverOne(db, failing, id, now + 59_999)).toBe(false)
    expect((await outboxRow(id))!.attempts).toBe(1)

    let at = now + 60_000
    expect(await deliverOne(db, failing, id, at)).toBe(false)
    expect((await outboxRow(id))!.next_attempt_at).toBe(at + 120_000)

    for (let i = 3; i <= 8; i++) {
      at = (await outboxRow(id))!.next_attempt_at
      await deliverOne(db, failing, id, at)
    }
    row = await outboxRow(id)
    expect(row).toMatchObject({ status: 'failed', attempts: 8 })
    // A failed message is no longer retried.
    expect(await deliverDue(db, failing, now + 365 * DAY_MS)).toBe(0)
    expect(await deliverOne(db, failing, id, now + 365 * DAY_MS)).toBe(false)
    expect((await outboxRow(id))!.attempts).toBe(8)
    logged.mockRestore()
  })

  // A sweep that runs while a request's own waitUntil delivery is in flight must not send the same
  // message again: deliverOne claims the row before sending.
  it('sends a message once when the request delivery and a sweep overlap', async () => {
    const db = getDb(env)
    const sent: string[] = []
    const slowSender: MailSender = {
      keepDelivered: true,
      send: async (message) => {
        sent.push(message.to)
        await new Promise((resolve) => setTimeout(resolve, 20))
      },
    }
    const email = testEmail()
    const { id } = await enqueueEmail(db, email)
    await Promise.all([deliverOne(db, slowSender, id), deliverDue(db, slowSender)])
    expect((await outboxRow(id))?.status).toBe('sent')
    expect(sent.filter((to) => to === email.to)).toHaveLength(1)
  })

  it("drops a delivered message's text (its signed links) unless the local mailbox shows it", async () => {
    const db = getDb(env)
    const sender = (keepDelivered: boolean): MailSender => ({ keepDelivered, send: async () => undefined })
    const deployed = await enqueueEmail(db, testEmail())
    const local = await enqueueEmail(db, testEmail())
    expect(await deliverOne(db, sender(false), deployed.id)).toBe(true)
    expect(await deliverOne(db, sender(true), local.id)).toBe(true)
    const text = (id: string) => env.DB.prepare('SELECT status, text, html FROM email_outbox WHERE id = ?').bind(id).first()
    expect(await text(deployed.id)).toEqual({ status: 'sent', text: '', html: '' })
    expect(await text(local.id)).toEqual({ status: 'sent', text: 'Hello', html: '<p>Hello</p>' })
  })

  it('prunes delivered messages after an hour and failed ones after a week, never pending ones', async () => {
    const HOUR_MS = 60 * 60_000
    expect(OUTBOX_RETENTION_MS).toEqual({ sent: HOUR_MS, failed: 7 * DAY_MS })
    const db = getDb(env)
    const now = Date.now()
    const sent = await enqueueEmail(db, testEmail(), now - HOUR_MS - 1000)
    const failed = await enqueueEmail(db, testEmail(), now - 7 * DAY_MS - 1000)
    const failedRecently = await enqueueEmail(db, testEmail(), now - 6 * DAY_MS)
    const pending = await enqueueEmail(db, testEmail(), now - 30 * DAY_MS)
    const recent = await enqueueEmail(db, testEmail(), now - HOUR_MS + 60_000)
    await env.DB.prepare("UPDATE email_outbox SET status = 'sent' WHERE id in (?, ?)").bind(sent.id, recent.id).run()
    await env.DB.prepare("UPDATE email_outbox SET status = 'failed' WHERE id in (?, ?)").bind(failed.id, failedRecently.id).run()
    await env.DB.prepare('UPDATE email_outbox SET next_attempt_at = ? WHERE id = ?').bind(now + DAY_MS, pending.id).run()
    const result = await runSweeps(env, now)
    expect(result.emailsPruned).toBeGreaterThanOrEqual(2)
    expect(await outboxRow(sent.id)).toBeNull()
    expect(await outboxRow(failed.id)).toBeNull()
    expect((await outboxRow(pending.id))?.status).toBe('pending')
    expect((await outboxRow(recent.id))?.status).toBe('sent')
    expect((await outboxRow(failedRecently.id))?.status).toBe('failed')
  })

  it("deletes an owner's expired sessions when they sign in again, and keeps their live ones", async () => {
    const account = await register()
    const live = await sessionRow(account.user.id, DAY_MS)
    const expired = await sessionRow(account.user.id, -1000)
    expect((await login(account.email, account.password)).status).toBe(200)
    expect(await sessionExists(account.user.id, expired)).toBe(false)
    expect(await sessionExists(account.user.id, live)).toBe(true)
  })

  it('deletes used and long-expired reset tokens, and keeps live ones', async () => {
    const { user } = await register()
    const insert = env.DB.prepare(
      'INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    const now = Date.now()
    const live = crypto.randomUUID()
    const used = crypto.randomUUID()
    const longExpired = crypto.randomUUID()
    await env.DB.batch([
      insert.bind(live, user.id, crypto.randomUUID(), now, now + 3_600_000, null),
      insert.bind(used, user.id, crypto.randomUUID(), now, now + 3_600_000, now),
      insert.bind(longExpired, user.id, crypto.randomUUID(), now - 3 * DAY_MS, now - 2 * DAY_MS, null),
    ])
    const result = await runSweeps(env)
    expect(result.oldResets).toBeGreaterThanOrEqual(2)
    const left = await env.DB.prepare('SELECT id FROM password_resets WHERE user_id = ?').bind(user.id).all<{ id: string }>()
    expect(left.results.map((r) => r.id)).toEqual([live])
  })

  it('deletes expired security-key challenges, and keeps outstanding ones', async () => {
    const { token, user } = await register()
    expect((await call('/api/auth/webauthn/register/options', { token, body: {} })).status).toBe(200)
    expect((await call('/api/auth/webauthn/register/options', { token, body: {} })).status).toBe(200)
    const challenges = () => env.DB.prepare('SELECT challenge FROM webauthn_challenges WHERE user_id = ?').bind(user.id).all<{ challenge: string }>()
    const [stale, live] = (await challenges()).results.map((r) => r.challenge)
    await env.DB.prepare('UPDATE webauthn_challenges SET expires_at = ? WHERE challenge = ?').bind(Date.now() - 1, stale).run()
    const result = await runSweeps(env)
    expect(result.expiredChallenges).toBeGreaterThanOrEqual(1)
    expect((await challenges()).results.map((r) => r.challenge)).toEqual([live])
  })
})

describe('/api/dev routes', () => {
  it('serve the outbox in development', async () => {
    const res = await call('/api/dev/outbox')
    expect(res.status).toBe(200)
    expect(Array.isArray((await res.json()) as OutboxMessage[])).toBe(true)
  })

  it('run the sweeps on request in development, with what they did and how long they took', async () => {
    const res = await call('/api/dev/sweep', { method: 'POST' })
    expect(res.status).toBe(200)
    const result = (await res.json()) as Record<string, number>
    expect(result).toMatchObject({ ownersWoken: expect.any(Number), directoryRowsRead: expect.any(Number), oldResets: expect.any(Number) })
    expect(result.ms).toBeGreaterThan(0)
  })

  it('do not exist outside development', async () => {
    for (const environment of ['production', 'staging', '']) {
      for (const [path, method] of [['/api/dev/outbox', 'GET'], ['/api/dev/sweep', 'POST']] as const) {
        const ctx = createExecutionContext()
        const res = await app.request(path, { method }, { ...env, ENVIRONMENT: environment }, ctx)
        await waitOnExecutionContext(ctx)
        expect(res.status).toBe(404)
        expect(res.headers.get('content-type')).toContain('application/json')
        expect(await res.json()).toEqual({ message: GENERIC_ERRORS.apiRouteNotFound })
      }
    }
  })

  it('answers the same through the app in development (control for the test above)', async () => {
    const ctx = createExecutionContext()
    const res = await app.request('/api/dev/outbox', {}, { ...env, ENVIRONMENT: 'development' }, ctx)
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(200)
  })
})
