import { beforeAll, describe, expect, it } from 'vitest'
import type { AuthResponse } from '../../contract/auth'
import { CIRCLE_MESSAGES, type Approver, type Beneficiary, type NotificationPreferences } from '../../contract/circle'
import { AUTH_ERRORS } from '../../contract/messages'
import { runInDurableObject } from 'cloudflare:test'
import { SignJWT } from 'jose'
import { getDb } from '../../worker/db/client'
import { accountOf } from '../../worker/owner/account'
import { openOwnerDb } from '../../worker/owner/db'
import { createUnit } from '../../worker/owner/unit'
import type { OwnerVault } from '../../worker/host/vault-object'
import { toBase64Url } from '../../worker/lib/crypto'
import { findBeneficiary } from '../../worker/services/beneficiaries'
import { sendBeneficiaryInvitation } from '../../worker/services/invitations'
import { signLinkToken } from '../../worker/lib/link-tokens'
import { findUserByEmail } from '../../worker/services/users'
import {
  addApprover,
  addBeneficiary,
  call,
  env,
  freshIp,
  linkTokenIn,
  login,
  messageOf,
  outboxFor,
  register,
  rsaOaepPublicKey,
  type BeneficiaryInput,
} from './helpers'
import { ownerRow, vaultOf } from './owner-helpers'

const DAY_MS = 24 * 60 * 60 * 1000
const LINK_LIMIT = 30

let KEY: string
beforeAll(async () => {
  KEY = await rsaOaepPublicKey()
}, 60_000)

/** An owner with one beneficiary, and the three tokens its invitation carries. */
async function invitedBeneficiary(input: BeneficiaryInput = {}, ownerName = 'Nora Namer') {
  const owner = await register({ displayName: ownerName })
  const beneficiary = await addBeneficiary(owner.token, KEY, { fullName: 'Lena Linkholder', relationship: 'Granddaughter', ...input })
  const [message] = await outboxFor(beneficiary.email)
  if (!message) throw new Error('no invitation sent')
  return {
    owner,
    beneficiary,
    verifyToken: linkTokenIn(message, '/verify-beneficiary'),
    optInToken: linkTokenIn(message, '/beneficiary-opt-in'),
    unsubscribeToken: linkTokenIn(message, '/unsubscribe'),
  }
}

async function invitedApprover() {
  const owner = await register({ displayName: 'Otto Owner' })
  const approver = await addApprover(owner.token, { fullName: 'Ada Approver' })
  const [message] = await outboxFor(approver.email)
  if (!message) throw new Error('no invitation sent')
  return { owner, approver, verifyToken: linkTokenIn(message, '/verify-approver') }
}

function verifyBeneficiary(body: unknown, ip?: string) {
  return call('/api/beneficiaries/verify', { body, ip })
}

function verifyApprover(body: unknown, ip?: string) {
  return call('/api/approvers/verify', { body, ip })
}

function preferences(token: string) {
  return call(`/api/beneficiary-notifications?token=${encodeURIComponent(token)}`)
}

function optIn(token: string) {
  return call('/api/beneficiary-notifications/opt-in', { body: { token } })
}

function unsubscribe(token: string) {
  return call('/api/beneficiary-notifications/unsubscribe', { body: { token } })
}

async function beneficiariesOf(token: string): Promise<Beneficiary[]> {
  const res = await call('/api/beneficiaries', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as Beneficiary[]
}

async function approversOf(token: string): Promise<Approver[]> {
  const res = await call('/api/approvers', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as Approver[]
}

async function nonceOf(ownerId: string, table: 'beneficiaries' | 'approvers', id: string): Promise<string> {
  const row = await ownerRow<{ verification_nonce: string | null }>(ownerId, `SELECT verification_nonce FROM ${table} WHERE id = ?`, id)
  if (!row?.verification_nonce) throw new Error(`no nonce on ${table} ${id}`)
  return row.verification_nonce
}

async function expectError(res: Response, status: number, message: string) {
  expect(res.status).toBe(status)
  expect(await messageOf(res)).toBe(message)
}

/** The token with its payload rewritten (claims merged in) and the original signature kept. */
function withPayload(token: string, claims: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.') as [string, string, string]
  const decoded = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>
  const rewritten = toBase64Url(new TextEncoder().encode(JSON.stringify({ ...decoded, ...claims })))
  return `${header}.${rewritten}.${signature}`
}

/** The token with one character in the middle of its signature changed. */
function withBadSignature(token: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string]
  const i = Math.floor(signature.length / 2)
  const swapped = signature[i] === 'A' ? 'B' : 'A'
  return `${header}.${payload}.${signature.slice(0, i)}${swapped}${signature.slice(i + 1)}`
}

/** The same claims, unsigned (alg "none"). */
function unsigned(token: string): string {
  const [, payload] = token.split('.') as [string, string]
  const header = toBase64Url(new TextEncoder().encode(JSON.stringify({ alg: 'none', typ: 'JWT' })))
  return `${header}.${payload}.`
}

const OTHER_SECRET = { JWT_SECRET: 'another-secret-entirely-that-is-long-enough-for-hs256-987654' }

describe('POST /api/beneficiaries/verify', () => {
  it('verifies with the e-mailed token and id, without any session', async () => {
    const { owner, beneficiary, verifyToken } = await invitedBeneficiary()
    const res = await verifyBeneficiary({ token: verifyToken, id: beneficiary.id })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      message: 'Verification complete.',
      beneficiary: { fullName: 'Lena Linkholder', ownerName: 'Nora Namer' },
    })
    const [listed] = await beneficiariesOf(owner.token)
    expect(listed).toMatchObject({ id: beneficiary.id, verified: true, identityVerified: false, identityStatus: 'unverified' })
    const row = await ownerRow<{ email_verified_at: number | null; verification_nonce: string | null }>(
      owner.user.id,
      'SELECT email_verified_at, verification_nonce FROM beneficiaries WHERE id = ?',
      beneficiary.id,
    )
    expect(row?.email_verified_at).toBeTypeOf('number')
    expect(Math.abs(row!.email_verified_at! - Date.now())).toBeLessThan(60_000)
    expect(row?.verification_nonce).toBeNull()
  })

  it('verifies with the token alone (the spec client sends only {token})', async () => {
    const { owner, verifyToken } = await invitedBeneficiary()
    const res = await verifyBeneficiary({ token: verifyToken })
    expect(res.status).toBe(200)
    expect((await beneficiariesOf(owner.token))[0]!.verified).toBe(true)
  })

  it('is single-use: the same token again answers 409', async () => {
    const { beneficiary, verifyToken } = await invitedBeneficiary()
    expect((await verifyBeneficiary({ token: verifyToken, id: beneficiary.id })).status).toBe(200)
    await expectError(await verifyBeneficiary({ token: verifyToken, id: beneficiary.id }), 409, CIRCLE_MESSAGES.alreadyVerified)
    await expectError(await verifyBeneficiary({ token: verifyToken }), 409, CIRCLE_MESSAGES.alreadyVerified)
  })

  it("answers 400 when the id is not the token's subject, and verifies no one", async () => {
    const { owner, beneficiary, verifyToken } = await invitedBeneficiary()
    const sibling = await addBeneficiary(owner.token, KEY)
    await expectError(await verifyBeneficiary({ token: verifyToken, id: sibling.id }), 400, CIRCLE_MESSAGES.linkWrongPerson)
    await expectError(await verifyBeneficiary({ token: verifyToken, id: crypto.randomUUID() }), 400, CIRCLE_MESSAGES.linkWrongPerson)
    expect((await beneficiariesOf(owner.token)).map((b) => b.verified)).toEqual([false, false])
    // The link was not used up by the mistake.
    expect((await verifyBeneficiary({ token: verifyToken, id: beneficiary.id })).status).toBe(200)
    expect((await beneficiariesOf(owner.token)).map((b) => [b.id, b.verified])).toEqual([
      [beneficiary.id, true],
      [sibling.id, false],
    ])
  })

  it('answers 400 "expired" to a token older than 7 days, yet accepts one a little younger', async () => {
    const { owner, beneficiary } = await invitedBeneficiary()
    const nonce = await nonceOf(owner.user.id, 'beneficiaries', beneficiary.id)
    const old = signLinkToken(env, 'beneficiaryVerify', beneficiary.id, { owner: owner.user.id, nonce }, Date.now() - 8 * DAY_MS)
    await expectError(await verifyBeneficiary({ token: old, id: beneficiary.id }), 400, CIRCLE_MESSAGES.linkExpired)
    const justExpired = signLinkToken(env, 'beneficiaryVerify', beneficiary.id, { owner: owner.user.id, nonce }, Date.now() - 7 * DAY_MS - 60_000)
    await expectError(await verifyBeneficiary({ token: justExpired, id: beneficiary.id }), 400, CIRCLE_MESSAGES.linkExpired)
    expect((await beneficiariesOf(owner.token))[0]!.verified).toBe(false)

    const recent = signLinkToken(env, 'beneficiaryVerify', beneficiary.id, { owner: owner.user.id, nonce }, Date.now() - 6 * DAY_MS)
    expect((await verifyBeneficiary({ token: recent, id: beneficiary.id })).status).toBe(200)
    expect((await beneficiariesOf(owner.token))[0]!.verified).toBe(true)
  })

  it('answers 400 "invalid" to tampered, foreign, unsigned and wrong-purpose tokens, and verifies no one', async () => {
    const { owner, beneficiary, verifyToken, optInToken } = await invitedBeneficiary()
    const sibling = await addBeneficiary(owner.token, KEY)
    const nonce = await nonceOf(owner.user.id, 'beneficiaries', beneficiary.id)
    const siblingNonce = await nonceOf(owner.user.id, 'beneficiaries', sibling.id)
    const { verifyToken: approverToken, owner: approverOwner } = await invitedApprover()
    const approverOwnerId = approverOwner.user.id
    const session = (await (await login(owner.email, owner.password)).json()) as AuthResponse
    // As 0.1 signed its links: no owner named, so no object to reach.
    const ownerless = await new SignJWT({ nonce })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('legacy-vault')
      .setAudience('legacy-vault:link:beneficiary-verify')
      .setSubject(beneficiary.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(env.JWT_SECRET))

    const bad: Array<[string, string]> = [
      ['the subject rewritten to a sibling', withPayload(verifyToken, { sub: sibling.id, nonce: siblingNonce })],
      ['the nonce rewritten', withPayload(verifyToken, { nonce: 'x'.repeat(43) })],
      ['the expiry pushed back', withPayload(verifyToken, { exp: Math.floor(Date.now() / 1000) + 3650 * 86400 })],
      ['a changed signature', withBadSignature(verifyToken)],
      ['no signature (alg none)', unsigned(verifyToken)],
      ['signed with another secret', signLinkToken(OTHER_SECRET, 'beneficiaryVerify', beneficiary.id, { owner: owner.user.id, nonce })],
      ['an approver-verify token for this very row', signLinkToken(env, 'approverVerify', beneficiary.id, { owner: owner.user.id, nonce })],
      ["an approver's real invitation token", approverToken],
      ['the beneficiary-notifications token', optInToken],
      ['a session token', session.token],
      ['garbage of a plausible length', 'x'.repeat(60)],
      ['a token without a nonce', signLinkToken(env, 'beneficiaryVerify', beneficiary.id, { owner: owner.user.id })],
      ['the owner rewritten to another', withPayload(verifyToken, { oid: approverOwnerId })],
      ['a token naming no owner', ownerless],
      ['a genuine token for another owner, naming this person', signLinkToken(env, 'beneficiaryVerify', beneficiary.id, { owner: approverOwnerId, nonce })],
    ]
    for (const [name, token] of bad) {
      const res = await verifyBeneficiary({ token })
      expect(res.status, name).toBe(400)
      expect(await messageOf(res), name).toBe(CIRCLE_MESSAGES.linkInvalid)
    }
    expect((await beneficiariesOf(owner.token)).map((b) => b.verified)).toEqual([false, false])
    // The genuine link still works after all that.
    expect((await verifyBeneficiary({ token: verifyToken, id: beneficiary.id })).status).toBe(200)
  })

  it('answers 400 with the spec message when the token is missing', async () => {
    for (const body of [{}, { token: '' }, { token: 'short' }, { token: null }, { token: 12345 }, { id: crypto.randomUUID() }]) {
      await expectError(await verifyBeneficiary(body), 400, 'token: Invalid verification link. No token provided.')
    }
    expect(`token: ${CIRCLE_MESSAGES.noToken}`).toBe('token: Invalid verification link. No token provided.')
  })
})

describe('POST /api/approvers/verify', () => {
  it('verifies with the e-mailed token, without any session; again is 409', async () => {
    const { owner, approver, verifyToken } = await invitedApprover()
    const res = await verifyApprover({ token: verifyToken })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Verification complete.', approver: { fullName: 'Ada Approver' } })
    expect((await approversOf(owner.token)).map((a) => [a.id, a.verified])).toEqual([[approver.id, true]])

    await expectError(await verifyApprover({ token: verifyToken }), 409, CIRCLE_MESSAGES.alreadyVerified)
  })

  it('answers 400 "expired" to a token older than 7 days', async () => {
    const { owner, approver } = await invitedApprover()
    const nonce = await nonceOf(owner.user.id, 'approvers', approver.id)
    const old = signLinkToken(env, 'approverVerify', approver.id, { owner: owner.user.id, nonce }, Date.now() - 8 * DAY_MS)
    await expectError(await verifyApprover({ token: old }), 400, CIRCLE_MESSAGES.linkExpired)
    expect((await approversOf(owner.token))[0]!.verified).toBe(false)
    const recent = signLinkToken(env, 'approverVerify', approver.id, { owner: owner.user.id, nonce }, Date.now() - 6 * DAY_MS)
    expect((await verifyApprover({ token: recent })).status).toBe(200)
  })

  it('answers 400 "invalid" to tampered, foreign and wrong-purpose tokens', async () => {
    const { owner, approver, verifyToken } = await invitedApprover()
    const nonce = await nonceOf(owner.user.id, 'approvers', approver.id)
    const other = await addApprover(owner.token)
    const otherNonce = await nonceOf(owner.user.id, 'approvers', other.id)
    const { verifyToken: beneficiaryToken, optInToken } = await invitedBeneficiary()
    const session = (await (await login(owner.email, owner.password)).json()) as AuthResponse

    const bad: Array<[string, string]> = [
      ['the subject rewritten', withPayload(verifyToken, { sub: other.id, nonce: otherNonce })],
      ['a changed signature', withBadSignature(verifyToken)],
      ['no signature (alg none)', unsigned(verifyToken)],
      ['signed with another secret', signLinkToken(OTHER_SECRET, 'approverVerify', approver.id, { owner: owner.user.id, nonce })],
      ['a beneficiary-verify token for this very row', signLinkToken(env, 'beneficiaryVerify', approver.id, { owner: owner.user.id, nonce })],
      ["a beneficiary's real invitation token", beneficiaryToken],
      ['a beneficiary-notifications token', optInToken],
      ['a session token', session.token],
    ]
    for (const [name, token] of bad) {
      const res = await verifyApprover({ token })
      expect(res.status, name).toBe(400)
      expect(await messageOf(res), name).toBe(CIRCLE_MESSAGES.linkInvalid)
    }
    expect((await approversOf(owner.token)).map((a) => a.verified)).toEqual([false, false])
    expect((await verifyApprover({ token: verifyToken })).status).toBe(200)
  })

  it('answers 400 with the spec message when the token is missing', async () => {
    for (const body of [{}, { token: '' }, { token: 'short' }]) {
      await expectError(await verifyApprover(body), 400, `token: ${CIRCLE_MESSAGES.noToken}`)
    }
  })
})

describe('beneficiary notification choices', () => {
  it('shows the preferences to the link holder, without any session', async () => {
    const { optInToken, unsubscribeToken } = await invitedBeneficiary()
    // Both links carry the same kind of token; either shows the page.
    for (const token of [optInToken, unsubscribeToken]) {
      const res = await preferences(token)
      expect(res.status).toBe(200)
      const body = (await res.json()) as NotificationPreferences
      expect(body).toEqual({
        fullName: 'Lena Linkholder',
        relationship: 'Granddaughter',
        ownerName: 'Nora Namer',
        status: 'pending',
        secrecyMode: false,
      })
    }
  })

  it('hides the relationship in secrecy mode', async () => {
    const { optInToken } = await invitedBeneficiary({ delayNotifications: true })
    const res = await preferences(optInToken)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      fullName: 'Lena Linkholder',
      relationship: null,
      ownerName: 'Nora Namer',
      status: 'pending',
      secrecyMode: true,
    })
  })

  it('opts in: the status becomes opted_in, and the owner sees it', async () => {
    const { owner, optInToken } = await invitedBeneficiary()
    const res = await optIn(optInToken)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'opted_in' })
    expect(((await (await preferences(optInToken)).json()) as NotificationPreferences).status).toBe('opted_in')
    expect((await beneficiariesOf(owner.token))[0]!.notificationStatus).toBe('opted_in')
  })

  it('unsubscribes, says so the second time, and the owner can then send nothing', async () => {
    const { owner, beneficiary, unsubscribeToken } = await invitedBeneficiary()
    const first = await unsubscribe(unsubscribeToken)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ status: 'unsubscribed', alreadyUnsubscribed: false })
    const second = await unsubscribe(unsubscribeToken)
    expect(second.status).toBe(200)
    expect(await second.json()).toEqual({ status: 'unsubscribed', alreadyUnsubscribed: true })
    expect(((await (await preferences(unsubscribeToken)).json()) as NotificationPreferences).status).toBe('unsubscribed')
    expect((await beneficiariesOf(owner.token))[0]!.notificationStatus).toBe('unsubscribed')

    const mails = await outboxFor(beneficiary.email)
    expect(mails).toHaveLength(1)
    const nonce = await nonceOf(owner.user.id, 'beneficiaries', beneficiary.id)
    const resend = await call(`/api/beneficiaries/${beneficiary.id}/resend-verification`, { token: owner.token, method: 'POST' })
    await expectError(resend, 409, CIRCLE_MESSAGES.unsubscribed)
    expect(await outboxFor(beneficiary.email)).toEqual(mails)
    // Nothing was rotated either: the refusal changed nothing.
    expect(await nonceOf(owner.user.id, 'beneficiaries', beneficiary.id)).toBe(nonce)
  })

  it('the mailer itself sends nothing to an unsubscribed beneficiary', async () => {
    const { owner, beneficiary, unsubscribeToken } = await invitedBeneficiary()
    expect((await unsubscribe(unsubscribeToken)).status).toBe(200)
    const account = accountOf((await findUserByEmail(getDb(env), owner.email))!)
    const { sent, queued } = await runInDurableObject(vaultOf(owner.user.id), async (_i: OwnerVault, state) => {
      const db = openOwnerDb(state.storage)
      const row = findBeneficiary(db, beneficiary.id)!
      expect(row.notificationStatus).toBe('unsubscribed')
      const { unit, effects } = createUnit(state.storage, env, db, owner.user.id, account, Date.now())
      const sent = state.storage.transactionSync(() => sendBeneficiaryInvitation(unit, row))
      return { sent, queued: effects.mails }
    })
    expect(sent).toBe(false)
    expect(queued).toBe(0)
    expect(await outboxFor(beneficiary.email)).toHaveLength(1)
  })

  it('lets an unsubscribed person opt back in (Resubscribe)', async () => {
    const { owner, unsubscribeToken, optInToken } = await invitedBeneficiary()
    expect((await unsubscribe(unsubscribeToken)).status).toBe(200)
    expect(await (await optIn(optInToken)).json()).toEqual({ status: 'opted_in' })
    expect((await beneficiariesOf(owner.token))[0]!.notificationStatus).toBe('opted_in')
  })

  it("changes only that beneficiary's status", async () => {
    const { owner, beneficiary, unsubscribeToken } = await invitedBeneficiary()
    const sibling = await addBeneficiary(owner.token, KEY)
    expect((await unsubscribe(unsubscribeToken)).status).toBe(200)
    expect((await beneficiariesOf(owner.token)).map((b) => [b.id, b.notificationStatus])).toEqual([
      [beneficiary.id, 'unsubscribed'],
      [sibling.id, 'pending'],
    ])
  })

  it('refuses verify, approver, tampered, foreign and expired tokens on every notifications endpoint', async () => {
    const { owner, beneficiary, verifyToken, optInToken } = await invitedBeneficiary()
    const { verifyToken: approverToken } = await invitedApprover()
    const bad: Array<[string, string, string]> = [
      ['the verify token', verifyToken, CIRCLE_MESSAGES.linkInvalid],
      ["an approver's token", approverToken, CIRCLE_MESSAGES.linkInvalid],
      ['a changed signature', withBadSignature(optInToken), CIRCLE_MESSAGES.linkInvalid],
      ['signed with another secret', signLinkToken(OTHER_SECRET, 'beneficiaryNotifications', beneficiary.id, { owner: owner.user.id }), CIRCLE_MESSAGES.linkInvalid],
      [
        'older than a year',
        signLinkToken(env, 'beneficiaryNotifications', beneficiary.id, { owner: owner.user.id }, Date.now() - 366 * DAY_MS),
        CIRCLE_MESSAGES.linkExpired,
      ],
    ]
    for (const [name, token, message] of bad) {
      for (const res of [await preferences(token), await optIn(token), await unsubscribe(token)]) {
        expect(res.status, name).toBe(400)
        expect(await messageOf(res), name).toBe(message)
      }
    }
    expect((await beneficiariesOf(owner.token))[0]!.notificationStatus).toBe('pending')
  })

  it('refuses a missing token, and the token of a removed beneficiary', async () => {
    await expectError(await call('/api/beneficiary-notifications'), 400, `token: ${CIRCLE_MESSAGES.noToken}`)
    await expectError(await call('/api/beneficiary-notifications/opt-in', { body: {} }), 400, `token: ${CIRCLE_MESSAGES.noToken}`)
    await expectError(await call('/api/beneficiary-notifications/unsubscribe', { body: {} }), 400, `token: ${CIRCLE_MESSAGES.noToken}`)

    const { owner, beneficiary, optInToken } = await invitedBeneficiary()
    expect((await call(`/api/beneficiaries/${beneficiary.id}`, { token: owner.token, method: 'DELETE' })).status).toBe(200)
    await expectError(await preferences(optInToken), 400, CIRCLE_MESSAGES.linkInvalid)
    await expectError(await unsubscribe(optInToken), 400, CIRCLE_MESSAGES.linkInvalid)
  })
})

describe('GET /api/email-preview/beneficiary-invitation', () => {
  it('renders the real template with the sample names, without a session', async () => {
    const res = await call('/api/email-preview/beneficiary-invitation')
    expect(res.status).toBe(200)
    const body = (await res.json()) as { subject: string; html: string; text: string }
    expect(Object.keys(body).sort()).toEqual(['html', 'subject', 'text'])
    expect(body.subject).toBe("You've Been Named as a Beneficiary")
    for (const part of [body.text, body.html]) {
      for (const sample of ['Jordan Example', 'Alex Example', 'jordan@example.com', 'Daughter']) expect(part).toContain(sample)
      expect(part).toContain('Accept &')
      expect(part).toContain('http://localhost:8787/verify-beneficiary?token=sample')
    }
    expect(body.text).not.toContain('Secrecy Mode')
    expect(body.html).toMatch(/^<!doctype html>/)
  })

  it('hides the relationship with ?secrecy=1', async () => {
    const res = await call('/api/email-preview/beneficiary-invitation?secrecy=1')
    expect(res.status).toBe(200)
    const body = (await res.json()) as { subject: string; html: string; text: string }
    expect(body.subject).toBe("You've Been Named as a Beneficiary")
    expect(body.text).not.toContain('Daughter')
    expect(body.html).not.toContain('Daughter')
    expect(body.text).toContain('Secrecy Mode')
    expect(body.text).toContain('Jordan Example')

    const shown = (await (await call('/api/email-preview/beneficiary-invitation?secrecy=0')).json()) as { text: string }
    expect(shown.text).toContain('Daughter')
  })
})

describe('link rate limit', () => {
  it('answers 429 to a burst of verification attempts from one address, not to another address', async () => {
    const ip = freshIp()
    const statuses: number[] = []
    let limited: Response | undefined
    let sibling: Response | undefined
    // Fixed windows: a burst may straddle a boundary, so 2 × limit + 5 attempts.
    for (let i = 0; i < 2 * LINK_LIMIT + 5 && !limited; i++) {
      const res = await verifyApprover({ token: 'x'.repeat(40) }, ip)
      statuses.push(res.status)
      if (res.status === 429) {
        limited = res
        // Right away, the other link endpoints from that address are limited too (one budget).
        sibling = await verifyBeneficiary({ token: 'x'.repeat(40) }, ip)
      } else await res.body?.cancel()
    }
    expect(limited, statuses.join(',')).toBeDefined()
    expect(await limited!.json()).toEqual({ message: AUTH_ERRORS.rateLimited })
    const before = statuses.slice(0, statuses.indexOf(429))
    expect(before.length).toBeGreaterThanOrEqual(5)
    expect(before.every((s) => s === 400)).toBe(true)
    expect(sibling?.status).toBe(429)

    const other = await verifyApprover({ token: 'x'.repeat(40) }, freshIp())
    await expectError(other, 400, CIRCLE_MESSAGES.linkInvalid)
  })

  // The link limiter must stay on the link routes: linkRoutes is mounted at /api, ahead of the
  // owner's routes, and must not throttle them.
  it("does not throttle the owner's own API", async () => {
    const owner = await register()
    const ip = freshIp()
    const statuses: number[] = []
    for (let i = 0; i < 2 * LINK_LIMIT + 5; i++) {
      const res = await call('/api/beneficiaries', { token: owner.token, ip })
      statuses.push(res.status)
      await res.body?.cancel()
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([])
  })
})
