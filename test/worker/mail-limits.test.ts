import { describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES, MAIL_LIMITS } from '../../contract/circle'
import { createTrigger, manualReleaseOk, ownerWithItem, portalToken } from './engine-helpers'
import { addApprover, addBeneficiary, call, messageOf, outboxFor, postBeneficiary, register, uniqueEmail, waitFor } from './helpers'
import { ownerExec, ownerRow } from './owner-helpers'
import { publicKey } from './vault-helpers'

// Mail that cannot be turned against third parties (0.2 · 4 of 7, point 3): resends are limited per
// person, and what the owner has the vault send to other people is capped per day. The engine's own
// mail (a release notice) is never held back.

const resend = (token: string, kind: 'beneficiaries' | 'approvers', id: string) => call(`/api/${kind}/${id}/resend-verification`, { method: 'POST', token })

async function seedThirdPartyMail(ownerId: string, n: number) {
  const now = Date.now()
  const rows: Array<[string, ...unknown[]]> = Array.from({ length: n }, (_, i) => ['insert into third_party_mail (address, at) values (?, ?)', `earlier-${i}@example.com`, now - 60_000])
  for (let i = 0; i < rows.length; i += 100) await ownerExec(ownerId, ...rows.slice(i, i + 100))
}

describe('resend limits per person', () => {
  it(`sends a person at most ${MAIL_LIMITS.perPersonPerHour} e-mails an hour, then 429; another person is not held`, async () => {
    const owner = await register()
    const heir = await addBeneficiary(owner.token, await publicKey())
    // The invitation was the first.
    for (let i = 1; i < MAIL_LIMITS.perPersonPerHour; i++) expect((await resend(owner.token, 'beneficiaries', heir.id)).status).toBe(200)
    const held = await resend(owner.token, 'beneficiaries', heir.id)
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(CIRCLE_MESSAGES.resendLimit)
    expect(await outboxFor(heir.email)).toHaveLength(MAIL_LIMITS.perPersonPerHour)
    const other = await addBeneficiary(owner.token, await publicKey())
    expect((await resend(owner.token, 'beneficiaries', other.id)).status).toBe(200)
    // An hour on, the person can be sent a link again.
    await ownerExec(owner.user.id, ['update third_party_mail set at = at - 3600000 where address = ?', heir.email])
    expect((await resend(owner.token, 'beneficiaries', heir.id)).status).toBe(200)
  })

  it('holds approvers’ resends the same way', async () => {
    const owner = await register()
    const approver = await addApprover(owner.token)
    for (let i = 1; i < MAIL_LIMITS.perPersonPerHour; i++) expect((await resend(owner.token, 'approvers', approver.id)).status).toBe(200)
    const held = await resend(owner.token, 'approvers', approver.id)
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(CIRCLE_MESSAGES.resendLimit)
  })
})

describe('the daily cap on mail to other people', () => {
  it(`sends at most ${MAIL_LIMITS.thirdPartyPerDay} a day on the owner's behalf: past it an invitation is refused and nothing is stored`, async () => {
    const owner = await register()
    await seedThirdPartyMail(owner.user.id, MAIL_LIMITS.thirdPartyPerDay - 1)
    expect((await postBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: true })).status).toBe(201)
    const email = uniqueEmail('over')
    const refused = await postBeneficiary(owner.token, await publicKey(), { email, sendVerificationEmail: true })
    expect(refused.status).toBe(429)
    expect(await messageOf(refused)).toBe(CIRCLE_MESSAGES.dailyMailLimit)
    expect(((await (await call('/api/beneficiaries', { token: owner.token })).json()) as unknown[]).length).toBe(1)
    expect(await outboxFor(email)).toEqual([])
    const approver = await call('/api/approvers', { token: owner.token, body: { fullName: 'Over Cap', email: uniqueEmail('over-approver'), role: 'Notary' } })
    expect(approver.status).toBe(429)
    // Without an e-mail it is taken; and the owner's own mail is not counted.
    expect((await postBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: false })).status).toBe(201)
    expect((await ownerRow<{ n: number }>(owner.user.id, 'select count(*) as n from third_party_mail where address = ?', owner.email.toLowerCase()))!.n).toBe(0)
  })

  it('never holds back a release notice', async () => {
    const s = await ownerWithItem({ protocol: 'MANUAL_RELEASE' })
    await seedThirdPartyMail(s.ownerId, MAIL_LIMITS.thirdPartyPerDay + 5)
    const trigger = await createTrigger(s.token, { type: 'manual_release', config: {} })
    expect(await manualReleaseOk(s.token, trigger.id)).toMatchObject({ beneficiariesNotified: 1 })
    expect(await portalToken(s.beneficiary.email)).toBeTruthy()
    await waitFor(async () => (await outboxFor(s.beneficiary.email)).some((m) => m.text.includes('view=assets')))
  })
})
