import { describe, expect, it } from 'vitest'
import { emailDate } from '../../worker/mail/dates'
import { UNLOCK_AUDIT_ACTIONS } from '../../contract/audit'
import { HOUR_MS } from '../../contract/constants'
import { SAFETY_WINDOW } from '../../contract/settings'
import { UNLOCK_FORGIVE_MS, type Trigger, type UnlockFailureResult, type UnlockSuccessResult } from '../../contract/triggers'
import { assetRows, createTrigger, firingCount, guard, ownerWithItem } from './engine-helpers'
import { call, linkTokenIn, messageOf, outboxFor, register, waitFor } from './helpers'
import { ownerExec, ownerRow, ownerRows } from './owner-helpers'

// Failed unlock attempts (the 'biometric_failure' trigger): a wrong passphrase counts only once
// UNLOCK_FORGIVE_MS pass without a successful unlock, a success forgives the attempts just before
// it, every attempt and forgiving is in the audit chain, and the owner is warned once with one
// attempt left. Time moves by running the owner's engine at a later moment (guard(id).tick(at)).

const WARNING_SUBJECT = 'Someone tried to open your vault'

async function fail(token: string): Promise<UnlockFailureResult> {
  const res = await call('/api/trigger-engine/biometric-failure', { token, body: { kind: 'vault_unlock' } })
  expect(res.status).toBe(200)
  return (await res.json()) as UnlockFailureResult
}

async function succeed(token: string): Promise<UnlockSuccessResult> {
  const res = await call('/api/trigger-engine/unlock-success', { token, body: { kind: 'vault_unlock' } })
  expect(res.status).toBe(200)
  return (await res.json()) as UnlockSuccessResult
}

async function failureTimes(ownerId: string): Promise<number[]> {
  return (await ownerRows<{ at: number }>(ownerId, 'select at from unlock_failures order by at')).map((r) => r.at)
}

interface AuditRow {
  action: string
  actor: string
  details: Record<string, unknown>
}

async function unlockAudit(ownerId: string): Promise<AuditRow[]> {
  const actions = Object.values(UNLOCK_AUDIT_ACTIONS)
  const rows = await ownerRows<{ action: string; actor: string; details: string }>(ownerId, 'select action, actor, details from audit order by seq')
  return rows.filter((r) => (actions as string[]).includes(r.action)).map((r) => ({ action: r.action, actor: r.actor, details: JSON.parse(r.details) as Record<string, unknown> }))
}

async function warnings(address: string) {
  return (await outboxFor(address)).filter((m) => m.subject === WARNING_SUBJECT)
}

const failedUnlockTrigger = (token: string, failureThreshold: number, timeWindow = 1) =>
  createTrigger(token, { type: 'biometric_failure', config: { failureThreshold, timeWindow } })

describe('a wrong passphrase the owner follows with the right one', () => {
  it('five wrong passphrases and then a success within 15 minutes never fire; attempts left count down', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    await failedUnlockTrigger(s.token, 5)
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(await fail(s.token))
    expect(answers.map((a) => a.attemptsLeft)).toEqual([4, 3, 2, 1, 0])
    expect(answers.map((a) => a.fired)).toEqual([0, 0, 0, 0, 0])
    expect(answers.at(-1)!.failures).toBe(5)

    expect(await succeed(s.token)).toEqual({ forgiven: 5, attemptsLeft: 5 })
    expect(await failureTimes(s.ownerId)).toEqual([])
    // Past the 15 minutes, and a day on: nothing fired, nobody warned.
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 60_000)
    await guard(s.ownerId).tick(Date.now() + 20 * HOUR_MS)
    expect(await firingCount(s.ownerId)).toBe(0)
    expect(await warnings(s.owner.email)).toEqual([])

    // Each attempt, and the success that forgave them, is in the audit chain: kinds and counts only.
    const audit = await unlockAudit(s.ownerId)
    expect(audit).toEqual([
      ...[4, 3, 2, 1, 0].map((left) => ({ action: 'vault.unlock_failed', actor: 'system', details: { kind: 'vault_unlock', attemptsLeft: left } })),
      { action: 'vault.unlock_failures_forgiven', actor: 'user', details: { kind: 'vault_unlock', forgiven: 5 } },
    ])
  })

  it('a success forgives only the last 15 minutes: an older failure still counts', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const trigger = await failedUnlockTrigger(s.token, 2)
    // Armed an hour ago; one failure since, already past its 15 minutes; then a fresh one.
    const now = Date.now()
    await ownerExec(
      s.ownerId,
      ['update triggers set updated_at = ? where id = ?', now - HOUR_MS, trigger.id],
      ["insert into unlock_failures (id, kind, at) values ('old', 'vault_unlock', ?)", now - UNLOCK_FORGIVE_MS - 1000],
    )
    await fail(s.token)
    expect(await succeed(s.token)).toMatchObject({ forgiven: 1, attemptsLeft: 1 })
    expect(await ownerRows(s.ownerId, 'select id from unlock_failures')).toEqual([{ id: 'old' }])
    // A success with nothing left to forgive writes nothing.
    const entries = (await unlockAudit(s.ownerId)).length
    expect(await succeed(s.token)).toEqual({ forgiven: 0, attemptsLeft: 1 })
    expect(await unlockAudit(s.ownerId)).toHaveLength(entries)
  })

  it('a failed unlock waits 15 minutes for the owner\'s own successful unlock: one 14 minutes old is forgiven, one 16 minutes old counts', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const trigger = await failedUnlockTrigger(s.token, 3)
    const now = Date.now()
    const minute = 60_000
    await ownerExec(
      s.ownerId,
      ['update triggers set updated_at = ? where id = ?', now - HOUR_MS, trigger.id],
      ["insert into unlock_failures (id, kind, at) values ('fourteen', 'vault_unlock', ?)", now - 14 * minute],
      ["insert into unlock_failures (id, kind, at) values ('sixteen', 'vault_unlock', ?)", now - 16 * minute],
    )
    expect(await succeed(s.token)).toMatchObject({ forgiven: 1, attemptsLeft: 2 })
    expect(await ownerRows(s.ownerId, 'select id from unlock_failures')).toEqual([{ id: 'sixteen' }])
  })
})

describe('failed attempts nobody follows with a success', () => {
  it('count only after 15 minutes, fire then, and make nothing available before the safety window', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const trigger = await failedUnlockTrigger(s.token, 3)
    for (let i = 0; i < 3; i++) await fail(s.token)
    expect(await firingCount(s.ownerId)).toBe(0)
    const [first, , last] = await failureTimes(s.ownerId)
    // The engine asks to wake when the first one's 15 minutes end.
    expect((await guard(s.ownerId).clockView()).nextAlarmAt).toBe(first! + UNLOCK_FORGIVE_MS)

    await guard(s.ownerId).tick(first! + UNLOCK_FORGIVE_MS - 1)
    expect(await firingCount(s.ownerId)).toBe(0)
    // Then the next pending one's end, until the last one counts and the trigger fires.
    await guard(s.ownerId).tick(last! + UNLOCK_FORGIVE_MS - 1)
    expect(await firingCount(s.ownerId)).toBe(0)
    const firedAt = last! + UNLOCK_FORGIVE_MS
    await guard(s.ownerId).tick(firedAt)
    expect(await firingCount(s.ownerId)).toBe(1)
    expect(await ownerRow(s.ownerId, 'select trigger_id, trigger_type, fired_at from firings')).toEqual({ trigger_id: trigger.id, trigger_type: 'biometric_failure', fired_at: firedAt })
    const triggers = (await (await call('/api/triggers', { token: s.token })).json()) as Trigger[]
    expect(triggers.find((t) => t.id === trigger.id)!.status).toBe('triggered')
    // The owner is told at once, with the cancel link, under the trigger's readable name.
    const started = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.text.includes('/cancel-release')))
    expect(started.text).toContain('Your Failed unlock attempts trigger fired.')
    expect(linkTokenIn(started, '/cancel-release')).toBeTruthy()

    // Nothing is available before the safety window has passed; then the item goes.
    const windowMs = SAFETY_WINDOW.defaultHours * HOUR_MS
    await guard(s.ownerId).tick(firedAt + windowMs - 60_000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    await guard(s.ownerId).tick(firedAt + windowMs)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toHaveLength(1)
  })

  it('the owner is e-mailed once when one attempt is left, not before the attempts count', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const trigger = await failedUnlockTrigger(s.token, 3, 7)
    await fail(s.token)
    expect((await fail(s.token)).attemptsLeft).toBe(1)
    // Not yet: the owner may still unlock within the 15 minutes.
    expect(await warnings(s.owner.email)).toEqual([])
    const [, second] = await failureTimes(s.ownerId)
    await guard(s.ownerId).tick(second! + UNLOCK_FORGIVE_MS)
    const [warning] = await waitFor(async () => {
      const sent = await warnings(s.owner.email)
      return sent.length > 0 && sent
    })
    expect(warning!.text).toContain('Your vault recorded 2 wrong vault passphrases')
    expect(warning!.text).toContain('1 attempt left')
    expect(warning!.text).toContain(`the last at ${emailDate(second!, 'America/New_York')}`)
    expect(warning!.text).toContain('the trigger fires at 3 failed attempts within 7 days')
    expect(warning!.text).toContain('change your account password')
    expect(warning!.text).toContain('/triggers')
    // Later looks of the engine in the same episode send nothing more.
    await guard(s.ownerId).tick(second! + UNLOCK_FORGIVE_MS + 1000)
    await guard(s.ownerId).tick(second! + 2 * HOUR_MS)
    await fail(s.token)
    expect(await warnings(s.owner.email)).toHaveLength(1)
    const warned = (await unlockAudit(s.ownerId)).filter((e) => e.action === 'vault.unlock_warning_sent')
    expect(warned).toEqual([{ action: 'vault.unlock_warning_sent', actor: 'system', details: { triggerId: trigger.id, failures: 2, attemptsLeft: 1 } }])
    expect(await firingCount(s.ownerId)).toBe(0)
  })

  it('a re-armed trigger starts a new episode, with its own warning', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const trigger = await failedUnlockTrigger(s.token, 2)
    await fail(s.token)
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 1000)
    await waitFor(async () => (await warnings(s.owner.email)).length === 1)
    // Paused and activated again: the count starts afresh, and so does the warning.
    for (const status of ['paused', 'active']) expect((await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { status } })).status).toBe(200)
    expect((await fail(s.token)).attemptsLeft).toBe(1)
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 2000)
    await waitFor(async () => (await warnings(s.owner.email)).length === 2)
    expect(await firingCount(s.ownerId)).toBe(0)
  })
})

describe('the failed attempts an unlock report counts', () => {
  it('are those of the last year: one from 364 days ago counts, one from 366 days ago does not', async () => {
    const owner = await register()
    const now = Date.now()
    await ownerExec(
      owner.user.id,
      ["insert into unlock_failures (id, kind, at) values ('days364', 'vault_unlock', ?)", now - 364 * 86_400_000],
      ["insert into unlock_failures (id, kind, at) values ('days366', 'vault_unlock', ?)", now - 366 * 86_400_000],
    )
    expect((await fail(owner.token)).failures).toBe(2)
  })
})

describe("the trigger's own time window", () => {
  it('a failure older than the window (1 day) no longer counts: with one more now, a threshold of 2 is not reached', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const trigger = await failedUnlockTrigger(s.token, 2, 1)
    const now = Date.now()
    // Armed ten days ago; one failure 25 hours ago, another now.
    await ownerExec(
      s.ownerId,
      ['update triggers set updated_at = ? where id = ?', now - 10 * 24 * HOUR_MS, trigger.id],
      ["insert into unlock_failures (id, kind, at) values (?, 'vault_unlock', ?)", crypto.randomUUID(), now - 25 * HOUR_MS],
    )
    await fail(s.token)
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 1000)
    expect(await firingCount(s.ownerId)).toBe(0)
    // Control: the same failure 23 hours ago would have counted.
    await ownerExec(s.ownerId, ['update unlock_failures set at = ? where at = ?', now - 23 * HOUR_MS, now - 25 * HOUR_MS])
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 2000)
    expect(await firingCount(s.ownerId)).toBe(1)
  })
})

describe('one warning per trigger', () => {
  it('two active Failed unlock attempts triggers one short of their threshold each warn once: one warning never stands for the other', async () => {
    const s = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const a = await failedUnlockTrigger(s.token, 3)
    const b = await failedUnlockTrigger(s.token, 3)
    await fail(s.token)
    await fail(s.token)
    await guard(s.ownerId).tick(Date.now() + UNLOCK_FORGIVE_MS + 1000)
    const warned = (await unlockAudit(s.ownerId)).filter((e) => e.action === 'vault.unlock_warning_sent').map((e) => e.details.triggerId)
    expect(warned.sort()).toEqual([a.id, b.id].sort())
    await waitFor(async () => (await warnings(s.owner.email)).length === 2)
  })
})

describe('attempts left', () => {
  it('is null with no active trigger (none, or a paused one); the attempts are still audited', async () => {
    const s = await register()
    expect((await fail(s.token)).attemptsLeft).toBeNull()
    const trigger = await failedUnlockTrigger(s.token, 3)
    expect((await call(`/api/triggers/${trigger.id}`, { method: 'PUT', token: s.token, body: { status: 'paused' } })).status).toBe(200)
    expect((await fail(s.token)).attemptsLeft).toBeNull()
    expect(await unlockAudit(s.user.id)).toEqual([
      { action: 'vault.unlock_failed', actor: 'system', details: { kind: 'vault_unlock', attemptsLeft: null } },
      { action: 'vault.unlock_failed', actor: 'system', details: { kind: 'vault_unlock', attemptsLeft: null } },
    ])
  })

  it('is the least over the active triggers', async () => {
    const s = await register()
    await failedUnlockTrigger(s.token, 5)
    await failedUnlockTrigger(s.token, 3)
    expect((await fail(s.token)).attemptsLeft).toBe(2)
  })

  it("another owner's failures never count for this one", async () => {
    const a = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    const b = await ownerWithItem({ protocol: 'BIOMETRIC_FAILURE' })
    await failedUnlockTrigger(a.token, 2)
    await failedUnlockTrigger(b.token, 2)
    for (let i = 0; i < 3; i++) await fail(b.token)
    expect((await fail(a.token)).attemptsLeft).toBe(1)
    const later = Date.now() + UNLOCK_FORGIVE_MS + 60_000
    await guard(a.ownerId).tick(later)
    await guard(b.ownerId).tick(later)
    expect(await firingCount(b.ownerId)).toBe(1)
    expect(await firingCount(a.ownerId)).toBe(0)
    // A's chain holds A's one attempt, and the warning (one attempt left) counts that one alone.
    expect((await unlockAudit(a.ownerId)).map((e) => [e.action, e.details.attemptsLeft])).toEqual([
      ['vault.unlock_failed', 1],
      ['vault.unlock_warning_sent', 1],
    ])
    // And one owner's success forgives nothing of another's.
    const c = await register()
    const d = await register()
    await failedUnlockTrigger(c.token, 2)
    await fail(c.token)
    expect(await succeed(d.token)).toEqual({ forgiven: 0, attemptsLeft: null })
    expect(await failureTimes(c.user.id)).toHaveLength(1)
  })
})

describe('POST /api/trigger-engine/unlock-success', () => {
  it('takes a vault unlock only, from the signed-in owner', async () => {
    const s = await register()
    for (const body of [{}, { kind: 'passkey' }, { kind: 'other' }]) {
      const res = await call('/api/trigger-engine/unlock-success', { token: s.token, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await messageOf(res)).toMatch(/^kind: /)
    }
    expect((await call('/api/trigger-engine/unlock-success', { body: { kind: 'vault_unlock' } })).status).toBe(401)
    expect(await succeed(s.token)).toEqual({ forgiven: 0, attemptsLeft: null })
  })
})
