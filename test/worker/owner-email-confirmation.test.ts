import { describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../contract/audit'
import type { EmailConfirmed, PublicUser } from '../../contract/auth'
import { CIRCLE_MESSAGES, MAIL_LIMITS, type Approver, type Beneficiary } from '../../contract/circle'
import { EMAIL_CONFIRMATION } from '../../contract/messages'
import { eq } from 'drizzle-orm'
import { getDb } from '../../worker/db/client'
import { users } from '../../worker/db/schema'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import { accountOf } from '../../worker/owner/account'
import { addressNonce, signLinkToken } from '../../worker/lib/link-tokens'
import { addApprover, addBeneficiary, call, callSettled, env, linkTokenIn, me, messageOf, outboxFor, register, uniqueEmail, waitFor } from './helpers'
import { LINK_LIFETIME_SECONDS } from './link-lifetimes'
import { ownerExec, vaultOf } from './owner-helpers'
import { publicKey } from './vault-helpers'
import { signedUpdate, statedBy } from './vault-signing'

// The owner's own address is confirmed (a link at registration) before the vault e-mails anyone
// else on their behalf (0.2 · 4 of 7, point 3): invitations wait, held and not refused, and go
// out on confirmation.

const CONFIRM_SUBJECT = /^Confirm your e-mail address/

async function confirmationMails(email: string) {
  return (await outboxFor(email)).filter((m) => CONFIRM_SUBJECT.test(m.subject))
}

async function confirmationToken(email: string): Promise<string> {
  const [newest] = await waitFor(async () => {
    const mails = await confirmationMails(email)
    return mails.length > 0 && mails
  })
  return linkTokenIn(newest!, '/confirm-email')
}

const confirm = (token: string) => call('/api/auth/confirm-email', { body: { token } })
const resendLink = (token: string) => call('/api/auth/confirm-email/resend', { method: 'POST', token })
const invitationsTo = async (email: string) => (await outboxFor(email)).filter((m) => /verify-(beneficiary|approver)/.test(m.text))

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T
}

async function unconfirmedOwnerWithCircle() {
  const owner = await register({ confirmed: false })
  const heir = await addBeneficiary(owner.token, await publicKey())
  const approver = await addApprover(owner.token)
  return { owner, heir, approver }
}

describe('the owner’s address is confirmed by a link sent at registration', () => {
  it('e-mails a confirmation link at registration; until it is followed the account says unconfirmed', async () => {
    const owner = await register({ confirmed: false })
    expect(owner.user.emailVerified).toBe(false)
    const [mail] = await waitFor(async () => {
      const mails = await confirmationMails(owner.email)
      return mails.length > 0 && mails
    })
    expect(mail!.text).toContain('/confirm-email?token=')
    const signedIn = await json<{ user: PublicUser }>(await me(owner.token))
    expect(signedIn.user.emailVerified).toBe(false)
  })

  it('confirming through the link marks the account confirmed, once; following it again changes nothing', async () => {
    const owner = await register({ confirmed: false })
    const token = await confirmationToken(owner.email)
    const first = await confirm(token)
    expect(first.status).toBe(200)
    expect(await json<EmailConfirmed>(first)).toEqual({ message: EMAIL_CONFIRMATION.confirmed, invitationsSent: 0 })
    expect((await json<{ user: PublicUser }>(await me(owner.token))).user.emailVerified).toBe(true)
    const again = await confirm(token)
    expect(again.status).toBe(200)
    expect(await json<EmailConfirmed>(again)).toEqual({ message: EMAIL_CONFIRMATION.alreadyConfirmed, invitationsSent: 0 })
    const audit = await json<AuditEntry[]>(await call('/api/audit', { token: owner.token }))
    expect(audit.filter((e) => e.action === 'account.email_confirmed')).toHaveLength(1)
  })

  it('refuses a confirmation link that is forged, expired, for another purpose, or names another address (400, nothing confirmed)', async () => {
    const owner = await register({ confirmed: false })
    const lifetime = LINK_LIFETIME_SECONDS.ownerEmailConfirm * 1000
    const nonce = addressNonce(env, owner.email)
    const cases: Array<[string, string, string]> = [
      ['garbage', 'x'.repeat(64), EMAIL_CONFIRMATION.linkInvalid],
      ['expired', signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: owner.user.id, nonce }, Date.now() - lifetime - 60_000), EMAIL_CONFIRMATION.linkExpired],
      ['another purpose', signLinkToken(env, 'checkIn', owner.user.id, { owner: owner.user.id, nonce }), EMAIL_CONFIRMATION.linkInvalid],
      ['another address', signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: owner.user.id, nonce: addressNonce(env, 'someone-else@example.com') }), EMAIL_CONFIRMATION.linkInvalid],
      // A link that names the address in the clear (as links once did) is not one this product makes.
      ['the address in the clear', signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: owner.user.id, nonce: owner.email }), EMAIL_CONFIRMATION.linkInvalid],
      ['no address', signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: owner.user.id }), EMAIL_CONFIRMATION.linkInvalid],
      ['another owner’s object', signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: crypto.randomUUID(), nonce }), EMAIL_CONFIRMATION.linkInvalid],
      ['nobody', signLinkToken(env, 'ownerEmailConfirm', crypto.randomUUID(), { owner: owner.user.id, nonce }), EMAIL_CONFIRMATION.linkInvalid],
    ]
    for (const [name, token, message] of cases) {
      const res = await confirm(token)
      expect(res.status, name).toBe(400)
      expect(await messageOf(res), name).toBe(message)
    }
    expect((await json<{ user: PublicUser }>(await me(owner.token))).user.emailVerified).toBe(false)
    // A just-valid link still works afterwards.
    const lastSecond = signLinkToken(env, 'ownerEmailConfirm', owner.user.id, { owner: owner.user.id, nonce }, Date.now() - lifetime + 2000)
    expect((await confirm(lastSecond)).status).toBe(200)
  })

  it(`sends a new link on request, at most ${EMAIL_CONFIRMATION.perHour} an hour counting registration's (429 past it); none once confirmed (409)`, async () => {
    const owner = await register({ confirmed: false })
    await confirmationToken(owner.email)
    for (let i = 1; i < EMAIL_CONFIRMATION.perHour; i++) {
      const res = await resendLink(owner.token)
      expect(res.status).toBe(200)
      expect(await messageOf(res)).toBe(EMAIL_CONFIRMATION.sent(owner.email))
    }
    const refused = await resendLink(owner.token)
    expect(refused.status).toBe(429)
    expect(await messageOf(refused)).toBe(EMAIL_CONFIRMATION.limit)
    expect(await confirmationMails(owner.email)).toHaveLength(EMAIL_CONFIRMATION.perHour)
    // The newest link confirms; then there is nothing to send.
    expect((await confirm(await confirmationToken(owner.email))).status).toBe(200)
    const done = await resendLink(owner.token)
    expect(done.status).toBe(409)
    expect(await messageOf(done)).toBe(EMAIL_CONFIRMATION.alreadyConfirmed)
    expect((await resendLink('')).status).toBe(401)
  })
})

describe('the confirmation link limit', () => {
  it('counts only confirmation links: other mail to the owner (reset links) never holds the next link', async () => {
    const owner = await register({ confirmed: false })
    await confirmationToken(owner.email)
    for (let i = 0; i < EMAIL_CONFIRMATION.perHour; i++) {
      expect((await callSettled('/api/auth/forgot-password', { body: { email: owner.email } })).status).toBe(200)
    }
    expect((await outboxFor(owner.email)).filter((m) => m.subject.startsWith('Reset your')).length).toBe(EMAIL_CONFIRMATION.perHour)
    const res = await resendLink(owner.token)
    expect(res.status).toBe(200)
    expect(await confirmationMails(owner.email)).toHaveLength(2)
  })
})

describe('invitations wait until the owner confirmed their address', () => {
  it('holds (does not refuse) an unconfirmed owner’s invitations: nothing reaches the beneficiary or approver, and a resend says why', async () => {
    const { owner, heir, approver } = await unconfirmedOwnerWithCircle()
    expect(heir).toMatchObject({ verificationEmailSent: false, invitationHeld: true })
    expect(approver).toMatchObject({ verificationEmailSent: false, invitationHeld: true })
    expect(await invitationsTo(heir.email)).toEqual([])
    expect(await invitationsTo(approver.email)).toEqual([])
    for (const path of [`/api/beneficiaries/${heir.id}/resend-verification`, `/api/approvers/${approver.id}/resend-verification`]) {
      const res = await call(path, { method: 'POST', token: owner.token })
      expect(res.status).toBe(409)
      expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.invitationHeld)
    }
    const listed = await json<Beneficiary[]>(await call('/api/beneficiaries', { token: owner.token }))
    expect(listed.map((b) => b.invitationHeld)).toEqual([true])
    // Added without an invitation: nothing is held for them.
    const quiet = await addBeneficiary(owner.token, await publicKey(), { sendVerificationEmail: false })
    expect(quiet.invitationHeld).toBe(false)
  })

  it('sends every held invitation on confirmation, each once, and the lists stop saying they wait', async () => {
    const { owner, heir, approver } = await unconfirmedOwnerWithCircle()
    const res = await confirm(await confirmationToken(owner.email))
    expect(await json<EmailConfirmed>(res)).toEqual({ message: EMAIL_CONFIRMATION.confirmed, invitationsSent: 2 })
    const [invite] = await waitFor(async () => {
      const mails = await invitationsTo(heir.email)
      return mails.length > 0 && mails
    })
    // The held invitation carries a working link.
    const verified = await call('/api/beneficiaries/verify', { body: { token: linkTokenIn(invite!, '/verify-beneficiary'), id: heir.id } })
    expect(verified.status).toBe(200)
    await waitFor(async () => (await invitationsTo(approver.email)).length === 1)
    expect((await json<Beneficiary[]>(await call('/api/beneficiaries', { token: owner.token })))[0]).toMatchObject({ invitationHeld: false, verified: true })
    expect((await json<Approver[]>(await call('/api/approvers', { token: owner.token })))[0]).toMatchObject({ invitationHeld: false })
    // Once confirmed, new invitations go at once; following the link again sends nothing twice.
    const later = await addBeneficiary(owner.token, await publicKey())
    expect(later).toMatchObject({ verificationEmailSent: true, invitationHeld: false })
    expect(await json<EmailConfirmed>(await confirm(await confirmationToken(owner.email)))).toMatchObject({ invitationsSent: 0 })
    expect(await invitationsTo(heir.email)).toHaveLength(1)
    expect(await invitationsTo(approver.email)).toHaveLength(1)
  })

  it('sends held invitations within the daily cap on mail to other people; the rest stay held', async () => {
    const { owner, heir, approver } = await unconfirmedOwnerWithCircle()
    const now = Date.now()
    const seed: Array<[string, ...unknown[]]> = Array.from({ length: MAIL_LIMITS.thirdPartyPerDay - 1 }, (_, i) => ['insert into third_party_mail (address, at) values (?, ?)', `earlier-${i}@example.com`, now - 60_000])
    for (let i = 0; i < seed.length; i += 100) await ownerExec(owner.user.id, ...seed.slice(i, i + 100))
    expect(await json<EmailConfirmed>(await confirm(await confirmationToken(owner.email)))).toMatchObject({ invitationsSent: 1 })
    expect((await json<Beneficiary[]>(await call('/api/beneficiaries', { token: owner.token })))[0]!.invitationHeld).toBe(false)
    expect((await json<Approver[]>(await call('/api/approvers', { token: owner.token })))[0]!.invitationHeld).toBe(true)
    await waitFor(async () => (await invitationsTo(heir.email)).length === 1)
    expect(await invitationsTo(approver.email)).toEqual([])
  })

  it('following the link again sends an invitation still held, and that sending is audited as a confirmation act', async () => {
    const { owner, heir } = await unconfirmedOwnerWithCircle()
    const now = Date.now()
    const seed: Array<[string, ...unknown[]]> = Array.from({ length: MAIL_LIMITS.perPersonPerHour }, () => ['insert into third_party_mail (address, at) values (?, ?)', heir.email.toLowerCase(), now - 60_000])
    await ownerExec(owner.user.id, ...seed)
    const token = await confirmationToken(owner.email)
    expect(await json<EmailConfirmed>(await confirm(token))).toMatchObject({ invitationsSent: 1 })
    // The hour has passed for the heir's address: the link followed again sends the held invitation.
    await ownerExec(owner.user.id, ['delete from third_party_mail'])
    expect(await json<EmailConfirmed>(await confirm(token))).toEqual({ message: EMAIL_CONFIRMATION.alreadyConfirmed, invitationsSent: 1 })
    const audit = await json<AuditEntry[]>(await call('/api/audit', { token: owner.token }))
    expect(audit.filter((e) => e.action === 'account.email_confirmed').map((e) => e.details)).toEqual([{ invitationsSent: 1 }, { invitationsSent: 1 }])
  })

  it('on confirmation, an address already e-mailed its hourly share keeps its invitation held; the next one still goes', async () => {
    const { owner, heir, approver } = await unconfirmedOwnerWithCircle()
    const now = Date.now()
    const seed: Array<[string, ...unknown[]]> = Array.from({ length: MAIL_LIMITS.perPersonPerHour }, () => ['insert into third_party_mail (address, at) values (?, ?)', heir.email.toLowerCase(), now - 60_000])
    await ownerExec(owner.user.id, ...seed)
    expect(await json<EmailConfirmed>(await confirm(await confirmationToken(owner.email)))).toMatchObject({ invitationsSent: 1 })
    expect((await json<Beneficiary[]>(await call('/api/beneficiaries', { token: owner.token })))[0]!.invitationHeld).toBe(true)
    expect((await json<Approver[]>(await call('/api/approvers', { token: owner.token })))[0]!.invitationHeld).toBe(false)
    await waitFor(async () => (await invitationsTo(approver.email)).length === 1)
    expect(await invitationsTo(heir.email)).toEqual([])
  })

  it('an unconfirmed owner’s e-mail change of a beneficiary holds the new invitation and tells no one (the old address never heard from the vault)', async () => {
    const { owner, heir } = await unconfirmedOwnerWithCircle()
    const email = uniqueEmail('moved')
    const res = await call(`/api/beneficiaries/${heir.id}`, { method: 'PUT', token: owner.token, body: await signedUpdate(owner.token, heir.id, { email }) })
    expect(res.status).toBe(200)
    expect(await json<Beneficiary>(res)).toMatchObject({ email, invitationHeld: true })
    expect(await outboxFor(heir.email)).toEqual([])
    expect(await outboxFor(email)).toEqual([])
    // (Adding the approver in the setup told the owner, a trust change; the e-mail change told no one.)
    expect((await outboxFor(owner.email)).filter((m) => !CONFIRM_SUBJECT.test(m.subject) && m.subject !== TRUST_CHANGES.approver_added.subject)).toEqual([])
  })

  it('an invitation asked for with an account read before the confirmation still goes out (the owner’s object heard of it first)', async () => {
    const owner = await register({ confirmed: false })
    const stale = accountOf((await getDb(env).query.users.findFirst({ where: eq(users.id, owner.user.id) }))!)
    expect(stale.emailVerified).toBe(false)
    expect((await confirm(await confirmationToken(owner.email))).status).toBe(200)
    const key = await publicKey()
    const email = uniqueEmail('raced')
    const id = crypto.randomUUID()
    const { keySignature, statementSequence } = await statedBy(owner.token, { beneficiaryId: id, fullName: 'Raced Heir', relationship: 'Son', email, keyVersion: 1, publicKey: key })
    const fingerprint = 'AAAA '.repeat(16).trim()
    const outcome = await vaultOf(owner.user.id).circle().createBeneficiary(
      stale,
      { id, fullName: 'Raced Heir', email, relationship: 'Son', publicKey: key, keySignature, publicKeyFingerprint: fingerprint },
      statementSequence,
      true,
    )
    expect(outcome).toMatchObject({ ok: true, value: { verificationEmailSent: true, invitationHeld: false } })
    await waitFor(async () => (await invitationsTo(email)).length === 1)
  })
})
