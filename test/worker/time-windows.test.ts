import { afterEach, describe, expect, it, vi } from 'vitest'
import { CIRCLE_MESSAGES, MAIL_LIMITS } from '../../contract/circle'
import { DAY_MS, HOUR_MS } from '../../contract/constants'
import { EMAIL_CONFIRMATION } from '../../contract/messages'
import { RELEASE_MESSAGES } from '../../contract/releases'
import { createTrigger, manualReleaseOk, ownerWithItem, portalToken } from './engine-helpers'
import { addBeneficiary, call, callSettled, linksIn, messageOf, outboxFor, register } from './helpers'
import { ownerExec } from './owner-helpers'
import { publicKey } from './vault-helpers'

// The limits that count a window of time, each tested by moving the clock (the worker's and the
// owner's object's Date, faked as in release-simulation.test.ts) inside the window and past it.

const MINUTE = 60_000

/** A whole minute a day from now: every test starts on the same kind of clock. */
const startOfTest = () => Math.ceil((Date.now() + DAY_MS) / MINUTE) * MINUTE

function fakeClock(at: number) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(at)
}

afterEach(() => {
  vi.useRealTimers()
})

const resend = (token: string, id: string) => call(`/api/beneficiaries/${id}/resend-verification`, { method: 'POST', token })

describe('the per-person resend limit', () => {
  it(`counts an hour: ${MAIL_LIMITS.perPersonPerHour} e-mails in the hour refuse the next; once the first is an hour old, one more goes`, { timeout: 20_000 }, async () => {
    const start = startOfTest()
    fakeClock(start)
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    // The invitation at the start, then resends ten and twenty minutes on.
    for (const minutes of [10, 20]) {
      vi.setSystemTime(start + minutes * MINUTE)
      expect((await resend(owner.token, heir.id)).status).toBe(200)
    }
    vi.setSystemTime(start + HOUR_MS - MINUTE)
    const held = await resend(owner.token, heir.id)
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(CIRCLE_MESSAGES.resendLimit)
    vi.setSystemTime(start + HOUR_MS + 1000)
    expect((await resend(owner.token, heir.id)).status).toBe(200)
    expect((await resend(owner.token, heir.id)).status).toBe(429)
    expect(await outboxFor(heir.email)).toHaveLength(MAIL_LIMITS.perPersonPerHour + 1)
  })
})

describe('the daily cap on mail to other people', () => {
  it(`counts a day: ${MAIL_LIMITS.thirdPartyPerDay} e-mails refuse the next until the day since them has passed`, { timeout: 20_000 }, async () => {
    const start = startOfTest()
    fakeClock(start)
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    // With the invitation just sent, the day's share is used up.
    const rows: Array<[string, ...unknown[]]> = Array.from({ length: MAIL_LIMITS.thirdPartyPerDay - 1 }, (_, i) => ['insert into third_party_mail (address, at) values (?, ?)', `earlier-${i}@example.com`, start])
    for (let i = 0; i < rows.length; i += 100) await ownerExec(owner.user.id, ...rows.slice(i, i + 100))

    vi.setSystemTime(start + DAY_MS - MINUTE)
    const held = await resend(owner.token, heir.id)
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(CIRCLE_MESSAGES.dailyMailLimit)
    vi.setSystemTime(start + DAY_MS + 1000)
    expect((await resend(owner.token, heir.id)).status).toBe(200)
    expect(await outboxFor(heir.email)).toHaveLength(2)
  })
})

describe('the confirmation resend limit', () => {
  it(`counts an hour: ${EMAIL_CONFIRMATION.perHour} links in the hour refuse the next; once the first is an hour old, one more goes`, { timeout: 20_000 }, async () => {
    const start = startOfTest()
    fakeClock(start)
    const owner = await register({ confirmed: false })
    const resendLink = () => call('/api/auth/confirm-email/resend', { method: 'POST', token: owner.token })
    for (const minutes of [10, 20]) {
      vi.setSystemTime(start + minutes * MINUTE)
      expect((await resendLink()).status).toBe(200)
    }
    vi.setSystemTime(start + HOUR_MS - MINUTE)
    const held = await resendLink()
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(EMAIL_CONFIRMATION.limit)
    vi.setSystemTime(start + HOUR_MS + 1000)
    expect((await resendLink()).status).toBe(200)
    expect((await resendLink()).status).toBe(429)
  })
})

describe("the heir's new-link gap", () => {
  it('is 10 minutes: asked again inside it, no second e-mail; at 10 minutes, one goes', { timeout: 20_000 }, async () => {
    const start = startOfTest()
    fakeClock(start)
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    await manualReleaseOk(s.token, trigger.id)
    await portalToken(s.beneficiary.email)
    const portalMails = async () => (await outboxFor(s.beneficiary.email)).filter((m) => linksIn(m, '/beneficiary-portal').length > 0).length
    const ask = async () => {
      const res = await callSettled('/api/beneficiary-portal/link', { body: { email: s.beneficiary.email } })
      expect(await res.json()).toEqual({ message: RELEASE_MESSAGES.portalLinkSent })
    }
    const released = await portalMails()

    vi.setSystemTime(start + MINUTE)
    await ask()
    expect(await portalMails()).toBe(released + 1)
    vi.setSystemTime(start + 11 * MINUTE - 1000)
    await ask()
    expect(await portalMails()).toBe(released + 1)
    vi.setSystemTime(start + 11 * MINUTE)
    await ask()
    expect(await portalMails()).toBe(released + 2)
  })

  it('starts only from an e-mail that went: asking before anything was released sends nothing and holds back no later link', { timeout: 20_000 }, async () => {
    const start = startOfTest()
    fakeClock(start)
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    const trigger = await createTrigger(s.token, { type: 'verified_death', config: {} })
    const portalMails = async () => (await outboxFor(s.beneficiary.email)).filter((m) => linksIn(m, '/beneficiary-portal').length > 0).length
    const ask = async () => {
      const res = await callSettled('/api/beneficiary-portal/link', { body: { email: s.beneficiary.email } })
      expect(await res.json()).toEqual({ message: RELEASE_MESSAGES.portalLinkSent })
    }
    await ask()
    expect(await portalMails()).toBe(0)

    vi.setSystemTime(start + MINUTE)
    await manualReleaseOk(s.token, trigger.id)
    await portalToken(s.beneficiary.email)
    const released = await portalMails()
    vi.setSystemTime(start + 2 * MINUTE)
    await ask()
    expect(await portalMails()).toBe(released + 1)
  })
})
