import { describe, expect, it } from 'vitest'
import { approverSchema, CIRCLE_MESSAGES, type Approver } from '../../contract/circle'
import { FRESH_PROOF_MESSAGES, FRESH_PROOF_MS } from '../../contract/fresh-proof'
import { AUTH_ERRORS } from '../../contract/messages'
import { TRUST_CHANGES } from '../../worker/mail/trust-templates'
import { addApprover, call, linksIn, linkTokenIn, messageOf, nextMessageTo, outboxFor, postApprover, register, uniqueEmail, waitFor, ownerSessions } from './helpers'
import { ownerRow } from './owner-helpers'

const APPROVER_ADDED = TRUST_CHANGES.approver_added.subject

type Created = Approver & { verificationEmailSent: boolean }

async function list(token: string): Promise<Approver[]> {
  const res = await call('/api/approvers', { token })
  expect(res.status).toBe(200)
  return (await res.json()) as Approver[]
}

async function countFor(ownerId: string): Promise<number> {
  return (await ownerRow<{ n: number }>(ownerId, 'SELECT COUNT(*) AS n FROM approvers'))!.n
}

/** The approver's row in the owner's own database. */
async function rowOf(ownerId: string, id: string) {
  return ownerRow<Record<string, unknown>>(ownerId, 'SELECT * FROM approvers WHERE id = ?', id)
}

function remove(token: string, id: string) {
  return call(`/api/approvers/${id}`, { token, method: 'DELETE' })
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

describe('GET /api/approvers', () => {
  it('answers 401 without a session', async () => {
    const res = await call('/api/approvers')
    expect(res.status).toBe(401)
    expect(await messageOf(res)).toBe(AUTH_ERRORS.notSignedIn)
  })

  it('is empty for a new owner', async () => {
    const owner = await register()
    expect(await list(owner.token)).toEqual([])
  })

  it("lists only the caller's approvers, in creation order", async () => {
    const owner = await register()
    const other = await register()
    const created: Created[] = []
    for (const name of ['First Approver', 'Second Approver', 'Third Approver', 'Fourth Approver']) {
      created.push(await addApprover(owner.token, { fullName: name }))
      await pause()
    }
    const foreign = await addApprover(other.token)
    const items = await list(owner.token)
    expect(items.map((a) => a.id)).toEqual(created.map((a) => a.id))
    for (const [i, item] of items.entries()) {
      expect(approverSchema.strict().parse(item)).toEqual(item)
      const { verificationEmailSent: _sent, ...shape } = created[i]!
      expect(item).toEqual(shape)
    }
    expect((await list(other.token)).map((a) => a.id)).toEqual([foreign.id])
  })
})

describe('POST /api/approvers', () => {
  it('answers 201 with the Approver shape and verificationEmailSent', async () => {
    const owner = await register()
    const email = uniqueEmail('Approver')
    const before = Date.now()
    const res = await postApprover(owner.token, { fullName: '  Arthur Approver ', email: ` ${email.toUpperCase()} `, role: ' Family lawyer ' })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Created
    expect(Object.keys(body).sort()).toEqual([...Object.keys(approverSchema.shape), 'verificationEmailSent'].sort())
    const { verificationEmailSent, ...approver } = body
    expect(verificationEmailSent).toBe(true)
    expect(approverSchema.strict().parse(approver)).toEqual(approver)
    expect(approver).toMatchObject({ fullName: 'Arthur Approver', email: email.toLowerCase(), role: 'Family lawyer', verified: false })
    expect(approver.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(Date.parse(approver.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(new Date(approver.createdAt).toISOString()).toBe(approver.createdAt)
    expect(await list(owner.token)).toEqual([approver])
    // Kept in the owner's own object.
    expect(await rowOf(owner.user.id, approver.id)).toMatchObject({ id: approver.id })
  })

  it('has no plan limit', async () => {
    const owner = await register()
    for (let i = 0; i < 5; i++) await addApprover(owner.token)
    expect(await countFor(owner.user.id)).toBe(5)
  })

  describe('validation', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a missing full name', { fullName: undefined }, `fullName: ${CIRCLE_MESSAGES.fullNameMin}`],
      ['a one-letter full name', { fullName: 'A' }, 'fullName: Full name must be at least 2 characters'],
      ['a missing e-mail', { email: undefined }, 'email: Please enter a valid email address'],
      ['an invalid e-mail', { email: 'approver at example.com' }, 'email: Please enter a valid email address'],
      ['a missing role', { role: undefined }, 'role: Role must be specified'],
      ['a one-letter role', { role: 'R' }, 'role: Role must be specified'],
      ['a blank role', { role: '    ' }, `role: ${CIRCLE_MESSAGES.roleMin}`],
    ]
    for (const [name, overrides, message] of cases) {
      it(`refuses ${name}`, async () => {
        const owner = await register()
        const res = await postApprover(owner.token, overrides)
        expect(res.status).toBe(400)
        expect(await messageOf(res)).toBe(message)
        expect(await countFor(owner.user.id)).toBe(0)
      })
    }

    it('refuses a non-boolean sendVerificationEmail', async () => {
      const owner = await register()
      const res = await postApprover(owner.token, { sendVerificationEmail: 'yes' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toMatch(/^sendVerificationEmail: /)
      expect(await countFor(owner.user.id)).toBe(0)
    })

    it('answers 401 without a session', async () => {
      const res = await call('/api/approvers', { body: { fullName: 'No Session', email: uniqueEmail(), role: 'Friend' } })
      expect(res.status).toBe(401)
    })
  })

  it('refuses the same address twice for one owner (409, whatever its case), but another owner may add it', async () => {
    const owner = await register()
    const email = uniqueEmail('twice')
    const first = await addApprover(owner.token, { email })
    const again = await postApprover(owner.token, { email: email.toUpperCase(), fullName: 'Someone Else' })
    expect(again.status).toBe(409)
    expect(await messageOf(again)).toBe(CIRCLE_MESSAGES.duplicateApprover)
    expect(await countFor(owner.user.id)).toBe(1)
    expect(await rowOf(owner.user.id, first.id)).toMatchObject({ full_name: first.fullName })
    expect(await outboxFor(email)).toHaveLength(1)

    const other = await register()
    const theirs = await addApprover(other.token, { email })
    expect(theirs.email).toBe(email)
  })

  it('sends the invitation with a /verify-approver link', async () => {
    const owner = await register({ displayName: 'Petra Principal' })
    const email = uniqueEmail('approver')
    const created = await addApprover(owner.token, { email, fullName: 'Vera Verifier', role: 'Executor' })
    expect(created.verificationEmailSent).toBe(true)
    const messages = await outboxFor(email)
    expect(messages).toHaveLength(1)
    const message = messages[0]!
    expect(message.to).toBe(email)
    expect(message.subject).toBe('Petra Principal named you as an approver')
    for (const part of [message.text, message.html]) {
      expect(part).toContain('Petra Principal')
      expect(part).toContain('Vera Verifier')
      expect(part).toContain('Executor')
    }
    const urls = linksIn(message, '/verify-approver')
    expect(urls).toHaveLength(1)
    expect(urls[0]!.origin).toBe('http://localhost:8787')
    expect(linkTokenIn(message, '/verify-approver')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const raw = message.text.match(/https?:\/\/\S*verify-approver\S*/)?.[0]
    expect(raw).toBeDefined()
    expect(message.html).toContain(`href="${escapeHtml(raw!)}"`)
    // The owner hears only that an approver was added (a trust change), never the invitation.
    expect((await waitFor(async () => (await outboxFor(owner.email)).length > 0 && outboxFor(owner.email))).map((m) => m.subject)).toEqual([APPROVER_ADDED])

    // The link verifies this approver (and it is theirs only).
    const res = await call('/api/approvers/verify', { body: { token: linkTokenIn(message, '/verify-approver') } })
    expect(res.status).toBe(200)
    expect((await list(owner.token)).find((a) => a.id === created.id)?.verified).toBe(true)
  })

  it('is a trust change: a stale session adds no one and invites no one; with fresh proof the owner is told', async () => {
    const owner = await register()
    const email = uniqueEmail('approver')
    await ownerSessions(owner.user.id, 'update sessions set proved_at = ?', Date.now() - FRESH_PROOF_MS - 1000).run()
    const refused = await postApprover(owner.token, { email, fullName: 'Mallory Mole' })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ message: FRESH_PROOF_MESSAGES.required, requiresFreshProof: true, methods: ['password'] })
    expect(await countFor(owner.user.id)).toBe(0)
    expect(await outboxFor(email)).toEqual([])
    expect(await outboxFor(owner.email)).toEqual([])

    expect((await call('/api/auth/fresh-proof', { token: owner.token, body: { method: 'password', password: owner.password } })).status).toBe(200)
    expect((await postApprover(owner.token, { email, fullName: 'Mallory Mole' })).status).toBe(201)
    const told = await waitFor(async () => (await outboxFor(owner.email)).find((m) => m.subject === APPROVER_ADDED))
    expect(told.text).toContain(`The approver is Mallory Mole (${email}).`)
    expect(linkTokenIn(told, '/not-me')).toBeTruthy()
  })

  it('sends nothing when sendVerificationEmail is false', async () => {
    const owner = await register()
    const email = uniqueEmail('quiet')
    const created = await addApprover(owner.token, { email, sendVerificationEmail: false })
    expect(created.verificationEmailSent).toBe(false)
    expect(await outboxFor(email)).toEqual([])
    expect((await list(owner.token)).map((a) => a.id)).toEqual([created.id])
  })
})

describe('DELETE /api/approvers/:id', () => {
  it('removes it; a second delete is 404; its link no longer works', async () => {
    const owner = await register()
    const kept = await addApprover(owner.token)
    const created = await addApprover(owner.token)
    const [message] = await outboxFor(created.email)
    const token = linkTokenIn(message!, '/verify-approver')

    const res = await remove(owner.token, created.id)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ message: 'Approver removed.' })
    expect((await list(owner.token)).map((a) => a.id)).toEqual([kept.id])
    expect(await rowOf(owner.user.id, created.id)).toBeNull()

    const again = await remove(owner.token, created.id)
    expect(again.status).toBe(404)
    expect(await messageOf(again)).toBe(CIRCLE_MESSAGES.approverNotFound)

    const link = await call('/api/approvers/verify', { body: { token } })
    expect(link.status).toBe(400)
    expect(await messageOf(link)).toBe(CIRCLE_MESSAGES.linkInvalid)
  })

  it("answers 404 for another owner's approver, and keeps it", async () => {
    const owner = await register()
    const intruder = await register()
    const created = await addApprover(owner.token)
    const before = await rowOf(owner.user.id, created.id)
    expect((await list(intruder.token)).map((a) => a.id)).not.toContain(created.id)
    const res = await remove(intruder.token, created.id)
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.approverNotFound)
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
    expect((await list(owner.token)).map((a) => a.id)).toEqual([created.id])
  })

  it('an unknown id is 404, a malformed one a 4xx with a message (never 500)', async () => {
    const owner = await register()
    const unknown = await remove(owner.token, crypto.randomUUID())
    expect(unknown.status).toBe(404)
    expect(await messageOf(unknown)).toBe(CIRCLE_MESSAGES.approverNotFound)
    for (const id of ['not-a-uuid', '1', 'a'.repeat(200)]) {
      const res = await remove(owner.token, id)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      expect((await messageOf(res)).length).toBeGreaterThan(0)
    }
  })

  it('answers 401 without a session', async () => {
    const owner = await register()
    const created = await addApprover(owner.token)
    const res = await call(`/api/approvers/${created.id}`, { method: 'DELETE' })
    expect(res.status).toBe(401)
    expect(await rowOf(owner.user.id, created.id)).not.toBeNull()
  })
})

describe('POST /api/approvers/:id/resend-verification', () => {
  const resend = (token: string, id: string) => call(`/api/approvers/${id}/resend-verification`, { token, method: 'POST' })

  it('sends a fresh single-use link; the older one no longer works', async () => {
    const owner = await register()
    const created = await addApprover(owner.token)
    const first = await nextMessageTo(created.email)
    const oldToken = linkTokenIn(first, '/verify-approver')

    const res = await resend(owner.token, created.id)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: created.id, verified: false, verificationEmailSent: true })
    const second = await nextMessageTo(created.email, [first])
    const newToken = linkTokenIn(second, '/verify-approver')
    expect(newToken).not.toBe(oldToken)

    const stale = await call('/api/approvers/verify', { body: { token: oldToken } })
    expect(stale.status).toBe(400)
    expect(await messageOf(stale)).toBe(CIRCLE_MESSAGES.linkInvalid)
    expect((await call('/api/approvers/verify', { body: { token: newToken } })).status).toBe(200)
    expect((await list(owner.token)).find((a) => a.id === created.id)?.verified).toBe(true)
    // Used once: the same link again changes nothing.
    expect((await call('/api/approvers/verify', { body: { token: newToken } })).status).toBe(409)
  })

  it('refuses a verified approver with 409, and sends nothing', async () => {
    const owner = await register()
    const created = await addApprover(owner.token)
    const invite = await nextMessageTo(created.email)
    expect((await call('/api/approvers/verify', { body: { token: linkTokenIn(invite, '/verify-approver') } })).status).toBe(200)
    const res = await resend(owner.token, created.id)
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.alreadyVerified)
    expect(await outboxFor(created.email)).toHaveLength(1)
  })

  it("is 404 for another owner's approver or an unknown one, 401 without a session", async () => {
    const owner = await register()
    const intruder = await register()
    const created = await addApprover(owner.token)
    const before = await rowOf(owner.user.id, created.id)
    for (const res of [await resend(intruder.token, created.id), await resend(owner.token, crypto.randomUUID())]) {
      expect(res.status).toBe(404)
      expect(await messageOf(res)).toBe(CIRCLE_MESSAGES.approverNotFound)
    }
    expect(await rowOf(owner.user.id, created.id)).toEqual(before)
    expect((await call(`/api/approvers/${created.id}/resend-verification`, { method: 'POST' })).status).toBe(401)
    expect(await outboxFor(created.email)).toHaveLength(1)
  })
})
