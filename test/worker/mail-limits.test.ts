import { describe, expect, it } from 'vitest'
import { CIRCLE_MESSAGES, MAIL_LIMITS } from '../../contract/circle'
import { createTrigger, manualReleaseOk, ownerWithItem, portalToken } from './engine-helpers'
import { addApprover, addBeneficiary, call, messageOf, outboxFor, postApprover, postBeneficiary, register, uniqueEmail, waitFor } from './helpers'
import { ownerExec, ownerRow } from './owner-helpers'
import { publicKey } from './vault-helpers'
import { signedUpdate } from './vault-signing'

// Mail that cannot be turned against third parties (0.2 · 4 of 7, point 3): invitations and resends
// are limited per address (together, and across removing the person and adding them again), and
// what the owner has the vault send to other people is capped per day. The engine's own mail (a
// release notice) is never held back.

const resend = (token: string, kind: 'beneficiaries' | 'approvers', id: string) => call(`/api/${kind}/${id}/resend-verification`, { method: 'POST', token })

/** Moves every e-mail this owner's vault sent to `address` an hour into the past: the hour has gone by. */
const anHourLater = (ownerId: string, address: string) => ownerExec(ownerId, ['update third_party_mail set at = at - 3600000 where address = ?', address.toLowerCase()])

type Kind = 'beneficiaries' | 'approvers'
const listed = async (token: string, kind: Kind) => (await (await call(`/api/${kind}`, { token })).json()) as Array<{ id: string; email: string }>
const remove = (token: string, kind: Kind, id: string) => call(`/api/${kind}/${id}`, { method: 'DELETE', token })

/** Adds a person with an invitation (an approver, or a beneficiary with a fresh key). */
async function invite(token: string, kind: Kind, email: string, sendVerificationEmail = true): Promise<Response> {
  if (kind === 'approvers') return postApprover(token, { email, sendVerificationEmail })
  return postBeneficiary(token, await publicKey(), { email, sendVerificationEmail })
}

async function seedThirdPartyMail(ownerId: string, n: number, ago = 60_000) {
  const now = Date.now()
  const rows: Array<[string, ...unknown[]]> = Array.from({ length: n }, (_, i) => ['insert into third_party_mail (address, at) values (?, ?)', `earlier-${i}@example.com`, now - ago])
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

describe('invitations limited per address, across removing the person and adding them again', () => {
  // The attack: a stolen session adds and removes the same person in a loop, one invitation each time.
  for (const kind of ['approvers', 'beneficiaries'] as const) {
    it(`${kind}: adding and removing one address 12 times e-mails it ${MAIL_LIMITS.perPersonPerHour} times; the next add is refused with 429 and nothing is stored; another address, another owner and the next hour are not held`, async () => {
      const owner = await register()
      const target = uniqueEmail(`looped-${kind}`)
      const statuses: number[] = []
      let refused: Response | undefined
      for (let i = 0; i < 12; i++) {
        const res = await invite(owner.token, kind, target)
        statuses.push(res.status)
        if (res.status === 201) {
          expect(((await res.json()) as { verificationEmailSent: boolean }).verificationEmailSent).toBe(true)
          const [person] = await listed(owner.token, kind)
          expect((await remove(owner.token, kind, person!.id)).status).toBe(200)
        } else if (refused) await res.body?.cancel()
        else refused = res
      }
      const n = MAIL_LIMITS.perPersonPerHour
      expect(statuses).toEqual([...Array(n).fill(201), ...Array(12 - n).fill(429)])
      expect(await messageOf(refused!)).toBe(CIRCLE_MESSAGES.invitationLimit)
      // Never a half-written record: the refused adds stored nobody.
      expect(await listed(owner.token, kind)).toEqual([])
      expect(await outboxFor(target)).toHaveLength(n)

      // Nothing is lost: the person can be added now without the e-mail (and sent it later).
      const quiet = await invite(owner.token, kind, target, false)
      expect(quiet.status).toBe(201)
      expect(((await quiet.json()) as { verificationEmailSent: boolean }).verificationEmailSent).toBe(false)
      expect((await remove(owner.token, kind, (await listed(owner.token, kind))[0]!.id)).status).toBe(200)

      // Another address of the same owner is invited at once.
      const other = uniqueEmail(`other-${kind}`)
      expect((await invite(owner.token, kind, other)).status).toBe(201)
      expect(await outboxFor(other)).toHaveLength(1)

      // Another owner may invite the same person: the limit is each owner's own.
      const stranger = await register()
      expect((await invite(stranger.token, kind, target)).status).toBe(201)
      expect(await outboxFor(target)).toHaveLength(n + 1)

      // An hour on, the first owner can invite them again.
      await anHourLater(owner.user.id, target)
      const again = await invite(owner.token, kind, target)
      expect(again.status).toBe(201)
      expect(((await again.json()) as { verificationEmailSent: boolean }).verificationEmailSent).toBe(true)
      expect(await outboxFor(target)).toHaveLength(n + 2)
    })
  }

  it('counts invitations and resends to one address together, whichever comes first', async () => {
    const owner = await register()
    // Invited, then sent the link again until the hour's share is gone: removed and added again, refused.
    const approver = await addApprover(owner.token)
    for (let i = 1; i < MAIL_LIMITS.perPersonPerHour; i++) expect((await resend(owner.token, 'approvers', approver.id)).status).toBe(200)
    expect((await remove(owner.token, 'approvers', approver.id)).status).toBe(200)
    const readded = await invite(owner.token, 'approvers', approver.email)
    expect(readded.status).toBe(429)
    expect(await messageOf(readded)).toBe(CIRCLE_MESSAGES.invitationLimit)

    // Invited twice (removed between), then a resend takes the last of the hour and the next is refused.
    const email = uniqueEmail('heir-twice')
    const first = await addBeneficiary(owner.token, await publicKey(), { email })
    expect((await remove(owner.token, 'beneficiaries', first.id)).status).toBe(200)
    const second = await addBeneficiary(owner.token, await publicKey(), { email })
    expect((await resend(owner.token, 'beneficiaries', second.id)).status).toBe(200)
    const held = await resend(owner.token, 'beneficiaries', second.id)
    expect(held.status).toBe(429)
    expect(await messageOf(held)).toBe(CIRCLE_MESSAGES.resendLimit)
    expect(await outboxFor(email)).toHaveLength(MAIL_LIMITS.perPersonPerHour)

    // Removed, and another beneficiary moved to that address: that would send it a link too, so it is
    // refused and nothing changes.
    expect((await remove(owner.token, 'beneficiaries', second.id)).status).toBe(200)
    const moved = await addBeneficiary(owner.token, await publicKey())
    const res = await call(`/api/beneficiaries/${moved.id}`, { token: owner.token, method: 'PUT', body: await signedUpdate(owner.token, moved.id, { email }) })
    expect(res.status).toBe(429)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.newAddressLimit)
    expect((await listed(owner.token, 'beneficiaries')).find((b) => b.id === moved.id)!.email).toBe(moved.email)
    expect(await outboxFor(email)).toHaveLength(MAIL_LIMITS.perPersonPerHour)
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

  it('counts a whole day: e-mails sent hours ago still count toward the cap, and a day later they no longer do', async () => {
    const owner = await register()
    await seedThirdPartyMail(owner.user.id, MAIL_LIMITS.thirdPartyPerDay - 1, 2 * 3_600_000)
    expect((await postBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: true })).status).toBe(201)
    const refused = await postBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: true })
    expect(refused.status).toBe(429)
    expect(await messageOf(refused)).toBe(CIRCLE_MESSAGES.dailyMailLimit)
    // A day on, the cap has room again.
    await ownerExec(owner.user.id, ['update third_party_mail set at = at - ?', 24 * 3_600_000])
    expect((await postBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: true })).status).toBe(201)
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
