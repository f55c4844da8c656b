import { describe, expect, it } from 'vitest'
import { DELETION_MESSAGES } from '../../contract/account-deletion'
import type { PublicUser } from '../../contract/auth'
import { FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import { assetRows, createTrigger, firingCount, guard, ownerWithItem, setClock, waitingPolicyRelease } from './engine-helpers'
import { ownerExec, ownerRows } from './owner-helpers'
import { call, linkTokenIn, login, me, messageOf, outboxFor, waitFor, ownerSessions } from './helpers'

// Deletion you can take back: after the owner asks (with fresh proof), the account is frozen for
// DELETION_GRACE_DAYS: every session ends, nothing can be changed, no trigger fires and nothing
// reaches an heir, until the owner keeps it (by signing in, or from the e-mail) or the sweep deletes it.

const DAY = 86_400_000

async function signIn(email: string, password: string): Promise<{ token: string; user: PublicUser }> {
  const res = await login(email, password)
  expect(res.status).toBe(200)
  return (await res.json()) as { token: string; user: PublicUser }
}

async function frozenOwner() {
  const s = await ownerWithItem({ protocol: 'INACTIVITY_30_DAYS' })
  await createTrigger(s.token, { type: 'inactivity', config: { pingFrequency: 'daily', gracePeriod: 1 } })
  const scheduled = await createTrigger(s.token, { type: 'scheduled', config: { releaseDate: new Date(Date.now() + DAY).toISOString(), beneficiaries: [s.beneficiary.id] } })
  const res = await call('/api/account/delete', { method: 'DELETE', token: s.token })
  expect(res.status).toBe(200)
  const { deletionScheduledFor } = (await res.json()) as { deletionScheduledFor: string }
  return { ...s, scheduled, deleteAt: Date.parse(deletionScheduledFor) }
}

describe('a deletion the owner can take back', () => {
  it('freezes the account: sign-in shows the pending deletion, reads work, changes are refused with the date, nothing fires', async () => {
    const s = await frozenOwner()
    const again = await signIn(s.owner.email, s.owner.password)
    expect(again.user.deletionScheduledFor).toBe(new Date(s.deleteAt).toISOString())
    expect((await call('/api/triggers', { token: again.token })).status).toBe(200)
    for (const [path, method, body] of [
      ['/api/triggers', 'POST', { type: 'manual_release', status: 'active', config: {} }],
      ['/api/user/safety-window', 'PUT', { hours: 96 }],
      [`/api/beneficiaries/${s.beneficiary.id}`, 'DELETE', undefined],
    ] as const) {
      const res = await call(path, { method, token: again.token, body })
      expect(res.status).toBe(409)
      expect(await messageOf(res)).toBe(DELETION_MESSAGES.frozen(s.deleteAt))
    }
    // The owner has been gone for weeks by the clock: frozen, the trigger does not fire.
    const long = Date.now() - 40 * DAY
    await setClock(s.ownerId, { lastCheckInAt: long, phase: 'expired', checkInSentAt: long + DAY })
    await ownerExec(s.ownerId, ['update triggers set fire_at = ? where id = ?', Date.now() - 1000, s.scheduled.id])
    await guard(s.ownerId).tick(Date.now() + 60_000)
    expect(await firingCount(s.ownerId)).toBe(0)
  })

  it('while frozen the owner can still check in and sign their other devices out', async () => {
    const s = await frozenOwner()
    const again = await signIn(s.owner.email, s.owner.password)
    const ping = await call('/api/inactivity/ping', { method: 'POST', token: again.token })
    expect(ping.status).toBe(200)
    const others = await call('/api/auth/sessions/sign-out-others', { method: 'POST', token: again.token })
    expect(others.status).toBe(200)
  })

  it('kept by signing in: the freeze ends, and what was held goes on; a stale session alone cannot keep it', async () => {
    const s = await frozenOwner()
    const again = await signIn(s.owner.email, s.owner.password)
    // The scheduled date passes while the account is frozen: held.
    await ownerExec(s.ownerId, ['update triggers set fire_at = ? where id = ?', Date.now() - 1000, s.scheduled.id])
    await guard(s.ownerId).tick()
    expect(await firingCount(s.ownerId)).toBe(0)
    await ownerSessions(s.ownerId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    expect((await call('/api/account/deletion/cancel', { method: 'POST', token: again.token })).status).toBe(403)

    const fresh = await signIn(s.owner.email, s.owner.password)
    const kept = await call('/api/account/deletion/cancel', { method: 'POST', token: fresh.token })
    expect(kept.status).toBe(200)
    expect(await kept.json()).toMatchObject({ message: DELETION_MESSAGES.kept, user: { deletionScheduledFor: null } })
    expect((await call('/api/user/safety-window', { method: 'PUT', token: fresh.token, body: { hours: 96 } })).status).toBe(200)
    // The date passed while frozen: keeping the account lets it fire now.
    expect(await firingCount(s.ownerId)).toBe(1)
    expect((await call('/api/account/deletion/cancel', { method: 'POST', token: fresh.token })).status).toBe(409)
  })

  it('a release already waiting when the account froze reaches no heir while frozen, even past its time', async () => {
    const s = await waitingPolicyRelease(24)
    expect((await call('/api/account/delete', { method: 'DELETE', token: s.token })).status).toBe(200)
    await guard(s.ownerId).tick(Date.now() + 25 * 3_600_000)
    expect(await assetRows(s.ownerId, s.beneficiary.id)).toEqual([])
    expect(await ownerRows<{ status: string }>(s.ownerId, 'select status from releases')).toEqual([{ status: 'waiting' }])
  })

  it('the e-mail says when, and its "This wasn’t me" keeps the account and signs everyone out', async () => {
    const s = await frozenOwner()
    const mail = await waitFor(async () => (await outboxFor(s.owner.email)).find((m) => m.subject === TRUST_CHANGES.deletion_requested.subject))
    expect(mail.text).toContain(DELETION_MESSAGES.emailDetail(s.deleteAt))
    const again = await signIn(s.owner.email, s.owner.password)
    const res = await call('/api/auth/not-me', { body: { token: linkTokenIn(mail, '/not-me') } })
    expect(await res.json()).toMatchObject({ deletionCancelled: true })
    expect((await me(again.token)).status).toBe(401)
    const after = await signIn(s.owner.email, s.owner.password)
    expect(after.user.deletionScheduledFor).toBeNull()
  })

  it('while frozen, the owner can still sign every other device out', async () => {
    const s = await frozenOwner()
    const here = await signIn(s.owner.email, s.owner.password)
    const elsewhere = await signIn(s.owner.email, s.owner.password)
    const third = await signIn(s.owner.email, s.owner.password)
    const res = await call('/api/auth/sessions/sign-out-others', { method: 'POST', token: here.token })
    expect(res.status).toBe(200)
    expect((await me(elsewhere.token)).status).toBe(401)
    expect((await me(third.token)).status).toBe(401)
    expect((await me(here.token)).status).toBe(200)
  })

  it('two deletion requests at once: one is taken, the other is refused, and the date first given stands', async () => {
    const s = await ownerWithItem()
    const [first, second] = await Promise.all([
      call('/api/account/delete', { method: 'DELETE', token: s.token }),
      call('/api/account/delete', { method: 'DELETE', token: s.token }),
    ])
    // The other is refused by the request's guard (409), or, arriving after the first ended every
    // session, as signed out (401); never a second deletion.
    expect([first.status, second.status].filter((status) => status === 200)).toHaveLength(1)
    expect([first.status, second.status].every((status) => [200, 401, 409].includes(status))).toBe(true)
    const taken = (await (first.status === 200 ? first : second).json()) as { deletionScheduledFor: string }
    const again = await signIn(s.owner.email, s.owner.password)
    expect(again.user.deletionScheduledFor).toBe(taken.deletionScheduledFor)
  })

  it('a second request while frozen is refused; a stale session cannot ask at all', async () => {
    const s = await frozenOwner()
    const again = await signIn(s.owner.email, s.owner.password)
    const second = await call('/api/account/delete', { method: 'DELETE', token: again.token })
    expect(second.status).toBe(409)
    const other = await ownerWithItem()
    await ownerSessions(other.ownerId, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    expect((await call('/api/account/delete', { method: 'DELETE', token: other.token })).status).toBe(403)
    expect((await me(other.token)).status).toBe(200)
  })
})
